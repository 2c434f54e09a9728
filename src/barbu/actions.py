"""The actions a seat can take, as small immutable values.

>>> Declare("no-queens"), Call(double=(0,)), Play(card("QS"))
(Declare('no-queens'), Call(double=(0,)), Play('QS'))
>>> str(Call(word="maximum")), str(Play(card("TH")))
('maximum', 'TH')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from barbu.cards import RANKS, SUITS, card, card_name

CARD_NAMES = tuple(card_name(c) for c in range(52))


def _notation(names: Sequence[str], value: object) -> object:
    """``names[value]``, or the value itself when it names nothing (an action to refuse)."""
    if type(value) is int and 0 <= value < len(names):
        return names[value]
    return value


CALL_WORDS = ("pass", "maximum", "table", "flanks", "family")
"""The spoken shorthands of the doubling (RULES.md §2.6)."""


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarer names its contract."""

    contract: str

    def __repr__(self) -> str:
        return f"Declare({self.contract!r})"

    def __str__(self) -> str:
        return self.contract if isinstance(self.contract, str) else repr(self.contract)


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The declarer names the trump suit (0-3: S H D C)."""

    suit: int

    def __repr__(self) -> str:
        return f"NameTrump({_notation(SUITS, self.suit)!r})"

    def __str__(self) -> str:
        return str(_notation(SUITS, self.suit))


@dataclass(frozen=True, slots=True)
class NameRank:
    """The declarer names the domino starting rank (0 = two … 12 = ace)."""

    rank: int

    def __repr__(self) -> str:
        return f"NameRank({_notation(RANKS, self.rank)!r})"

    def __str__(self) -> str:
        return str(_notation(RANKS, self.rank))


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
            return self.word if isinstance(self.word, str) else repr(self.word)
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
        return f"Play({_notation(CARD_NAMES, self.card)!r})"

    def __str__(self) -> str:
        return str(_notation(CARD_NAMES, self.card))


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
        return f"Arrange({tuple(_notation(CARD_NAMES, c) for c in self.cards)!r})"

    def __str__(self) -> str:
        names = [str(_notation(CARD_NAMES, c)) for c in self.cards]
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


def action_text(action: Action) -> str:
    """An action in record notation (contract id, suit, rank, call, card or ``pass``).

    >>> action_text(Play(card("QS"))), action_text(Declare("no-king")), action_text(Pass())
    ('QS', 'no-king', 'pass')
    """
    if isinstance(action, Arrange):
        return " ".join(str(_notation(CARD_NAMES, c)) for c in action.cards)
    return str(action)


def action_words(action: Action) -> str:
    """What an action is, in words: its kind, then its record notation (for messages).

    >>> action_words(Play(card("QS"))), action_words(Declare("no-king")), action_words(Pass())
    ('play QS', 'contract no-king', 'pass')
    >>> action_words(NameTrump(7)), action_words(Play(60))
    ('trump 7', 'play 60')

    """
    if isinstance(action, Pass):
        return "pass"
    kind = {Declare: "contract", NameTrump: "trump", NameRank: "rank", Call: "call", Play: "play"}.get(
        type(action), "arrangement" if isinstance(action, Arrange) else type(action).__name__
    )
    return f"{kind} {action_text(action)}"
