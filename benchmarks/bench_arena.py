"""Arena throughput: whole games per second with heuristic bots, on every core vs one.

    python benchmarks/bench_arena.py [--games 8] [--variant classic] [--bot heuristic]

Plays the same duplicate games (the same seed) once with one worker and once with every
core, with the bot in every seat (``heuristic``; ``random`` if the heuristic bot is not
registered yet, which the output says). Prints games per second for each and the speed-up
of all cores against one core measured in the same run. A game is one whole game (28
deals in classic); a duplicate game is one game per seat rotation. The two runs must give
the same numbers (the arena is deterministic whatever the number of workers): checked.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from barbu.arena import default_workers, run_arena
from barbu.bots import bot_level, bot_levels
from barbu.rulesets import rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=None, help="duplicate games (default: 2 per core, at least 4)")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--bot", default="heuristic", help="bot spec in every seat (default heuristic)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bot = args.bot
    level = bot.partition(":")[0]
    if bot_level(level) is None and level != "external":
        levels = ", ".join(bot_levels())
        print(f"note: bot level {level!r} is not registered yet ({levels}); measuring 'random' instead")
        bot = "random"
    cores = default_workers()
    games = args.games or max(4, 2 * cores)
    players = rules(args.variant).players
    lineup = [bot] * players
    print(f"{args.variant}, {bot} in every seat, {games} duplicate games ({games * players} games), seed {args.seed}")
    if hasattr(os, "getloadavg"):
        print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus (other work slows both runs)")
    cpu = time.process_time()
    one = run_arena(lineup, variant=args.variant, games=games, seed=args.seed, workers=1)
    cpu = time.process_time() - cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    every = run_arena(lineup, variant=args.variant, games=games, seed=args.seed, workers=cores)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    worker_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    if one.duplicates != every.duplicates or [b.illegal for b in one.bots] != [b.illegal for b in every.bots]:
        raise SystemExit("the arena gave different numbers with 1 and with several workers")
    rate_one = one.games_played / one.seconds
    rate_every = every.games_played / every.seconds
    decisions = sum(b.times.count for b in one.bots)
    print(f"1 core:       {rate_one:7.2f} games/s  ({one.seconds:.1f} s, {decisions / one.seconds:,.0f} decisions/s)")
    print(f"              {one.games_played / cpu:7.2f} games per CPU second (what a core gives when it is not shared)")
    print(f"{cores} cores:      {rate_every:7.2f} games/s  ({every.seconds:.1f} s)")
    print(f"speed-up:     {rate_every / rate_one:7.2f}x on {cores} cores (same numbers: yes)")
    print(
        f"CPU seconds:  {cpu:.1f} in one process, {worker_cpu:.1f} in {cores} workers together "
        f"(parallel overhead {worker_cpu / cpu - 1:+.0%}; uncontended cores would give about "
        f"{cores * every.games_played / worker_cpu:.2f} games/s)"
    )
    median = one.bots[0].times.median or 0.0
    print(f"{bot}: median {median * 1e3:.3f} ms, max {one.bots[0].times.max * 1e3:.1f} ms per decision")
    print(f"illegal actions: {sum(b.illegal for b in one.bots)}")


if __name__ == "__main__":
    main()
