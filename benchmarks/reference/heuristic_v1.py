"""FROZEN REFERENCE, for measurement only: the ``heuristic`` bot as it was before issue 14.

This file is a verbatim copy of ``src/barbu/bots/card_play.py`` and
``src/barbu/bots/heuristic.py`` at commit a058f01 (the bot renamed ``HeuristicBotV1``,
its name ``heuristic-v1``), kept so that ``benchmarks/bench_heuristic.py`` can compare
the current ``heuristic`` level with it again on duplicate deals. It is not part of the
package (nothing under ``src/`` imports it) and must not be edited or tuned: it is the
yardstick. The hand estimates, Domino and Chinese-poker rules it imports from
``barbu.bots`` were not changed by issue 14 (if they ever are, copy them here first).
"""

# ruff: noqa: E402, I001
from __future__ import annotations


from collections.abc import Sequence

from barbu.cards import SUIT_MASKS, cards_of
from barbu.contracts import Contract
from barbu.deal import Deal
from barbu.doubling import Pair
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay


def contract_costs(contract: Contract, table: Rules) -> tuple[list[float], list[float], str]:
    """What each card and each trick costs its taker in ``contract``, and how to play it,
    from the contract's own :meth:`~barbu.contracts.Contract.play_facts`.

    Returns ``(card_cost, trick_cost, kind)``: 52 card costs, ``N`` trick costs (by
    trick index) in the taker's points (a negative cost is a gain), and ``kind``:
    ``domino`` or ``arrange`` for contracts not played to tricks, ``ravage`` where the
    longest suit taken costs, ``take`` where every trick is a gain, else ``avoid``.

    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> cards, tricks, kind = contract_costs(r.contract("no-hearts"), r)
    >>> kind, cards[card("AH")], cards[card("2H")], tricks[0]
    ('avoid', 6.0, 2.0, 0.0)
    >>> contract_costs(r.contract("trumps"), r)[1][0], contract_costs(r.contract("trumps"), r)[2]
    (-5.0, 'take')
    """
    facts = contract.play_facts(table.shape)
    sign = float(table.sign)
    cost = [-sign * v if v else 0.0 for v in facts.cards]
    trick = [-sign * v if v else 0.0 for v in facts.tricks]
    if contract.play != "tricks":
        return cost, trick, contract.play
    if facts.longest_suit:
        return cost, trick, "ravage"
    return cost, trick, "take" if trick and all(x < 0 for x in trick) else "avoid"


CachedCosts = tuple[list[float], list[float], str, int, int, list[bool]]
_CACHED_COSTS: dict[tuple[Contract, int, int, int], CachedCosts] = {}


def cached_costs(contract: Contract, table: Rules) -> CachedCosts:
    """:func:`contract_costs` with the masks of the cards that cost something (``costly``)
    and of those that hurt (``positive``), and per trick index whether a later trick
    hurts; worked out once per contract and table shape (the lists are shared: read only)."""
    key = (contract, table.sign, table.cards_each, table.deck)
    costs = _CACHED_COSTS.get(key)
    if costs is None:
        card_cost, trick_cost, kind = contract_costs(contract, table)
        costly = sum(1 << c for c in range(52) if card_cost[c] != 0)
        positive = sum(1 << c for c in range(52) if card_cost[c] > 0)
        later = [any(x > 0 for x in trick_cost[i + 1 :]) for i in range(len(trick_cost))]
        costs = _CACHED_COSTS[key] = (card_cost, trick_cost, kind, costly, positive, later)
    return costs


class PlayGuide:
    """A deal's contract and pairs, as costs and cares for the card-play rules.

    ``care[p][q]`` is how much seat ``p``'s final score moves with one point of seat
    ``q``'s raw score: ``1 + Σ multipliers`` for itself, ``-multiplier`` for each seat
    it has a business pair with, 0 otherwise (RULES.md §2.10). ``costly`` is the mask
    of the cards with a cost, ``positive`` of those that hurt their taker, and
    ``later_trick_costs[i]`` whether a trick after trick ``i`` hurts its taker.
    """

    __slots__ = (
        "card_cost",
        "care",
        "costly",
        "deck",
        "kind",
        "later_trick_costs",
        "players",
        "positive",
        "ravage_total",
        "sign",
        "trick_cost",
        "tricks",
    )

    def __init__(self, contract: Contract, table: Rules, pairs: Sequence[Pair] = ()) -> None:
        (
            self.card_cost,
            self.trick_cost,
            self.kind,
            self.costly,
            self.positive,
            self.later_trick_costs,
        ) = cached_costs(contract, table)
        self.sign = float(table.sign)
        self.deck = table.deck
        self.players = n = table.players
        self.tricks = table.cards_each
        self.ravage_total = -self.sign * table.flags.ravage_city_total
        care = [[0.0] * n for _ in range(n)]
        for p in range(n):
            care[p][p] = 1.0
        for pair in pairs:
            a, b, m = pair.doubler, pair.doubled, float(pair.multiplier)
            care[a][a] += m
            care[b][b] += m
            care[a][b] -= m
            care[b][a] -= m
        self.care = care

    @classmethod
    def of(cls, deal: Deal) -> PlayGuide:
        """The guide of a deal whose contract is named (with its pairs so far)."""
        assert deal.contract is not None
        return cls(deal.contract, deal.rules, deal.pairs())

    def utility(self, seat: int, raw: list[int]) -> float:
        """Seat's final score (raw plus its pairs' adjustments) in its own points (higher is better)."""
        row = self.care[seat]
        return self.sign * sum(row[q] * raw[q] for q in range(self.players))


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _below(c: int) -> int:
    return (1 << c) - 1


