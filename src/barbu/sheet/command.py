"""``barbu score``: the command line (subcommands for scripts, the session for the table).

``barbu score`` alone continues the latest sheet (or starts one); ``barbu score --from FILE``
prints the sheet of any record. See ``barbu score --help`` and docs/score-sheet.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from barbu.language import N_, _, _n, _p, error_text
from barbu.rulesets import RULE_SETS, parse_options, rules
from barbu.sheet.doubles import SheetError
from barbu.sheet.entry import DealEntry
from barbu.sheet.export import FORMATS, export_sheet, read_record
from barbu.sheet.history import SheetHistory
from barbu.sheet.model import Sheet
from barbu.sheet.notation import parse_doubles, parse_player
from barbu.sheet.stats import sheet_stats, stats_across
from barbu.sheet.store import DEFAULT_DB, SheetStore, StoredSheet
from barbu.sheet.tables import deal_line, sheet_text, stats_text
from barbu.sheet.terminal import Cancelled, Console, Session, contract_of, enter_deal
from barbu.storage import StoreError
from barbu.usage import (
    CommandParser,
    Phrase,
    UsageError,
    database_url,
    name_seats,
    output_file,
    read_text,
    whole_number,
)

HOLDERS = {"owner": N_("an owner"), "editor": N_("an editor"), "viewer": N_("a viewer")}
"""Who holds a sheet's link of each role (``barbu score link --role``), for a person."""


