"""The rules of thumb that the heuristic's evaluation, the search and the expert simulate
the seats with: the card of a seat by the plain rules, the declarer's contract value by the
hand estimates, and the calls by expected lead.

- :func:`play_by_rules`: the card rules of :mod:`barbu.bots.card_play` and
  :mod:`barbu.bots.domino_play` on a deal (:func:`conceal` first blanks the hands the seat
  cannot see);
- :func:`contract_value`: how much declaring a contract now beats keeping it for a random
  hand later, from :mod:`barbu.bots.estimates`;
- :func:`pick_call`: doubles and redoubles of a :class:`CallTurn` by expected lead over each
  seat: double a seat when the hand should beat it by a margin (compulsory doubles always
  include the declarer); redouble a doubler the hand should beat, more readily when the
  double was forced; in a negative contract the last caller keeps the deal from being
  skipped when playing it pays better than the split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from barbu.actions import Call, Pass, Play
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.estimates import SEAT_EDGE, hand_edge
from barbu.cards import RANKS, SUITS, mask_of
from barbu.contracts import Contract
from barbu.deal import Deal
from barbu.doubling import skip_split
from barbu.rulesets import Rules
from barbu.unseen import forced_of
from barbu.view import SeatView

DECLARER_EDGE = 0.15
"""How much better than an even share (as a fraction of ``|T|/n``) a declarer is assumed to do."""
DOUBLER_EDGE = 0.1
"""The same for a seat that doubled of its own will."""
DOUBLE_MARGIN = 0.15
"""Expected lead (fraction of ``|T|/n``) needed to double a seat that may redouble."""


def conceal(deal: Deal, seat: int) -> Deal:
    """Blank every hand but ``seat``'s in the deal's play state, so the rules of thumb cannot read them."""
    play = deal.tricks if deal.tricks is not None else deal.domino
    if play is not None:
        play.hands = [h if s == seat else 0 for s, h in enumerate(play.hands)]
    return deal


def play_by_rules(deal: Deal, seat: int, guide: PlayGuide | None = None) -> Play | Pass:
    """The rules-of-thumb card of ``seat`` (to act) in a deal in its play phase, named by
    its face as the legal actions name it (two decks: ``c % 52``, the deal plays the copy held)."""
    if deal.tricks is not None:
        return Play(choose_card(deal.tricks, seat, guide or PlayGuide.of(deal)) % 52)
    from barbu.bots.domino_play import choose_domino_card

    assert deal.domino is not None
    c = choose_domino_card(deal.domino, seat)
    return Pass() if c is None else Play(c % 52)


# -- choosing the contract --------------------------------------------------------------


def contract_value(hand: int, contract: Contract, table: Rules, forced_doublers: int = 0) -> float:
    """How much declaring ``contract`` now beats keeping it for a random hand later.

    >>> from barbu.rulesets import rules
    >>> from barbu.cards import parse_pbn
    >>> r = rules("classic")
    >>> hand = parse_pbn("5432.5432.432.32")
    >>> contract_value(hand, r.contract("no-tricks"), r) > contract_value(hand, r.contract("trumps"), r)
    True
    """
    edge = hand_edge(hand, contract, table)
    if forced_doublers and edge > 0 and table.doubling:
        # Forced doublers pay the edge back (twice when redoubled).
        edge += forced_doublers * edge * table.players / (table.players - 1)
    return edge


# -- calls -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CallTurn:
    """What a seat knows when it calls: its hand, the contract, the calls so far, its legal calls."""

    seat: int
    declarer: int
    hand: int
    contract: Contract
    trump: int | None
    rank: int | None
    legal: tuple[Call, ...]
    must_double: tuple[int, ...]
    forced: frozenset[int]
    """Seats bound to double the declarer in this deal (public: RULES.md §2.7)."""
    any_pair: bool
    last_to_double: bool
    """Whether every other non-declarer has made its round-1 call."""

    @classmethod
    def from_view(cls, view: SeatView, table: Rules) -> CallTurn:
        """The call turn of ``view``'s seat."""
        assert view.seat is not None and view.declarer is not None and view.contract is not None
        called = {s for s, rnd, _, _ in view.calls if rnd == 1}
        return cls(
            seat=view.seat,
            declarer=view.declarer,
            hand=mask_of(view.hand),
            contract=table.contract(view.contract),
            trump=SUITS.index(view.trump) if view.trump is not None else None,
            rank=RANKS.index(view.rank) if view.rank is not None else None,
            legal=tuple(a for a in view.legal_actions if isinstance(a, Call)),
            must_double=tuple(view.must_double),
            forced=forced_of(view, table),
            any_pair=bool(view.pairs),
            last_to_double=all(s in called for s in range(view.players) if s not in (view.seat, view.declarer)),
        )

    @classmethod
    def from_deal(cls, deal: Deal, seat: int) -> CallTurn:
        """The call turn of ``seat`` (to call) in a deal (for simulated seats)."""
        doubling = deal.doubling
        assert doubling is not None and deal.contract is not None
        called = {c.seat for c in doubling.calls if c.round == 1}
        return cls(
            seat=seat,
            declarer=deal.declarer,
            hand=deal.hand(seat),
            contract=deal.contract,
            trump=deal.trump,
            rank=deal.rank,
            legal=tuple(a for a in deal.legal_actions() if isinstance(a, Call)),
            must_double=tuple(doubling.must_double(seat)),
            forced=deal.forced,
            any_pair=bool(doubling.pairs()),
            last_to_double=all(s in called for s in range(deal.players) if s not in (seat, deal.declarer)),
        )