def _above(c: int) -> int:
    return ((1 << 52) - 1) & ~((2 << c) - 1)


def choose_card(t: TrickPlay, seat: int, guide: PlayGuide) -> int:
    """A card for ``seat`` (the seat to act) by the rules of thumb of the guide's contract.

    Reads only ``t.hands[seat]`` and the public state of ``t``.
    """
    legal = t.legal_mask()
    if not legal & (legal - 1):
        return _lowest(legal)
    if guide.kind == "take":
        return _take(t, seat, legal, guide)
    return _avoid(t, seat, legal, guide)


def _trick_mask(trick: list[int]) -> int:
    m = 0
    for c in trick:
        m |= 1 << c
    return m


def _cost_of(mask: int, cost: list[float]) -> float:
    total = 0.0
    while mask:
        low = mask & -mask
        total += cost[low.bit_length() - 1]
        mask ^= low
    return total


def _ravage_cost(t: TrickPlay, seat: int, suit: int, cards_in_suit: int, guide: PlayGuide) -> float:
    """Rough cost of taking a trick in Ravage City: growing one's longest suit hurts."""
    mask = SUIT_MASKS[suit]
    mine = (t.captured[seat] & mask).bit_count() + cards_in_suit
    others = 0  # the longest suit another seat has taken
    for s, cap in enumerate(t.captured):
        if s != seat and cap:
            for m in SUIT_MASKS:
                k = (cap & m).bit_count()
                if k > others:
                    others = k
    margin = mine - others
    return guide.ravage_total / t.players * (0.3 + max(0.0, min(1.0, (margin + 3) / 4)))


# -- avoiding tricks and penalty cards --------------------------------------------------


