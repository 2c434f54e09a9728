"""Barbu strategy, measured: the seeds' playing hints put to the search bot's evaluation.

Each experiment asks :func:`barbu.bots.search.action_values` (the coach's evaluation: the
seat's expected points of every legal action, from its own view, in sampled worlds) about a
position the hint speaks of, in ``--batches`` independent batches of ``--worlds`` worlds
each (seeds 0, 1, …), and prints each action's mean over the batches with a 95% interval
(1.96 standard errors of the batch means). The differences that matter are between actions
of one position: the same worlds serve every action of a batch, so they are sharper than
the intervals of the values suggest; the interval of the difference is printed too.

Experiments (docs/strategy.md):

- ``domino-rank``: the seed's hand 568 / 5689 / 689 / 689 in Domino: which starting rank?
- ``jack-lead``: A J 10 9 6 5 3 of trumps, the declarer's lead in Trumps: the jack or another?
- ``long-hearts``: declarers holding long hearts: the edge of No Hearts and No King against the others.
- ``late-set``: whole declarer's sets (7 deals, compulsory doubles and all) played with the
  search bot choosing the contracts freely, with No Tricks and Trumps kept for the last two
  deals, and with them declared first; the same deals for the three (duplicate).
- ``redouble``: the last contract of a set, a seat that owes no compulsory double doubles the
  declarer alone: what the declarer's redouble is worth, the double read as strength (as the
  rules of thumb would make it) and read as desperation (it says nothing of the hand).
- ``invite``: hands good for several contracts: is the contract the others double more often
  worth more than the other good one? (classified and measured in independent worlds)
- ``domino-cards``: the same ten or eleven cards completed with a 7-6-5 block of one suit or
  with 7, 6, 5 of three suits; and with an ace and a two or with an 8 and a 6 of the same suits.

Examples::

    python benchmarks/strategy.py domino-rank --batches 8 --worlds 16
    python benchmarks/strategy.py jack-lead --batches 8 --worlds 16
    python benchmarks/strategy.py long-hearts --hands 12 --worlds 16
    python benchmarks/strategy.py late-set --sets 40 --worlds 8
    python benchmarks/strategy.py redouble --hands 40 --worlds 16
    python benchmarks/strategy.py invite --hands 40 --worlds 12
    python benchmarks/strategy.py domino-cards --hands 24 --worlds 12
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable
from dataclasses import replace

from barbu.actions import Action, Call, Declare, action_text
from barbu.bots.heuristic import HeuristicBot
from barbu.bots.search import SearchBot, _declared_deal, action_values
from barbu.cards import RANKS, SUITS, pbn
from barbu.coach import situation
from barbu.game import Game
from barbu.rulesets import rules
from barbu.unseen import hidden_cards, sample_hands
from barbu.view import SeatView, seat_view


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of a 95% interval (normal approximation over independent batches)."""
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return mean, half


def batches(view: SeatView, n: int, worlds: int) -> dict[str, list[float]]:
    """Each action's value in ``n`` batches of ``worlds`` worlds (seeds 0 … n-1)."""
    out: dict[str, list[float]] = {}
    for b in range(n):
        for a, v in action_values(view, iterations=worlds, seed=b):
            out.setdefault(_name(a), []).append(v)
    return out


def _name(a: Action) -> str:
    return action_text(a)


def report(title: str, values: dict[str, list[float]], against: str | None = None) -> None:
    print(title)
    ranked = sorted(values, key=lambda k: -statistics.fmean(values[k]))
    for k in ranked:
        mean, half = interval(values[k])
        line = f"  {k:<14} {mean:+8.1f} ± {half:.1f}"
        if against is not None and k != against:
            diff = [x - y for x, y in zip(values[k], values[against], strict=True)]
            d, h = interval(diff)
            line += f"   vs {against}: {d:+.1f} ± {h:.1f}"
        print(line)


def domino_rank(args: argparse.Namespace) -> None:
    # the seed's hand: spades 5 6 8, hearts 5 6 8 9, diamonds 6 8 9, clubs 6 8 9
    hand = "865.9865.986.986"
    view = situation("classic", hand, seat=0, contract="domino", seed=args.seed)
    values = batches(view, args.batches, args.worlds)
    report(f"Domino, hand {hand}, starting rank (expected points of the declarer):", values, against="7")


def jack_lead(args: argparse.Namespace) -> None:
    hand = "AJT9653.K2.Q2.32"
    view = situation("classic", hand, seat=0, contract="trumps", choice="S", calls=_passes(), seed=args.seed)
    values = batches(view, args.batches, args.worlds)
    report(f"Trumps (spades), declarer's opening lead from {hand}:", values, against="JS")


def _passes() -> list[object]:
    return [{"seat": s} for s in (1, 2, 3, 0)]


