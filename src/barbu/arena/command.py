"""``barbu arena`` on the command line: the arguments, the run, the tables, JSON and chart.

>>> arena_parser().parse_args(["random"] * 4 + ["--games", "3"]).games
3
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from barbu.arena.play import BotSpec, ray_module, run_arena
from barbu.arena.report import arena_tables, plot_arena
from barbu.bots import bot_levels
from barbu.bots.external import DEFAULT_TIMEOUT_S
from barbu.language import N_, _, _n, error_text
from barbu.rulesets import parse_options, rules
from barbu.usage import CommandParser, Phrase, UsageError, number, output_file, output_folder, whole_number
from barbu.usage.table import print_table


def arena_parser() -> argparse.ArgumentParser:
    """The arguments of ``barbu arena``."""
    parser = CommandParser(
        prog="barbu arena",
        description=N_(
            "Play bots against each other on duplicate deals (each deal set played once per rotation "
            "of the bots through the seats) and report points per game and per contract with 95% intervals."
        ),
        epilog=Phrase(
            "Bots: {levels}, LEVEL:key=value,... (e.g. search:seconds=0.2), "
            "external:COMMAND (a program speaking JSON lines, see docs/arena.md).",
            levels=", ".join(bot_levels()),
        ),
    )
    parser.add_argument(
        "bots", nargs="+", metavar="BOT", help=N_("one bot spec per seat, e.g. heuristic random random random")
    )
    parser.add_argument("--variant", default="classic", help=N_("rule set (default classic)"))
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help=N_("a rule option (JSON value)")
    )
    parser.add_argument(
        "--games", type=whole_number(1), default=100, help=N_("duplicate games (deal sets), default 100")
    )
    parser.add_argument("--seed", type=int, default=0, help=N_("seed of the deals (default 0)"))
    parser.add_argument(
        "--workers", type=whole_number(1), default=None, help=N_("worker processes (default: every core)")
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help=N_(
            "play the duplicate games on a Ray cluster: its address (e.g. ray://head:10001 or auto), "
            "or 'local' to start one here; needs pip install 'barbu[cluster]'"
        ),
    )
    parser.add_argument(
        "--timeout",
        type=number(0, above=True),
        default=DEFAULT_TIMEOUT_S,
        help=N_("seconds per decision of an external bot"),
    )
    parser.add_argument("--external-log", metavar="FILE", help=N_("append the standard error of external bots to FILE"))
    parser.add_argument("--json", metavar="FILE", help=N_("write the report as JSON to FILE (- for standard output)"))
    parser.add_argument("--plot", metavar="FILE.png", help=N_("write a chart of the report as a PNG"))
    parser.add_argument("--records", metavar="DIR", help=N_("write every game as a barbu-record/1 file in DIR"))
    parser.add_argument("--quiet", "-q", action="store_true", help=N_("no progress bar and no table"))
    parser.add_language()
    return parser


def check_arguments(args: argparse.Namespace) -> None:
    """Refuse, before a single game is played, what would fail during or after the run:
    the rule set and options, the lineup (levels, settings, programs, one bot per seat) and
    every file and folder the run writes."""
    try:
        players = rules(args.variant, parse_options(args.option)).players
        if len(args.bots) != players:
            raise UsageError(
                _(
                    "{variant} has {players} players: name {players} bots, not {n}",
                    variant=args.variant,
                    players=players,
                    n=len(args.bots),
                )
            )
        for text in dict.fromkeys(args.bots):
            BotSpec.parse(text).check()
        if args.ray is not None:
            if not args.ray.strip():
                raise UsageError(_("--ray needs an address (host:port, ray://host:port, auto) or 'local'"))
            try:
                ray_module()
            except ValueError:
                raise UsageError(_("--ray needs the Ray package: pip install 'barbu[cluster]'")) from None
    except ValueError as e:  # OptionsError is one too
        raise UsageError(error_text(e)) from None
    if args.json:
        output_file(args.json, "--json")
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError(_("--plot needs matplotlib; install it with pip install 'barbu[arena]'")) from None
        output_file(args.plot, "--plot")
    if args.records:
        output_folder(args.records, "--records")
    if args.external_log:
        output_file(args.external_log, "--external-log")


def arena_main(argv: list[str]) -> int:
    """Run ``barbu arena`` with ``argv`` (the arguments after ``arena``); returns the exit status.

    Bad arguments raise :class:`~barbu.usage.UsageError` before any game is played.
    """
    args = arena_parser().parse_args(argv)
    check_arguments(args)
    try:
        result = run_arena(
            args.bots,
            variant=args.variant,
            options=parse_options(args.option),
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            timeout=args.timeout,
            external_log=args.external_log,
            progress=not args.quiet,
            records=args.records,
            ray=args.ray,
        )
    except KeyboardInterrupt:
        print(_("arena interrupted: no report"), file=sys.stderr)
        return 130
    if not args.quiet:
        for table in arena_tables(result):
            print_table(table)
    if args.json:
        text = json.dumps(result.as_json(), indent=1) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            Path(args.json).write_text(text)
    if args.plot:
        plot_arena(result, args.plot)
    if result.illegal:
        warning = _n(
            "warning: {n} illegal action; see the failures in the report",
            "warning: {n} illegal actions; see the failures in the report",
            result.illegal,
            n=result.illegal,
        )
        print(warning, file=sys.stderr)
    return 0