def _avoid(t: TrickPlay, seat: int, legal: int, g: PlayGuide) -> int:
    hand = t.hands[seat]
    trick = t.trick
    cost = g.card_cost
    index = len(t.winners)
    in_trick = _trick_mask(trick)
    out = g.deck & ~(t.played | in_trick | hand)
    if not trick:
        return _avoid_lead(t, seat, legal, out, g)
    led_mask = SUIT_MASKS[trick[0] // 13]
    follow = legal & led_mask
    last = len(trick) == t.players - 1
    high = (in_trick & led_mask).bit_length() - 1
    if g.kind == "ravage":
        trick_cost = _ravage_cost(t, seat, trick[0] // 13, (in_trick & led_mask).bit_count() + 1, g)
    else:
        trick_cost = g.trick_cost[index]
    penalty_now = trick_cost + sum(cost[c] for c in trick)
    if follow:
        under = follow & _below(high)
        over = follow & ~under
        if under:
            best = _highest(under)
            if last and over and penalty_now <= 0 and trick_cost <= 0:
                # Free trick: shed the highest harmless card while it costs nothing.
                shed = max((c for c in cards_of(over) if cost[c] <= 0), default=-1)
                if shed >= 0 and _future_risk(t, g, index):
                    return shed
            return best
        # The cheapest card, the highest of equal costs (the lowest when a costly trick
        # may still go to a higher card out); free cards all cost the same.
        low_first = not last and penalty_now > 0 and out & led_mask & _above(_lowest(follow))
        if not follow & g.costly:
            return _lowest(follow) if low_first else _highest(follow)
        cards = cards_of(follow)
        if low_first:
            return min(cards, key=lambda c: (cost[c], c))
        return min(cards, key=lambda c: (cost[c], -c))
    return _avoid_discard(t, seat, legal, out, g)


def _future_risk(t: TrickPlay, g: PlayGuide, index: int) -> bool:
    """Whether tricks after this one can still cost something."""
    if g.kind == "ravage":
        return True
    if g.later_trick_costs[index]:
        return True
    return bool(g.deck & ~t.played & g.positive)


def _avoid_discard(t: TrickPlay, seat: int, legal: int, out: int, g: PlayGuide) -> int:
    cost = g.card_cost
    penalty = legal & g.positive
    if penalty:
        # Dump the costliest at once. Waiting for a trick won by a seat one is in business
        # with (so that the pair pays too) measured worse: the card too often stays.
        return max(cards_of(penalty), key=lambda c: (cost[c], c))
    cards = cards_of(legal)
    hand = t.hands[seat]
    best, best_danger = cards[0], -1.0
    for c in cards:
        mask = SUIT_MASKS[c // 13]
        out_s = out & mask
        if not out_s:
            danger = 1.0 + c % 13 / 100
        else:
            beaten = (out_s & _below(c)).bit_count()
            cover = (hand & mask & _below(c)).bit_count()
            danger = beaten / (out_s.bit_count() * (1 + cover)) + c % 13 / 100
        danger -= max(0.0, -cost[c]) / 10
        if danger > best_danger:
            best, best_danger = c, danger
    return best


def _avoid_lead(t: TrickPlay, seat: int, legal: int, out: int, g: PlayGuide) -> int:
    cost = g.card_cost
    costly = g.costly
    index = len(t.winners)
    tricks_left = g.tricks - index
    penalty_out = _cost_of(out & costly, cost)
    per_trick = max(0.0, penalty_out) / max(1, tricks_left)
    hand = t.hands[seat]
    n = t.players
    best, best_score = -1, 0.0
    ravage = g.kind == "ravage"
    for s in range(4):
        mask = SUIT_MASKS[s]
        mine = legal & mask
        if not mine:
            continue
        out_s = out & mask
        trick_cost = _ravage_cost(t, seat, s, n, g) if ravage else g.trick_cost[index]
        if not out_s:
            # The cheapest card, the highest of equal costs.
            cand = min(cards_of(mine), key=lambda c: (cost[c], -c)) if mine & costly else mine.bit_length() - 1
            p_win = 1.0
            pen = per_trick * (n - 1)
        else:
            safe = mine & ((out_s & -out_s) - 1)
            if safe:
                cand = safe.bit_length() - 1
                p_win = 0.05 if out_s.bit_count() >= n - 1 else 0.3
            else:
                cand = (mine & -mine).bit_length() - 1
                lo = (out_s & ((1 << cand) - 1)).bit_count()
                hi = out_s.bit_count() - lo
                p_win = (lo / (lo + hi)) ** 2 if hi else 1.0
            taken = out_s & costly & ((1 << cand) - 1)
            pen = (_cost_of(taken, cost) if taken else 0.0) * 0.5 + per_trick * 0.5
        score = p_win * (trick_cost + cost[cand] + pen)
        # Leading under outstanding penalty cards of the suit drives them out.
        driven = out_s & costly & ~((2 << cand) - 1)
        score -= 0.15 * (_cost_of(driven, cost) if driven else 0.0) * (1.0 - p_win)
        # Our own higher cards of the suit may be caught later by those penalties.
        score += 0.1 * (hand & mask & ~((2 << cand) - 1)).bit_count() * max(0.0, trick_cost + per_trick)
        # Shorter suits first: a void brings discards.
        score += 0.02 * mine.bit_count()
        if best < 0 or score < best_score:
            best, best_score = cand, score
    return best


# -- taking tricks -------------------------------------------------------------------


def _take(t: TrickPlay, seat: int, legal: int, g: PlayGuide) -> int:
    hand = t.hands[seat]
    trick = t.trick
    trump = t.trump
    trump_mask = SUIT_MASKS[trump] if trump is not None else 0
    out = g.deck & ~(t.played | _trick_mask(trick) | hand)
    if not trick:
        return _take_lead(hand, legal, out, trump_mask)
    led_mask = SUIT_MASKS[trick[0] // 13]
    trumps_in = [c for c in trick if (1 << c) & trump_mask]
    cur = max(trumps_in) if trumps_in else max(c for c in trick if (1 << c) & led_mask)
    last = len(trick) == t.players - 1
    follow = legal & led_mask
    if follow:
        if trumps_in and led_mask != trump_mask:
            return _lowest(follow)
        beat = follow & _above(cur)
        if not beat:
            return _lowest(follow)
        if last:
            return _lowest(beat)
        out_s = out & led_mask
        masters = beat & _above(_highest(out_s)) if out_s else beat
        if masters:
            return _lowest(masters)
        return _lowest(follow)
    ruffs = legal & trump_mask
    if ruffs:
        winners = ruffs & _above(cur) if trumps_in else ruffs
        if winners:
            return _lowest(winners)
        others = legal & ~trump_mask
        return _weakest(others, out) if others else _lowest(ruffs)
    return _weakest(legal, out)


def _weakest(cards: int, out: int) -> int:
    """The least useful card to throw: not a master, from the shortest suit, lowest."""
    best, key = -1, (9, 99, 99)
    for c in cards_of(cards):
        mask = SUIT_MASKS[c // 13]
        out_s = out & mask
        master = 1 if not out_s or c > _highest(out_s) else 0
        k = (master, (cards & mask).bit_count(), c % 13)
        if k < key:
            best, key = c, k
    return best


def _take_lead(hand: int, legal: int, out: int, trump_mask: int) -> int:
    mine_trumps = legal & trump_mask
    out_trumps = out & trump_mask
    if mine_trumps and out_trumps:
        inner = _inner_sequence(mine_trumps, out)
        if inner >= 0:
            return inner
        top = _highest(mine_trumps)
        if top > _highest(out_trumps):
            return top
        if mine_trumps.bit_count() >= 4 or mine_trumps.bit_count() > out_trumps.bit_count():
            return _lowest(mine_trumps)
    best, best_key = -1, (-1, -1)
    for s in range(4):
        mask = SUIT_MASKS[s]
        mine = legal & mask & ~trump_mask
        out_s = out & mask
        if mine and out_s and _highest(mine) > _highest(out_s):
            k = (out_s.bit_count(), mine.bit_count())
            if k > best_key:
                best, best_key = _highest(mine), k
    if best >= 0:
        return best
    side = legal & ~trump_mask or legal
    inner = _inner_sequence(side, out)
    if inner >= 0:
        return inner
    longest = max(range(4), key=lambda s: ((side & SUIT_MASKS[s]).bit_count(), s))
    return _lowest(side & SUIT_MASKS[longest])


def _inner_sequence(mine: int, out: int) -> int:
    """The top of a run of three or more touching cards (played cards between them do
    not count) with one or two outstanding honours just above it, as the jack of
    A J 10 9 under K Q; -1 if none.

    Leading it forces the honours out while the rest of the run takes later tricks.
    """
    best, best_len = -1, 2
    for s in range(4):
        mask = SUIT_MASKS[s]
        cards = cards_of(mine & mask)[::-1]
        out_s = out & mask
        i = 0
        while i < len(cards):
            j = i
            while j + 1 < len(cards) and not (out_s & _below(cards[j]) & _above(cards[j + 1])):
                j += 1
            length = j - i + 1
            top = cards[i]
            above = (out_s & _above(top)).bit_count()
            if length > best_len and 1 <= above <= 2 and top % 13 >= 7:
                best, best_len = top, length
            i = j + 1
    return best


import random
from dataclasses import dataclass

from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.bots.chinese_poker import best_arrangement
from barbu.bots.domino_play import best_rank
from barbu.bots.errors import BotError
from barbu.bots.estimates import SEAT_EDGE, best_trump, hand_edge
from barbu.cards import RANKS, SUITS, mask_of
from barbu.doubling import skip_split
from barbu.unseen import deal_from_view, forced_of, hidden_cards, sample_hands, view_rules
from barbu.view import SeatView

DECLARER_EDGE = 0.15
"""How much better than an even share (as a fraction of ``|T|/n``) a declarer is assumed to do."""
DOUBLER_EDGE = 0.1
"""The same for a seat that doubled of its own will."""
DOUBLE_MARGIN = 0.15
"""Expected lead (fraction of ``|T|/n``) needed to double a seat that may redouble."""


class HeuristicBotV1:
    """Rules of thumb for every decision; see the module docstring.

    ``seed`` only places the cards the seat cannot see when the deal is rebuilt for
    the card-play rules, which never read them, so its choices do not depend on it.
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "heuristic-v1"
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        """The action for ``view``'s seat (which must be to act)."""
        table = view_rules(view)
        phase = view.phase
        if phase == "arrange":
            return Arrange(best_arrangement(mask_of(view.hand)))
        legal = view.legal_actions
        if not legal:
            raise BotError(f"seat {view.seat} has nothing to do now (phase {phase}, seat {view.to_act} to act)")
        if len(legal) == 1:
            return legal[0]
        if phase == "contract":
            return choose_contract(view, table)
        if phase == "trump":
            assert view.contract is not None
            return NameTrump(best_trump(mask_of(view.hand), table.contract(view.contract), table)[0])
        if phase == "rank":
            removed = table.removed if table.flags.removed_card_rule == "laid" else 0
            return NameRank(best_rank(mask_of(view.hand), table.domino_ranks, table.ruleset.low_rank, removed))
        if phase == "call":
            return choose_call(view, table)
        return self.play(view, table)

    def play(self, view: SeatView, table: Rules) -> Play | Pass:
        """A card (or a domino pass) by the card-play rules of thumb."""
        assert view.seat is not None
        hidden = hidden_cards(view, table)
        deal = conceal(deal_from_view(view, sample_hands(hidden, self.rng), table, hidden), view.seat)
        return play_by_rules(deal, view.seat)


def conceal(deal: Deal, seat: int) -> Deal:
    """Blank every hand but ``seat``'s in the deal's play state, so the rules of thumb cannot read them."""
    play = deal.tricks if deal.tricks is not None else deal.domino
    if play is not None:
        play.hands = [h if s == seat else 0 for s, h in enumerate(play.hands)]
    return deal


def play_by_rules(deal: Deal, seat: int, guide: PlayGuide | None = None) -> Play | Pass:
    """The rules-of-thumb card of ``seat`` (to act) in a deal in its play phase."""
    if deal.tricks is not None:
        return Play(choose_card(deal.tricks, seat, guide or PlayGuide.of(deal)))
    from barbu.bots.domino_play import choose_domino_card

    assert deal.domino is not None
    c = choose_domino_card(deal.domino, seat)
    return Pass() if c is None else Play(c)


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


def choose_contract(view: SeatView, table: Rules) -> Declare:
    """The declarer's contract: see :func:`contract_value`."""
    hand = mask_of(view.hand)
    forced = len(forced_of(view, table))
    options = [a for a in view.legal_actions if isinstance(a, Declare)]
    return max(options, key=lambda a: contract_value(hand, table.contract(a.contract), table, forced))


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


def choose_call(view: SeatView, table: Rules) -> Call:
    """Doubles and redoubles of ``view``'s seat; see :func:`pick_call`."""
    return pick_call(CallTurn.from_view(view, table), table)


def pick_call(turn: CallTurn, table: Rules) -> Call:
    """Doubles and redoubles by expected lead over each seat; see the module docstring."""
    seat, declarer, n = turn.seat, turn.declarer, table.players
    contract = turn.contract
    calls = turn.legal
    may_double = sorted({t for c in calls for t in c.double})
    may_redouble = sorted({t for c in calls for t in c.redouble})
    sign = float(table.sign)
    total = table.total(contract)
    share = sign * total / n
    unit = max(1.0, abs(share))
    seat_edge = SEAT_EDGE.get(contract.id, 0.0) * unit
    edge = hand_edge(turn.hand, contract, table, turn.trump, turn.rank, chooser=seat == declarer)
    mine = share + edge + (seat_edge if seat == declarer else -seat_edge / (n - 1))
    declarer_worth = share + seat_edge + DECLARER_EDGE * unit
    # What the other seats should make on average, given this hand and the declarer's edge.
    rest = (share * n - mine) / (n - 1) if seat == declarer else (share * n - mine - declarer_worth) / max(1, n - 2)

    def worth_of(t: int) -> float:
        return declarer_worth if t == declarer else rest

    doubles = [t for t in may_double if mine - worth_of(t) > DOUBLE_MARGIN * unit]
    if turn.must_double and turn.must_double[0] not in doubles:
        doubles.append(turn.must_double[0])
    if (
        may_double
        and not doubles
        and not turn.any_pair
        and contract.doubling_class == "negative"
        and contract.play != "arrange"
        and table.flags.skip_undoubled_negative
        and turn.last_to_double
    ):
        split = sign * skip_split(total, n, declarer)[seat]
        if mine > split:
            doubles.append(max(may_double, key=lambda t: mine - worth_of(t)))
    redoubles = []
    for t in may_redouble:
        was_forced = t in turn.forced and seat == declarer
        them = share if was_forced else share + DOUBLER_EDGE * unit
        if mine - them > (0.0 if was_forced else 0.05 * unit):
            redoubles.append(t)
    wanted = (tuple(sorted(doubles)), tuple(sorted(redoubles)))
    for c in calls:
        if (c.double, c.redouble) == wanted:
            return c
    # Not every combination is legal (round 2, compulsory doubles): the closest legal one.
    return max(calls, key=lambda c: len(set(c.double) & set(wanted[0])) + len(set(c.redouble) & set(wanted[1])))
