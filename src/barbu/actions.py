"""The actions a seat can take, as small immutable values.

>>> Declare("no-queens"), Call(double=(0,)), Play(card("QS"))
(Declare('no-queens'), Call(double=(0,)), Play('QS'))
>>> str(Call(word="maximum")), str(Play(card("TH")))
('maximum', 'TH')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from barbu.cards import RANKS, SUITS, card, card_name

CALL_WORDS = ("pass", "maximum", "table", "flanks", "family")
"""The spoken shorthands of the doubling (RULES.md §2.6)."""


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarer names its contract."""

    contract: str

    def __repr__(self) -> str:
        return f"Declare({self.contract!r})"

    def __str__(self) -> str:
        return self.contract


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The declarer names the trump suit (0-3: S H D C)."""

    suit: int

    def __repr__(self) -> str:
        return f"NameTrump({SUITS[self.suit]!r})"

    def __str__(self) -> str:
        return SUITS[self.suit]


@dataclass(frozen=True, slots=True)
class NameRank:
    """The declarer names the domino starting rank (0 = two … 12 = ace)."""

    rank: int

    def __repr__(self) -> str:
        return f"NameRank({RANKS[self.rank]!r})"

    def __str__(self) -> str:
        return RANKS[self.rank]


@dataclass(frozen=True, slots=True)
class Call:
    """A call of the doubling: seats doubled, doubles redoubled, or a spoken word.

    A word (``pass``, ``maximum``, ``table``, ``flanks``, ``family``) and explicit
    lists may not be mixed; ``Call()`` is a pass.
    """

    double: tuple[int, ...] = ()
    redouble: tuple[int, ...] = ()
    word: str | None = None

    def __repr__(self) -> str:
        parts = []
        if self.double:
            parts.append(f"double={self.double!r}")
        if self.redouble:
            parts.append(f"redouble={self.redouble!r}")
        if self.word is not None:
            parts.append(f"word={self.word!r}")
        return f"Call({', '.join(parts)})"

    def __str__(self) -> str:
        if self.word is not None:
            return self.word
        parts = []
        if self.double:
            parts.append("double " + " ".join(f"P{s}" for s in self.double))
        if self.redouble:
            parts.append("redouble " + " ".join(f"P{s}" for s in self.redouble))
        return ", ".join(parts) or "pass"

    def is_pass(self) -> bool:
        """True for an explicit pass (no word but ``pass``, no seats)."""
        return not self.double and not self.redouble and self.word in (None, "pass")


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to a trick or laid in domino."""

    card: int

    def __repr__(self) -> str:
        return f"Play({card_name(self.card)!r})"

    def __str__(self) -> str:
        return card_name(self.card)


@dataclass(frozen=True, slots=True)
class Pass:
    """A domino turn with no playable card (written ``"pass"`` in records)."""

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Arrange:
    """A Chinese-poker arrangement: 13 cards, back 5, middle 5, front 3."""

    cards: tuple[int, ...]

    def __repr__(self) -> str:
        return f"Arrange({tuple(card_name(c) for c in self.cards)!r})"

    def __str__(self) -> str:
        names = [card_name(c) for c in self.cards]
        return " ".join(names[:5]) + " | " + " ".join(names[5:10]) + " | " + " ".join(names[10:])


@dataclass(frozen=True)
class EnterTally:
    """The tally of a deal played with real cards (RECORD.md's tally keys)."""

    tally: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"tally {dict(self.tally)}"


PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(52))
"""One shared :class:`Play` per card (actions are immutable, so sharing is safe)."""

Action = Declare | NameTrump | NameRank | Call | Play | Pass | Arrange | EnterTally
"""Any action of the game."""


def parse_play(text: str) -> Play | Pass:
    """A card or ``pass`` as written in a record's ``play`` list.

    >>> parse_play("qs"), parse_play("pass")
    (Play('QS'), Pass())
    """
    if text.strip().lower() == "pass":
        return Pass()
    return Play(card(text))
