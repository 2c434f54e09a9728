"""The baseline scores published in docs/research.md: the duplicate evaluation of each player.

    python examples/evaluate_baselines.py [--task barbu-notricks-v0] [--deals 100] [--search-deals 20]

Every player (random, heuristic, search, the shipped policy) is evaluated against random
opponents and against heuristic opponents on the task's fixed deals
(:func:`barbu.research.tasks.evaluate`); search, much slower, on the first ``--search-deals``.
"""

from __future__ import annotations

import argparse
import time

from barbu.research.tasks import TASKS, evaluate

PLAYERS = ("random", "heuristic", "search:iterations=64,seconds=null", "policy:barbu-notricks-v0")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--task", default="barbu-notricks-v0", choices=list(TASKS))
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--search-deals", type=int, default=20)
    parser.add_argument("--players", default=";".join(PLAYERS), help="bot levels separated by ';'")
    args = parser.parse_args(argv)
    print("| player | vs random | vs heuristic | deals |\n| --- | ---: | ---: | ---: |")
    for player in args.players.split(";"):
        deals = args.search_deals if player.startswith("search") else args.deals
        start = time.process_time()
        scores = [evaluate(args.task, player, opponents, deals=deals) for opponents in ("random", "heuristic")]
        cells = " | ".join(f"{s.mean:+.3f} ± {s.half_width:.3f}" for s in scores)
        print(f"| {player} | {cells} | {deals} |  <!-- {time.process_time() - start:.0f} CPU-s -->", flush=True)


if __name__ == "__main__":
    main()
