"""``barbu play``: Barbu in the terminal, one person against bots (Textual).

:func:`play_main` is the command: it reads the arguments, makes the
:class:`~barbu.tui.table.Table` (new, or resumed from a saved record) and runs
:class:`~barbu.tui.app.BarbuApp`. Without arguments that choose the game, the app opens
on the setup screen (:mod:`barbu.tui.setup`), which makes the table the same way. ``python -m barbu.tui`` runs it too.

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
from typing import TYPE_CHECKING

from barbu.errors import BarbuError
from barbu.rulesets import RULE_SETS, parse_options

if TYPE_CHECKING:
    from barbu.tui.app import BarbuApp


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="barbu play",
        description="Play Barbu in the terminal against three bots (full screen; F1 shows the keys).",
    )
    p.add_argument(
        "--variant", default=None, help=f"rule set: {', '.join(RULE_SETS)} (default classic; none: the setup screen)"
    )
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


GAME_FLAGS = ("variant", "option", "seat", "bots", "seed", "resume")
"""The arguments that choose the game: with any of them the game starts at once, without
them the setup screen asks (``--save`` and ``--pace`` leave the choice to the screen)."""


def chooses_game(args: argparse.Namespace) -> bool:
    """True when the arguments choose the game themselves (no setup screen).

    >>> chooses_game(_parser().parse_args([])), chooses_game(_parser().parse_args(["--save", "a.json"]))
    (False, False)
    >>> chooses_game(_parser().parse_args(["--variant", "king"]))
    True
    """
    return any(getattr(args, name) not in (None, []) for name in GAME_FLAGS)


def make_app(argv: Sequence[str] | None = None) -> BarbuApp | int:
    """The app ``barbu play argv`` runs, or the exit status when the arguments are refused
    (why is printed on stderr). Without game-choosing arguments the app opens on the setup
    screen; with them it starts the game they choose, through the same
    :func:`~barbu.tui.setup.open_table`."""
    from barbu.bots import BOT_LEVELS
    from barbu.tui.app import BarbuApp
    from barbu.tui.setup import GameChoice, open_table, seed_of

    try:
        args = _parser().parse_args(list(argv) if argv is not None else None)
    except SystemExit as e:  # --help, or arguments argparse refused (it printed why)
        return e.code if isinstance(e.code, int) else 2
    pace = max(args.pace, 0.0)
    if not chooses_game(args):
        return BarbuApp(None, save_path=args.save, pace=pace)
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else []
    for level in bots:
        if level not in BOT_LEVELS:
            print(f"barbu play: unknown bot level {level!r}; levels are: {', '.join(BOT_LEVELS)}", file=sys.stderr)
            return 2
    try:
        choice = GameChoice(
            variant=args.variant or "classic",
            options=parse_options(args.option),
            seat=args.seat,
            bots=tuple(bots),
            seed=seed_of(args.seed),
            resume=args.resume,
        )
        table = open_table(choice)
    except (BarbuError, ValueError) as e:
        print(f"barbu play: {e}", file=sys.stderr)
        return 2
    notice = f"Resumed {args.resume}." if args.resume else ""
    return BarbuApp(table, save_path=args.save or args.resume, pace=pace, notice=notice)


def play_main(argv: Sequence[str] | None = None) -> int:
    """Run ``barbu play`` with ``argv``; return the exit status (2 for bad arguments)."""
    app = make_app(argv)
    if isinstance(app, int):
        return app
    status = app.run()
    if app.saved_to:
        print(f"barbu play: saved to {app.saved_to}")
    return status if isinstance(status, int) else 0


__all__ = ["GAME_FLAGS", "chooses_game", "make_app", "play_main"]
