"""The ``heuristic`` level against its frozen predecessor and against random, on duplicate deals.

One seat plays the current ``heuristic`` (the *hero*), the three others a *field*:
``v1``, the heuristic as it was before issue 14 (``benchmarks/reference/heuristic_v1.py``,
a frozen copy kept for this measure only), or ``random``. Every game is played once
per seat with the hero rotated through the seats on the same deals (a seeded game's
deals do not depend on the play), so the luck of the cards cancels. Reported per
contract and per 28-deal game: the hero's *lead*, its points minus the mean of the
field seats at its table (own points, doubles included), with 95% intervals over
games (the rotations of one game are averaged first). With ``--field random`` the
frozen v1 plays the same deals against the same random seats too, and the table adds
its lead and the difference.

The hero's decision times (decisions with a choice) are printed: median, 95th
percentile and max, in CPU seconds of the process (one core; the wall time on a
shared machine would count the other work too).

Examples::

    python benchmarks/bench_heuristic.py --games 100 --jobs 1                # against v1
    python benchmarks/bench_heuristic.py --field random --games 40
    python benchmarks/bench_heuristic.py --games 2 --json out.json            # quick
    python benchmarks/bench_heuristic.py --contract no-hearts --games 200     # one contract's play

Figures of record are in docs/bots.md.
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
from bench_bots import RotationResult, mean_ci, summary
from reference.heuristic_v1 import HeuristicBotV1

from barbu.bots import Bot, make_bot


def make(level: str, seed: int | None = 0) -> Bot:
    """A bot of ``level``: ``heuristic``, ``v1`` (the frozen reference) or ``random``."""
    if level == "v1":
        return HeuristicBotV1(seed=seed)
    return make_bot(level, seed=seed)


def duplicate(
    hero: str,
    field: str,
    variant: str,
    games: int,
    seed: int,
    jobs: int,
    contract: str | None = None,
    partial: Path | None = None,
) -> list[RotationResult]:
    """Every game (or single deal of ``contract``) played once per seat with ``hero`` rotated
    through the seats (:func:`bench_bots.duplicate`, with the v1 level and CPU time)."""

    def progress(results: list[RotationResult]) -> None:
        # Whole games so far, so that a long run can be read while it goes on.
        if partial is not None:
            partial.write_text(json.dumps({"summary": summary(results), "times": times(results)}))

    return bench_bots.duplicate(
        hero,
        field,
        variant,
        games=games,
        seed=seed,
        jobs=jobs,
        make=make,
        contract=contract,
        clock=time.process_time,
        progress=progress,
    )


def times(results: list[RotationResult]) -> dict[str, float]:
    """Decisions, median, 95th percentile and max decision time (seconds)."""
    t = sorted(x for r in results for x in r.decision_times)
    if not t:
        return {"decisions": 0}
    return {
        "decisions": len(t),
        "median_s": statistics.median(t),
        "p95_s": t[int(0.95 * (len(t) - 1))],
        "max_s": t[-1],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the measure and print the table (and write JSON with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--field", choices=["v1", "random"], default="v1")
    p.add_argument("--variant", default="classic")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=14)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", type=Path)
    p.add_argument("--contract", help="single deals of this contract instead of whole games (play and calls only)")
    a = p.parse_args(argv)
    started = time.time()
    results = duplicate(
        "heuristic", a.field, a.variant, a.games, a.seed, a.jobs, a.contract, _partial(a.json, "heuristic")
    )
    table = summary(results)
    out: dict[str, Any] = {"args": vars(a) | {"json": str(a.json)}, "heuristic": table, "times": times(results)}
    ref_table: dict[str, dict[str, float]] = {}
    if a.field == "random":
        ref = duplicate("v1", "random", a.variant, a.games, a.seed, a.jobs, a.contract, _partial(a.json, "v1"))
        ref_table = summary(ref)
        out["v1"] = ref_table
        out["v1_times"] = times(ref)
        diffs: dict[str, tuple[float, float]] = {}
        by_game_new = _per_game(results)
        by_game_ref = _per_game(ref)
        for c in table:
            samples = [by_game_new[g][c] - by_game_ref[g][c] for g in by_game_new if c in by_game_new[g]]
            diffs[c] = mean_ci(samples)
        out["difference"] = diffs
    out["seconds"] = time.time() - started
    print(f"{a.variant}: heuristic vs {a.field}, {a.games} duplicate games (seed {a.seed})")
    head = f"{'contract':<14}{'deals':>7}{'lead of heuristic':>22}"
    if ref_table:
        head += f"{'lead of v1':>20}{'difference':>20}"
    print(head)
    for c, row in table.items():
        line = f"{c:<14}{int(row['samples']):>7}{row['lead']:>14.2f} ± {row['lead_ci']:<5.2f}"
        if ref_table:
            r = ref_table[c]
            d = out["difference"][c]
            line += f"{r['lead']:>12.2f} ± {r['lead_ci']:<5.2f}{d[0]:>12.2f} ± {d[1]:<5.2f}"
        print(line)
    print("decision times:", json.dumps({k: round(v, 4) for k, v in out["times"].items()}))
    print(f"{out['seconds']:.0f} s")
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))
    return 0


def _partial(path: Path | None, name: str) -> Path | None:
    return None if path is None else path.with_suffix(f".{name}.partial.json")


def _per_game(results: list[RotationResult]) -> dict[int, dict[str, float]]:
    """Per game, the hero's mean lead per deal of each contract and per game (rotations averaged)."""
    leads: dict[int, dict[str, list[float]]] = {}
    for r in results:
        g = leads.setdefault(r.game, {})
        g.setdefault("game", []).append(sum(h - o for _, h, o in r.deals))
        per: dict[str, list[float]] = {}
        for c, h, o in r.deals:
            per.setdefault(c, []).append(h - o)
        for c, v in per.items():
            g.setdefault(c, []).append(statistics.fmean(v))
    return {game: {c: statistics.fmean(v) for c, v in per_c.items()} for game, per_c in leads.items()}


if __name__ == "__main__":
    raise SystemExit(main())
