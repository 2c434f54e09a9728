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

Examples::

    python benchmarks/strategy.py domino-rank --batches 8 --worlds 16
    python benchmarks/strategy.py jack-lead --batches 8 --worlds 16
    python benchmarks/strategy.py long-hearts --hands 12 --worlds 16
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable

from barbu.actions import Action, action_text
from barbu.bots.search import action_values
from barbu.cards import pbn
from barbu.coach import situation
from barbu.rulesets import rules
from barbu.view import SeatView


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


EXPERIMENTS: dict[str, Callable[[argparse.Namespace], None]] = {
    "domino-rank": domino_rank,
    "jack-lead": jack_lead,
    "long-hearts": long_hearts,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=list(EXPERIMENTS))
    parser.add_argument("--batches", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--length", type=int, default=6, help="hearts held (long-hearts)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    EXPERIMENTS[args.experiment](args)


if __name__ == "__main__":
    main()
