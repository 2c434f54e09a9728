"""``barbu replay FILE [--json]``: check a record and derive its scores (RECORD.md).

The checking and scoring are the core's (:func:`barbu.replay.replay_json`); this module
reads the file, prints the answer and chooses the exit code (0 valid, 1 invalid, 2 not a
record at all).
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from barbu.errors import RecordError, RecordUsageError
from barbu.language import N_, _, _n, error_text
from barbu.replay import replay_json
from barbu.usage import CommandParser, UsageError, name_seats, read_text
from barbu.usage.table import Column, Table, print_table

PHASES = {
    "contract": N_("contract"),
    "trump": N_("trump"),
    "rank": N_("rank"),
    "call": N_("call"),
    "arrange": N_("arrange"),
    "play": N_("play"),
    "tally": N_("tally"),
}
"""The word for each phase of ``next.phase`` (:class:`barbu.deal.Phase`), for a person: in
English the phase's own name."""


def _print_human(out: dict[str, Any], stream: TextIO, players: list[str] | None = None) -> None:
    """The result of a valid record for a person, in the language of the moment: a table of the
    deals, by the players' names when the record gives them."""
    n = len(out["totals"])
    names = players if players is not None and len(players) == n else [_("seat {n}", n=s) for s in range(n)]
    deals = len(out["deals"])
    rows = []
    for i, d in enumerate(out["deals"], 1):
        played = "" if d["played"] else " " + _("(not played)")
        by = _("{contract} by {player}", contract=d["contract"], player=names[d["declarer"]])
        rows.append([str(i), by + played, *(str(v) for v in d["final"])])
    rows.append(["", _("totals"), *(str(v) for v in out["totals"])])
    columns = [Column(_("deal")), Column(_("contract"), right=False), *(Column(name) for name in names)]
    title = _n("{variant}: {n} deal", "{variant}: {n} deals", deals, variant=out["variant"], n=deals)
    print_table(Table(title, columns, rows, keep=2), out=stream)
    if out["complete"]:
        winners = ", ".join(names[s] for s in out["winners"])
        print(_("game over; winners: {winners}", winners=winners), file=stream)
    else:
        nxt = out["next"]
        who = _("the scorekeeper") if nxt["seat"] is None else names[nxt["seat"]]
        phase = _(PHASES.get(nxt["phase"], nxt["phase"]))
        print(
            _("valid, in progress: deal {deal}, {phase} by {who}", deal=nxt["deal"], phase=phase, who=who), file=stream
        )


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
    parser = CommandParser(prog="barbu replay", description=N_("Check a barbu-record/1 file and score it."))
    parser.add_argument("file", help=N_("the record (JSON, UTF-8); - reads standard input"))
    parser.add_argument("--json", action="store_true", help=N_("print one JSON object"))
    parser.add_language()
    args = parser.parse_args(argv)
    try:
        text = read_text(args.file, N_("record"))
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise UsageError(
                _(
                    "{file} is not JSON ({why} at line {line}, column {column}); a record is a JSON object",
                    file=args.file,
                    why=e.msg,
                    line=e.lineno,
                    column=e.colno,
                )
            ) from None
        try:
            out = replay_json(doc, raising=not args.json)
        except RecordUsageError as e:
            raise UsageError(_("{file}: {why}", file=args.file, why=error_text(e))) from None
    except UsageError as e:
        if not args.json:
            raise
        print(json.dumps({"valid": False, "usage": e.message}))
        return 2
    except RecordError as e:  # refused by the rules: said in the language of the moment
        print(_("invalid: {why}", why=name_seats(error_text(e), _players(doc))))
        return 1
    if args.json:
        print(json.dumps(out))
    else:
        _print_human(out, sys.stdout, _players(doc))
    return 0 if out["valid"] else 1
