"""The exact endgame solver alone: CPU time of :func:`barbu.bots.endgame.solve` per position.

Positions come from classic games between heuristic bots (seeded): in each deal of trick play,
every card decision from ``--tricks`` tricks before the end (the leader's and the mid-trick
ones of that trick), all hands known, the seat to act as the solver's seat; each is solved once
and timed (CPU of this process). ``--json`` writes the values and times, so that two runs
compare: run once with ``PYTHONPATH`` at another checkout's ``src`` (the old solver) and once
here, then give both files: the values must be identical, and the times' ratio is printed
(totals, and the median of the per-position ratios). ``BARBU_PURE=1`` times the pure path.

Examples::

    python benchmarks/bench_endgame.py --tricks 4 --games 6 --json new4.json
    PYTHONPATH=../before/src python benchmarks/bench_endgame.py --tricks 4 --games 6 --json old4.json
    python benchmarks/bench_endgame.py old4.json new4.json

Figures of record are in docs/bots.md ("The exact endgame").
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from barbu import accel
from barbu.bots import make_bot
from barbu.bots.card_play import PlayGuide
from barbu.bots.endgame import solve
from barbu.game import Game
from barbu.view import seat_view


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, max {ordered[-1] * 1000:.2f} ms"
    )


def run(tricks: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Solve and time every position of ``games`` seeded classic games."""
    out: list[dict[str, Any]] = []
    for g in range(games):
        game = Game.new("classic", seed=seed + g)
        bots = [make_bot("heuristic", seed=s) for s in range(game.rules.players)]
        while not game.is_over:
            deal = game.current
            assert deal is not None
            t = deal.tricks
            if t is not None and not t.finished and t.tricks_total - len(t.winners) == tricks:
                assert deal.contract is not None
                guide = PlayGuide.of(deal)
                start = time.process_time()
                value = solve(t, deal.contract, deal.rules, guide, t.turn)
                spent = time.process_time() - start
                out.append({"contract": deal.contract.id, "cards": len(t.trick), "value": value, "cpu": spent})
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].act(seat_view(game, seat)), seat)
    return out


def report(rows: list[dict[str, Any]]) -> None:
    cpu = [r["cpu"] for r in rows]
    print(f"{accel.status()}: {len(rows)} positions, {sum(cpu):.3f} s CPU; {_ms(cpu)}")
    for contract in sorted({r["contract"] for r in rows}):
        mine = [r["cpu"] for r in rows if r["contract"] == contract]
        print(f"  {contract:<12} {len(mine):>4} positions: {_ms(mine)}")


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> int:
    if [r["value"] for r in before] != [r["value"] for r in after]:
        print("the values differ")
        return 1
    old = [r["cpu"] for r in before]
    new = [r["cpu"] for r in after]
    ratios = [o / n for o, n in zip(old, new, strict=True) if n > 0]
    print(f"{len(old)} positions, identical values")
    print(f"before: {_ms(old)}")
    print(f"after:  {_ms(new)}")
    print(
        f"total CPU {sum(old):.3f} s -> {sum(new):.3f} s: {sum(old) / sum(new):.2f}x "
        f"(median of the per-position ratios {statistics.median(ratios):.2f}x)"
    )
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="two --json files to compare (before, after)")
    parser.add_argument("--tricks", type=int, default=4, help="tricks left at the positions solved")
    parser.add_argument("--games", type=int, default=4, help="classic games played (28 deals each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the values and times here")
    args = parser.parse_args(argv)
    if args.files:
        if len(args.files) != 2:
            parser.error("give two files: before and after")
        before, after = (json.loads(Path(f).read_text())["positions"] for f in args.files)
        return compare(before, after)
    rows = run(args.tricks, args.games, args.seed)
    report(rows)
    if args.json:
        args.json.write_text(json.dumps({"tricks": args.tricks, "status": accel.status(), "positions": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
