"""The search levels: worlds per time budget, decision times per level, and head-to-head strength.

Three measures:

``worlds``
    The search bot at the time the pure-Python path took for the old default (64 worlds):
    on the same positions (seat 0's decisions with a choice in games between heuristic
    bots, every kind of decision), CPU time of the pure path and of the compiled path at
    64 worlds (their decisions must be identical), and so the worlds the compiled path
    searches in the pure path's time (issue 13's question; ``--iterations`` of the
    strength run below).
``times``
    Decision times of every level on the same positions (median, 95th percentile, max,
    in ms of wall time; decisions with one legal action are not counted: every level
    answers them at once).
``duel``
    Reads the JSON reports of arena runs of ``A B B B`` (one file per seed, e.g. written
    by the commands below), and prints A's lead over B per 28-deal game, with a 95%
    Student interval over all the duplicate games together.

Examples::

    python benchmarks/bench_search.py worlds --decisions 40
    python benchmarks/bench_search.py times --decisions 60
    python benchmarks/bench_search.py times --decisions 1000 --levels heuristic   # the web app's default
    for s in $(seq 200 299); do barbu arena expert search:seconds=null search:seconds=null \\
        search:seconds=null --games 1 --seed $s --workers 1 --quiet --json expert/seed-$s.json; done
    python benchmarks/bench_search.py duel expert/*.json

Figures of record are in docs/bots.md and docs/native.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_bots

from barbu.arena.stats import Estimate
from barbu.bots import make_bot
from barbu.view import SeatView

LEVELS: list[tuple[str, dict[str, Any]]] = [
    ("random", {}),
    ("heuristic", {}),
    ("search", {}),
    ("expert", {}),
]


def positions(variant: str, decisions: int, seed: int) -> list[SeatView]:
    """Seat 0's decisions with a choice (every kind) in games between heuristic bots."""
    return bench_bots.positions(variant, decisions, seed, "bench-search")


def worlds(variant: str, decisions: int, seed: int) -> int:
    """Worlds the compiled search affords in the pure path's time for 64 worlds."""
    from barbu import accel

    if not accel.NATIVE:
        print(accel.status())
        return 1
    views = positions(variant, decisions, seed)
    fixed = {"iterations": 64, "seconds": None}

    def run(native: bool, settings: dict[str, Any]) -> tuple[list[Any], list[float]]:
        return bench_bots.timed_search(views, native, seed, settings)

    kinds = sorted({v.phase for v in views})
    pure_actions, pure = run(False, fixed)
    native_actions, native = run(True, fixed)
    same = sum(a == b for a, b in zip(pure_actions, native_actions, strict=True))
    ratio = sum(pure) / sum(native)
    print(f"{accel.status()}; {variant}, {len(views)} decisions with a choice ({', '.join(kinds)}), seed {seed}")
    print(f"64 worlds, no time cap: identical decisions {same}/{len(views)}")
    print(
        f"CPU s per decision: pure {statistics.mean(pure):.3f} (median {statistics.median(pure):.3f}), "
        f"compiled {statistics.mean(native):.3f} (median {statistics.median(native):.3f}): {ratio:.2f}x"
    )
    for phase in kinds:
        p = [t for v, t in zip(views, pure, strict=True) if v.phase == phase]
        n = [t for v, t in zip(views, native, strict=True) if v.phase == phase]
        print(f"  {phase:<9} {len(p):>3} decisions: pure {sum(p) / len(p):.3f} s, compiled {sum(n) / len(n):.3f} s")
    equal = 64 * ratio
    print(f"in the pure path's time for 64 worlds the compiled path searches about {equal:.0f} worlds")
    rounded = max(64, round(equal / 64) * 64)
    _, check = run(True, {"iterations": rounded, "seconds": None})
    print(
        f"check: compiled at {rounded} worlds takes {sum(check) / sum(pure):.2f}x the pure path's CPU time at 64 worlds"
    )
    return 0 if same == len(views) else 1


def times(variant: str, decisions: int, seed: int, levels: list[str] | None = None) -> int:
    """Median, p95 and max decision time of each level, on the same positions: wall time, and
    CPU time of the process (one core's work, whatever else the machine runs)."""
    views = positions(variant, decisions, seed)
    print(f"{variant}: {len(views)} decisions with a choice (seat 0 in heuristic games, seed {seed}); ms")
    print(f"{'level':<24}{'wall median':>12}{'p95':>9}{'max':>9}{'CPU median':>12}{'p95':>9}{'max':>9}")
    for level, settings in LEVELS:
        if levels and level not in levels:
            continue
        bot = make_bot(level, seed=seed, **settings)
        wall: list[float] = []
        cpu: list[float] = []
        for view in views:
            t0, c0 = time.perf_counter(), time.process_time()
            bot.act(view)
            wall.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.process_time() - c0))
        name = level + (":" + ",".join(f"{k}={v}" for k, v in settings.items()) if settings else "")
        print(f"{name:<24}" + "".join(_spread(taken) for taken in (wall, cpu)))
    return 0


def _spread(taken: list[float]) -> str:
    """Median, 95th percentile and max, as table columns."""
    taken = sorted(taken)
    p95 = taken[min(len(taken) - 1, int(0.95 * len(taken)))]
    return f"{statistics.median(taken):>12.1f}{p95:>9.1f}{taken[-1]:>9.1f}"


def duel(files: list[str]) -> int:
    """A's lead over B (lineup A B B B) per game, over every duplicate game of the reports."""
    leads: list[float] = []
    names: tuple[str, str] | None = None
    times: dict[str, list[dict[str, Any]]] = {}
    for name in files:
        report = json.loads(Path(name).read_text())
        a, b = report["bots"][0]["bot"], report["bots"][1]["bot"]
        if names is None:
            names = (a, b)
        elif names != (a, b):
            raise SystemExit(f"{name} measures {a} against {b}, not {names[0]} against {names[1]}")
        leads += [row[0] - row[1] for row in report["duplicates"]]
        for bot in report["bots"]:
            times.setdefault(bot["bot"], []).append(bot["decision_seconds"])
    if names is None:
        raise SystemExit("no report given")
    lead = Estimate.of(leads)
    print(f"{names[0]} against three {names[1]}: {len(leads)} duplicate games ({4 * len(leads)} games)")
    print(f"lead per 28-deal game: {lead} (95%; interval {_interval(lead)})")
    for bot, rows in times.items():
        worst = max(r["max"] for r in rows)
        print(
            f"  {bot}: decision max {1000 * worst:.0f} ms (medians per run {[round(1000 * r['median']) for r in rows]})"
        )
    return 0


def _interval(e: Estimate) -> str:
    if e.low is None or e.high is None:
        return "n/a"
    return f"{e.low:+.1f} to {e.high:+.1f}"


def main(argv: list[str]) -> int:
    """Run the measure named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["worlds", "times", "duel"])
    parser.add_argument("files", nargs="*", help="duel: arena JSON reports")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", help="times: only these levels")
    args = parser.parse_args(argv)
    if args.what == "worlds":
        return worlds(args.variant, args.decisions, args.seed)
    if args.what == "times":
        return times(args.variant, args.decisions, args.seed, args.levels)
    return duel(args.files)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
