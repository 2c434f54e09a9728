"""``barbu play``: Barbu in the terminal, one person against bots (Textual).

:func:`play_main` is the command: it reads the arguments, makes the
:class:`~barbu.tui.table.Table` (new, or resumed from a saved record) and runs
:class:`~barbu.tui.app.BarbuApp`. Without arguments that choose the game, the app opens
on the setup screen (:mod:`barbu.tui.setup`), which makes the table the same way. ``python -m barbu.tui`` runs it too.

A mistake in the arguments raises :class:`~barbu.usage.UsageError` (the ``barbu`` command
prints it and exits with status 2) before the full screen opens:

>>> play_main(["--variant", "no-such-game"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
barbu.errors.OptionsError: unknown variant 'no-such-game'; rule sets are: ...
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from barbu.errors import BarbuError
from barbu.language import N_, _, error_text
from barbu.rulesets import RULE_SETS, parse_options, rules
from barbu.usage import CommandParser, Phrase, UsageError, number, output_file, whole_number

if TYPE_CHECKING:
    from barbu.tui.app import BarbuApp


def _parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="barbu play",
        description=N_("Play Barbu in the terminal against three bots (full screen; F1 shows the keys)."),
    )
    p.add_argument(
        "--variant",
        default=None,
        help=Phrase("rule set: {variants} (default classic; none: the setup screen)", variants=", ".join(RULE_SETS)),
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=N_("a rule flag, value in JSON (e.g. rotation=quick, compulsory_doubles=1); repeat for more"),
    )
    p.add_argument(
        "--seat", type=whole_number(0), default=None, help=N_("your seat number (default 0; you sit at the bottom)")
    )
    p.add_argument(
        "--bots",
        "--bot-level",
        dest="bots",
        default=None,
        metavar="LEVEL[,LEVEL,...]",
        help=N_("the bots' level, or one per bot from your left (default heuristic when available, else random)"),
    )
    p.add_argument("--seed", default=None, help=N_("deal from this seed (an integer or a word) for reproducible deals"))
    p.add_argument("--resume", metavar="FILE", default=None, help=N_("go on with a game saved in FILE"))
    p.add_argument("--save", metavar="FILE", default=None, help=N_("save to FILE with Ctrl+S and when quitting"))
    p.add_argument(
        "--pace", type=number(0), default=1.0, help=N_("how long the bots pause (1 normal, 0 no pause; 0 or more)")
    )
    p.add_language()
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
    """The app ``barbu play argv`` runs, or the exit status of ``--help``.

    Without game-choosing arguments the app opens on the setup screen; with them it starts
    the game they choose, through the same :func:`~barbu.tui.setup.open_table`. Every
    argument is checked first: a mistake raises :class:`~barbu.usage.UsageError` (or
    :class:`~barbu.errors.OptionsError` for a rule set or option) before the screen opens.
    """
    from barbu.tui.app import BarbuApp
    from barbu.tui.setup import GameChoice, open_table, seed_of

    try:
        args = _parser().parse_args(list(argv) if argv is not None else None)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    if args.save:
        output_file(args.save, "--save")
    if not chooses_game(args):
        return BarbuApp(None, save_path=args.save, pace=args.pace)
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else []
    choice = GameChoice(
        variant=args.variant or "classic",
        options=parse_options(args.option),
        seat=args.seat,
        bots=tuple(bots),
        seed=seed_of(args.seed),
        resume=args.resume,
    )
    players = _resumed_players(args) if args.resume else rules(choice.variant, choice.options).players
    _check_seat_and_bots(args, bots, players)
    try:
        table = open_table(choice)
    except (BarbuError, ValueError) as e:
        why = error_text(e)
        raise UsageError(_("--resume {file}: {why}", file=args.resume, why=why) if args.resume else why) from None
    notice = _("Resumed {file}.", file=args.resume) if args.resume else ""
    return BarbuApp(table, save_path=args.save or args.resume, pace=args.pace, notice=notice)


def _resumed_players(args: argparse.Namespace) -> int:
    """The player count of the saved game; refuses a rule set or options that differ from it,
    since a saved game goes on under the rules it was played with."""
    from barbu.tui.saved_game import load_table

    try:
        saved = load_table(args.resume).game.rules
    except (BarbuError, ValueError) as e:
        raise UsageError(_("--resume {file}: {why}", file=args.resume, why=error_text(e))) from None
    if args.variant is not None and args.variant != saved.name:
        raise UsageError(
            _(
                "--variant {variant} differs from the saved game's rule set, {saved}; "
                "leave out --variant to resume, or start a new game without --resume",
                variant=args.variant,
                saved=saved.name,
            )
        )
    if args.option:
        raise UsageError(
            _(
                "--option {options} cannot change a saved game: it goes on under its own options; "
                "leave out --option to resume",
                options=" ".join(args.option),
            )
        )
    return saved.players


def _check_seat_and_bots(args: argparse.Namespace, bots: list[str], players: int) -> None:
    from barbu.tui.table import bot_levels_for

    if args.seat is not None and not 0 <= args.seat < players:
        raise UsageError(
            _(
                "--seat {seat} is not a seat of this table; give a seat from 0 to {last}",
                seat=args.seat,
                last=players - 1,
            )
        )
    if bots:
        try:
            bot_levels_for(bots, players)
        except ValueError as e:
            option = f"--bots {args.bots}"
            raise UsageError(_("{where}: {why}", where=option, why=e)) from None


def play_main(argv: Sequence[str] | None = None) -> int:
    """Run ``barbu play`` with ``argv``; return the exit status (2 for bad arguments)."""
    app = make_app(argv)
    if isinstance(app, int):
        return app
    status = app.run()
    if app.saved_to:
        print("barbu play: " + _("saved to {file}", file=app.saved_to))
    return status if isinstance(status, int) else 0


__all__ = ["GAME_FLAGS", "chooses_game", "make_app", "play_main"]
