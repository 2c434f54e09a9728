"""``barbu replay FILE [--json]``: check a record and derive its scores (RECORD.md).

The checking and scoring are the core's (:func:`barbu.replay.replay_json`); this module
reads the file, prints the answer and chooses the exit code (0 valid, 1 invalid, 2 not a
record at all).
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from barbu.cli.table import Column, print_table
from barbu.errors import RecordUsageError
from barbu.replay import replay_json
from barbu.usage import CommandParser, UsageError, name_seats, read_text


def _print_human(out: dict[str, Any], stream: TextIO, players: list[str] | None = None) -> None:
    """The result for a person: a table of the deals, by the players' names when the record gives them."""
    if not out["valid"]:
        print(f"invalid: {name_seats(out['error']['message'], players)}", file=stream)
        return
    n = len(out["totals"])
    names = players if players is not None and len(players) == n else [f"seat {s}" for s in range(n)]
    rows = []
    for i, d in enumerate(out["deals"], 1):
        mark = "" if d["played"] else " (not played)"
        rows.append([str(i), f"{d['contract']} by {names[d['declarer']]}{mark}", *(str(v) for v in d["final"])])
    rows.append(["", "totals", *(str(v) for v in out["totals"])])
    columns = [Column("deal"), Column("contract", right=False), *(Column(name) for name in names)]
    print_table(f"{out['variant']}: {len(out['deals'])} deals", columns, rows, keep=2, out=stream)
    if out["complete"]:
        print(f"game over; winners: {', '.join(names[s] for s in out['winners'])}", file=stream)
    else:
        nxt = out["next"]
        who = "the scorekeeper" if nxt["seat"] is None else names[nxt["seat"]]
        print(f"valid, in progress: deal {nxt['deal']}, {nxt['phase']} by {who}", file=stream)


def _players(doc: object) -> list[str] | None:
    """The players' names a record gives, when they are a list of non-empty texts."""
    names = doc.get("players") if isinstance(doc, dict) else None
    if isinstance(names, list) and names and all(isinstance(n, str) and n.strip() for n in names):
        return names
    return None


def replay_main(argv: list[str]) -> int:
    """Run ``barbu replay FILE [--json]``; return the exit code.

    A file that cannot be read or is not a record at all is exit 2: with ``--json`` the
    answer is ``{"valid": false, "usage": …}`` on standard output, else a
    :class:`~barbu.usage.UsageError` that ``barbu`` prints on one line.
    """
    parser = CommandParser(prog="barbu replay", description="Check a barbu-record/1 file and score it.")
    parser.add_argument("file", help="the record (JSON, UTF-8); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        text = read_text(args.file, "record")
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise UsageError(
                f"{args.file} is not JSON ({e.msg} at line {e.lineno}, column {e.colno}); a record is a JSON object"
            ) from None
        try:
            out = replay_json(doc)
        except RecordUsageError as e:
            raise UsageError(f"{args.file}: {e}") from None
    except UsageError as e:
        if not args.json:
            raise
        print(json.dumps({"valid": False, "usage": e.message}))
        return 2
    if args.json:
        print(json.dumps(out))
    else:
        _print_human(out, sys.stdout, _players(doc))
    return 0 if out["valid"] else 1
