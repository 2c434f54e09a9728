"""The contracts of Barbu: one small class per way of playing and scoring, used as values.

A contract knows how it is played (tricks, domino or Chinese-poker arrangements),
which cards are its penalty cards, when it ends early, which keys its tally has, how a
tally turns into raw scores, and what each card and each trick is worth to its taker
(:meth:`Contract.play_facts`, which the bots read). Its id, title and values are fields,
so rule sets use a class with other values and names (RULES.md §3, §4): King's Rıfkı is
``NoKing(id="king-no-king", title=..., king=-320, doubling_class=None)``.

Scoring goes one way only: a played deal is first turned into the tally a scorekeeper
would write down, and the tally is scored. A tallied deal from a real table and a
played deal therefore score through the same code.

>>> no_queens = NoQueens(per_queen=-6)
>>> no_queens.raw({"queens": [0, 2, 1, 1]}, DealShape(players=4, tricks=13))
[0, -12, -6, -6]
>>> NoKing(id="king-no-king", title="Rıfkı", king=-320).values()
{'king': -320}
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from barbu.tally_keys import (
    ACE_OF_HEARTS,
    HEART_CARDS,
    JACKS_AND_KINGS,
    KINGS_OF_HEARTS,
    QUEENS,
    SEVENTH_TRICK,
    TALLY_KEYS,
)

Tally = dict[str, Any]
"""What each seat took in a deal, keyed as RECORD.md's tally table
(arrangements hold card ints here, card names in records)."""


@dataclass(frozen=True)
class DealShape:
    """The facts of a rule set that scoring needs.

    ``deck`` is the mask of the cards in play (bits from 52 up: the second deck's
    copies, :data:`barbu.cards.TWIN`); ``domino_values`` the placing values and
    ``ravage_city_total`` the Ravage City penalty of the rule set's flags.
    """

    players: int
    tricks: int
    deck: int = (1 << 52) - 1
    domino_values: tuple[int, ...] = ()
    ravage_city_total: int = -24

    @property
    def card_count(self) -> int:
        """How many card ints the deck's masks use: 52, or 104 with two decks."""
        return 104 if self.deck >> 52 else 52


@dataclass(frozen=True)
class TrickResult:
    """The public outcome of a trick deal: captured cards and trick winners.

    ``captured[s]`` is the mask of cards seat ``s`` took; ``winners[i]`` the winner of
    trick ``i + 1``. A deal that ended early has fewer winners than tricks.
    """

    captured: Sequence[int]
    winners: Sequence[int]

    def count(self, mask: int) -> list[int]:
        """How many cards of ``mask`` each seat took."""
        return [(c & mask).bit_count() for c in self.captured]

    def holder(self, card: int) -> int:
        """The seat that took ``card`` (which must have been played)."""
        for seat, c in enumerate(self.captured):
            if c >> card & 1:
                return seat
        raise ValueError("that card was not taken by anyone")

    def tricks(self) -> list[int]:
        """Tricks won by each seat."""
        return [self.winners.count(s) for s in range(len(self.captured))]


@dataclass(frozen=True)
class PlayFacts:
    """What taking cards and tricks is worth in a contract, in raw points to the taker.

    ``cards[c]`` is what card ``c`` gives the seat that takes it, ``tricks[i]`` what trick
    ``i + 1`` gives its winner; ``longest_suit`` is the penalty shared by the seats that took
    the most cards of one suit (Ravage City), 0 elsewhere. For a trick contract whose
    points come from cards and tricks only, the values add up to the contract total.

    >>> facts = NoHearts(per_heart=-2, ace=-6).play_facts(DealShape(players=4, tricks=13))
    >>> facts.cards[ACE_OF_HEARTS], facts.cards[ACE_OF_HEARTS - 1], sum(facts.tricks)
    (-6, -2, 0)
    """

    cards: tuple[int, ...]
    tricks: tuple[int, ...]
    longest_suit: int = 0


def _facts(shape: DealShape, cards: Sequence[tuple[int, int]] = (), tricks: Sequence[int] | None = None) -> PlayFacts:
    """Play facts from ``(mask, value)`` pairs (values add up on a card in several masks)
    and per-trick values (none: every trick worth 0)."""
    values = [0] * shape.card_count
    for mask, value in cards:
        m = mask & shape.deck
        while m:
            low = m & -m
            values[low.bit_length() - 1] += value
            m ^= low
    return PlayFacts(tuple(values), tuple(tricks) if tricks is not None else (0,) * shape.tricks)


