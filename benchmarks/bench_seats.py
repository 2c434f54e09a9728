"""Seat advantage over a declarer's set of seven deals, with the same bot in every seat.

The seeds of the rules say: "over seven hands the declarer can expect the best score,
closely followed by the player on its right; the player on the declarer's left the
poorest". This measure plays whole classic games (28 deals: four declarers, each
declaring its seven contracts in a row), the same level in every seat, and sums each
seat's points over each declarer's set of seven deals. Reported per seat relative to
the declarer (declarer, its left ``+1``, opposite ``+2``, its right ``+3``; RULES.md §1
numbers seats clockwise, the left of seat ``i`` being ``i+1``): mean points per set with
95% intervals over sets, and the paired differences the claim is about. Optionally a
bar chart (``--plot``, needs matplotlib).

Example (the figures of record in docs/bots.md)::

    python benchmarks/bench_seats.py --sets 1000 --jobs 2 --plot docs/seat-advantage.png

A run split in parts (games 0-124 and 125-249) and summarised together::

    python benchmarks/bench_seats.py --sets 500 --json a.json &
    python benchmarks/bench_seats.py --sets 500 --first-game 125 --json b.json &
    python benchmarks/bench_seats.py --load a.partial.json b.partial.json --plot docs/seat-advantage.png
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from barbu import Game, seat_view
from barbu.bots import make_bot

POSITIONS = ("declarer", "left (+1)", "opposite (+2)", "right (+3)")


def play_game(variant: str, level: str, seed: int, game: int) -> list[list[int]]:
    """One game; per declarer's set of deals, each seat's points relative to the declarer."""
    g = Game.new(variant, seed=f"{seed}:{game}")
    n = g.rules.players
    bots = [make_bot(level, seed=seed * 7919 + game * 31 + s) for s in range(n)]
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(bots[seat].act(seat_view(g, seat)), seat)
    # A set is a run of deals with the same declarer (classic: seven in a row).
    sets: list[list[int]] = []
    last = None
    for d in g.deals:
        assert d.final is not None
        if d.declarer != last:
            sets.append([0] * n)
            last = d.declarer
        for s in range(n):
            sets[-1][(s - d.declarer) % n] += g.rules.sign * d.final[s]
    return sets


def _run(args: tuple[Any, ...]) -> list[list[int]]:
    return play_game(*args)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval (normal approximation)."""
    m = statistics.fmean(xs)
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main(argv: list[str] | None = None) -> int:
    """Play the sets, print the table, optionally write JSON and the plot."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", type=int, default=1000, help="declarer's sets of seven deals (4 per game)")
    p.add_argument("--level", default="heuristic")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", type=Path)
    p.add_argument("--plot", type=Path)
    p.add_argument("--first-game", type=int, default=0, help="number of the first game (to split a run)")
    p.add_argument(
        "--load", type=Path, nargs="+", help="summarise the games of (partial) JSON files instead of playing"
    )
    a = p.parse_args(argv)
    started = time.time()
    games = math.ceil(a.sets / 4)
    tasks = [("classic", a.level, a.seed, a.first_game + g) for g in range(games)]
    per_game: list[list[list[int]]] = [game for path in a.load or () for game in json.loads(path.read_text())]
    if a.load:
        tasks = []
        games = len(per_game)
    with ProcessPoolExecutor(max(1, a.jobs)) as pool:
        for result in pool.map(_run, tasks):
            per_game.append(result)
            if a.json and (len(per_game) % 5 == 0 or len(per_game) == len(tasks)):
                # Partial results, so that a long run can be read (or split) while it goes on.
                a.json.with_suffix(".partial.json").write_text(json.dumps(per_game))
    sets = [s for game in per_game for s in game][: a.sets]
    # Sets of one game are not independent (the same four bots, the game's seed): the
    # intervals are taken over games, of each game's mean per set.
    rows: dict[str, tuple[float, float]] = {}
    for k, name in enumerate(POSITIONS):
        rows[name] = mean_ci([statistics.fmean(s[k] for s in game) for game in per_game])
    pairs = {
        "declarer − right": (0, 3),
        "right − opposite": (3, 2),
        "opposite − left": (2, 1),
        "declarer − left": (0, 1),
    }
    diffs = {
        name: mean_ci([statistics.fmean(s[i] - s[j] for s in game) for game in per_game])
        for name, (i, j) in pairs.items()
    }
    print(f"classic, {a.level} in every seat, {len(sets)} sets of seven deals ({games} games, seed {a.seed})")
    for name, (m, ci) in rows.items():
        print(f"{name:<16}{m:>9.1f} ± {ci:.1f}")
    for name, (m, ci) in diffs.items():
        print(f"{name:<20}{m:>9.1f} ± {ci:.1f}")
    elapsed = time.time() - started
    print(f"{elapsed:.0f} s")
    if a.json:
        a.json.write_text(
            json.dumps(
                {
                    "args": {k: str(v) for k, v in vars(a).items()},
                    "seats": rows,
                    "differences": diffs,
                    "seconds": elapsed,
                },
                indent=1,
            )
        )
    if a.plot:
        plot(rows, len(sets), a.level, a.plot)
    return 0


def plot(rows: dict[str, tuple[float, float]], sets: int, level: str, path: Path) -> None:
    """A bar chart of mean points per set by seat, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(rows)
    means = [rows[n][0] for n in names]
    cis = [rows[n][1] for n in names]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    colors = ["#3b6ea8" if m >= 0 else "#b5533c" for m in means]
    ax.bar(names, means, yerr=cis, capsize=6, color=colors)
    ax.axhline(0, color="black", linewidth=0.8)
    for i, (m, ci) in enumerate(zip(means, cis, strict=True)):
        ax.text(i, m + (ci + 4 if m >= 0 else -ci - 4), f"{m:+.1f}", ha="center", va="bottom" if m >= 0 else "top")
    ax.set_ylabel("points per set of seven deals")
    ax.set_title(
        f"Classic: points by seat relative to the declarer\n{sets} sets, {level} bots in every seat, 95% intervals"
    )
    lo = min(m - c for m, c in zip(means, cis, strict=True))
    hi = max(m + c for m, c in zip(means, cis, strict=True))
    ax.set_ylim(min(0, lo) - 15, max(0, hi) + 15)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