def pick_call(turn: CallTurn, table: Rules) -> Call:
    """Doubles and redoubles by expected lead over each seat; see the module docstring."""
    plan = CallPlan(turn, table)
    return plan.call(plan.edge(turn.hand))


class CallPlan:
    """:func:`pick_call` for one call turn, worked out up to the hand: what the turn fixes
    (the legal calls, the shares, the declarer's worth) is read once, and :meth:`call` gives
    the call for a hand's edge (:meth:`edge`), the one thing a hand changes. A search that
    asks what a seat would have called in each of its worlds reads the turn once.

    >>> from barbu.actions import Call
    >>> from barbu.cards import parse_pbn
    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> turn = CallTurn(seat=1, declarer=0, hand=parse_pbn("AK2.AK2.AK32.AK2"), contract=r.contract("trumps"),
    ...     trump=0, rank=None, legal=(Call(), Call(double=(0,))), must_double=(), forced=frozenset(),
    ...     any_pair=False, last_to_double=False)
    >>> plan = CallPlan(turn, r)
    >>> plan.call(plan.edge(turn.hand)) == pick_call(turn, r)
    True
    """

    __slots__ = (
        "_calls",
        "contract",
        "declarer",
        "declarer_worth",
        "forced",
        "legal",
        "may_double",
        "may_redouble",
        "must_double",
        "rank",
        "seat",
        "seat_edge",
        "share",
        "skip",
        "split",
        "table",
        "trump",
        "unit",
    )

    def __init__(self, turn: CallTurn, table: Rules) -> None:
        self.table = table
        self.seat, self.declarer = turn.seat, turn.declarer
        self.contract, self.trump, self.rank = turn.contract, turn.trump, turn.rank
        self.legal = turn.legal
        self.must_double = turn.must_double
        self.forced = turn.forced
        self.may_double = sorted({t for c in turn.legal for t in c.double})
        self.may_redouble = sorted({t for c in turn.legal for t in c.redouble})
        sign = float(table.sign)
        total = table.total(turn.contract)
        self.share = sign * total / table.players
        self.unit = max(1.0, abs(self.share))
        self.seat_edge = SEAT_EDGE.get(turn.contract.id, 0.0) * self.unit
        self.declarer_worth = self.share + self.seat_edge + DECLARER_EDGE * self.unit
        self.skip = skip_would_apply(turn, turn.contract, table)
        self.split = sign * skip_split(total, table.players, turn.declarer)[turn.seat] if self.skip else 0.0
        self._calls: dict[float, Call] = {}
        """The calls worked out so far, by edge."""

    def edge(self, hand: int) -> float:
        """The edge of ``hand`` in this turn's contract (:func:`~barbu.bots.estimates.hand_edge`)."""
        return hand_edge(hand, self.contract, self.table, self.trump, self.rank, chooser=self.seat == self.declarer)

    def call(self, edge: float) -> Call:
        """The call of the turn's seat holding a hand of ``edge``."""
        found = self._calls.get(edge)
        if found is None:
            found = self._calls[edge] = self._call(edge)
        return found

    def _call(self, edge: float) -> Call:
        seat, declarer, n = self.seat, self.declarer, self.table.players
        share, unit, seat_edge, declarer_worth = self.share, self.unit, self.seat_edge, self.declarer_worth
        mine = share + edge + (seat_edge if seat == declarer else -seat_edge / (n - 1))
        # What the other seats should make on average, given this hand and the declarer's edge.
        rest = (share * n - mine) / (n - 1) if seat == declarer else (share * n - mine - declarer_worth) / max(1, n - 2)

        def worth_of(t: int) -> float:
            return declarer_worth if t == declarer else rest

        doubles = [t for t in self.may_double if mine - worth_of(t) > DOUBLE_MARGIN * unit]
        if self.must_double and self.must_double[0] not in doubles:
            doubles.append(self.must_double[0])
        if not doubles and self.skip and mine > self.split:
            doubles.append(max(self.may_double, key=lambda t: mine - worth_of(t)))
        redoubles = []
        for t in self.may_redouble:
            was_forced = t in self.forced and seat == declarer
            them = share if was_forced else share + DOUBLER_EDGE * unit
            if mine - them > (0.0 if was_forced else 0.05 * unit):
                redoubles.append(t)
        return closest_call(self.legal, doubles, redoubles)


def skip_would_apply(turn: CallTurn, contract: Contract, table: Rules) -> bool:
    """Whether this seat is the last who may double a negative contract nobody doubled, under the
    house rule that then skips the deal (``skip_undoubled_negative``): doubling saves it."""
    return (
        any(c.double for c in turn.legal)
        and not turn.any_pair
        and contract.doubling_class == "negative"
        and contract.play != "arrange"
        and table.flags.skip_undoubled_negative
        and turn.last_to_double
    )


def closest_call(calls: Sequence[Call], doubles: list[int], redoubles: list[int]) -> Call:
    """The legal call doubling ``doubles`` and redoubling ``redoubles``; when that one is not
    legal (the second round, compulsory doubles), the legal call sharing the most with it."""
    wanted = (tuple(sorted(doubles)), tuple(sorted(redoubles)))
    for c in calls:
        if (c.double, c.redouble) == wanted:
            return c
    return max(calls, key=lambda c: len(set(c.double) & set(wanted[0])) + len(set(c.redouble) & set(wanted[1])))