@dataclass(frozen=True, kw_only=True)
class Contract(ABC):
    """Base of the contract classes; see the module docstring.

    Class attributes say how the contract plays; instance fields hold its id, title and values.
    """

    id: str
    title: str
    doubling_class: str | None = "negative"
    """``negative`` or ``positive`` for the doubling rules; None in rule sets without doubling."""
    ends_early: bool = False
    """True when the deal stops once all its penalty cards are taken (flag ``early_end``)."""

    play: ClassVar[str] = "tricks"
    """``tricks``, ``domino`` or ``arrange``."""
    names_trump: ClassVar[bool] = False
    heart_lead_rule: ClassVar[bool] = False
    reads_flags: ClassVar[tuple[str, ...]] = ()
    """Flags of RULES.md §6 that this contract's own play or scoring reads (besides the
    trick flags that follow from ``names_trump``, ``heart_lead_rule`` and ``ends_early``)."""

    def values(self) -> dict[str, Any]:
        """The contract's values (its fields other than id, title and the doubling and
        early-end facts), None and false values left out."""
        skip = {f.name for f in fields(Contract)}
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in skip and getattr(self, f.name) is not None and getattr(self, f.name) is not False
        }

    def penalty_cards(self, deck: int) -> int:
        """The contract's penalty cards within ``deck`` (for ``forced_penalty``)."""
        return 0

    @abstractmethod
    def tally_keys(self) -> tuple[str, ...]:
        """The keys a tally of this contract has, in RECORD.md's order."""

    def tally_from_tricks(self, result: TrickResult) -> Tally:
        """The tally a scorekeeper would write for a played trick deal."""
        full: Tally = {}
        for name in self.tally_keys():
            fill = TALLY_KEYS[name].fill
            if fill is None:  # pragma: no cover - trick contracts have trick keys only
                raise ValueError(f"a trick deal does not fill the tally key {name}")
            full[name] = fill(result)
        return full

    @abstractmethod
    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        """Raw scores per seat from a checked tally."""

    @abstractmethod
    def total(self, shape: DealShape) -> int:
        """The contract total ``T``: the sum of a deal's raw scores."""

    @abstractmethod
    def play_facts(self, shape: DealShape) -> PlayFacts:
        """What each card and each trick is worth to its taker (see :class:`PlayFacts`)."""


def _per_seat(counts: Sequence[int], value: int) -> list[int]:
    return [value * c for c in counts]


def _to_seat(players: int, seat: int, value: int) -> list[int]:
    out = [0] * players
    out[seat] += value
    return out


@dataclass(frozen=True, kw_only=True)
class NoTricks(Contract):
    """No tricks: each trick won costs ``per_trick``."""

    id: str = "no-tricks"
    title: str = "No tricks"
    per_trick: int = -2

    def tally_keys(self) -> tuple[str, ...]:
        return ("tricks",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["tricks"], self.per_trick)

    def total(self, shape: DealShape) -> int:
        return self.per_trick * shape.tricks

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape, tricks=[self.per_trick] * shape.tricks)


