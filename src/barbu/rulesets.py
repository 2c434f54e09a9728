"""Rule sets and flags: the data that says which Barbu is being played.

A :class:`RuleSet` is the static description of one game of RULES.md §4 (players,
deck, contracts with their values, rotation, doubling, default flags). :func:`rules`
resolves a rule set name and a record's ``options`` into :class:`Rules`, the frozen
facts the engine plays by, refusing unknown flags and bad values with a message that
says what is allowed.

>>> r = rules("classic")
>>> r.players, r.cards_each, r.deal_count, [c.id for c in r.contracts][:3]
(4, 13, 28, ['no-tricks', 'no-hearts', 'no-queens'])
>>> rules("salad", {"player_count": 5}).cards_each
10
>>> rules("classic", {"colour": "red"})
Traceback (most recent call last):
...
barbu.errors.OptionsError: unknown flag 'colour'; flags are: player_count, rotation, ...
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from barbu.cards import RANKS, SEVEN, TWIN, card, make_card, rank_mask, twin_mask
from barbu.contracts import (
    ChinesePoker,
    Contract,
    DealShape,
    Domino,
    FirstAndLast,
    MoreTricks,
    NoBoys,
    NoHearts,
    NoKing,
    NoLastTwo,
    NoQueens,
    NoTricks,
    RavageCity,
    Salad,
    SeventhAndLast,
    Trumps,
)
from barbu.errors import N_, OptionsError
from barbu.schedule import FixedOrder, OnceEach, Quotas, Schedule


@dataclass(frozen=True)
class Flags:
    """The flags of RULES.md §6 (``player_count`` lives in :class:`Rules`).

    Defaults are the classic values; rule sets override some (``king``, ``french``).
    """

    rotation: str = "block"
    must_trump_when_void: bool = True
    overtrump_required: bool = True
    undertrump_required: bool = False
    heart_lead: str = "strict"
    forced_penalty: bool = False
    early_end: bool = True
    negative_targets: str = "any"
    positive_targets: str = "declarer_only"
    late_redouble: bool = True
    flanks_redoubles: bool = False
    compulsory_doubles: int = 2
    skip_undoubled_negative: bool = True
    domino_values: tuple[int, ...] = (45, 20, 5, -5)
    domino_start: str = "named"
    domino_ace_replays: bool = False
    removed_card_rule: str = "laid"
    ravage_city_total: int = -24
    first_five_only: bool = False
    seventh_and_last: bool = False
    contract_choice: str = "fixed"
    tarot_king: bool = False


FLAG_CHOICES: dict[str, tuple[str, ...]] = {
    "rotation": ("block", "quick"),
    "heart_lead": ("strict", "broken", "free"),
    "negative_targets": ("any", "declarer_only"),
    "positive_targets": ("declarer_only", "any"),
    "domino_start": ("named", "first_card"),
    "removed_card_rule": ("laid", "forbid_rank"),
    "contract_choice": ("fixed", "chooser", "chooser_doubled"),
}
"""The allowed values of the string flags, default first."""

FLAG_HELP: dict[str, str] = {
    "player_count": "How many players sit at the table.",
    "rotation": "When the declarer changes: after a whole set of contracts (block), or after every deal (quick).",
    "must_trump_when_void": "A player with no card of the suit led must trump, unless the trick is already trumped.",
    "overtrump_required": "A player who trumps must beat the highest trump already in the trick when able.",
    "undertrump_required": (
        "A player with no card of the suit led must still play a trump even when unable to beat the trick."
    ),
    "heart_lead": "When hearts may be led in the contracts that protect them (No hearts, No king of hearts, Salad).",
    "forced_penalty": "A player who cannot follow suit must get rid of a penalty card when holding one.",
    "early_end": "A deal stops as soon as all its penalty cards are taken.",
    "negative_targets": "In a negative contract, whom a player other than the declarer may double.",
    "positive_targets": "In a positive contract (Trumps, Domino), whom a player other than the declarer may double.",
    "late_redouble": "A second round of calls: a player doubled by someone who called later may still redouble.",
    "flanks_redoubles": 'The call "flanks" also redoubles the other non-declarers who doubled the caller.',
    "compulsory_doubles": (
        "How many times each other player must double the declarer during the declarer's set (0: never)."
    ),
    "skip_undoubled_negative": (
        "A negative contract that nobody doubled is not played: its points are shared out at once."
    ),
    "domino_values": "Points by finishing place at Domino, first out first, one number per player.",
    "domino_start": (
        "How Domino starts: the declarer names the starting rank, or opens with any card whose rank starts."
    ),
    "domino_ace_replays": "At Domino, laying an ace gives another turn when a card can then be laid.",
    "removed_card_rule": (
        "At Domino with cards taken out of the deck: their place counts as laid, or their rank cannot start."
    ),
    "ravage_city_total": "The penalty of Ravage City, shared equally by the players with the most cards of one suit.",
    "first_five_only": "Play only the first five contracts of the French order.",
    "seventh_and_last": "Play the seventh and the last trick instead of the last two.",
    "contract_choice": "Who chooses the contract: fixed order, or a chooser (whose score may count double).",
    "tarot_king": "One tarot king of hearts, worth 160, replaces the two kings of hearts of the two decks.",
}
"""Each flag's meaning in words, for the people who choose it (RULES.md §6)."""

