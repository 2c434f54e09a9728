"""``barbu arena --leaderboard``: players of a canonical task ranked on its duplicate evaluation.

Each player (a bot level: ``random``, ``heuristic``, ``search``, ``policy:barbu-notricks-v0``
…) plays the task's fixed evaluation deals once from every seat against the same fixed
opponents (:func:`barbu.research.tasks.evaluate`); the table ranks them by their mean
normalised reward per episode, printed as every table of the command line is
(:mod:`barbu.usage.table`). docs/research.md publishes the current table.

Its help and table speak the language of the moment (``--lang``, as ``barbu arena`` has);
task ids and bot specs stay as typed.

>>> import contextlib, io
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     status = leaderboard_main(["--bots", "random", "--deals", "1"])
>>> status, out.getvalue().splitlines()[0].strip()
(0, 'barbu-notricks-v0 · 1 deal × 4 seats · opponents random')
"""

from __future__ import annotations

from barbu.bots import parse_bot
from barbu.bots.errors import BotError
from barbu.language import N_, _, _n, error_text
from barbu.research.tasks import TASKS, evaluate
from barbu.usage import CommandParser, UsageError, whole_number
from barbu.usage.table import Column, Table, print_table


def leaderboard_main(argv: list[str]) -> int:
    """Print the leaderboard of ``--bots`` on ``--task``; bad arguments raise UsageError first."""
    parser = CommandParser(
        prog="barbu arena --leaderboard",
        description=N_("Rank bot levels on a canonical task's duplicate evaluation (docs/research.md)."),
    )
    parser.add_argument("--task", default="barbu-notricks-v0", choices=list(TASKS), help=N_("the canonical task"))
    parser.add_argument(
        "--bots",
        default="random,heuristic,policy:barbu-notricks-v0",
        help=N_("comma-separated players: bot levels such as random, heuristic, search, policy:PATH"),
    )
    parser.add_argument("--opponents", default="random", help=N_("the fixed opponents' bot level"))
    parser.add_argument(
        "--deals", type=whole_number(1), default=50, help=N_("evaluation deals (each played once per seat)")
    )
    parser.add_language()
    args = parser.parse_args(argv)
    players = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        for spec in [*players, args.opponents]:
            parse_bot(spec)
    except BotError as e:
        raise UsageError(error_text(e)) from None
    seats = TASKS[args.task].rules.players
    title = _n(
        "{task} · {deals} deal × {seats} seats · opponents {opponents}",
        "{task} · {deals} deals × {seats} seats · opponents {opponents}",
        args.deals,
        task=args.task,
        deals=args.deals,
        seats=seats,
        opponents=args.opponents,
    )
    scores = [(evaluate(args.task, p, args.opponents, deals=args.deals), p) for p in players]
    columns = [
        Column(_("rank")),
        Column(_("player"), right=False),
        Column(_("mean reward")),
        Column(_("95% interval")),
    ]
    rows = [
        [str(rank), player, f"{score.mean:+.4f}", f"±{score.half_width:.4f}"]
        for rank, (score, player) in enumerate(sorted(scores, key=lambda s: -s[0].mean), 1)
    ]
    print_table(Table(title, columns, rows, keep=2))
    return 0