@dataclass(frozen=True, kw_only=True)
class NoHearts(Contract):
    """No hearts: each heart costs ``per_heart``; the ace of hearts ``ace`` if set."""

    id: str = "no-hearts"
    title: str = "No hearts"
    heart_lead_rule: ClassVar[bool] = True
    per_heart: int = -2
    ace: int | None = -6

    def penalty_cards(self, deck: int) -> int:
        return deck & HEART_CARDS

    def tally_keys(self) -> tuple[str, ...]:
        return ("hearts", "ace_of_hearts") if self.ace is not None else ("hearts",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = _per_seat(tally["hearts"], self.per_heart)
        if self.ace is not None:
            out[tally["ace_of_hearts"]] += self.ace - self.per_heart
        return out

    def total(self, shape: DealShape) -> int:
        hearts = (shape.deck & HEART_CARDS).bit_count()
        extra = self.ace - self.per_heart if self.ace is not None else 0
        return self.per_heart * hearts + extra

    def play_facts(self, shape: DealShape) -> PlayFacts:
        if self.ace is None:
            return _facts(shape, [(HEART_CARDS, self.per_heart)])
        ace = 1 << ACE_OF_HEARTS
        return _facts(shape, [(HEART_CARDS & ~ace, self.per_heart), (ace, self.ace)])


@dataclass(frozen=True, kw_only=True)
class NoQueens(Contract):
    """No queens: each queen costs ``per_queen``; ends with the fourth queen."""

    id: str = "no-queens"
    title: str = "No queens"
    ends_early: bool = True
    per_queen: int = -6

    def penalty_cards(self, deck: int) -> int:
        return deck & QUEENS

    def tally_keys(self) -> tuple[str, ...]:
        return ("queens",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["queens"], self.per_queen)

    def total(self, shape: DealShape) -> int:
        return self.per_queen * (shape.deck & QUEENS).bit_count()

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape, [(QUEENS, self.per_queen)])


def _king_each(king: int, shape: DealShape) -> int:
    """What one king of hearts is worth where ``king`` is the value of all of them
    together (two decks: two kings, or one tarot king, RULES.md §4.9)."""
    return king // max(1, (shape.deck & KINGS_OF_HEARTS).bit_count())


@dataclass(frozen=True, kw_only=True)
class NoKing(Contract):
    """No king of hearts (the Barbu): K♥ costs ``king``; ends when it falls.

    With ``kings_counted`` (two decks) the tally counts the kings of hearts each seat took
    (key ``kings_of_hearts``) and ``king`` is shared evenly by the kings of hearts in the
    deck: two ordinary kings are worth half of it each, a single tarot king all of it.

    >>> two = DealShape(players=6, tricks=17, deck=(1 << 104) - 1)
    >>> NoKing(king=160, kings_counted=True).raw({"kings_of_hearts": [1, 0, 0, 1, 0, 0]}, two)
    [80, 0, 0, 80, 0, 0]
    """

    id: str = "no-king"
    title: str = "No king of hearts"
    heart_lead_rule: ClassVar[bool] = True
    ends_early: bool = True
    king: int = -20
    kings_counted: bool = False

    def penalty_cards(self, deck: int) -> int:
        return deck & KINGS_OF_HEARTS

    def tally_keys(self) -> tuple[str, ...]:
        return ("kings_of_hearts",) if self.kings_counted else ("king_of_hearts",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        if self.kings_counted:
            return _per_seat(tally["kings_of_hearts"], _king_each(self.king, shape))
        return _to_seat(shape.players, tally["king_of_hearts"], self.king)

    def total(self, shape: DealShape) -> int:
        if self.kings_counted:
            return _king_each(self.king, shape) * (shape.deck & KINGS_OF_HEARTS).bit_count()
        return self.king

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape, [(KINGS_OF_HEARTS, _king_each(self.king, shape) if self.kings_counted else self.king)])


@dataclass(frozen=True, kw_only=True)
class NoBoys(Contract):
    """No boys (King's "Boys"): each jack or king costs ``per_card``; ends with the eighth."""

    id: str = "no-boys"
    title: str = "No jacks or kings"
    ends_early: bool = True
    per_card: int = -60

    def penalty_cards(self, deck: int) -> int:
        return deck & JACKS_AND_KINGS

    def tally_keys(self) -> tuple[str, ...]:
        return ("jacks_and_kings",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["jacks_and_kings"], self.per_card)

    def total(self, shape: DealShape) -> int:
        return self.per_card * (shape.deck & JACKS_AND_KINGS).bit_count()

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape, [(JACKS_AND_KINGS, self.per_card)])


