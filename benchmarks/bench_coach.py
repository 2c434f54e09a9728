"""Speed of the coach: analysis of a whole game and the advisor's answer time.

``analysis`` plays one whole seeded game (28 deals in classic) with heuristic bots in every
seat, then analyses it at the default settings (:class:`barbu.coach.Settings`) on one
core, and again with ``--workers`` processes when asked. It prints CPU and wall times and,
as a reference measured in the same run, the time of the search bot deciding one world's
worth of the same game's first deal, so that figures from a busy machine can be compared.

``advise`` asks the advisor about seeded random hands: before the contract (every contract
and its trumps or ranks) and in the calls (every legal call), and prints the median and
maximum answer times, CPU and wall.

``server`` starts ``barbu serve``, times ``GET /api/bots`` (an answer of the event loop) while
idle, then while the server analyses a record of ``--deals`` deals (in its worker process),
and prints the median and worst answer times of both and the analysis's wall time.

Examples::

    python benchmarks/bench_coach.py analysis                 # goal: under 2 minutes on one core
    python benchmarks/bench_coach.py analysis --workers 2
    python benchmarks/bench_coach.py advise --hands 20        # goal: under 1 s an answer
    python benchmarks/bench_coach.py server --deals 5

Figures of record are in docs/coach.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from barbu import Game, seat_view
from barbu.bots import make_bot
from barbu.cards import pbn
from barbu.coach import Settings, advise, analyse
from barbu.record import game_to_record
from barbu.rulesets import rules


def played_game(variant: str, seed: int) -> dict[str, object]:
    """A whole game played by heuristic bots, as a record."""
    game = Game.new(variant, seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(game.rules.players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
    return game_to_record(game)


def _reference(doc: dict[str, object]) -> float:
    """CPU seconds of 200 replays of the record (the core's checked door): a fixed workload."""
    from barbu.record import game_from_record

    start = time.process_time()
    for _ in range(20):
        game_from_record(doc)
    return time.process_time() - start


def bench_analysis(variant: str, seed: int, workers: int) -> None:
    doc = played_game(variant, seed)
    ref = _reference(doc)
    settings = Settings()
    wall = time.perf_counter()
    cpu = time.process_time()
    out = analyse(doc, settings)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    decisions = sum(len(d["decisions"]) for d in out["analysis"]["deals"])
    valued = sum(1 for d in out["analysis"]["deals"] for e in d["decisions"] if not e["forced"])
    exact = sum(1 for d in out["analysis"]["deals"] for e in d["decisions"] if e["exact"] is not None)
    deals = len(out["analysis"]["deals"])
    print(f"{variant}, seed {seed}: {deals} deals, {decisions} decisions, {valued} valued, {exact} solved exactly")
    print(f"settings: {settings}")
    print(
        f"one core: CPU {cpu:.1f} s, wall {wall:.1f} s (goal: under 120 s); "
        f"{1000 * cpu / max(valued, 1):.1f} ms CPU a valued decision"
    )
    print(f"reference (20 checked replays of the record): CPU {ref:.2f} s; analysis / reference = {cpu / ref:.0f}")
    if workers > 1:
        wall2 = time.perf_counter()
        out2 = analyse(doc, settings, workers=workers)
        wall2 = time.perf_counter() - wall2
        same = out2["analysis"] == out["analysis"]
        print(
            f"{workers} workers: wall {wall2:.1f} s (one core: {wall:.1f} s, ratio {wall / wall2:.2f}); "
            f"same analysis: {same}"
        )


def bench_advise(variant: str, hands: int, seed: int) -> None:
    r = rules(variant)
    rng = random.Random(seed)
    times: dict[str, list[tuple[float, float]]] = {"contract": [], "call": []}
    for _ in range(hands):
        cards = rng.sample(sorted(c for c in range(52) if r.deck >> c & 1), r.cards_each)
        hand = pbn(sum(1 << c for c in cards))
        for phase in ("contract", "call"):
            kwargs: dict[str, Any] = {"seat": 0}
            if phase == "call":
                kwargs = {"seat": 1, "declarer": 0, "contract": "no-queens"}
            w, c = time.perf_counter(), time.process_time()
            advise(variant, hand, **kwargs)
            times[phase].append((time.process_time() - c, time.perf_counter() - w))
    for phase, ts in times.items():
        cpu = [t[0] for t in ts]
        wall = [t[1] for t in ts]
        print(
            f"advise, {phase} ({len(ts)} hands): CPU median {1000 * statistics.median(cpu):.0f} ms, "
            f"max {1000 * max(cpu):.0f} ms; wall median {1000 * statistics.median(wall):.0f} ms, "
            f"max {1000 * max(wall):.0f} ms (goal: under 1000 ms)"
        )


def _latencies(base: str, seconds: float, until: Any = None) -> list[float]:
    import httpx

    out: list[float] = []
    end = time.perf_counter() + seconds
    with httpx.Client() as client:
        while (until is None and time.perf_counter() < end) or (until is not None and not until.done()):
            t = time.perf_counter()
            client.get(base + "/api/bots").raise_for_status()
            out.append(time.perf_counter() - t)
            time.sleep(0.02)
    return out


def bench_server(deals: int, seed: int) -> None:
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from barbu.server.client import ServerProcess

    game = Game.new("classic", seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(4)]
    while len(game.deals) <= deals:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
    doc = game_to_record(game)
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(f"sqlite:///{tmp}/b.db") as server:
        idle = _latencies(server.http, 5.0)
        with ThreadPoolExecutor(1) as pool:
            start = time.perf_counter()
            job = pool.submit(lambda: httpx.post(server.http + "/api/analysis", json={"record": doc}, timeout=600))
            busy = _latencies(server.http, 0, until=job)
            res = job.result()
            took = time.perf_counter() - start
        res.raise_for_status()
    for name, xs in (("idle", idle), ("during the analysis", busy)):
        print(
            f"GET /api/bots {name}: median {1000 * statistics.median(xs):.0f} ms, worst {1000 * max(xs):.0f} ms "
            f"({len(xs)} requests)"
        )
    print(f"analysis of a {len(doc['deals'])}-deal record (the worker process starts on first use): wall {took:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("analysis")
    a.add_argument("--variant", default="classic")
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--workers", type=int, default=1)
    b = sub.add_parser("advise")
    b.add_argument("--variant", default="classic")
    b.add_argument("--hands", type=int, default=10)
    b.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("server")
    c.add_argument("--deals", type=int, default=5)
    c.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.what == "analysis":
        bench_analysis(args.variant, args.seed, args.workers)
    elif args.what == "server":
        bench_server(args.deals, args.seed)
    else:
        bench_advise(args.variant, args.hands, args.seed)


if __name__ == "__main__":
    main()
