"""The keys of a tally (RECORD.md's tally table), each written once.

A :class:`TallyKey` says what one key of a tally is: its ``kind`` (how it is written and
checked), the ``label`` a person is asked, what it adds up to in a deck, and how a
played trick deal fills it. The contracts (:meth:`barbu.contracts.Contract.tally_from_tricks`),
the tally checks (:func:`barbu.tally.check_tally`), the score sheet in the terminal and
the web pages (through :func:`tally_table`) all read :data:`TALLY_KEYS`.

>>> TALLY_KEYS["queens"].kind, TALLY_KEYS["queens"].label_for(13)
('count', 'queens taken')
>>> TALLY_KEYS["last"].label_for(8)
'who won the last trick (8)'
>>> TALLY_KEYS["hearts"].total(deck=(1 << 52) - 1, tricks=13)
13
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from barbu.cards import ACE, HEARTS, JACK, KING, QUEEN, TWIN_SUIT_MASKS, make_card, rank_mask, twin_mask

if TYPE_CHECKING:
    from barbu.contracts import TrickResult

KING_OF_HEARTS = make_card(HEARTS, KING)
ACE_OF_HEARTS = make_card(HEARTS, ACE)
QUEENS = twin_mask(rank_mask(QUEEN))
JACKS_AND_KINGS = twin_mask(rank_mask(JACK) | rank_mask(KING))
HEART_CARDS = TWIN_SUIT_MASKS[HEARTS]
KINGS_OF_HEARTS = twin_mask(1 << KING_OF_HEARTS)
"""Card masks hold both decks' copies (:data:`barbu.cards.TWIN`); a one-deck deck holds only the first."""
SEVENTH_TRICK = 7
"""The trick of King's "seventh and last trick" (tally key ``seventh``)."""

KINDS = ("count", "seat", "order", "suits", "arrangements")
"""How a key is written: ``count`` one whole number per seat that adds up to :meth:`TallyKey.total`;
``seat`` one seat; ``order`` every seat once, first out first; ``suits`` per seat the cards
taken of each suit (S, H, D, C); ``arrangements`` per seat its cards, back 5, middle 5, front 3."""


@dataclass(frozen=True)
class TallyKey:
    """One key of a tally; see the module docstring.

    ``cards`` is the mask a ``count`` key counts (None: it counts tricks), ``counted``
    says in words what its total is; ``label`` may hold ``{second_last}`` and ``{last}``,
    the numbers of the last two tricks; ``fill`` is how a played trick deal fills the key
    (None for keys no trick deal has).
    """

    name: str
    kind: str
    label: str
    cards: int | None = None
    counted: str = ""
    fill: Callable[[TrickResult], Any] | None = None

    def label_for(self, tricks: int) -> str:
        """The label for a deal of ``tricks`` tricks."""
        return self.label.format(second_last=tricks - 1, last=tricks)

    def total(self, deck: int, tricks: int) -> int | list[int] | None:
        """What the key adds up to over the seats: ``count`` keys a number, ``suits`` one
        number per suit, other kinds None."""
        if self.kind == "count":
            return tricks if self.cards is None else (deck & self.cards).bit_count()
        if self.kind == "suits":
            return [(deck & TWIN_SUIT_MASKS[s]).bit_count() for s in range(4)]
        return None


def _suits(result: TrickResult) -> list[list[int]]:
    return [[(c & TWIN_SUIT_MASKS[s]).bit_count() for s in range(4)] for c in result.captured]


TALLY_KEYS: dict[str, TallyKey] = {
    k.name: k
    for k in (
        TallyKey("tricks", "count", "tricks won", None, "the number of tricks", lambda r: r.tricks()),
        TallyKey(
            "hearts",
            "count",
            "hearts taken (the ace included)",
            HEART_CARDS,
            "the hearts in the deck",
            lambda r: r.count(HEART_CARDS),
        ),
        TallyKey("ace_of_hearts", "seat", "who took the ace of hearts", fill=lambda r: r.holder(ACE_OF_HEARTS)),
        TallyKey("queens", "count", "queens taken", QUEENS, "the queens in the deck", lambda r: r.count(QUEENS)),
        TallyKey(
            "jacks_and_kings",
            "count",
            "jacks and kings taken",
            JACKS_AND_KINGS,
            "the jacks and kings in the deck",
            lambda r: r.count(JACKS_AND_KINGS),
        ),
        TallyKey("king_of_hearts", "seat", "who took the king of hearts", fill=lambda r: r.holder(KING_OF_HEARTS)),
        TallyKey(
            "kings_of_hearts",
            "count",
            "kings of hearts taken",
            KINGS_OF_HEARTS,
            "the kings of hearts in the decks",
            lambda r: r.count(KINGS_OF_HEARTS),
        ),
        TallyKey("first", "seat", "who won trick 1", fill=lambda r: r.winners[0]),
        TallyKey("seventh", "seat", f"who won trick {SEVENTH_TRICK}", fill=lambda r: r.winners[SEVENTH_TRICK - 1]),
        TallyKey("second_last", "seat", "who won trick {second_last}", fill=lambda r: r.winners[-2]),
        TallyKey("last", "seat", "who won the last trick ({last})", fill=lambda r: r.winners[-1]),
        TallyKey("order", "order", "finishing order, first out first"),
        TallyKey("suits", "suits", "cards taken per suit, S H D C", fill=_suits),
        TallyKey("arrangements", "arrangements", "cards as arranged, back 5, middle 5, front 3"),
    )
}
"""Every tally key of RECORD.md, in its order."""


def tally_table(deck: int, tricks: int) -> dict[str, dict[str, Any]]:
    """Every key's kind, label and total for a deck and a number of tricks, as JSON for
    the pages and the terminal sheet.

    >>> tally_table(deck=(1 << 52) - 1, tricks=13)["second_last"]
    {'kind': 'seat', 'label': 'who won trick 12', 'total': None}
    """
    return {
        k.name: {"kind": k.kind, "label": k.label_for(tricks), "total": k.total(deck, tricks)}
        for k in TALLY_KEYS.values()
    }


__all__ = [
    "ACE_OF_HEARTS",
    "HEART_CARDS",
    "JACKS_AND_KINGS",
    "KINDS",
    "KINGS_OF_HEARTS",
    "KING_OF_HEARTS",
    "QUEENS",
    "SEVENTH_TRICK",
    "TALLY_KEYS",
    "TallyKey",
    "tally_table",
]