def _parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="barbu score",
        description=N_("Keep the score of a game played with real cards. With no command: continue the latest sheet."),
    )
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=N_(
            "the app's database, shared with `barbu serve`: sqlite:///FILE or postgresql://… (default %(default)s)"
        ),
    )
    parser.add_argument(
        "--from", dest="from_file", metavar="FILE", help=N_("print the sheet of a record (- for stdin)")
    )
    parser.add_argument("--to", choices=FORMATS, help=N_("with --from: write this format instead of the table"))
    parser.add_argument("-o", "--output", help=N_("with --from --to: the file to write"))
    parser.add_language()
    common = CommandParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help=N_("the app's database (default sqlite:///barbu.db)"))
    common.add_language(default=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command")
    new = sub.add_parser("new", parents=[common], help=N_("start a sheet, then enter its deals"))
    new.add_argument("--variant", default="classic", help=Phrase("rule set: {variants}", variants=", ".join(RULE_SETS)))
    new.add_argument(
        "--option", "-O", action="append", default=[], metavar="KEY=VALUE", help=N_("a rule flag; repeat for more")
    )
    new.add_argument("--players", help=N_("names, one per seat, separated by commas (asked if missing)"))
    new.add_argument("--first", default="0", help=N_("first declarer: a name or a seat (default seat 0)"))
    new.add_argument("--title", help=N_("the sheet's title (default: the players)"))
    new.add_argument("--no-play", action="store_true", help=N_("only create the sheet"))
    for name, text in (
        ("play", N_("enter deals on a sheet")),
        ("show", N_("print a sheet")),
        ("undo", N_("undo the last change")),
        ("redo", N_("redo an undone change")),
    ):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument("--sheet", "-s", help=N_("sheet id, its start or title (default: the latest)"))
    sub.add_parser("list", parents=[common], help=N_("list the sheets"))
    add = sub.add_parser("add", parents=[common], help=N_("enter the next deal (missing parts are asked)"))
    edit = sub.add_parser("edit", parents=[common], help=N_("change deal N (later deals are replayed)"))
    edit.add_argument("deal", type=whole_number(1), metavar="DEAL", help=N_("the deal's number"))
    for p in (add, edit):
        p.add_argument("--sheet", "-s")
        p.add_argument("--contract")
        p.add_argument("--trump")
        p.add_argument("--rank")
        p.add_argument("--doubles", help=N_("e.g. 'bob>ann cat>>ann', 'max', '-'"))
        p.add_argument("--tally", help=N_("the tally as JSON, e.g. '{\"tricks\": [6, 3, 2, 2]}'"))
        p.add_argument("--drop-later", action="store_true", help=N_("keep the change and drop later deals that break"))
    delete = sub.add_parser("delete", parents=[common], help=N_("delete deal N (later deals move up)"))
    delete.add_argument("deal", type=whole_number(1), metavar="DEAL", help=N_("the deal's number"))
    delete.add_argument("--sheet", "-s")
    delete.add_argument("--drop-later", action="store_true")
    exp = sub.add_parser("export", parents=[common], help=N_("write a sheet as a record, CSV, HTML or PDF"))
    exp.add_argument("--sheet", "-s")
    exp.add_argument("--to", choices=FORMATS, default="record")
    exp.add_argument("-o", "--output", help=N_("the file (default: standard output; required for pdf)"))
    imp = sub.add_parser("import", parents=[common], help=N_("store a record file as a new sheet"))
    imp.add_argument("file", help=N_("the record (JSON, UTF-8)"))
    imp.add_argument("--title")
    stats = sub.add_parser("stats", parents=[common], help=N_("statistics of a sheet, or of all sheets with --all"))
    stats.add_argument("--sheet", "-s")
    stats.add_argument("--all", action="store_true")
    stats.add_argument("--json", action="store_true")
    remove = sub.add_parser("remove", parents=[common], help=N_("delete a whole sheet and its history"))
    remove.add_argument("sheet", help=N_("sheet id, its start or title"))
    link = sub.add_parser(
        "link",
        parents=[common],
        help=N_("print a new link to a sheet for the web app (barbu serve); sheets made here have none until then"),
    )
    link.add_argument("--sheet", "-s", help=N_("sheet id, its start or title (default: the latest)"))
    link.add_argument(
        "--role",
        choices=("owner", "editor", "viewer"),
        default="owner",
        help=N_("what the link lets do (default owner)"),
    )
    return parser


def _new(console: Console, store: SheetStore, args: argparse.Namespace) -> StoredSheet:
    r = rules(args.variant, parse_options(args.option))
    if args.players:
        names = [p.strip() for p in args.players.split(",")]
    else:
        names = [console.ask(_("name of seat {n}", n=s)) for s in range(r.players)]
    sheet = Sheet.new(args.variant, r.as_options(), names)
    first = parse_player(args.first, sheet.players)
    sheet = Sheet.new(args.variant, r.as_options(), sheet.players, first)
    stored = store.create(SheetHistory(sheet), args.title)
    console.say(
        _(
            "new sheet {sheet}: {variant}, {players}; first declarer {first}",
            sheet=repr(stored.id),
            variant=_p("variant", sheet.rules.ruleset.title),
            players=", ".join(sheet.players),
            first=sheet.players[first],
        )
    )
    return stored


def _one_shot_entry(console: Console, sheet: Sheet, args: argparse.Namespace, number: int | None) -> DealEntry:
    """The entry from the options; anything missing is asked."""
    given = args.contract is not None or args.tally is not None or args.doubles is not None
    if not given:
        old = sheet.entry(number) if number is not None else None
        return enter_deal(console, sheet, number, old=old)
    n = len(sheet.rows) + 1 if number is None else number
    base = sheet.before(n)
    nxt = base.next
    assert nxt is not None
    old_entry = sheet.entry(number) if number is not None else DealEntry()
    contract = args.contract if args.contract is not None else old_entry.contract
    if contract is None and nxt.fixed:
        contract = nxt.contracts[0].id
    if contract is None:
        left = ", ".join(c.id for c in nxt.contracts)
        raise SheetError("contract", _("give --contract: the contracts left are {left}", left=left))
    contract = contract_of(contract, [c.id for c in nxt.contracts], [c.id for c in sheet.rules.contracts])
    grid = old_entry.doubles
    if args.doubles is not None:
        grid = parse_doubles(args.doubles, sheet.players, sheet.rules, nxt.declarer, contract)
    tally = old_entry.tally if args.tally is None else args.tally
    return DealEntry(
        contract,
        args.trump if args.trump is not None else old_entry.trump,
        args.rank if args.rank is not None else old_entry.rank,
        grid,
        tally,
    )


def score_main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``barbu score``; return the exit code (0 done, 1 refused).

    A mistake in the arguments raises :class:`~barbu.usage.UsageError` (exit 2 from
    ``barbu``) before the database is opened or a file written.
    """
    console = Console(stdin or sys.stdin, stdout or sys.stdout)
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:  # --help
        return int(e.code or 0)
    _check_arguments(args)
    err = sys.stderr if stdout is None else console.stdout
    store: SheetStore | None = None
    try:
        if args.from_file:  # a record's sheet: no database involved
            return _from_file(console, args)
        store = SheetStore(args.db)
        return _run(console, store, args)
    except (SheetError, StoreError) as e:
        print(_("{where}: {why}", where="barbu score", why=error_text(e)), file=err)
        return 1
    except (EOFError, Cancelled):
        return 0
    finally:
        if store is not None:
            store.dispose()


def _check_arguments(args: argparse.Namespace) -> None:
    """Refuse what the arguments alone show to be wrong, before any database or file is touched."""
    output = getattr(args, "output", None)
    fmt = args.to if args.from_file or args.command == "export" else None
    if args.to and not fmt:
        raise UsageError(
            _(
                "--to {format} goes with --from FILE; to write a stored sheet use: barbu score export --to",
                format=args.to,
            )
        )
    if output and not fmt:
        raise UsageError(
            _("-o {output} goes with --to; add --to and one of {formats}", output=output, formats=", ".join(FORMATS))
        )
    if fmt == "pdf" and not output:
        raise UsageError(_("--to pdf needs a file; add -o FILE.pdf"))
    if output and fmt:
        output_file(output, "-o")
    if args.from_file:
        if args.from_file != "-":
            args.text = read_text(args.from_file, N_("record"))
        return
    database_url(args.db)
    if args.command == "new":
        r = rules(args.variant, parse_options(args.option))
        if args.players:
            names = [p.strip() for p in args.players.split(",")]
            if len(names) != r.players or not all(names):
                raise UsageError(
                    _(
                        "--players {players} names {count} players; "
                        "{variant} needs {needed} names, none empty, separated by commas",
                        players=args.players,
                        count=len(names),
                        variant=r.ruleset.name,
                        needed=r.players,
                    )
                )
            try:
                parse_player(args.first, names)
            except SheetError as e:
                raise UsageError(_("--first {first}: {why}", first=args.first, why=e.message)) from None
    if args.command == "import":
        args.text = read_text(args.file, N_("record"))
    if getattr(args, "tally", None) is not None:
        args.tally = _tally(args.tally)


def _from_file(console: Console, args: argparse.Namespace) -> int:
    text = console.stdin.read().removeprefix("\ufeff") if args.from_file == "-" else args.text
    sheet = _read_record(text)
    if args.to:
        console.say(export_sheet(sheet, args.to, args.output, Path(args.from_file).stem))
    else:
        console.say(sheet_text(sheet).rstrip("\n"))
    return 0


def _run(console: Console, store: SheetStore, args: argparse.Namespace) -> int:
    command = args.command
    if command is None:
        if not store.count():
            console.say(_("no sheet yet: let us start one"))
            variant = console.until_valid(
                _("rule set ({variants})", variants=", ".join(RULE_SETS)), _variant, "classic"
            )
            ns = argparse.Namespace(variant=variant, option=[], players=None, first="0", title=None)
            return Session(console, store, _new(console, store, ns)).run()
        return Session(console, store, store.open()).run()
    if command == "new":
        stored = _new(console, store, args)
        return 0 if args.no_play else Session(console, store, stored).run()
    if command == "list":
        for s in store.list():
            deals = _n("{n} deal", "{n} deals", s.deals, n=str(s.deals).rjust(3))
            console.say(f"{s.id:<28} {s.title:<32} {s.variant:<13} {deals}  {', '.join(s.players)}")
        return 0
    if command == "import":
        sheet = _read_record(args.text)
        stored = store.create(SheetHistory(sheet), args.title or Path(args.file).stem)
        console.say(
            _n(
                "imported {file} as {sheet}: {n} deal",
                "imported {file} as {sheet}: {n} deals",
                len(sheet.rows),
                file=args.file,
                sheet=repr(stored.id),
                n=len(sheet.rows),
            )
        )
        for note in sheet.notes:
            console.say(_("note: {note}", note=note))
        return 0
    if command == "link":
        sheet_id = store.resolve(args.sheet)
        _link, key = store.add_link(sheet_id, args.role)
        console.say(
            _(
                "a new {role} link to sheet {sheet}, shown this once (keep it; anyone holding it is {holder} "
                "of the sheet):\n  {link}\nopen it on the server's address, e.g. http://127.0.0.1:8000/sheets/…",
                role=args.role,
                sheet=repr(sheet_id),
                holder=_(HOLDERS[args.role]),
                link=f"/sheets/{sheet_id}#key={key}",
            )
        )
        return 0
    if command == "remove":
        console.say(_("removed sheet {sheet}", sheet=repr(store.remove(args.sheet))))
        return 0
    if command == "stats" and args.all:
        stats = stats_across(store.open(s.id).history.sheet for s in store.list())
        console.say(json.dumps(stats.to_json(), indent=1) if args.json else stats_text(stats).rstrip("\n"))
        return 0
    stored = store.open(args.sheet)
    try:
        return _on_sheet(console, store, stored, args)
    except SheetError as e:  # the sheet knows its players: name them, not seat numbers
        players = stored.history.sheet.players
        raise SheetError(e.kind, name_seats(e.message, players), e.deal, e.seat) from None


def _on_sheet(console: Console, store: SheetStore, stored: StoredSheet, args: argparse.Namespace) -> int:
    """Run a subcommand that works on one stored sheet."""
    command = args.command
    history = stored.history
    if command == "play":
        return Session(console, store, stored).run()
    if command == "show":
        console.say(sheet_text(history.sheet, stored.title).rstrip("\n"))
    elif command == "stats":
        stats = sheet_stats(history.sheet)
        console.say(json.dumps(stats.to_json(), indent=1) if args.json else stats_text(stats).rstrip("\n"))
    elif command == "export":
        console.say(export_sheet(history.sheet, args.to, args.output, stored.title))
    elif command in ("undo", "redo"):
        sheet = history.undo() if command == "undo" else history.redo()
        store.save(stored)
        done = _("undo done") if command == "undo" else _("redo done")
        console.say(
            _n(
                "{done}; the sheet has {n} deal",
                "{done}; the sheet has {n} deals",
                len(sheet.rows),
                done=done,
                n=len(sheet.rows),
            )
        )
    elif command == "add":
        sheet = history.sheet
        if sheet.pending is not None and args.tally is not None and args.contract is None:
            sheet = history.enter_tally(args.tally)
        else:
            sheet = history.add(_one_shot_entry(console, sheet, args, None))
        store.save(stored)
        console.say(deal_line(sheet.rows[-1], sheet.players))
    elif command == "edit":
        sheet = history.sheet
        sheet.row(args.deal)
        sheet = history.edit({args.deal: _one_shot_entry(console, sheet, args, args.deal)}, args.drop_later)
        store.save(stored)
        console.say(
            _("deal {deal} changed; totals: {totals}", deal=args.deal, totals=", ".join(map(str, sheet.totals)))
        )
    elif command == "delete":
        sheet = history.delete(args.deal, args.drop_later)
        store.save(stored)
        console.say(
            _n(
                "deal {deal} deleted; the sheet has {n} deal",
                "deal {deal} deleted; the sheet has {n} deals",
                len(sheet.rows),
                deal=args.deal,
                n=len(sheet.rows),
            )
        )
    return 0


def _read_record(text: str) -> Sheet:
    """The sheet of a record; a refusal names the seats by the record's players where it gives them."""
    try:
        return read_record(text)
    except SheetError as e:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            raise e from None
        names = doc.get("players") if isinstance(doc, dict) else None
        message = name_seats(e.message, names if isinstance(names, list) else None)
        raise SheetError(e.kind, message, e.deal, e.seat) from None


def _tally(text: str) -> dict[str, Any]:
    """``--tally``: a JSON object.

    >>> _tally('{"tricks": [6, 3, 2, 2]}')
    {'tricks': [6, 3, 2, 2]}
    """
    example = _("e.g. {json}", json="""'{"tricks": [6, 3, 2, 2]}'""")
    try:
        tally = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(
            _(
                "--tally {text} is not JSON ({why} at column {column}); give a JSON object, {example}",
                text=text,
                why=e.msg,
                column=e.colno,
                example=example,
            )
        ) from None
    if not isinstance(tally, dict):
        raise UsageError(
            _(
                "--tally {text} is not a JSON object; give one keyed as the contract needs, {example}",
                text=text,
                example=example,
            )
        )
    return tally


def _variant(text: str) -> str:
    if text not in RULE_SETS:
        raise SheetError(
            "record",
            _("{text} is not a rule set: say one of {variants}", text=repr(text), variants=", ".join(RULE_SETS)),
        )
    return text


__all__ = ["score_main"]
