"""Strength and speed of the bot levels, measured on duplicate deals.

One bot (the *hero*) plays against a field of another level. Each game is played
once per seat with the hero rotated through the seats on the same deals (the deals
of a seeded game do not depend on the play), so the luck of the cards cancels.

Reported, per contract and per game: the hero's mean points and its *lead*, its
points minus the mean of the other seats at the table, with a 95% confidence
interval over games (the rotations of one game are averaged first, so the samples
are independent). A lead above zero means the hero does better than the field.
For the search level, decision times are printed too.

The search benchmark plays through the arena (:func:`barbu.arena.run_arena`), which
reports points per game with 95% intervals over duplicate games; the lead per game
is the search seat's points minus the heuristic seats', paired per duplicate game.

Examples::

    python benchmarks/bench_bots.py heuristic --variant all --games 30 --jobs 2
    python benchmarks/bench_bots.py search --games 12 --iterations 16 --seconds 0 --jobs 2
    python benchmarks/bench_bots.py speed --decisions 60          # default budget
    python benchmarks/bench_bots.py calibrate --variant classic   # EDGE_SCALE
    python benchmarks/bench_bots.py native --decisions 30          # compiled vs pure search

Figures of record are in docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from barbu import Game, seat_view
from barbu.actions import Declare
from barbu.bots import Bot, make_bot
from barbu.view import SeatView


@dataclass
class RotationResult:
    """One game played with the hero in one seat."""

    game: int
    hero_seat: int
    deals: list[tuple[str, int, float]] = field(default_factory=list)
    """(contract, hero points, mean points of the other seats) per deal, in own points
    (``french`` penalty points negated, so that higher is better everywhere)."""
    decision_times: list[float] = field(default_factory=list)
    """Seconds per hero decision that had more than one legal action."""


def play_rotation(
    hero: str,
    field_level: str,
    variant: str,
    options: Mapping[str, Any],
    game: int,
    seed: int,
    hero_seat: int,
    hero_settings: Mapping[str, Any],
    make: Callable[..., Bot] = make_bot,
    contract: str | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> RotationResult:
    """Play game ``game`` (dealt from ``"{seed}:{game}"``) with the hero at ``hero_seat``.

    ``make(level, seed=…, **settings)`` builds the bots (another benchmark may add levels
    of its own, e.g. a frozen reference). With ``contract``, only the game's first deal is
    played, declared ``contract`` by seat ``game % players`` (so that every seat declares
    in turn; the calls and the play are the bots'): a quick contract-by-contract measure of
    the play. ``clock`` times the hero's decisions that have a choice.
    """
    g = Game.new(variant, options, seed=f"{seed}:{game}", first_declarer=game % 4 if contract else None)
    n = g.rules.players
    bots = [
        make(hero, seed=seed * 7919 + game * 31 + s, **hero_settings)
        if s == hero_seat
        else make(field_level, seed=seed * 7919 + game * 31 + s)
        for s in range(n)
    ]
    result = RotationResult(game, hero_seat)
    sign = g.rules.sign
    if contract:
        g.apply(Declare(contract))
    seen = 0
    while not g.is_over and not (contract and seen):
        seat = g.to_act
        assert seat is not None
        view = seat_view(g, seat)
        if seat == hero_seat and (len(view.legal_actions) > 1 or view.phase == "arrange"):
            start = clock()
            action = bots[seat].act(view)
            result.decision_times.append(clock() - start)
        else:
            action = bots[seat].act(view)
        g.apply(action, seat)
        while seen < len(g.deals) and g.deals[seen].finished:
            d = g.deals[seen]
            assert d.final is not None and d.contract is not None
            others = [sign * d.final[s] for s in range(n) if s != hero_seat]
            result.deals.append((d.contract.id, sign * d.final[hero_seat], sum(others) / len(others)))
            seen += 1
    return result


def _run(args: tuple[Any, ...]) -> RotationResult:
    return play_rotation(*args)


def duplicate(
    hero: str,
    field_level: str,
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
    games: int = 10,
    seed: int = 1,
    jobs: int = 1,
    hero_settings: Mapping[str, Any] | None = None,
    make: Callable[..., Bot] = make_bot,
    contract: str | None = None,
    clock: Callable[[], float] = time.perf_counter,
    progress: Callable[[list[RotationResult]], None] | None = None,
) -> list[RotationResult]:
    """Every game played once per seat with the hero rotated through the seats
    (:func:`play_rotation`'s arguments); ``progress`` is shown the results after each whole game."""
    players = Game.new(variant, options, seed=0).rules.players
    tasks = [
        (hero, field_level, variant, dict(options or {}), g, seed, s, dict(hero_settings or {}), make, contract, clock)
        for g in range(games)
        for s in range(players)
    ]
    results: list[RotationResult] = []
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        for r in pool.map(_run, tasks) if jobs > 1 else map(_run, tasks):
            results.append(r)
            if progress is not None and len(results) % players == 0:
                progress(results)
    return results


def positions(
    variant: str,
    decisions: int,
    seed: int,
    tag: str = "positions",
    keep: Callable[[Game, int, SeatView], bool] | None = None,
) -> list[SeatView]:
    """The decisions ``keep(game, seat, view)`` picks (by default seat 0's decisions with a
    choice, every kind) in games between heuristic bots (dealt from ``"{tag}:{seed}:{index}"``):
    the same positions for every level or path timed."""
    chosen = keep or _seat_zero_choice
    views: list[SeatView] = []
    index = 0
    while len(views) < decisions:
        g = Game.new(variant, seed=f"{tag}:{seed}:{index}")
        field = [make_bot("heuristic", seed=s) for s in range(g.rules.players)]
        while not g.is_over and len(views) < decisions:
            seat = g.to_act
            assert seat is not None
            view = seat_view(g, seat)
            if chosen(g, seat, view):
                views.append(view)
            g.apply(field[seat].act(view), seat)
        index += 1
    return views


def _seat_zero_choice(game: Game, seat: int, view: SeatView) -> bool:
    """Seat 0's decisions with a choice, every kind (an arrangement always is one)."""
    return seat == 0 and (len(view.legal_actions) > 1 or view.phase == "arrange")


def timed_search(
    views: list[SeatView], native: bool, seed: int, settings: Mapping[str, Any]
) -> tuple[list[Any], list[float]]:
    """The search bot's action on each of ``views`` and the CPU seconds it took, through the
    compiled accelerator or the pure path (``native``); one bot per view, seeded
    ``seed + i``, so both paths face the same draws."""
    from barbu import accel

    compiled = accel._native
    accel._native = compiled if native else None
    actions: list[Any] = []
    times: list[float] = []
    try:
        for i, view in enumerate(views):
            bot = make_bot("search", seed=seed + i, **settings)
            t0 = time.process_time()
            actions.append(bot.act(view))
            times.append(time.process_time() - t0)
    finally:
        accel._native = compiled
    return actions, times


def mean_ci(samples: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval (normal approximation)."""
    if not samples:
        return math.nan, math.nan
    m = statistics.fmean(samples)
    if len(samples) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))


def summary(results: list[RotationResult]) -> dict[str, dict[str, float]]:
    """Per contract and for the whole game: hero points and lead with 95% intervals over games."""
    by_game: dict[int, list[RotationResult]] = defaultdict(list)
    for r in results:
        by_game[r.game].append(r)
    contracts: list[str] = []
    for r in results:
        for c, _, _ in r.deals:
            if c not in contracts:
                contracts.append(c)
    out: dict[str, dict[str, float]] = {}
    for c in [*contracts, "game"]:
        points: list[float] = []
        leads: list[float] = []
        count = 0
        for rotations in by_game.values():
            p: list[float] = []
            lead: list[float] = []
            for r in rotations:
                if c == "game":
                    p.append(sum(h for _, h, _ in r.deals))
                    lead.append(sum(h - o for _, h, o in r.deals))
                else:
                    for cid, h, o in r.deals:
                        if cid == c:
                            p.append(h)
                            lead.append(h - o)
            if p:
                count += len(p)
                points.append(statistics.fmean(p))
                leads.append(statistics.fmean(lead))
        pm, pci = mean_ci(points)
        lm, lci = mean_ci(leads)
        out[c] = {"samples": count, "games": len(points), "points": pm, "points_ci": pci, "lead": lm, "lead_ci": lci}
    return out


def print_summary(title: str, table: dict[str, dict[str, float]]) -> None:
    """The summary as a text table."""
    print(title)
    print(f"{'contract':<16}{'deals':>7}{'hero points':>20}{'lead over field':>22}")
    for c, row in table.items():
        print(
            f"{c:<16}{int(row['samples']):>7}"
            f"{row['points']:>12.2f} ± {row['points_ci']:<5.2f}"
            f"{row['lead']:>14.2f} ± {row['lead_ci']:<5.2f}"
        )


def timing(results: list[RotationResult]) -> dict[str, float]:
    """Decision count, decisions per second, median, 99th percentile and max decision time of the hero."""
    times = [t for r in results for t in r.decision_times]
    if not times:
        return {"decisions": 0}
    ordered = sorted(times)
    return {
        "decisions": len(times),
        "per_second": len(times) / sum(times),
        "median_s": statistics.median(times),
        "p99_s": ordered[int(0.99 * (len(ordered) - 1))],
        "max_s": max(times),
    }


VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("ravage-city", {}),
    ("chinese-poker", {}),
    ("salad", {}),
    ("salad", {"player_count": 5}),
    ("five-player", {}),
    ("french", {}),
    ("king", {}),
    ("thirty-two", {}),
]
"""Every rule set (and salad's five-player table), for ``heuristic --variant all``."""


def heuristic_vs_random(variants: list[tuple[str, dict[str, Any]]], games: int, seed: int, jobs: int) -> int:
    """The heuristic bot against three (or more) random bots, per contract of each rule set."""
    for variant, options in variants:
        start = time.time()
        results = duplicate("heuristic", "random", variant, options, games, seed, jobs)
        wall = time.time() - start
        title = (
            f"heuristic vs random, {variant} {options or ''}: {games} duplicate games "
            f"x {len(results) // games} seats (seed {seed}), {wall:.0f} s"
        )
        print_summary(title, summary(results))
        t = timing(results)
        print(
            f"heuristic decisions: {t['decisions']}, "
            f"median {t['median_s'] * 1000:.2f} ms, 99th percentile {t['p99_s'] * 1000:.2f} ms, "
            f"max {t['max_s'] * 1000:.1f} ms (the first decision of a process computes the rule set's baselines)"
        )
        print()
    return 0


def search_vs_heuristic(games: int, seed: int, jobs: int, settings: Mapping[str, Any], variant: str) -> int:
    """The search bot against three heuristic bots in the arena (duplicate games)."""
    from barbu.arena import run_arena

    spec = "search"
    if settings:
        spec += ":" + ",".join(f"{k}={json.dumps(v)}" for k, v in settings.items())
    players = Game.new(variant, seed=0).rules.players
    result = run_arena([spec] + ["heuristic"] * (players - 1), variant=variant, games=games, seed=seed, workers=jobs)
    hero, field = result.bot(spec), result.bot("heuristic")
    leads = [row[0] - row[1] for row in result.duplicates]
    lead, lead_ci = mean_ci(leads)
    print(
        f"{spec} vs three heuristic, {variant}: {games} duplicate games x {players} seats "
        f"(seed {seed}, {result.workers} workers), {result.seconds:.0f} s, illegal actions {result.illegal}"
    )
    print(f"points per game: {spec} {hero.points_per_game}, heuristic {field.points_per_game}")
    print(f"lead per game over the heuristic seats: {lead:.1f} ± {lead_ci:.1f} (95%, over duplicate games)")
    print("points per deal by contract (search / heuristic):")
    for c in result.contracts:
        print(f"  {c:<16}{hero.per_contract[c]!s:>18}{field.per_contract[c]!s:>18}")
    times = hero.times
    print(
        f"search decisions (all, forced ones included): {times.count}, median {1000 * (times.median or 0):.1f} ms, "
        f"max {1000 * (times.max or 0):.0f} ms"
    )
    return 0


def calibrate(variant: str, deals: int, seed: int) -> int:
    """Slope and correlation of the declarer's raw score on its hand estimate, per contract.

    The slopes are :data:`barbu.bots.estimates.EDGE_SCALE`.
    """
    import random

    from barbu.actions import Declare, NameRank, NameTrump
    from barbu.bots.domino_play import best_rank
    from barbu.bots.estimates import best_trump, hand_worth
    from barbu.bots.search import SearchBot
    from barbu.cards import cards_of
    from barbu.deal import Deal, Phase
    from barbu.rulesets import rules

    r = rules(variant)
    rng = random.Random(seed)
    player = SearchBot(seed=seed)
    deck = cards_of(r.deck)
    n = r.players
    sign = r.sign
    print(f"{variant}: declarer's raw score against its estimate, {deals} deals per contract")
    for c in r.contracts:
        xs: list[float] = []
        ys: list[float] = []
        index = r.contracts.index(c) * n if not r.schedule.declarer_chooses else 0
        for _ in range(deals):
            rng.shuffle(deck)
            hands = [sum(1 << x for x in deck[s::n]) for s in range(n)]
            d = Deal(r, index, index % n, hands, [c])
            if d.contract is None:
                d.apply_unchecked(Declare(c.id))
            me = d.declarer
            if d.phase is Phase.TRUMP:
                d.apply_unchecked(NameTrump(best_trump(hands[me], c, r)[0]))
            if d.phase is Phase.RANK:
                d.apply_unchecked(NameRank(best_rank(hands[me], r.domino_ranks, r.ruleset.low_rank)))
            player.simulate(d, me, exact=False)
            assert d.raw is not None
            xs.append(hand_worth(hands[me], c, r, d.trump, d.rank))
            ys.append(sign * d.raw[me])
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
        corr = statistics.correlation(xs, ys) if sxx else 0.0
        share = sign * r.total(c) / n
        print(
            f"  {c.id:<18} slope {slope:5.2f}  correlation {corr:5.2f}  "
            f"declarer mean {my:8.2f}  even share {share:8.2f}"
        )
    return 0


def main(argv: list[str]) -> int:
    """Run the benchmark named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["heuristic", "search", "speed", "calibrate", "native"], help="what to measure")
    parser.add_argument("--variant", default="classic", help="rule set, or 'all' (heuristic only)")
    parser.add_argument("--games", type=int, default=20, help="duplicate games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--iterations", type=int, default=None, help="search: worlds per decision")
    parser.add_argument("--seconds", type=float, default=None, help="search: time cap per decision (0: none)")
    parser.add_argument("--decisions", type=int, default=40, help="speed: search decisions to time")
    parser.add_argument("--deals", type=int, default=300, help="calibrate: deals per contract")
    args = parser.parse_args(argv)
    settings: dict[str, Any] = {}
    if args.iterations is not None:
        settings["iterations"] = args.iterations
    if args.seconds is not None:
        settings["seconds"] = args.seconds or None
    if args.what == "heuristic":
        variants = VARIANTS if args.variant == "all" else [(args.variant, {})]
        return heuristic_vs_random(variants, args.games, args.seed, args.jobs)
    if args.what == "search":
        return search_vs_heuristic(args.games, args.seed, args.jobs, settings, args.variant)
    if args.what == "calibrate":
        return calibrate(args.variant, args.deals, args.seed)
    if args.what == "native":
        return native_speed(args.variant, args.decisions, args.seed, args.iterations or 64)
    return speed(args.variant, args.decisions, args.seed, settings)


def speed(variant: str, decisions: int, seed: int, settings: Mapping[str, Any]) -> int:
    """Time the search bot's decisions (those with a choice) in heuristic games, next to the
    heuristic bot's on the same positions as the reference."""
    search = make_bot("search", seed=seed, **settings)
    heuristic = make_bot("heuristic", seed=seed)
    timed: list[float] = []
    reference: list[float] = []
    for view in positions(variant, decisions, seed, "speed"):
        t0 = time.perf_counter()
        search.act(view)
        timed.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        heuristic.act(view)
        reference.append(time.perf_counter() - t0)
    med = statistics.median(timed)
    ref = statistics.median(reference)
    print(
        f"search ({dict(settings) or 'default budget'}), {variant}: {len(timed)} decisions with a choice, "
        f"{len(timed) / sum(timed):.2f} decisions/s, median {med * 1000:.0f} ms, max {max(timed) * 1000:.0f} ms"
    )
    print(f"heuristic on the same positions: median {ref * 1000:.2f} ms; search/heuristic = {med / ref:.0f}x")
    return 0


def _card_choice(game: Game, seat: int, view: SeatView) -> bool:
    """Card decisions with a choice, of one seat in three per deal (spread over the seats)."""
    return view.phase == "play" and len(view.legal_actions) > 1 and len(game.deals) % 3 == seat % 3


def native_speed(variant: str, decisions: int, seed: int, iterations: int) -> int:
    """The search bot's card decisions through the compiled accelerator and the pure path:
    CPU ms per decision at the same number of worlds (the decisions must be identical),
    then the worlds each path searches within the default time cap."""
    from barbu import accel
    from barbu.bots import search as search_module

    if not accel.NATIVE:
        print(accel.status())
        return 1
    views = positions(variant, decisions, seed, "native", _card_choice)

    def timed(native: bool, **settings: Any) -> tuple[list[Any], list[float], list[int]]:
        worlds: list[int] = []
        original = search_module.Budget.more

        def counting(budget: search_module.Budget) -> bool:
            more = original(budget)
            if not more:
                worlds.append(budget.done)
            return more

        search_module.Budget.more = counting  # type: ignore[method-assign,assignment]
        try:
            actions, times = timed_search(views, native, seed, settings)
        finally:
            search_module.Budget.more = original  # type: ignore[method-assign]
        return actions, times, worlds

    fixed = {"iterations": iterations, "seconds": None}
    new_actions, new_times, _ = timed(True, **fixed)
    old_actions, old_times, _ = timed(False, **fixed)
    same = sum(a == b for a, b in zip(new_actions, old_actions, strict=True))
    old_ms, new_ms = statistics.mean(old_times) * 1000, statistics.mean(new_times) * 1000
    print(f"{accel.status()}; {variant}, {len(views)} card decisions, {iterations} worlds each (no time cap)")
    print(f"identical decisions: {same}/{len(views)}")
    print(
        f"CPU ms per decision: pure {old_ms:.1f} (median {statistics.median(old_times) * 1000:.1f}), "
        f"compiled {new_ms:.1f} (median {statistics.median(new_times) * 1000:.1f}); {old_ms / new_ms:.1f}x fewer"
    )
    _, _, new_worlds = timed(True, iterations=10**6)
    _, _, old_worlds = timed(False, iterations=10**6)
    print(
        f"default time cap, worlds per decision: pure {statistics.mean(old_worlds):.0f}, "
        f"compiled {statistics.mean(new_worlds):.0f} ({statistics.mean(new_worlds) / statistics.mean(old_worlds):.1f}x)"
    )
    return 0 if same == len(views) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
