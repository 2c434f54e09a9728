"""The search levels: worlds per time budget, decision times per level, and head-to-head strength.

Four measures:

``worlds``
    The search bot at the time the pure-Python path took for the old default (64 worlds):
    on the same positions (seat 0's decisions with a choice in games between heuristic
    bots, every kind of decision), CPU time of the pure path and of the compiled path at
    64 worlds (their decisions must be identical), and so the worlds the compiled path
    searches in the pure path's time (issue 13's question; ``--iterations`` of the
    strength run below).
``times``
    Decision times of every level (or of the ``--levels`` given, each with settings if
    written ``level:key=value,…``) on the same positions (median, 95th percentile, max,
    in ms of wall time and of CPU time; decisions with one legal action are not counted:
    every level answers them at once), with the mean of the worlds a search level
    searched a decision. With ``--iterations``, the search at each of those numbers of
    worlds (time cap ``--seconds``, ``null`` for none): how the default's worlds were chosen.
``decide``
    The search's action on each position at ``--iterations`` worlds without a time cap (one
    bot per position, seeded ``seed + i``; ``BARBU_PURE=1`` for the pure path), written to
    ``--json`` with the CPU time of each; given two such files instead, how many actions
    agree and the ratio of their times. Run with ``PYTHONPATH`` at another checkout's
    ``src``, it proves that a change of the code keeps the decisions (docs/bots.md, "The
    default's worlds").
``duel``
    Reads the JSON reports of arena runs of ``A B B B`` (one file per seed, e.g. written
    by the commands below), and prints A's lead over B per 28-deal game, with a 95%
    Student interval over all the duplicate games together.
``strength``
    Two bots on duplicate *deals*: ``--hero`` rotated through the seats against three
    ``--field`` bots, each written as on ``barbu arena``'s command line
    (``level:key=value,…``, e.g. ``expert:worlds=320,ms=null``); by default the search at
    320 worlds (what the compiled path affords in the old default's time) against three at
    64 (the old default), and ``--worlds``/``--against`` set those numbers of the search's
    worlds. Give fixed worlds and no time cap (``seconds=null``, ``ms=null``) so that the
    result does not depend on the load and a rerun is the same. For each contract,
    ``--deals`` single deals (the contract imposed on the deal's declarer, the calls and the
    play the bots'), each played once per seat with the hero rotated through the seats on
    the same cards (:func:`bench_bots.play_rotation`). A deal's sample is the hero's lead
    (its points minus the mean of the three others at its table) averaged over its
    rotations; per contract the mean lead per deal with a Student 95% interval, and per
    28-deal game four times the sum of the contracts' means, the intervals combined as
    independent (every deal has its own cards). Every rotation is saved to ``--json`` as it
    ends, and a rerun with the same arguments resumes where the file stops.

Examples::

    python benchmarks/bench_search.py worlds --decisions 40
    python benchmarks/bench_search.py times --decisions 60
    python benchmarks/bench_search.py times --decisions 400 --levels search --iterations 64 320 --seconds null
    python benchmarks/bench_search.py times --decisions 1000 --levels heuristic   # the web app's default
    python benchmarks/bench_search.py times --decisions 200 --levels expert expert:worlds=320,ms=null
    python benchmarks/bench_search.py times --decisions 150 --by-phase --levels expert:worlds=320,ms=null,endgame=3 \\
        expert:worlds=320,ms=null
    PYTHONPATH=../before/src python benchmarks/bench_search.py decide --iterations 320 --json before.json
    python benchmarks/bench_search.py decide --iterations 320 --json after.json
    python benchmarks/bench_search.py decide before.json after.json
    for s in $(seq 200 299); do barbu arena expert search:seconds=null search:seconds=null \\
        search:seconds=null --games 1 --seed $s --workers 1 --quiet --json expert/seed-$s.json; done
    python benchmarks/bench_search.py duel expert/*.json
    python benchmarks/bench_search.py strength --deals 40 --json strength.json     # resumable
    python benchmarks/bench_search.py strength --first 100 --deals 40 --json more.json  # a second process
    python benchmarks/bench_search.py strength strength.json more.json              # the table of both
    python benchmarks/bench_search.py strength --hero expert:worlds=320,ms=null \\
        --field search:iterations=320,seconds=null --deals 40 --json expert.json

Figures of record are in docs/bots.md and docs/native.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_bots

from barbu.arena.stats import Estimate
from barbu.bots import Bot, make_bot, parse_bot
from barbu.bots.errors import BotError
from barbu.bots.search import DEFAULT_ITERATIONS, DEFAULT_SECONDS
from barbu.rulesets import rules
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


def times(
    variant: str,
    decisions: int,
    seed: int,
    levels: list[str] | None = None,
    iterations: list[int] | None = None,
    seconds: float | None = DEFAULT_SECONDS,
    by_phase: bool = False,
) -> int:
    """Median, p95 and max decision time of each level (``levels``: bot specs, ``level`` or
    ``level:key=value,…``; None for every level at its defaults), on the same positions:
    wall time, and CPU time of the process (one core's work, whatever else the machine
    runs), with the mean of the worlds a search level searched a decision. With
    ``iterations``, the search at each of those numbers of worlds (time cap ``seconds``,
    None for none) instead of its default. With ``by_phase``, each kind of decision (card,
    call, contract, trump, rank) on a line of its own under its level's."""
    from barbu.bots import search

    views = positions(variant, decisions, seed)
    kinds = {p: sum(v.phase == p for v in views) for p in sorted({v.phase for v in views})}
    print(f"{variant}: {len(views)} decisions with a choice {kinds} (seat 0 in heuristic games, seed {seed}); ms")
    print(f"{'level':<32}{'wall median':>12}{'p95':>9}{'max':>9}{'CPU median':>12}{'p95':>9}{'max':>9}{'worlds':>8}")
    runs = [parse_bot(spec) for spec in levels] if levels else list(LEVELS)
    if iterations:
        runs = [(level, s) for level, s in runs if level != "search"]
        runs += [("search", {"iterations": n, "seconds": seconds}) for n in iterations]
    searched: list[int] = []

    class Counted(search.Budget):
        """The search's budget, counting the worlds each decision searched."""

        def more(self) -> bool:
            if super().more():
                return True
            searched.append(self.done)
            return False

    budget = search.Budget
    search.Budget = Counted  # type: ignore[misc]
    try:
        for level, settings in runs:
            bot = make_bot(level, seed=seed, **settings)
            wall: list[float] = []
            cpu: list[float] = []
            searched.clear()
            for view in views:
                t0, c0 = time.perf_counter(), time.process_time()
                bot.act(view)
                wall.append(1000 * (time.perf_counter() - t0))
                cpu.append(1000 * (time.process_time() - c0))
            name = level + (":" + ",".join(f"{k}={v}" for k, v in settings.items()) if settings else "")
            worlds = f"{statistics.fmean(searched):>8.0f}" if searched else f"{'':>8}"
            print(f"{name:<32}" + "".join(_spread(taken) for taken in (wall, cpu)) + worlds, flush=True)
            for phase in kinds if by_phase else ():
                mine = [i for i, v in enumerate(views) if v.phase == phase]
                spread = "".join(_spread([taken[i] for i in mine]) for taken in (wall, cpu))
                print(f"{'  ' + phase + f' ({len(mine)})':<32}{spread}", flush=True)
    finally:
        search.Budget = budget  # type: ignore[misc]
    return 0


