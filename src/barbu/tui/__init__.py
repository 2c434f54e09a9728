"""``barbu play``: Barbu in the terminal, one person against bots (Textual).

:func:`play_main` is the command: it reads the arguments, makes the
:class:`~barbu.tui.table.Table` (new, or resumed from a saved record) and runs
:class:`~barbu.tui.app.BarbuApp`. ``python -m barbu.tui`` runs it too.

>>> import contextlib, io
>>> with contextlib.redirect_stderr(io.StringIO()) as err:
...     status = play_main(["--variant", "no-such-game"])
>>> status, err.getvalue().split(";")[0]
(2, "barbu play: unknown variant 'no-such-game'")
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from barbu.errors import BarbuError
from barbu.rulesets import RULE_SETS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="barbu play",
        description="Play Barbu in the terminal against three bots (full screen; F1 shows the keys).",
    )
    p.add_argument("--variant", default="classic", help=f"rule set: {', '.join(RULE_SETS)} (default classic)")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule flag, value in JSON (e.g. rotation=quick, compulsory_doubles=1); repeat for more",
    )
    p.add_argument("--seat", type=int, default=None, help="your seat number (default 0; you sit at the bottom)")
    p.add_argument(
        "--bots",
        "--bot-level",
        dest="bots",
        default=None,
        metavar="LEVEL[,LEVEL,...]",
        help="the bots' level, or one per bot from your left (default heuristic when available, else random)",
    )
    p.add_argument("--seed", default=None, help="deal from this seed (an integer or a word) for reproducible deals")
    p.add_argument("--resume", metavar="FILE", default=None, help="go on with a game saved in FILE")
    p.add_argument("--save", metavar="FILE", default=None, help="save to FILE with Ctrl+S and when quitting")
    p.add_argument("--pace", type=float, default=1.0, help="how long the bots pause (1 normal, 0 no pause)")
    return p


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def play_main(argv: Sequence[str] | None = None) -> int:
    """Run ``barbu play`` with ``argv``; return the exit status (2 for bad arguments)."""
    from barbu.bots import BOT_LEVELS
    from barbu.cli import parse_options
    from barbu.tui.saved_game import load_table, new_seed
    from barbu.tui.table import Table

    try:
        args = _parser().parse_args(list(argv) if argv is not None else None)
    except SystemExit as e:  # --help, or arguments argparse refused (it printed why)
        return e.code if isinstance(e.code, int) else 2
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else []
    for level in bots:
        if level not in BOT_LEVELS:
            print(f"barbu play: unknown bot level {level!r}; levels are: {', '.join(BOT_LEVELS)}", file=sys.stderr)
            return 2
    seed = _seed(args.seed)
    notice = ""
    try:
        if args.resume:
            table = load_table(args.resume, args.seat, bots or None, seed)
            notice = f"Resumed {args.resume}."
        else:
            options = parse_options(args.option)
            table = Table.new(args.variant, options, args.seat or 0, bots, new_seed() if seed is None else seed)
    except (BarbuError, ValueError) as e:
        print(f"barbu play: {e}", file=sys.stderr)
        return 2
    from barbu.tui.app import BarbuApp

    app = BarbuApp(table, save_path=args.save or args.resume, pace=max(args.pace, 0.0), notice=notice)
    status = app.run()
    if app.saved_to:
        print(f"barbu play: saved to {app.saved_to}")
    return status if isinstance(status, int) else 0


__all__ = ["play_main"]