@dataclass(frozen=True, kw_only=True)
class NoLastTwo(Contract):
    """No last two: trick ``N-1`` costs ``second_last``, trick ``N`` costs ``last``.

    With ``second_last`` 0 (Salad's "no last trick") the tally has only ``last``.
    """

    id: str = "no-last-two"
    title: str = "No last two"
    second_last: int = -10
    last: int = -20

    def tally_keys(self) -> tuple[str, ...]:
        return ("second_last", "last") if self.second_last else ("last",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = _to_seat(shape.players, tally["last"], self.last)
        if self.second_last:
            out[tally["second_last"]] += self.second_last
        return out

    def total(self, shape: DealShape) -> int:
        return self.second_last + self.last

    def play_facts(self, shape: DealShape) -> PlayFacts:
        tricks = [0] * shape.tricks
        tricks[-1] = self.last
        if shape.tricks > 1:
            tricks[-2] += self.second_last
        return _facts(shape, tricks=tricks)


@dataclass(frozen=True, kw_only=True)
class SeventhAndLast(Contract):
    """The seventh and the last trick (King's other form of No last two): trick 7 costs
    ``seventh``, trick ``N`` costs ``last``.

    >>> c = SeventhAndLast(seventh=-180, last=-180)
    >>> c.raw({"seventh": 2, "last": 2}, DealShape(players=4, tricks=13))
    [0, 0, -360, 0]
    >>> c.play_facts(DealShape(players=4, tricks=13)).tricks[6]
    -180
    """

    id: str = "seventh-and-last"
    title: str = "Seventh and last trick"
    seventh: int = -180
    last: int = -180

    def tally_keys(self) -> tuple[str, ...]:
        return ("seventh", "last")

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = _to_seat(shape.players, tally["seventh"], self.seventh)
        out[tally["last"]] += self.last
        return out

    def total(self, shape: DealShape) -> int:
        return self.seventh + self.last

    def play_facts(self, shape: DealShape) -> PlayFacts:
        tricks = [0] * shape.tricks
        tricks[SEVENTH_TRICK - 1] += self.seventh
        tricks[-1] += self.last
        return _facts(shape, tricks=tricks)


@dataclass(frozen=True, kw_only=True)
class Trumps(Contract):
    """Trumps: the declarer names a suit; each trick won gives ``per_trick``."""

    id: str = "trumps"
    title: str = "Trumps"
    doubling_class: str | None = "positive"
    names_trump: ClassVar[bool] = True
    per_trick: int = 5

    def tally_keys(self) -> tuple[str, ...]:
        return ("tricks",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["tricks"], self.per_trick)

    def total(self, shape: DealShape) -> int:
        return self.per_trick * shape.tricks

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape, tricks=[self.per_trick] * shape.tricks)


@dataclass(frozen=True, kw_only=True)
class Domino(Contract):
    """Domino (Fan Tan): placings score the rule set's ``domino_values``."""

    id: str = "domino"
    title: str = "Domino"
    doubling_class: str | None = "positive"
    play: ClassVar[str] = "domino"
    reads_flags: ClassVar[tuple[str, ...]] = (
        "domino_values",
        "domino_start",
        "domino_ace_replays",
        "removed_card_rule",
    )

    def tally_keys(self) -> tuple[str, ...]:
        return ("order",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = [0] * shape.players
        for placing, seat in enumerate(tally["order"]):
            out[seat] = shape.domino_values[placing]
        return out

    def total(self, shape: DealShape) -> int:
        return sum(shape.domino_values)

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape)  # no cards or tricks are taken


