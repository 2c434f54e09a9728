"""Rules of thumb for playing cards to tricks, per contract.

:class:`PlayGuide` turns a deal's contract and doubling into what each card and each
trick is worth to the seat that takes it (in the seat's own points: positive costs
hurt), and how much each seat cares about every other seat's raw score through the
business pairs. :func:`choose_card` then picks a card for the seat to act of a
:class:`~barbu.tricks.TrickPlay`, reading only that seat's hand and the public state
(cards played, the trick, tricks won), so the same code serves the heuristic bot and
the playouts of the search bot.

Negative contracts (no tricks, no hearts, no queens, no king, no last two, salad,
neither first nor last, the King negatives, Ravage City) are played by *avoiding*:
lead where others hold higher cards, duck under the winning card with the highest
card that stays under, win with the highest when a trick cannot be avoided, and
discard penalty cards (then the most dangerous high cards) when void. Positive
contracts (trumps, more tricks) are played by *taking*: draw trumps with master
trumps or lead the top of an inner sequence (the jack from A J 10 9), cash masters,
win as cheaply as possible, ruff with the lowest trump that wins.

>>> from barbu import Game
>>> from barbu.actions import Declare, Call
>>> game = Game.new("classic", seed=2)
>>> game.apply(Declare("no-queens"))
>>> for _ in range(3):
...     game.apply(Call(double=(game.current.declarer,)))
>>> game.apply(Call())
>>> deal = game.current
>>> guide = PlayGuide.of(deal)
>>> guide.kind, guide.card_cost[card("QS")], guide.care[deal.declarer][deal.declarer]
('avoid', 6.0, 4.0)
>>> choose_card(deal.tricks, deal.to_act, guide) in cards_of(deal.legal_mask())
True
"""

from __future__ import annotations

from collections.abc import Sequence

from barbu.cards import SUIT_MASKS, card, cards_of
from barbu.contracts import Contract
from barbu.deal import Deal
from barbu.doubling import Pair
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay

__all__ = ["PlayGuide", "card", "cards_of", "choose_card", "contract_costs"]


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
        costly = sum(1 << c for c in range(len(card_cost)) if card_cost[c] != 0)
        positive = sum(1 << c for c in range(len(card_cost)) if card_cost[c] > 0)
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
    if t.rules.twin:
        return _twin_card(t, legal, guide)
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


def _twin_card(t: TrickPlay, legal: int, g: PlayGuide) -> int:
    """The rules of thumb with two decks (``french-two-decks``), from the same costs: a card
    wins the trick if it beats or equals the best so far (equal cards go to the last played).

    Avoiding: lead the lowest card; follow with the highest card that does not win (the
    costliest such discard when void), else the lowest winner, or the highest when last to
    play. Taking: win with the highest card (the lowest winner when last), else play low.
    """
    trick = t.trick
    index = len(t.winners)
    cards = cards_of(legal)
    rank = [c % 13 for c in cards]
    lowest = min(range(len(cards)), key=lambda i: (rank[i], g.card_cost[cards[i]], cards[i]))
    if not trick:
        if g.kind == "take":
            return cards[max(range(len(cards)), key=lambda i: (rank[i], -cards[i]))]
        return cards[lowest]
    trump = t.rules.trump
    suit = trick[0] // 13 % 4
    if trump is not None and any(c // 13 % 4 == trump for c in trick):
        suit = trump
    best = max(c % 13 for c in trick if c // 13 % 4 == suit)
    at_stake = sum(g.card_cost[c] for c in trick) + (g.trick_cost[index] if index < len(g.trick_cost) else 0.0)

    def wins(c: int) -> bool:
        s = c // 13 % 4
        if s == suit:
            return c % 13 >= best
        return trump is not None and s == trump and suit != trump

    winners = [c for c in cards if wins(c)]
    losers = [c for c in cards if not wins(c)]
    last = len(trick) == t.players - 1
    take = g.kind == "take" or at_stake < 0
    if take and winners:
        pick = min if last else max
        return pick(winners, key=lambda c: (c % 13, -g.card_cost[c]))
    if losers:
        follows = any(c // 13 % 4 == trick[0] // 13 % 4 for c in losers)
        if take or not follows:  # a discard: shed the costliest card, then the highest
            return max(losers, key=lambda c: (g.card_cost[c], c % 13, -c))
        return max(losers, key=lambda c: (c % 13, -g.card_cost[c], -c))
    pick = max if last else min
    return pick(winners, key=lambda c: (c % 13 + g.card_cost[c], -c))