CHOICE_HELP: dict[str, str] = {
    "rotation=block": "after a whole set",
    "rotation=quick": "after every deal",
    "heart_lead=strict": "only by a player holding nothing but hearts",
    "heart_lead=broken": "also once a heart has been played to an earlier trick",
    "heart_lead=free": "at any time",
    "negative_targets=any": "any other player",
    "negative_targets=declarer_only": "the declarer only",
    "positive_targets=declarer_only": "the declarer only",
    "positive_targets=any": "any other player",
    "domino_start=named": "the declarer names the rank",
    "domino_start=first_card": "the first card laid sets the rank",
    "removed_card_rule=laid": "a removed card counts as laid",
    "removed_card_rule=forbid_rank": "the rank of a removed card cannot start",
    "contract_choice=fixed": "fixed order",
    "contract_choice=chooser": "a chooser names it",
    "contract_choice=chooser_doubled": "a chooser names it, the chooser's score counts double",
}
"""Each value of a string flag in words, keyed ``flag=value`` (:data:`FLAG_CHOICES`)."""

FLAG_NAMES: tuple[str, ...] = ("player_count", *(f.name for f in fields(Flags)))
DOUBLING_FLAGS = (
    "negative_targets",
    "positive_targets",
    "late_redouble",
    "flanks_redoubles",
    "compulsory_doubles",
    "skip_undoubled_negative",
)


@dataclass(frozen=True)
class RuleSet:
    """The static description of one rule set of RULES.md §4.

    ``contracts`` maps a player count to the contracts (with values) in table order;
    ``flag_defaults`` maps a player count to the flags that differ from classic.
    ``removed`` lists, per player count, the cards taken out of the deck.
    """

    name: str
    title: str
    player_counts: tuple[int, ...]
    contracts: Mapping[int, tuple[Contract, ...]]
    doubling: bool = True
    direction: int = 1
    schedule: Schedule = field(default_factory=OnceEach)
    """Which contracts each declarer names (:mod:`barbu.schedule`)."""
    fixed_rotation: bool = False
    low_rank: int = 0
    removed: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    flag_defaults: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    penalty_points: bool = False
    positive_totals_win: bool = False
    """``king``'s custom: every seat with a positive total wins (:meth:`barbu.game.Game.winners_turkish`)."""
    blurb: str = ""
    alternatives: Mapping[str, tuple[str, Contract]] = field(default_factory=dict)
    """Contracts that a true boolean flag puts in place of another: flag name ->
    (id of the contract replaced, the contract that replaces it). ``king``:
    ``seventh_and_last`` plays the seventh and the last trick instead of the last two."""
    decks: int = 1
    """How many 52-card decks are shuffled together (``french-two-decks``: 2). A card name
    listed twice in ``removed`` removes both decks' copies."""
    tarot_removed: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """The cards removed instead of ``removed`` with the flag ``tarot_king`` (one king of
    hearts, the tarot king, stands for both): where this is empty the flag does not apply."""

    def all_contracts(self, players: int) -> tuple[Contract, ...]:
        """Every contract a game of ``players`` may play: the table's, then the alternatives.

        >>> [c.id for c in RULE_SETS["king"].all_contracts(4)][-1]
        'king-seventh-and-last'
        """
        return (*self.contracts[players], *(c for _, c in self.alternatives.values()))


