"""What a hand is worth in each contract, before a card is played.

:func:`hand_worth` estimates a seat's raw score in a contract from its hand alone,
in the seat's own points (positive is good; in ``french`` penalty points count
against). The estimates are rules of thumb:

- **avoiding contracts**: each card's chance of winning a trick grows with the
  outstanding cards it beats and shrinks with the low cards that shelter it; a trick
  won costs the trick's value, the card's own penalty and a share of the outstanding
  penalties that fall on it. Under the heart-lead rule hearts are rarely led, so long
  hearts are discards rather than dangers;
- **trumps and more tricks**: honours, long trumps and ruffs in short side suits;
- **domino**: the cards others must lay before each of one's own (see
  :mod:`barbu.bots.domino_play`);
- **Chinese poker**: the worth of the best arrangement.

:func:`baseline` is the mean estimate over random hands (seeded, computed once per
rule set): choosing a contract now costs what the same contract would bring later
with a random hand, so a declarer compares ``hand_worth - baseline``, scaled to points
by :data:`EDGE_SCALE` (:func:`hand_edge`).

>>> from barbu.rulesets import rules
>>> from barbu.cards import parse_pbn
>>> r = rules("classic")
>>> low = parse_pbn("5432.5432.432.32")
>>> high = parse_pbn("AKQJ.AKQJ.AKQ.AK")
>>> hand_worth(low, r.contract("no-tricks"), r) > hand_worth(high, r.contract("no-tricks"), r)
True
>>> best_trump(high, r.contract("trumps"), r)[1] > best_trump(low, r.contract("trumps"), r)[1]
True
"""

from __future__ import annotations

import random

from barbu.bots.card_play import cached_costs
from barbu.bots.chinese_poker import candidate_arrangements
from barbu.bots.domino_play import best_rank, dependency
from barbu.cards import ACE, HEARTS, JACK, KING, QUEEN, SUIT_MASKS, TWIN_SUIT_MASKS, cards_of
from barbu.contracts import Contract
from barbu.rulesets import Flags, Rules
from barbu.tricks import TrickRules


def win_chances(hand: int, outstanding: int, players: int) -> list[tuple[int, float]]:
    """Each card of ``hand`` with its chance of winning a trick when others avoid winning.

    >>> from barbu.cards import parse_pbn, card_name
    >>> hand = parse_pbn("A...2")
    >>> [(card_name(c), round(p, 2)) for c, p in win_chances(hand, ((1 << 52) - 1) & ~hand, 4)]
    [('AS', 1.0), ('2C', 0.0)]
    """
    out: list[tuple[int, float]] = []
    for s in range(4):
        mask = SUIT_MASKS[s]
        mine = cards_of(hand & mask)
        out_s = outstanding & mask
        total = out_s.bit_count()
        for i, c in enumerate(mine):
            left = total - (players - 1) * i
            if left <= 0:
                out.append((c, 1.0))
                continue
            beaten = (out_s & ((1 << c) - 1)).bit_count()
            out.append((c, (beaten / total) ** (2 + i)))
    return out


