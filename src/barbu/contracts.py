"""The contracts of Barbu: one small class each, registered by id.

A contract knows how it is played (tricks, domino or Chinese-poker arrangements),
which cards are its penalty cards, when it ends early, which keys its tally has and
how a tally turns into raw scores. Its values are fields, so rule sets reuse a class
with other values (RULES.md §3, §4).

Scoring goes one way only: a played deal is first turned into the tally a scorekeeper
would write down, and the tally is scored. A tallied deal from a real table and a
played deal therefore score through the same code.

>>> no_queens = NoQueens(per_queen=-6)
>>> no_queens.raw({"queens": [0, 2, 1, 1]}, DealShape(players=4, tricks=13))
[0, -12, -6, -6]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from barbu.cards import ACE, HEARTS, JACK, KING, QUEEN, SUIT_MASKS, make_card, rank_mask

Tally = dict[str, Any]
"""What each seat took in a deal, keyed as RECORD.md's tally table
(arrangements hold card ints here, card names in records)."""

KING_OF_HEARTS = make_card(HEARTS, KING)
ACE_OF_HEARTS = make_card(HEARTS, ACE)
QUEENS = rank_mask(QUEEN)
JACKS_AND_KINGS = rank_mask(JACK) | rank_mask(KING)
HEART_CARDS = SUIT_MASKS[HEARTS]


@dataclass(frozen=True)
class DealShape:
    """The facts of a rule set that scoring needs.

    ``deck`` is the mask of the cards in play; ``domino_values`` the placing values
    and ``ravage_city_total`` the Ravage City penalty of the rule set's flags.
    """

    players: int
    tricks: int
    deck: int = (1 << 52) - 1
    domino_values: tuple[int, ...] = ()
    ravage_city_total: int = -24


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


REGISTRY: dict[str, type[Contract]] = {}
"""Every contract class by its id."""


@dataclass(frozen=True)
class Contract(ABC):
    """Base of the contract classes; see the module docstring.

    Class attributes say how the contract plays; instance fields hold its values.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    doubling_class: ClassVar[str | None] = "negative"
    """``negative`` or ``positive`` for the doubling rules; None in rule sets without doubling."""
    play: ClassVar[str] = "tricks"
    """``tricks``, ``domino`` or ``arrange``."""
    names_trump: ClassVar[bool] = False
    heart_lead_rule: ClassVar[bool] = False
    ends_early: ClassVar[bool] = False
    """True when the deal stops once all its penalty cards are taken (flag ``early_end``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.id:
            REGISTRY[cls.id] = cls

    def penalty_cards(self, deck: int) -> int:
        """The contract's penalty cards within ``deck`` (for ``forced_penalty``)."""
        return 0

    @abstractmethod
    def tally_keys(self) -> tuple[str, ...]:
        """The keys a tally of this contract has, in RECORD.md's order."""

    def tally_from_tricks(self, result: TrickResult) -> Tally:
        """The tally a scorekeeper would write for a played trick deal."""
        tricks = result.tricks()
        full: Tally = {}
        for key in self.tally_keys():
            if key == "tricks":
                full[key] = tricks
            elif key == "hearts":
                full[key] = result.count(HEART_CARDS)
            elif key == "ace_of_hearts":
                full[key] = result.holder(ACE_OF_HEARTS)
            elif key == "queens":
                full[key] = result.count(QUEENS)
            elif key == "jacks_and_kings":
                full[key] = result.count(JACKS_AND_KINGS)
            elif key == "king_of_hearts":
                full[key] = result.holder(KING_OF_HEARTS)
            elif key == "first":
                full[key] = result.winners[0]
            elif key == "second_last":
                full[key] = result.winners[-2]
            elif key == "last":
                full[key] = result.winners[-1]
            elif key == "suits":
                full[key] = [[(c & SUIT_MASKS[s]).bit_count() for s in range(4)] for c in result.captured]
            else:  # pragma: no cover - every key above is handled
                raise ValueError(f"no trick tally for {key}")
        return full

    @abstractmethod
    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        """Raw scores per seat from a checked tally."""

    @abstractmethod
    def total(self, shape: DealShape) -> int:
        """The contract total ``T``: the sum of a deal's raw scores."""


def _per_seat(counts: Sequence[int], value: int) -> list[int]:
    return [value * c for c in counts]


def _to_seat(players: int, seat: int, value: int) -> list[int]:
    out = [0] * players
    out[seat] += value
    return out


@dataclass(frozen=True)
class NoTricks(Contract):
    """No tricks: each trick won costs ``per_trick``."""

    id: ClassVar[str] = "no-tricks"
    title: ClassVar[str] = "No tricks"
    per_trick: int = -2

    def tally_keys(self) -> tuple[str, ...]:
        return ("tricks",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["tricks"], self.per_trick)

    def total(self, shape: DealShape) -> int:
        return self.per_trick * shape.tricks