def decide(variant: str, decisions: int, seed: int, iterations: int, path: Path | None, files: list[str]) -> int:
    """Write the search's actions on the positions to ``path``, or compare two such ``files``."""
    if files:
        if len(files) != 2:
            raise SystemExit("decide compares two files: the actions of one code, then of the other")
        a, b = (json.loads(Path(f).read_text()) for f in files)
        if a["args"] != b["args"]:
            raise SystemExit(f"the files decided other positions: {a['args']} and {b['args']}")
        same = sum(x["action"] == y["action"] for x, y in zip(a["decisions"], b["decisions"], strict=True))
        ta, tb = (math.fsum(d["cpu"] for d in f["decisions"]) for f in (a, b))
        print(f"{a['args']}: identical actions {same}/{len(a['decisions'])}")
        print(f"CPU {ta:.2f} s / {tb:.2f} s = {ta / tb:.2f}x")
        for phase in sorted({d["phase"] for d in a["decisions"]}):
            pa = [d["cpu"] for d in a["decisions"] if d["phase"] == phase]
            pb = [d["cpu"] for d in b["decisions"] if d["phase"] == phase]
            print(f"  {phase:<9}{len(pa):>4} decisions: {statistics.fmean(pa):.3f} s / {statistics.fmean(pb):.3f} s")
        return 0 if same == len(a["decisions"]) else 1
    views = positions(variant, decisions, seed)
    out = []
    for i, view in enumerate(views):
        bot = make_bot("search", seed=seed + i, iterations=iterations, seconds=None)
        started = time.process_time()
        action = bot.act(view)
        out.append({"phase": view.phase, "action": repr(action), "cpu": time.process_time() - started})
    args = {"variant": variant, "decisions": decisions, "seed": seed, "iterations": iterations}
    report = json.dumps({"args": args, "decisions": out})
    if path is None:
        print(report)
    else:
        path.write_text(report)
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


