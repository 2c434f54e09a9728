"""``barbu arena --leaderboard``: players of a canonical task ranked on its duplicate evaluation.

Each player (a bot level: ``random``, ``heuristic``, ``search``, ``policy:barbu-notricks-v0``
…) plays the task's fixed evaluation deals once from every seat against the same fixed
opponents (:func:`barbu.research.tasks.evaluate`); the table ranks them by their mean
normalised reward per episode, printed as every table of the command line is
(:mod:`barbu.usage.table`). docs/research.md publishes the current table.

The words printed here are gathered in :data:`TEXT`, for translation.

>>> import contextlib, io
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     status = leaderboard_main(["--bots", "random", "--deals", "1"])
>>> status, out.getvalue().splitlines()[0].strip()
(0, 'barbu-notricks-v0 · 1 deals × 4 seats · opponents random')
"""

from __future__ import annotations

from barbu.bots import parse_bot
from barbu.bots.errors import BotError
from barbu.research.tasks import TASKS, evaluate
from barbu.usage import CommandParser, UsageError, whole_number
from barbu.usage.table import Column, Table, print_table

TEXT = {
    "description": "Rank bot levels on a canonical task's duplicate evaluation (docs/research.md).",
    "task": "the canonical task",
    "bots": "comma-separated players: bot levels such as random, heuristic, search, policy:PATH",
    "opponents": "the fixed opponents' bot level",
    "deals": "evaluation deals (each played once per seat)",
    "title": "{task} · {deals} deals × {seats} seats · opponents {opponents}",
    "rank": "rank",
    "player": "player",
    "mean": "mean reward",
    "interval": "95% interval",
}


def leaderboard_main(argv: list[str]) -> int:
    """Print the leaderboard of ``--bots`` on ``--task``; bad arguments raise UsageError first."""
    parser = CommandParser(prog="barbu arena --leaderboard", description=TEXT["description"])
    parser.add_argument("--task", default="barbu-notricks-v0", choices=list(TASKS), help=TEXT["task"])
    parser.add_argument("--bots", default="random,heuristic,policy:barbu-notricks-v0", help=TEXT["bots"])
    parser.add_argument("--opponents", default="random", help=TEXT["opponents"])
    parser.add_argument("--deals", type=whole_number(1), default=50, help=TEXT["deals"])
    args = parser.parse_args(argv)
    players = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        for spec in [*players, args.opponents]:
            parse_bot(spec)
    except BotError as e:
        raise UsageError(str(e)) from None
    seats = TASKS[args.task].rules.players
    title = TEXT["title"].format(task=args.task, deals=args.deals, seats=seats, opponents=args.opponents)
    scores = [(evaluate(args.task, p, args.opponents, deals=args.deals), p) for p in players]
    columns = [
        Column(TEXT["rank"]),
        Column(TEXT["player"], right=False),
        Column(TEXT["mean"]),
        Column(TEXT["interval"]),
    ]
    rows = [
        [str(rank), player, f"{score.mean:+.4f}", f"±{score.half_width:.4f}"]
        for rank, (score, player) in enumerate(sorted(scores, key=lambda s: -s[0].mean), 1)
    ]
    print_table(Table(title, columns, rows, keep=2))
    return 0