def _classic_like(
    no_tricks: int,
    no_queens: int,
    no_king: int,
    trumps: int,
    extra: tuple[Contract, ...] = (),
) -> tuple[Contract, ...]:
    return (
        NoTricks(per_trick=no_tricks),
        NoHearts(per_heart=-2, ace=-6),
        NoQueens(per_queen=no_queens),
        NoKing(king=no_king),
        NoLastTwo(second_last=-10, last=-20),
        Trumps(per_trick=trumps),
        Domino(),
        *extra,
    )


_CLASSIC = _classic_like(-2, -6, -20, 5)
_RAVAGE = _classic_like(-3, -8, -21, 7, (RavageCity(),))
_SALAD = (
    NoTricks(per_trick=-5),
    NoHearts(per_heart=-10, ace=None),
    NoQueens(per_queen=-20),
    NoKing(king=-50),
    NoLastTwo(second_last=0, last=-30),
    Salad(),
)
_FRENCH = (
    NoTricks(per_trick=5),
    NoHearts(per_heart=5, ace=None),
    NoQueens(per_queen=20),
    NoKing(king=80),
    Salad(per_trick=5, per_heart=5, per_queen=20, king=80, last=None),
    MoreTricks(per_trick=-5),
    FirstAndLast(first=40, last=40),
    Domino(),
)
_FRENCH_TWO_DECKS = (
    NoTricks(per_trick=10),
    NoHearts(per_heart=5, ace=None),
    NoQueens(per_queen=20),
    NoKing(king=160, kings_counted=True),
    Salad(per_trick=10, per_heart=5, per_queen=20, king=160, last=None, kings_counted=True),
    MoreTricks(per_trick=-10),
    FirstAndLast(first=80, last=80),
    Domino(),
)
"""French with two decks (RULES.md §4.9): every contract total twice the one-deck game's.
Cards keep their values (each is there twice); tricks and placings count double; the
kings of hearts share 160 (two kings 80 each, or one tarot king 160)."""
_KING = (
    NoKing(id="king-no-king", title="Rıfkı (no king of hearts)", doubling_class=None, king=-320),
    NoQueens(id="king-no-queens", title="Girls (no queens)", doubling_class=None, per_queen=-100),
    NoBoys(id="king-no-boys", title="Boys (no jacks or kings)", doubling_class=None, per_card=-60),
    NoHearts(
        id="king-no-hearts", title="Hearts (no hearts)", doubling_class=None, ends_early=True, per_heart=-30, ace=None
    ),
    NoLastTwo(id="king-no-last-two", title="Last two", doubling_class=None, second_last=-180, last=-180),
    NoTricks(id="king-no-tricks", title="No tricks", doubling_class=None, per_trick=-50),
    Trumps(id="king-trumps", title="Trumps", doubling_class=None, per_trick=50),
)
_KING_SEVENTH_AND_LAST = SeventhAndLast(
    id="king-seventh-and-last", title="Seventh and last trick", doubling_class=None, seventh=-180, last=-180
)