def search_spec(worlds: int) -> str:
    """The search at ``worlds`` worlds a decision without a time cap, as a bot spec.

    >>> search_spec(320)
    'search:iterations=320,seconds=null'
    """
    return f"search:iterations={worlds},seconds=null"


def spec_bot(spec: str, seed: int | None = 0) -> Bot:
    """The bot written ``spec`` (``level:key=value,…``, :func:`barbu.bots.parse_bot`): the
    ``make`` of the strength measure's duplicate deals, whose levels are such specs.

    >>> bot = spec_bot("expert:worlds=320,ms=null", seed=4)
    >>> bot.name, bot.settings()["worlds"], bot.settings()["ms"]
    ('expert', 320, None)
    """
    level, settings = parse_bot(spec)
    return make_bot(level, seed=seed, **settings)


def clock_settings(spec: str) -> list[str]:
    """The settings of ``spec`` that let the clock end a decision (so the load changes the
    result): the search's ``seconds`` and the expert's ``ms`` unless null.

    >>> clock_settings("search:iterations=320,seconds=null"), clock_settings("expert")
    ([], ['ms'])
    """
    return [k for k, v in spec_bot(spec).settings().items() if k in ("seconds", "ms") and v is not None]


def strength_runs(
    hero: str,
    field: str,
    deals: int,
    seed: int,
    variant: str,
    path: Path | None,
    quiet: bool = False,
    first: int = 0,
) -> list[dict[str, Any]]:
    """Every rotation of the strength measure: duplicate deals ``first`` to ``first + deals - 1``
    of each contract (contract by contract in turn, so that a stopped run has them all), the
    bot ``hero`` (a spec, :func:`spec_bot`) rotated through the seats against three ``field``.
    With ``path``, the rotations already in that file are kept and each new one is written as
    it ends (a run stopped at any point resumes); two processes given other ``first`` deals
    and files share the work (:func:`strength_files` reads their files together)."""
    args = strength_args(hero, field, seed, variant)
    runs: list[dict[str, Any]] = []
    if path is not None and path.exists():
        runs = strength_files([path], args)
    done = {(r["contract"], r["deal"], r["seat"]) for r in runs}
    contracts = [c.id for c in rules(variant).contracts]
    players = rules(variant).players
    for deal in range(first, first + deals):
        for k, contract in enumerate(contracts):
            for seat in range(players):
                if (contract, deal, seat) in done:
                    continue
                started = time.process_time()
                # One game index per (deal, contract): its own cards, and declarers in turn.
                r = bench_bots.play_rotation(
                    hero,
                    field,
                    variant,
                    {},
                    deal * len(contracts) + k,
                    seed,
                    seat,
                    {},
                    make=spec_bot,
                    contract=contract,
                    clock=time.process_time,
                )
                ((cid, points, others),) = r.deals
                assert cid == contract
                runs.append(
                    {
                        "contract": contract,
                        "deal": deal,
                        "seat": seat,
                        "game": r.game,
                        "hero": points,
                        "others": others,
                        "times": [round(t, 5) for t in r.decision_times],
                    }
                )
                if path is not None:
                    temporary = path.with_suffix(".tmp")
                    temporary.write_text(json.dumps({"args": args, "rotations": runs}))
                    os.replace(temporary, path)
                if not quiet:
                    print(
                        f"{contract:<12} deal {deal:>3} seat {seat}: lead {points - others:+7.2f} "
                        f"({time.process_time() - started:.1f} s CPU)",
                        flush=True,
                    )
    return runs