def _avoid_cost(hand: int, contract: Contract, table: Rules) -> float:
    """Expected cost (own points) of a negative trick contract for ``hand``."""
    card_cost, trick_cost, kind, costly, _, _ = cached_costs(contract, table)
    n = table.players
    outstanding = table.deck & ~hand
    avg_trick = sum(trick_cost) / len(trick_cost)
    if kind == "ravage":
        avg_trick = -table.flags.ravage_city_total / n * table.sign / 3
    penalty_out = [0.0] * 4
    for c in cards_of(outstanding & costly):  # the other cards cost nothing
        penalty_out[c // 13 % 4] += card_cost[c]
    heart_rule = TrickRules.of(table, contract, None).heart_lead != "free"
    total = 0.0
    for c, p in win_chances(hand, outstanding, n):  # two decks: the first deck's cards, roughly
        s = c // 13
        out_s = outstanding & TWIN_SUIT_MASKS[s]
        if heart_rule and s == HEARTS:
            p *= 0.5
        below = 0.0
        for x in cards_of(out_s & costly & ((1 << c) - 1)):
            below += card_cost[x]
        others = sum(penalty_out) - penalty_out[s]
        fall = below * (n - 1) / max(out_s.bit_count(), n - 1) + 0.12 * others
        total += p * (avg_trick + card_cost[c] + fall)
        if kind == "ravage":
            total += p * (hand & SUIT_MASKS[s]).bit_count() * 0.3
    return total


def trump_tricks(hand: int, trump: int | None) -> float:
    """Expected tricks of ``hand`` with ``trump`` (None: no trump), by honours, length and ruffs.

    >>> from barbu.cards import parse_pbn
    >>> trump_tricks(parse_pbn("AKQJT9.A.K2.432"), 0) > trump_tricks(parse_pbn("AKQJT9.A.K2.432"), 1)
    True
    """
    tricks = 0.0
    trumps = 0
    if trump is not None:
        t = [c % 13 for c in cards_of(hand & SUIT_MASKS[trump])][::-1]
        trumps = len(t)
        for i, r in enumerate(t):
            honours_above = 12 - r  # cards above r in the suit
            if honours_above <= i:
                tricks += 1.0  # covered: everything above it is ours
            elif honours_above <= i + 1:
                tricks += 0.7
            elif honours_above <= i + 2 and trumps >= 3:
                tricks += 0.4
        tricks += max(0, trumps - 4) * 0.6
    spare = max(0, trumps - 3)
    for s in range(4):
        if s == trump:
            continue
        ranks = [c % 13 for c in cards_of(hand & SUIT_MASKS[s])][::-1]
        length = len(ranks)
        if ACE in ranks:
            tricks += 0.9
        if KING in ranks:
            tricks += 0.6 if length >= 2 else 0.25
        if QUEEN in ranks and length >= 3:
            tricks += 0.3
        if JACK in ranks and length >= 4:
            tricks += 0.15
        if trump is None and length > 4:
            tricks += 0.5 * (length - 4)
        if trump is not None and length < 2 and spare:
            ruffs = min(spare, 2 - length)
            tricks += 0.6 * ruffs
            spare -= ruffs
    return tricks


def hand_worth(hand: int, contract: Contract, table: Rules, trump: int | None = None, rank: int | None = None) -> float:
    """The expected raw score of ``hand`` in ``contract``, in the seat's own points.

    ``trump`` and ``rank`` default to the best choice for the hand.
    """
    sign = float(table.sign)
    _, trick_cost, kind, _, _, _ = cached_costs(contract, table)
    n = table.players
    tricks = table.cards_each
    total = sign * table.total(contract)
    if kind == "take":
        per_trick = -trick_cost[0]
        if contract.names_trump:
            suit = trump if trump is not None else best_trump(hand, contract, table)[0]
            expected = trump_tricks(hand, suit)
        else:
            expected = trump_tricks(hand, None)
        return per_trick * expected * tricks / 13
    if kind == "domino":
        low = table.ruleset.low_rank
        removed = table.removed if table.flags.removed_card_rule == "laid" else 0
        if rank is None:
            rank = best_rank(hand, table.domino_ranks, low, removed)
        dep = dependency(hand, rank, low, removed)
        values = [sign * v for v in table.flags.domino_values]
        spread = max(values) - min(values)
        return total / n - spread * (dep - 1.6 * tricks) / (8.0 * tricks)
    if kind == "arrange":
        worth = candidate_arrangements(hand, keep=1, backs=8)[0][0]
        return 4.0 * (n - 1) * worth * 0.6
    return -_avoid_cost(hand, contract, table)


def trump_order(hand: int) -> list[int]:
    """The four suits as trumps for ``hand``, best first: most expected tricks
    (:func:`trump_tricks`), then the longest, then the lowest suit index.

    >>> from barbu.cards import parse_pbn
    >>> trump_order(parse_pbn("AKQJT9.A.K2.432"))[0]
    0
    """
    return sorted(range(4), key=lambda s: (-trump_tricks(hand, s), -(hand & SUIT_MASKS[s]).bit_count(), s))


def best_trump(hand: int, contract: Contract, table: Rules) -> tuple[int, float]:
    """The trump suit with the most expected tricks (the first of :func:`trump_order`), and that count."""
    best = trump_order(hand)[0]
    return best, trump_tricks(hand, best)


EDGE_SCALE: dict[str, float] = {
    "no-tricks": 0.93,
    "no-hearts": 0.45,
    "no-queens": 0.38,
    "no-king": 0.4,
    "no-last-two": 0.9,
    "trumps": 0.95,
    "domino": 2.7,
    "ravage-city": 0.65,
    "chinese-poker": 2.4,
    "salad": 0.65,
    "more-tricks": 1.0,
    "first-and-last": 0.7,
    "king-no-king": 0.37,
    "king-no-queens": 0.53,
    "king-no-boys": 0.58,
    "king-no-hearts": 0.82,
    "king-no-last-two": 1.2,
    "king-no-tricks": 0.92,
    "king-trumps": 1.0,
}
"""How many points one point of :func:`hand_worth` above the baseline is worth in play.

Measured as the slope of the declarer's raw score on its estimate over 300 random
deals per contract played by the heuristic bot (``bench_bots.py calibrate``).
"""

SEAT_EDGE: dict[str, float] = {"trumps": 0.45, "king-trumps": 0.4}
"""The declarer's mean lead over an even share for a random hand, in units of ``|T|/n``
(leading, and choosing the trump suit), where it is far from zero (same measurement)."""


def hand_edge(
    hand: int,
    contract: Contract,
    table: Rules,
    trump: int | None = None,
    rank: int | None = None,
    chooser: bool = True,
) -> float:
    """Expected points of ``hand`` above a seat's mean in ``contract`` (own points).

    ``chooser``: the seat named (or will name) the trump or rank; otherwise it plays
    with the declarer's, and is compared with random hands playing a random choice.
    Remembered: a search reads the same hands' calls in many of its worlds.
    """
    key = (hand, contract, trump, rank, chooser, table.name, table.players, table.flags)
    edge = _EDGES.get(key)
    if edge is None:
        if len(_EDGES) >= _EDGES_KEPT:
            _EDGES.clear()
        scale = EDGE_SCALE.get(contract.id, 1.0)
        worth = hand_worth(hand, contract, table, trump, rank)
        edge = _EDGES[key] = scale * (worth - baseline(table, contract.id, chooser))
    return edge


_EDGES: dict[tuple[object, ...], float] = {}
_EDGES_KEPT = 100_000
"""How many hand edges :func:`hand_edge` remembers before it starts again."""


def baseline(table: Rules, contract_id: str, chooser: bool = True) -> float:
    """The mean :func:`hand_worth` of ``contract_id`` over random hands of the rule set.

    With ``chooser`` each hand gets its best trump or rank, otherwise a random one.
    Computed once per rule set from a fixed seed (so the same on every machine).
    """
    key = (table.name, table.players, table.flags)
    if key not in _BASELINES:
        _BASELINES[key] = _baselines(table)
    return _BASELINES[key][contract_id, chooser]


_BASELINES: dict[tuple[str, int, Flags], dict[tuple[str, bool], float]] = {}


def _baselines(table: Rules) -> dict[tuple[str, bool], float]:
    rng = random.Random(20240611)
    deck = cards_of(table.deck)
    hands = []
    for _ in range(40):
        rng.shuffle(deck)
        m = 0
        for c in deck[: table.cards_each]:
            m |= 1 << c
        hands.append(m)
    out: dict[tuple[str, bool], float] = {}
    for contract in table.contracts:
        sample = hands[:12] if contract.play == "arrange" else hands
        chosen = sum(hand_worth(h, contract, table) for h in sample) / len(sample)
        out[contract.id, True] = chosen
        if contract.names_trump:
            given = sum(hand_worth(h, contract, table, trump=s) for h in sample for s in range(4)) / (4 * len(sample))
        elif contract.play == "domino" and table.flags.domino_start == "named":
            ranks = table.domino_ranks
            worths = [hand_worth(h, contract, table, rank=ranks[i % len(ranks)]) for i, h in enumerate(sample)]
            given = sum(worths) / len(sample)
        else:
            given = chosen
        out[contract.id, False] = given
    return out