RULE_SETS: dict[str, RuleSet] = {
    rs.name: rs
    for rs in (
        RuleSet(
            "classic",
            "Classic Barbu",
            (4,),
            {4: _CLASSIC},
            blurb="Four players, seven contracts each, 28 deals, with doubling.",
        ),
        RuleSet(
            "ravage-city",
            "Barbu with Ravage City",
            (4,),
            {4: _RAVAGE},
            flag_defaults={4: {"domino_values": (50, 25, 10, 0)}},
            blurb="Classic plus Ravage City (most cards of one suit), re-balanced values, 32 deals.",
        ),
        RuleSet(
            "chinese-poker",
            "Barbu with Ravage City and Chinese poker",
            (4,),
            {4: (*_RAVAGE, ChinesePoker())},
            flag_defaults={4: {"domino_values": (50, 25, 10, 0)}},
            blurb="Ravage City plus Chinese poker (three poker rows each), 36 deals.",
        ),
        RuleSet(
            "salad",
            "Salad Barbu",
            (4, 5),
            {4: _SALAD, 5: _SALAD},
            removed={5: ("2S", "2C")},
            blurb="The five negatives at salad values plus the Salad (all penalties at once).",
        ),
        RuleSet(
            "five-player",
            "Five-player Barbu",
            (5,),
            {5: _CLASSIC},
            removed={5: ("2C", "2D")},
            flag_defaults={5: {"domino_values": (45, 25, 10, 0, -6)}},
            blurb="Five players without 2♣ and 2♦, ten cards each, 35 deals.",
        ),
        RuleSet(
            "french",
            "Simplified French Barbu",
            (4, 3, 5),
            {3: _FRENCH, 4: _FRENCH, 5: _FRENCH},
            doubling=False,
            schedule=FixedOrder(first_five=5),
            fixed_rotation=True,
            removed={3: ("2C",), 5: ("2S", "2C")},
            flag_defaults={
                n: {"domino_start": "first_card", "domino_ace_replays": True, "domino_values": v}
                for n, v in (
                    (3, (-40, 0, 40)),
                    (4, (-50, -20, 20, 40)),
                    (5, (-50, -25, 0, 25, 50)),
                )
            },
            penalty_points=True,
            blurb="Penalty points, fixed contract order, no doubling; lowest total wins.",
        ),
        RuleSet(
            "king",
            "King (Rıfkı)",
            (4,),
            {4: _KING},
            doubling=False,
            direction=-1,
            schedule=Quotas(negatives=3, trumps=2, per_negative=2),
            fixed_rotation=True,
            flag_defaults={
                4: {
                    "heart_lead": "broken",
                    "forced_penalty": True,
                    "overtrump_required": False,
                    "undertrump_required": True,
                }
            },
            positive_totals_win=True,
            blurb="Turkish King: anticlockwise, 20 deals, 3 negatives and 2 trumps each.",
            alternatives={"seventh_and_last": ("king-no-last-two", _KING_SEVENTH_AND_LAST)},
        ),
        RuleSet(
            "thirty-two",
            "Barbu with the 32-card deck",
            (4,),
            {4: _CLASSIC},
            low_rank=SEVEN,
            flag_defaults={4: {"domino_values": (45, 20, 5, 0)}},
            blurb="The stripped French deck, 7 to ace, eight cards each.",
        ),
        RuleSet(
            "french-two-decks",
            "French Barbu with two decks",
            (6, 7, 8),
            {6: _FRENCH_TWO_DECKS, 7: _FRENCH_TWO_DECKS, 8: _FRENCH_TWO_DECKS},
            doubling=False,
            schedule=FixedOrder(first_five=5),
            fixed_rotation=True,
            decks=2,
            removed={6: ("2C", "2C"), 7: ("2C", "2C", "2S", "2S", "2D", "2D")},
            tarot_removed={
                6: ("KH", "2C"),
                7: ("KH", "2C", "2C", "2S", "2S", "2D"),
                8: ("KH", "2C", "2C", "2S", "2S", "2D", "2D", "3C"),
            },
            flag_defaults={
                n: {"domino_start": "first_card", "domino_ace_replays": True, "domino_values": v}
                for n, v in (
                    (6, (-100, -60, -20, 20, 60, 100)),
                    (7, (-120, -80, -40, 0, 40, 80, 120)),
                    (8, (-140, -100, -60, -20, 20, 60, 100, 140)),
                )
            },
            penalty_points=True,
            blurb="6 to 8 players, two decks shuffled together: points doubled, of equal cards the last played wins.",
        ),
    )
}
"""Every rule set of RULES.md §4, by name, in the order of its table (``french-two-decks``,
the project's §4.9, last)."""