def strength_args(hero: str, field: str, seed: int, variant: str) -> dict[str, Any]:
    """What a strength file measures: only files of the same measure are read together.

    The bots are kept as their specs' level and settings (so that ``search:seconds=null,
    iterations=64`` and ``search:iterations=64,seconds=null`` are one measure).

    >>> strength_args("search:iterations=2,seconds=null", "search:iterations=1,seconds=null", 5, "classic")["hero"]
    ['search', {'iterations': 2, 'seconds': None}]
    """
    return {"hero": _spec_args(hero), "field": _spec_args(field), "seed": seed, "variant": variant}


def _spec_args(spec: str) -> list[Any]:
    level, settings = parse_bot(spec)
    return [level, dict(sorted(settings.items()))]


def _saved_args(saved: dict[str, Any]) -> dict[str, Any]:
    """The args of a strength file; files written before bots were specs name the search's
    worlds (``worlds``, ``against``): the same measure as the search specs of those worlds."""
    if "worlds" in saved:
        rest = {k: v for k, v in saved.items() if k not in ("worlds", "against")}
        return strength_args(search_spec(saved["worlds"]), search_spec(saved["against"]), **rest)
    return saved


def strength_files(paths: list[Path], args: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The rotations of strength files of one measure (``args``, or the first file's), each once."""
    runs: dict[tuple[str, int, int], dict[str, Any]] = {}
    for path in paths:
        saved = json.loads(path.read_text())
        found = _saved_args(saved["args"])
        args = args or found
        if found != args:
            raise SystemExit(f"{path} was written by a run with {found}, not {args}: use another file")
        for r in saved["rotations"]:
            runs.setdefault((r["contract"], r["deal"], r["seat"]), r)
    return list(runs.values())


def strength_table(runs: list[dict[str, Any]], deals_per_contract: int = 4) -> dict[str, Any]:
    """Per contract the hero's mean lead per duplicate deal (complete deals only: every seat
    played) with its interval, and per game ``deals_per_contract`` times their sum.

    >>> runs = [{"contract": c, "deal": d, "seat": s, "hero": 1.0 + d, "others": 0.0, "times": [0.1]}
    ...         for c in ("a", "b") for d in range(3) for s in range(4)]
    >>> table = strength_table(runs)
    >>> table["a"]["mean"], table["a"]["n"], table["game"]["mean"]
    (2.0, 3, 16.0)
    """
    players = 1 + max(r["seat"] for r in runs)
    leads: dict[str, dict[int, list[float]]] = {}
    for r in runs:
        leads.setdefault(r["contract"], {}).setdefault(r["deal"], []).append(r["hero"] - r["others"])
    table: dict[str, Any] = {}
    for contract, by_deal in leads.items():
        samples = [statistics.fmean(v) for v in by_deal.values() if len(v) == players]
        if samples:
            table[contract] = Estimate.of(samples).as_json()
    mean = deals_per_contract * math.fsum(e["mean"] for e in table.values())
    widths = [e["half_width"] for e in table.values()]
    half = None if None in widths else deals_per_contract * math.sqrt(math.fsum(w * w for w in widths))
    table["game"] = {
        "mean": mean,
        "half_width": half,
        "low": None if half is None else mean - half,
        "high": None if half is None else mean + half,
        "n": min((e["n"] for e in table.values()), default=0),
    }
    return table


def strength(
    hero: str, field: str, deals: int, seed: int, variant: str, path: Path | None, first: int, files: list[Path]
) -> int:
    """Run (or resume) the strength measure into ``path``, or with ``files`` only read them
    (the files of several processes), and print the table and the hero's decision times."""
    if files:
        runs = strength_files(files)
        args = _saved_args(json.loads(files[0].read_text())["args"])
        seed, variant = args["seed"], args["variant"]
        hero, field = (_spec_text(*args[who]) for who in ("hero", "field"))
    else:
        for spec in (hero, field):
            if clock_settings(spec):
                print(
                    f"note: {spec} lets the clock end a decision ({', '.join(clock_settings(spec))}): load changes it"
                )
        runs = strength_runs(hero, field, deals, seed, variant, path, first=first)
    # Every seat declares every contract once in a game: a contract's deals in a game are the players.
    table = strength_table(runs, rules(variant).players)
    game_deals = rules(variant).players * len(rules(variant).contracts)
    print(f"{hero} against three {field}, {variant}, seed {seed}")
    print(f"{'contract':<14}{'deals':>6}{'lead per deal':>16}{'95% interval':>22}")
    for contract, e in table.items():
        interval = "n/a" if e["half_width"] is None else f"{e['low']:+.2f} to {e['high']:+.2f}"
        label = f"per game ({game_deals})" if contract == "game" else contract
        print(f"{label:<14}{e['n']:>6}{e['mean']:>+10.2f} ± {e['half_width'] or math.nan:<7.2f} {interval:>20}")
    hero_times = sorted(t for r in runs for t in r["times"])
    if hero_times:
        p95 = hero_times[min(len(hero_times) - 1, int(0.95 * len(hero_times)))]
        print(
            f"hero decisions with a choice: {len(hero_times)}, "
            f"CPU median {1000 * statistics.median(hero_times):.0f} ms, p95 {1000 * p95:.0f} ms, "
            f"max {1000 * hero_times[-1]:.0f} ms"
        )
    return 0


def _spec_text(level: str, settings: dict[str, Any]) -> str:
    """A bot spec written back from its level and settings (``null`` for None)."""
    written = ",".join(f"{k}={json.dumps(v)}" for k, v in settings.items())
    return f"{level}:{written}" if written else level


def _interval(e: Estimate) -> str:
    if e.low is None or e.high is None:
        return "n/a"
    return f"{e.low:+.1f} to {e.high:+.1f}"


def strength_bots(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[str, str]:
    """The strength measure's hero and field specs from the command line: ``--hero`` and
    ``--field``, else the search at ``--worlds`` and ``--against`` worlds; a spec that names
    no level or setting of it stops with the bots' own message."""
    if args.hero and args.worlds is not None:
        parser.error("give the hero as --hero or as --worlds, not both")
    if args.field and args.against is not None:
        parser.error("give the field as --field or as --against, not both")
    hero = args.hero or search_spec(DEFAULT_ITERATIONS if args.worlds is None else args.worlds)
    field = args.field or search_spec(64 if args.against is None else args.against)
    for spec in (hero, field):
        try:
            spec_bot(spec)
        except BotError as refused:
            parser.error(f"{spec}: {refused}")
    return hero, field


def main(argv: list[str]) -> int:
    """Run the measure named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["worlds", "times", "decide", "duel", "strength"])
    parser.add_argument("files", nargs="*", help="duel: arena JSON reports; decide, strength: their files")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--levels", nargs="+", help="times: only these levels, with settings if given (e.g. expert:worlds=320,ms=null)"
    )
    parser.add_argument(
        "--iterations", type=int, nargs="+", help="times: the search at these numbers of worlds; decide: at this one"
    )
    parser.add_argument("--seconds", default=str(DEFAULT_SECONDS), help="times: their time cap (null: none)")
    parser.add_argument("--by-phase", action="store_true", help="times: each kind of decision on a line of its own")
    parser.add_argument(
        "--worlds", type=int, help=f"strength: the hero, the search at this many worlds ({DEFAULT_ITERATIONS})"
    )
    parser.add_argument("--against", type=int, help="strength: the field, the search at this many worlds (64)")
    parser.add_argument(
        "--hero", help="strength: the hero as a bot spec, e.g. expert:worlds=320,ms=null (instead of --worlds)"
    )
    parser.add_argument(
        "--field", help="strength: the field as a bot spec, e.g. search:iterations=320,seconds=null (not --against)"
    )
    parser.add_argument("--deals", type=int, default=20, help="strength: duplicate deals of each contract")
    parser.add_argument("--first", type=int, default=0, help="strength: the first duplicate deal's number")
    parser.add_argument(
        "--json", type=Path, help="strength: the rotations, written as they end (resumable); decide: the actions"
    )
    args = parser.parse_args(argv)
    if args.what == "strength":
        files = [Path(f) for f in args.files]
        hero, field = strength_bots(parser, args)
        return strength(hero, field, args.deals, args.seed, args.variant, args.json, args.first, files)
    if args.what == "worlds":
        return worlds(args.variant, args.decisions, args.seed)
    if args.what == "decide":
        iterations = args.iterations[0] if args.iterations else DEFAULT_ITERATIONS
        return decide(args.variant, args.decisions, args.seed, iterations, args.json, args.files)
    if args.what == "times":
        seconds = None if args.seconds == "null" else float(args.seconds)
        return times(args.variant, args.decisions, args.seed, args.levels, args.iterations, seconds, args.by_phase)
    return duel(args.files)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