@dataclass(frozen=True)
class NoHearts(Contract):
    """No hearts: each heart costs ``per_heart``; the ace of hearts ``ace`` if set."""

    id: ClassVar[str] = "no-hearts"
    title: ClassVar[str] = "No hearts"
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


@dataclass(frozen=True)
class NoQueens(Contract):
    """No queens: each queen costs ``per_queen``; ends with the fourth queen."""

    id: ClassVar[str] = "no-queens"
    title: ClassVar[str] = "No queens"
    ends_early: ClassVar[bool] = True
    per_queen: int = -6

    def penalty_cards(self, deck: int) -> int:
        return deck & QUEENS

    def tally_keys(self) -> tuple[str, ...]:
        return ("queens",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["queens"], self.per_queen)

    def total(self, shape: DealShape) -> int:
        return self.per_queen * (shape.deck & QUEENS).bit_count()


@dataclass(frozen=True)
class NoKing(Contract):
    """No king of hearts (the Barbu): K♥ costs ``king``; ends when it falls."""

    id: ClassVar[str] = "no-king"
    title: ClassVar[str] = "No king of hearts"
    heart_lead_rule: ClassVar[bool] = True
    ends_early: ClassVar[bool] = True
    king: int = -20

    def penalty_cards(self, deck: int) -> int:
        return deck & (1 << KING_OF_HEARTS)

    def tally_keys(self) -> tuple[str, ...]:
        return ("king_of_hearts",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _to_seat(shape.players, tally["king_of_hearts"], self.king)

    def total(self, shape: DealShape) -> int:
        return self.king


@dataclass(frozen=True)
class NoLastTwo(Contract):
    """No last two: trick ``N-1`` costs ``second_last``, trick ``N`` costs ``last``.

    With ``second_last`` 0 (Salad's "no last trick") the tally has only ``last``.
    """

    id: ClassVar[str] = "no-last-two"
    title: ClassVar[str] = "No last two"
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


@dataclass(frozen=True)
class Trumps(Contract):
    """Trumps: the declarer names a suit; each trick won gives ``per_trick``."""

    id: ClassVar[str] = "trumps"
    title: ClassVar[str] = "Trumps"
    doubling_class: ClassVar[str | None] = "positive"
    names_trump: ClassVar[bool] = True
    per_trick: int = 5

    def tally_keys(self) -> tuple[str, ...]:
        return ("tricks",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["tricks"], self.per_trick)

    def total(self, shape: DealShape) -> int:
        return self.per_trick * shape.tricks


@dataclass(frozen=True)
class Domino(Contract):
    """Domino (Fan Tan): placings score the rule set's ``domino_values``."""

    id: ClassVar[str] = "domino"
    title: ClassVar[str] = "Domino"
    doubling_class: ClassVar[str | None] = "positive"
    play: ClassVar[str] = "domino"

    def tally_keys(self) -> tuple[str, ...]:
        return ("order",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = [0] * shape.players
        for placing, seat in enumerate(tally["order"]):
            out[seat] = shape.domino_values[placing]
        return out

    def total(self, shape: DealShape) -> int:
        return sum(shape.domino_values)


@dataclass(frozen=True)
class RavageCity(Contract):
    """Ravage City: the most cards of one suit shares ``ravage_city_total``."""

    id: ClassVar[str] = "ravage-city"
    title: ClassVar[str] = "Ravage City"

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


@dataclass(frozen=True)
class ChinesePoker(Contract):
    """Chinese poker: three poker rows per seat, compared pairwise, times four."""

    id: ClassVar[str] = "chinese-poker"
    title: ClassVar[str] = "Chinese poker"
    play: ClassVar[str] = "arrange"

    def tally_keys(self) -> tuple[str, ...]:
        return ("arrangements",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        from barbu.poker import chinese_poker_scores

        return chinese_poker_scores(tally["arrangements"])

    def total(self, shape: DealShape) -> int:
        return 0


@dataclass(frozen=True)
class Salad(Contract):
    """Salad: every penalty at once, over all tricks; ``last`` None for French's four parts."""

    id: ClassVar[str] = "salad"
    title: ClassVar[str] = "Salad"
    heart_lead_rule: ClassVar[bool] = True
    per_trick: int = -5
    per_heart: int = -10
    per_queen: int = -20
    king: int = -50
    last: int | None = -30

    def penalty_cards(self, deck: int) -> int:
        return deck & (HEART_CARDS | QUEENS)

    def tally_keys(self) -> tuple[str, ...]:
        keys = ("tricks", "hearts", "queens", "king_of_hearts")
        return (*keys, "last") if self.last is not None else keys

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        out = [
            self.per_trick * t + self.per_heart * h + self.per_queen * q
            for t, h, q in zip(tally["tricks"], tally["hearts"], tally["queens"], strict=True)
        ]
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
            + self.king
            + (self.last or 0)
        )


@dataclass(frozen=True)
class MoreTricks(Contract):
    """More tricks (French): each trick won gives ``per_trick`` (penalty points)."""

    id: ClassVar[str] = "more-tricks"
    title: ClassVar[str] = "More tricks"
    doubling_class: ClassVar[str | None] = None
    per_trick: int = -5

    def tally_keys(self) -> tuple[str, ...]:
        return ("tricks",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["tricks"], self.per_trick)

    def total(self, shape: DealShape) -> int:
        return self.per_trick * shape.tricks


@dataclass(frozen=True)
class FirstAndLast(Contract):
    """Neither first nor last (French): trick 1 costs ``first``, trick ``N`` ``last``."""

    id: ClassVar[str] = "first-and-last"
    title: ClassVar[str] = "Neither first nor last"
    doubling_class: ClassVar[str | None] = None
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


@dataclass(frozen=True)
class KingNoKing(NoKing):
    """Rıfkı (King): K♥ costs ``king``."""

    id: ClassVar[str] = "king-no-king"
    title: ClassVar[str] = "Rıfkı (no king of hearts)"
    doubling_class: ClassVar[str | None] = None
    king: int = -320


@dataclass(frozen=True)
class KingNoQueens(NoQueens):
    """Girls (King): each queen costs ``per_queen``."""

    id: ClassVar[str] = "king-no-queens"
    title: ClassVar[str] = "Girls (no queens)"
    doubling_class: ClassVar[str | None] = None
    per_queen: int = -100


@dataclass(frozen=True)
class KingNoBoys(Contract):
    """Boys (King): each jack or king costs ``per_card``; ends with the eighth."""

    id: ClassVar[str] = "king-no-boys"
    title: ClassVar[str] = "Boys (no jacks or kings)"
    doubling_class: ClassVar[str | None] = None
    ends_early: ClassVar[bool] = True
    per_card: int = -60

    def penalty_cards(self, deck: int) -> int:
        return deck & JACKS_AND_KINGS

    def tally_keys(self) -> tuple[str, ...]:
        return ("jacks_and_kings",)

    def raw(self, tally: Tally, shape: DealShape) -> list[int]:
        return _per_seat(tally["jacks_and_kings"], self.per_card)

    def total(self, shape: DealShape) -> int:
        return self.per_card * (shape.deck & JACKS_AND_KINGS).bit_count()


@dataclass(frozen=True)
class KingNoHearts(NoHearts):
    """Hearts (King): each heart costs ``per_heart``; ends with the 13th heart."""

    id: ClassVar[str] = "king-no-hearts"
    title: ClassVar[str] = "Hearts (no hearts)"
    doubling_class: ClassVar[str | None] = None
    ends_early: ClassVar[bool] = True
    per_heart: int = -30
    ace: int | None = None


@dataclass(frozen=True)
class KingNoLastTwo(NoLastTwo):
    """Last two (King): tricks ``N-1`` and ``N`` cost ``second_last`` and ``last``."""

    id: ClassVar[str] = "king-no-last-two"
    title: ClassVar[str] = "Last two"
    doubling_class: ClassVar[str | None] = None
    second_last: int = -180
    last: int = -180


@dataclass(frozen=True)
class KingNoTricks(NoTricks):
    """No tricks (King): each trick costs ``per_trick``."""

    id: ClassVar[str] = "king-no-tricks"
    title: ClassVar[str] = "No tricks"
    doubling_class: ClassVar[str | None] = None
    per_trick: int = -50


@dataclass(frozen=True)
class KingTrumps(Trumps):
    """Trumps (King): each trick gives ``per_trick``."""

    id: ClassVar[str] = "king-trumps"
    title: ClassVar[str] = "Trumps"
    doubling_class: ClassVar[str | None] = None
    per_trick: int = 50


ALL_TALLY_KEYS = (
    "tricks",
    "hearts",
    "ace_of_hearts",
    "queens",
    "jacks_and_kings",
    "king_of_hearts",
    "first",
    "second_last",
    "last",
    "order",
    "suits",
    "arrangements",
)

__all__ = [
    "ALL_TALLY_KEYS",
    "REGISTRY",
    "ChinesePoker",
    "Contract",
    "DealShape",
    "Domino",
    "FirstAndLast",
    "KingNoBoys",
    "KingNoHearts",
    "KingNoKing",
    "KingNoLastTwo",
    "KingNoQueens",
    "KingNoTricks",
    "KingTrumps",
    "MoreTricks",
    "NoHearts",
    "NoKing",
    "NoLastTwo",
    "NoQueens",
    "NoTricks",
    "RavageCity",
    "Salad",
    "Tally",
    "TrickResult",
    "Trumps",
]