@dataclass(frozen=True)
class Rules:
    """A rule set resolved with its options: everything the engine plays by."""

    ruleset: RuleSet
    players: int
    flags: Flags
    options: Mapping[str, Any]
    """The options as given (only what differs from the rule set's defaults)."""

    @cached_property
    def name(self) -> str:
        """The rule set's name, as a record's ``variant``."""
        return self.ruleset.name

    @cached_property
    def removed(self) -> int:
        """Mask of the cards removed from the rule set's deck for this player count (a name
        listed twice: both decks' copies).

        >>> from barbu.cards import card_name, cards_of
        >>> [card_name(c) for c in cards_of(rules("french-two-decks", {"tarot_king": True}).removed)]
        ['KH', '2C']
        >>> [card_name(c) for c in cards_of(rules("french-two-decks").removed)]
        ['2C', '2C']
        """
        names = self.ruleset.removed.get(self.players, ())
        if self.flags.tarot_king:
            names = self.ruleset.tarot_removed[self.players]
        m = 0
        for text in names:
            c = card(text)
            m |= 1 << (c + TWIN if m >> c & 1 else c)
        return m

    @cached_property
    def twin(self) -> bool:
        """Whether two decks are played: a card and its copy (:data:`barbu.cards.TWIN`)
        are the same card for every rule, and equal cards go to the last one played."""
        return self.ruleset.decks == 2

    @cached_property
    def deck(self) -> int:
        """Mask of the cards in play."""
        m = 0
        for s in range(4):
            for r in range(self.ruleset.low_rank, 13):
                m |= 1 << make_card(s, r)
        if self.twin:
            m = twin_mask(m)
        return m & ~self.removed

    @cached_property
    def deck_cards(self) -> tuple[int, ...]:
        """The cards in play, in ascending order."""
        return tuple(c for c in range(52 * self.ruleset.decks) if self.deck >> c & 1)

    @cached_property
    def deck_bits(self) -> tuple[int, ...]:
        """``1 << card`` for each card of :attr:`deck_cards`, in the same order (for dealing)."""
        return tuple(1 << c for c in self.deck_cards)

    @cached_property
    def cards_each(self) -> int:
        """Cards per player: also ``N``, the number of tricks."""
        return self.deck.bit_count() // self.players

    @cached_property
    def schedule(self) -> Schedule:
        """Which contracts each declarer names (:mod:`barbu.schedule`), under the flags."""
        return self.ruleset.schedule.under(self.flags)

    @cached_property
    def contracts(self) -> tuple[Contract, ...]:
        """The contracts in table order (french: its fixed order), with the alternatives
        that the flags choose in place of the contracts they replace."""
        chosen = {old: new for flag, (old, new) in self.ruleset.alternatives.items() if getattr(self.flags, flag)}
        table = tuple(chosen.get(c.id, c) for c in self.ruleset.contracts[self.players])
        return self.schedule.select(table, self.flags.first_five_only)

    @cached_property
    def contracts_per_declarer(self) -> int:
        """``K``: how many deals each seat declares."""
        return self.schedule.per_declarer(self.contracts)

    @cached_property
    def sign(self) -> int:
        """+1 where a higher total is better, -1 where the rule set scores penalty points
        (``french``): ``sign * points`` is what a seat wants high.

        >>> rules("classic").sign, rules("french").sign
        (1, -1)
        """
        return -1 if self.ruleset.penalty_points else 1

    @cached_property
    def deal_count(self) -> int:
        """The number of deals of a whole game (``n · K``)."""
        return self.players * self.contracts_per_declarer

    @cached_property
    def direction(self) -> int:
        """+1 for clockwise play, -1 for anticlockwise (``king``)."""
        return self.ruleset.direction

    @cached_property
    def doubling(self) -> bool:
        """Whether deals have a call phase."""
        return self.ruleset.doubling

    @cached_property
    def domino_ranks(self) -> tuple[int, ...]:
        """The ranks a declarer may name in domino."""
        ranks = range(self.ruleset.low_rank, 13)
        if self.flags.removed_card_rule == "forbid_rank":
            removed = self.removed
            removed |= removed >> TWIN
            return tuple(r for r in ranks if not any(removed >> make_card(s, r) & 1 for s in range(4)))
        return tuple(ranks)

    @cached_property
    def derived(self) -> dict[Hashable, Any]:
        """Values other modules derive from these rules alone, kept with them: made once
        per rule set and dropped with it (:mod:`barbu.deal` keeps a deal's trick rules
        here, by contract and trump)."""
        return {}

    @cached_property
    def domino_openers(self) -> int:
        """The cards that may open a domino deal: those of the ranks of :attr:`domino_ranks`
        (RULES.md §5: french opens with a card whose rank may be named), in one deck."""
        openers = 0
        for r in self.domino_ranks:
            openers |= rank_mask(r)
        return openers

    @cached_property
    def shape(self) -> DealShape:
        """The facts scoring needs."""
        return DealShape(
            players=self.players,
            tricks=self.cards_each,
            deck=self.deck,
            domino_values=self.flags.domino_values,
            ravage_city_total=self.flags.ravage_city_total,
        )

    def contract(self, contract_id: str) -> Contract:
        """The contract of this rule set with id ``contract_id``."""
        for c in self.contracts:
            if c.id == contract_id:
                return c
        allowed = ", ".join(c.id for c in self.contracts)
        raise OptionsError(
            N_(
                "{contract} is not a contract of {variant}; its contracts are {allowed}",
                contract=repr(contract_id),
                variant=self.name,
                allowed=allowed,
            )
        )

    def declarer_of(self, deal_index: int, first_declarer: int) -> int:
        """The declarer of deal ``deal_index`` (0-based), RULES.md §2.2."""
        step = deal_index
        if not self.ruleset.fixed_rotation and self.flags.rotation == "block":
            step = deal_index // self.contracts_per_declarer
        return (first_declarer + self.direction * step) % self.players

    def leader_of(self, declarer: int) -> int:
        """The seat that leads to the first trick (and plays first in domino): the declarer,
        or with ``contract_choice`` the player before the dealer.

        >>> rules("french").leader_of(1), rules("french", {"contract_choice": "chooser"}).leader_of(1)
        (1, 3)
        """
        return (declarer + self.direction * self.schedule.lead_offset) % self.players

    def chooser_adjustment(self, raw: Sequence[int], declarer: int) -> list[int]:
        """What ``contract_choice: "chooser_doubled"`` adds to a deal's raw scores: the
        chooser's (the declarer's) points are doubled, its negative points halved (rounded
        toward zero); nothing otherwise.

        >>> r = rules("french", {"contract_choice": "chooser_doubled"})
        >>> r.chooser_adjustment([20, 0, 60, 0], 0), r.chooser_adjustment([0, -15, 0, 0], 1)
        ([20, 0, 0, 0], [0, 8, 0, 0])
        """
        out = [0] * len(raw)
        if self.flags.contract_choice == "chooser_doubled":
            points = raw[declarer]
            out[declarer] = points if points > 0 else -(-points // 2) - points
        return out

    @cached_property
    def adjustments_add_up_to_zero(self) -> bool:
        """Whether every deal's adjustments sum to 0, so final scores add up as raw scores do
        (false with ``contract_choice: "chooser_doubled"``).

        >>> rules("french").adjustments_add_up_to_zero
        True
        """
        return self.flags.contract_choice != "chooser_doubled"

    def scheduled_contract(self, deal_index: int) -> Contract | None:
        """The contract fixed by the schedule (``french``), else None."""
        return self.schedule.fixed(self.contracts, deal_index, self.players)

    def available(self, own: Sequence[Contract], everyone: Sequence[Contract]) -> list[Contract]:
        """The contracts a declarer may name, given those it named so far (``own``) and
        those every seat named so far (``everyone``).

        >>> r = rules("king")
        >>> rifki = r.contract("king-no-king")
        >>> [c.id for c in r.available([], [rifki, rifki])][:2]
        ['king-no-queens', 'king-no-boys']
        """
        return self.schedule.available(self.contracts, own, everyone)

    def total(self, contract: Contract) -> int:
        """The contract total ``T`` under these rules."""
        return contract.total(self.shape)

    def game_total(self) -> int:
        """The sum of all raw scores of a whole game (0 where the rule set is zero-sum)."""
        return self.schedule.game_total(self.contracts, self.shape)

    def set_total(self) -> int | None:
        """The sum of one declarer's set, or None where sets differ (``king``)."""
        return self.schedule.set_total(self.contracts, self.shape)

    def as_options(self) -> dict[str, Any]:
        """The options as a record writes them."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()}


def rules(variant: str = "classic", options: Mapping[str, Any] | None = None) -> Rules:
    """Resolve a rule set name and ``options`` (RULES.md §6) into :class:`Rules`.

    Raises :class:`OptionsError` for an unknown rule set, an unknown flag, a bad value
    or a flag that does not apply to the rule set.
    """
    if not isinstance(variant, str) or variant not in RULE_SETS:
        raise OptionsError(
            N_("unknown variant {variant}; rule sets are: {names}", variant=repr(variant), names=", ".join(RULE_SETS))
        )
    rs = RULE_SETS[variant]
    opts = dict(options or {})
    for name in opts:
        if name not in FLAG_NAMES:
            raise OptionsError(
                N_("unknown flag {flag}; flags are: {names}", flag=repr(name), names=", ".join(FLAG_NAMES))
            )
    players = rs.player_counts[0]
    if "player_count" in opts:
        n = opts["player_count"]
        if len(rs.player_counts) == 1:
            raise OptionsError(
                N_("player_count does not apply to {variant}: it always has {n} players", variant=variant, n=players)
            )
        if not _is_int(n) or n not in rs.player_counts:
            counts = ", ".join(str(c) for c in sorted(rs.player_counts))
            raise OptionsError(
                N_(
                    "player_count {value} is not allowed in {variant}: use one of {counts}",
                    value=_shown(n),
                    variant=variant,
                    counts=counts,
                )
            )
        players = n
    flags = replace(Flags(), **rs.flag_defaults.get(players, {}))
    base = Rules(ruleset=rs, players=players, flags=flags, options={})
    updates: dict[str, Any] = {}
    for name, value in opts.items():
        if name == "player_count":
            continue
        _refuse_idle(base, name)
        updates[name] = _check_value(base, name, value)
    flags = replace(flags, **updates)
    return Rules(ruleset=rs, players=players, flags=flags, options=opts)


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs into an options dict; values are JSON (``true``, ``5``, ``"quick"``)
    or bare words taken as strings.

    >>> parse_options(["rotation=quick", "compulsory_doubles=1", "domino_values=[40,20,5,0]"])
    {'rotation': 'quick', 'compulsory_doubles': 1, 'domino_values': [40, 20, 5, 0]}
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise OptionsError(N_("options are written key=value, e.g. rotation=quick, not {pair}", pair=repr(pair)))
        key, _, value = pair.partition("=")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


TRUMP_FLAGS = ("must_trump_when_void", "overtrump_required", "undertrump_required")
"""The flags of trick play under a trump suit."""
REFUSED_WHERE_IDLE = frozenset(
    {
        *DOUBLING_FLAGS,
        "rotation",
        "first_five_only",
        "ravage_city_total",
        "seventh_and_last",
        "contract_choice",
        "tarot_king",
    }
)
"""The flags a rule set refuses where they have no effect (RULES.md §6, Validity); the
others are accepted by every rule set, without effect where nothing reads them."""


def _shown(value: Any) -> str:
    """A flag value as the person wrote it: JSON (``true``, ``null``, ``[1, 2]``), a text quoted.

    >>> _shown(True), _shown(None), _shown("quick")
    ('true', 'null', "'quick'")
    """
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def applicable_flags(r: Rules) -> frozenset[str]:
    """The flags of RULES.md §6 that can change something in ``r``, derived from its
    contracts (and the alternatives its data offers), its doubling, its rotation and its
    schedule (never from its name).

    >>> sorted(applicable_flags(rules("king")))  # doctest: +NORMALIZE_WHITESPACE
    ['early_end', 'forced_penalty', 'heart_lead', 'must_trump_when_void', 'overtrump_required',
     'seventh_and_last', 'undertrump_required']
    >>> "ravage_city_total" in applicable_flags(rules("ravage-city"))
    True
    """
    out: set[str] = set(r.schedule.reads_flags) | set(r.ruleset.alternatives)
    if r.doubling:
        out.update(DOUBLING_FLAGS)
    if not r.ruleset.fixed_rotation:
        out.add("rotation")
    for c in r.contracts:
        out.update(c.reads_flags)
        if c.heart_lead_rule:
            out.add("heart_lead")
        if c.names_trump:
            out.update(TRUMP_FLAGS)
        if c.ends_early:
            out.add("early_end")
        if c.play == "tricks" and c.penalty_cards(r.deck):
            out.add("forced_penalty")
    if r.ruleset.tarot_removed:
        out.add("tarot_king")
    if not r.removed:
        out.discard("removed_card_rule")
    return frozenset(out)


def _refuse_idle(r: Rules, name: str) -> None:
    """Refuse flag ``name`` where it is in :data:`REFUSED_WHERE_IDLE` and has no effect in ``r``."""
    if name not in REFUSED_WHERE_IDLE or name in applicable_flags(r):
        return
    where = [n for n in RULE_SETS if name in applicable_flags(rules(n))]
    listed = " and ".join([", ".join(where[:-1]), where[-1]] if len(where) > 1 else where)
    raise OptionsError(
        N_("{flag} does not apply to {variant}: it applies to {listed} only", flag=name, variant=r.name, listed=listed)
    )


def _check_value(base: Rules, name: str, value: Any) -> Any:
    players = base.players
    default = getattr(Flags(), name)
    if name in FLAG_CHOICES:
        if value not in FLAG_CHOICES[name]:
            allowed = ", ".join(repr(c) for c in FLAG_CHOICES[name])
            raise OptionsError(
                N_("{flag} cannot be {value}: use one of {allowed}", flag=name, value=_shown(value), allowed=allowed)
            )
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise OptionsError(N_("{flag} must be true or false, not {value}", flag=name, value=_shown(value)))
        return value
    if name == "compulsory_doubles":
        k = base.contracts_per_declarer
        if not _is_int(value) or not 0 <= value <= k:
            raise OptionsError(
                N_(
                    "compulsory_doubles must be an integer from 0 to {k}, not {value}",
                    k=k,
                    value=_shown(value),
                )
            )
        return value
    if name == "ravage_city_total":
        if not _is_int(value) or value >= 0 or value % 12:
            raise OptionsError(
                N_(
                    "ravage_city_total must be a negative multiple of 12 (e.g. -24, -36), not {value}",
                    value=_shown(value),
                )
            )
        return value
    if name == "domino_values":
        if not isinstance(value, list | tuple) or len(value) != players or not all(_is_int(v) for v in value):
            raise OptionsError(
                N_(
                    "domino_values must be a list of {n} integers (one per placing), not {value}",
                    n=players,
                    value=_shown(value),
                )
            )
        return tuple(value)
    raise OptionsError(  # pragma: no cover - every flag is typed above
        N_("{flag} cannot be {value}", flag=name, value=_shown(value))
    )


def rank_names(ranks: tuple[int, ...]) -> list[str]:
    """Rank letters of rank indexes."""
    return [RANKS[r] for r in ranks]