@dataclass(frozen=True, kw_only=True)
class RavageCity(Contract):
    """Ravage City: the most cards of one suit shares ``ravage_city_total``."""

    id: str = "ravage-city"
    title: str = "Ravage City"
    reads_flags: ClassVar[tuple[str, ...]] = ("ravage_city_total",)

    def tally_keys(self) -> tuple[str, ...]:
        return ("suits",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        longest = [max(row) for row in tally["suits"]]
        top = max(longest)
        leaders = [s for s, m in enumerate(longest) if m == top]
        share = shape.ravage_city_total // len(leaders)
        return [share if s in leaders else 0 for s in range(shape.players)]

    def total(self, shape: DealShape) -> int:
        return shape.ravage_city_total

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return PlayFacts((0,) * shape.card_count, (0,) * shape.tricks, longest_suit=shape.ravage_city_total)


@dataclass(frozen=True, kw_only=True)
class ChinesePoker(Contract):
    """Chinese poker: three poker rows per seat, compared pairwise, times four."""

    id: str = "chinese-poker"
    title: str = "Chinese poker"
    play: ClassVar[str] = "arrange"

    def tally_keys(self) -> tuple[str, ...]:
        return ("arrangements",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        from barbu.poker import chinese_poker_scores

        return chinese_poker_scores(tally["arrangements"])

    def total(self, shape: DealShape) -> int:
        return 0

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape)  # no cards or tricks are taken


@dataclass(frozen=True, kw_only=True)
class Salad(Contract):
    """Salad: every penalty at once, over all tricks; ``last`` None for French's four parts."""

    id: str = "salad"
    title: str = "Salad"
    heart_lead_rule: ClassVar[bool] = True
    per_trick: int = -5
    per_heart: int = -10
    per_queen: int = -20
    king: int = -50
    last: int | None = -30
    kings_counted: bool = False
    """Two decks: the kings of hearts are counted and share ``king`` (as in :class:`NoKing`)."""

    def penalty_cards(self, deck: int) -> int:
        return deck & (HEART_CARDS | QUEENS)

    def tally_keys(self) -> tuple[str, ...]:
        keys = ("tricks", "hearts", "queens", "kings_of_hearts" if self.kings_counted else "king_of_hearts")
        return (*keys, "last") if self.last is not None else keys

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = [
            self.per_trick * t + self.per_heart * h + self.per_queen * q
            for t, h, q in zip(tally["tricks"], tally["hearts"], tally["queens"], strict=True)
        ]
        if self.kings_counted:
            each = _king_each(self.king, shape)
            out = [o + each * k for o, k in zip(out, tally["kings_of_hearts"], strict=True)]
        else:
            out[tally["king_of_hearts"]] += self.king
        if self.last is not None:
            out[tally["last"]] += self.last
        return out

    def total(self, shape: DealShape) -> int:
        hearts = (shape.deck & HEART_CARDS).bit_count()
        queens = (shape.deck & QUEENS).bit_count()
        return (
            self.per_trick * shape.tricks
            + self.per_heart * hearts
            + self.per_queen * queens
            + (NoKing(king=self.king, kings_counted=True).total(shape) if self.kings_counted else self.king)
            + (self.last or 0)
        )

    def play_facts(self, shape: DealShape) -> PlayFacts:
        tricks = [self.per_trick] * shape.tricks
        if self.last is not None:
            tricks[-1] += self.last
        king = _king_each(self.king, shape) if self.kings_counted else self.king
        cards = [(HEART_CARDS, self.per_heart), (QUEENS, self.per_queen), (KINGS_OF_HEARTS, king)]
        return _facts(shape, cards, tricks)


@dataclass(frozen=True, kw_only=True)
class MoreTricks(Contract):
    """More tricks (French): each trick won gives ``per_trick`` (penalty points)."""

    id: str = "more-tricks"
    title: str = "More tricks"
    doubling_class: str | None = None
    per_trick: int = -5

    def tally_keys(self) -> tuple[str, ...]:
        return ("tricks",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["tricks"], self.per_trick)

    def total(self, shape: DealShape) -> int:
        return self.per_trick * shape.tricks

    def play_facts(self, shape: DealShape) -> PlayFacts:
        return _facts(shape, tricks=[self.per_trick] * shape.tricks)


@dataclass(frozen=True, kw_only=True)
class FirstAndLast(Contract):
    """Neither first nor last (French): trick 1 costs ``first``, trick ``N`` ``last``."""

    id: str = "first-and-last"
    title: str = "Neither first nor last"
    doubling_class: str | None = None
    first: int = 40
    last: int = 40

    def tally_keys(self) -> tuple[str, ...]:
        return ("first", "last")

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = _to_seat(shape.players, tally["first"], self.first)
        out[tally["last"]] += self.last
        return out

    def total(self, shape: DealShape) -> int:
        return self.first + self.last

    def play_facts(self, shape: DealShape) -> PlayFacts:
        tricks = [0] * shape.tricks
        tricks[0] += self.first
        tricks[-1] += self.last
        return _facts(shape, tricks=tricks)


__all__ = [
    "ChinesePoker",
    "Contract",
    "DealShape",
    "Domino",
    "FirstAndLast",
    "MoreTricks",
    "NoBoys",
    "NoHearts",
    "NoKing",
    "NoLastTwo",
    "NoQueens",
    "NoTricks",
    "PlayFacts",
    "RavageCity",
    "Salad",
    "SeventhAndLast",
    "Tally",
    "TrickResult",
    "Trumps",
]