def long_hearts(args: argparse.Namespace) -> None:
    r = rules("classic")
    rng = random.Random(args.seed)
    edges: dict[str, list[float]] = {}
    hearts = [c for c in range(52) if c // 13 == 1]
    others = [c for c in range(52) if c // 13 != 1]
    for i in range(args.hands):
        held = rng.sample(hearts, args.length)
        rest = rng.sample(others, r.cards_each - args.length)
        hand = pbn(sum(1 << c for c in held + rest))
        view = situation("classic", hand, seat=0, seed=i)
        for a, v in action_values(view, iterations=args.worlds, seed=i):
            edges.setdefault(_name(a), []).append(v)
    report(
        f"Contract edges of {args.hands} random hands holding {args.length} hearts (points over keeping it):",
        edges,
        against="no-hearts",
    )
    best = statistics.fmean(
        1.0 if max(edges, key=lambda k: edges[k][i]) in ("no-hearts", "no-king") else 0.0 for i in range(args.hands)
    )
    print(f"  share of hands whose best contract is no-hearts or no-king: {best:.0%}")


LATE = ("no-tricks", "trumps")
"""The contracts the seed says to keep for late in the declarer's set."""


def _set_points(seed: int, policy: str, worlds: int) -> float:
    """Seat 0's points over its own set of 7 classic deals (dealt from ``seed``).

    Seat 0 chooses its contracts with the search bot (``worlds`` worlds a decision), among
    all those left (``free``), or with No Tricks and Trumps kept until the others are
    declared (``late``), or declared before the others (``early``); every other decision of
    every seat is the rules of thumb's.
    """
    game = Game.new("classic", seed=seed, first_declarer=0)
    chooser = SearchBot(seed=seed, iterations=worlds, seconds=None)
    bots = [HeuristicBot(seed=seed * 4 + s) for s in range(4)]
    sign = game.rules.sign
    while len(game.deals) <= 7:
        deal = game.current
        assert deal is not None
        if deal.declarer != 0:
            break
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if view.phase == "contract":
            legal = [a for a in view.legal_actions if isinstance(a, Declare)]
            late = [a for a in legal if a.contract in LATE]
            rest = [a for a in legal if a.contract not in LATE]
            keep = {"free": legal, "late": rest or late, "early": late or rest}[policy]
            action = chooser.act(replace(view, legal_actions=tuple(keep)))
        else:
            action = bots[seat].act(view)
        game.apply(action, seat)
    return float(sign * sum(d.final[0] for d in game.deals if d.final is not None and d.declarer == 0))


def late_set(args: argparse.Namespace) -> dict[str, list[float]]:
    points: dict[str, list[float]] = {p: [] for p in ("free", "late", "early")}
    for i in range(args.sets):
        for policy, xs in points.items():
            xs.append(_set_points(args.seed * 100_000 + i, policy, args.worlds))
    report(
        f"The declarer's points over its set of 7 classic deals, {args.sets} sets dealt alike for each policy:",
        points,
        against="free",
    )
    diff = [x - y for x, y in zip(points["late"], points["early"], strict=True)]
    d, h = interval(diff)
    print(f"  late vs early: {d:+.1f} ± {h:.1f}")
    return points


def redouble(args: argparse.Namespace) -> dict[str, list[float]]:
    r = rules("classic")
    rng = random.Random(args.seed)
    gains: dict[str, list[float]] = {"read": [], "desperate": []}
    chooser = SearchBot(seed=0)
    calls = [{"seat": 1}, {"seat": 2, "double": [0]}, {"seat": 3}]
    by_contract: dict[str, list[float]] = {}
    for i in range(args.hands):
        contract = r.contracts[i % len(r.contracts)]
        hand = rng.sample(range(52), 13)
        mask = sum(1 << c for c in hand)
        x = chooser._best_choice(mask, contract, r)
        choice = None if x is None else (SUITS[x] if contract.names_trump else RANKS[x])
        view = situation(
            "classic",
            pbn(mask),
            seat=0,
            declared=[c.id for c in r.contracts if c is not contract],
            doubled={1: 2, 2: 2, 3: 2},
            contract=contract.id,
            choice=choice,
            calls=calls,
            scores=[150, 100, -400, 150],
            seed=i,
        )
        for key, read in (("read", True), ("desperate", False)):
            values = dict(action_values(view, iterations=args.worlds, seed=i, read_calls=read))
            gains[key].append(values[Call(redouble=(2,))] - values[Call()])
        by_contract.setdefault(contract.id, []).append(gains["desperate"][-1])
    report(
        f"The declarer's gain in redoubling a lone double on the set's last contract ({args.hands} random hands):",
        gains,
    )
    for key, xs in gains.items():
        print(f"  share of hands where redoubling gains ({key}): {statistics.fmean(g > 0 for g in xs):.0%}")
    report("  by contract (desperate):", by_contract)
    return gains


def invite(args: argparse.Namespace) -> dict[str, list[float]]:
    rng = random.Random(args.seed)
    bot = SearchBot(seed=0)
    margin = args.margin
    chosen: dict[str, list[float]] = {"more doubled": [], "less doubled": []}
    looked = 0
    for i in range(args.hands):
        hand = pbn(sum(1 << c for c in rng.sample(range(52), 13)))
        view = situation("classic", hand, seat=0, seed=i)
        halves = [_edges(view, bot, args.worlds, f"{args.seed}-{i}-{half}") for half in (0, 1)]
        edges, doubles = halves[0]
        top = sorted(edges, key=lambda c: -edges[c])[:2]
        looked += 1
        if edges[top[0]] - edges[top[1]] > margin or doubles[top[0]] == doubles[top[1]]:
            continue  # not good for several contracts, or both invite doubles alike
        more, less = sorted(top, key=lambda c: -doubles[c])
        chosen["more doubled"].append(halves[1][0][more])
        chosen["less doubled"].append(halves[1][0][less])
    if not chosen["more doubled"]:
        print(f"No hand of {looked} had two contracts within {margin:g} points that invite doubles unalike")
        return chosen
    report(
        f"Hands whose two best contracts are within {margin:g} points ({len(chosen['more doubled'])} of {looked}):"
        " edge of each, measured in fresh worlds",
        chosen,
        against="less doubled",
    )
    if chosen["more doubled"]:
        share = statistics.fmean(x > y for x, y in zip(chosen["more doubled"], chosen["less doubled"], strict=True))
        print(f"  share of hands where the more doubled contract is worth more: {share:.0%}")
    return chosen


def _edges(view: SeatView, bot: SearchBot, worlds: int, seed: str) -> tuple[dict[str, float], dict[str, float]]:
    """Each contract's edge (as the advisor measures it) and the doubles the others make on it, a world."""
    from barbu.unseen import view_rules

    table = view_rules(view)
    hidden = hidden_cards(view, table)
    rng = random.Random(seed)
    bot.rng = rng
    me = 0
    edge = {c.id: 0.0 for c in table.contracts}
    doubles = {c.id: 0.0 for c in table.contracts}
    for _ in range(worlds):
        hands = sample_hands(hidden, rng)
        swapped = list(hands)
        o = rng.choice([1, 2, 3])
        swapped[me], swapped[o] = hands[o], hands[me]
        for c in table.contracts:
            d = _declared_deal(view, table, hands, c, bot._best_choice(hands[me], c, table))
            now = bot.simulate(d, me)
            assert d.doubling is not None
            doubles[c.id] += len(d.doubling.doubled_declarer) / worlds
            later = bot.simulate(_declared_deal(view, table, swapped, c, bot._best_choice(swapped[me], c, table)), me)
            edge[c.id] += (now - later) / worlds
    return edge, doubles


def domino_cards(args: argparse.Namespace) -> dict[str, list[float]]:
    """Paired hands: a block against the same ranks spread; aces and twos against eights and sixes."""
    rng = random.Random(args.seed)
    values: dict[str, list[float]] = {"7-6-5 block": [], "7, 6, 5 spread": [], "ace and two": [], "eight and six": []}
    card = lambda rank, suit: suit * 13 + RANKS.index(rank)  # noqa: E731
    for i in range(args.hands):
        s = rng.sample(range(4), 3)
        block = [card("7", s[0]), card("6", s[0]), card("5", s[0])]
        spread = [card("7", s[0]), card("6", s[1]), card("5", s[2])]
        far = [card("A", s[0]), card("2", s[1])]
        near = [card("8", s[0]), card("6", s[1])]
        for keys, (a, b) in (
            (("7-6-5 block", "7, 6, 5 spread"), (block, spread)),
            (("ace and two", "eight and six"), (far, near)),
        ):
            base = rng.sample([c for c in range(52) if c not in a + b], 13 - len(a))
            for key, extra in zip(keys, (a, b), strict=True):
                view = situation("classic", pbn(sum(1 << c for c in base + extra)), seat=0, contract="domino", seed=i)
                values[key].append(max(v for _, v in action_values(view, iterations=args.worlds, seed=i)))
    print(f"Domino, the declarer's expected points with its best starting rank ({args.hands} pairs of hands each):")
    for a, b in (("7-6-5 block", "7, 6, 5 spread"), ("ace and two", "eight and six")):
        ma, ha = interval(values[a])
        mb, hb = interval(values[b])
        d, h = interval([x - y for x, y in zip(values[a], values[b], strict=True)])
        print(f"  {a:<16} {ma:+8.1f} ± {ha:.1f}   {b:<16} {mb:+8.1f} ± {hb:.1f}   difference {d:+.1f} ± {h:.1f}")
    return values


EXPERIMENTS: dict[str, Callable[[argparse.Namespace], object]] = {
    "domino-rank": domino_rank,
    "jack-lead": jack_lead,
    "long-hearts": long_hearts,
    "late-set": late_set,
    "redouble": redouble,
    "invite": invite,
    "domino-cards": domino_cards,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=list(EXPERIMENTS))
    parser.add_argument("--batches", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--length", type=int, default=6, help="hearts held (long-hearts)")
    parser.add_argument("--sets", type=int, default=40, help="declarer's sets (late-set)")
    parser.add_argument("--margin", type=float, default=10.0, help="points between two good contracts (invite)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    EXPERIMENTS[args.experiment](args)


if __name__ == "__main__":
    main()
