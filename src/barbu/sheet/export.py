"""Exports of a score sheet: the ``barbu-record/1`` file and CSV; reading a record back.

The printable sheet (HTML and PDF) is in :mod:`barbu.sheet.paper`.

>>> from barbu.sheet import DealEntry, Double, Sheet
>>> sheet = Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"])
>>> sheet = sheet.add(DealEntry("trumps", trump="S", doubles=(Double(1, 0), Double(3, 0, True)),
...                             tally={"tricks": [6, 3, 2, 2]}))
>>> print(sheet_csv(sheet).splitlines()[1])
1,Ann,trumps,S,,Bob>Ann Dan>>Ann,scored,30,55,85,85,15,-15,0,0,10,0,10,10,10,-40,-30,-30
>>> read_record(record_text(sheet)) == sheet
True
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from barbu.language import _
from barbu.sheet.doubles import Double, SheetError
from barbu.sheet.model import Sheet
from barbu.sheet.paper import sheet_html, sheet_pdf
from barbu.usage import os_reason

FORMATS = ("record", "csv", "html", "pdf")
"""The export formats."""


def record_text(sheet: Sheet) -> str:
    """The sheet's ``barbu-record/1`` document as JSON text (one deal per line block)."""
    return json.dumps(sheet.record(), indent=1, ensure_ascii=False) + "\n"


def read_record(text: str) -> Sheet:
    """The sheet of a record given as JSON text (played deals become tallies)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise SheetError("record", _("the file is not JSON: {why}", why=str(e))) from None
    return Sheet.from_record(doc)


def read_record_file(path: str | Path) -> Sheet:
    """The sheet of a record file (``-`` is not read here: pass the text to :func:`read_record`)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise SheetError("record", _("cannot read {path}: {why}", path=str(path), why=os_reason(e))) from None
    except UnicodeDecodeError:
        raise SheetError("record", _("cannot read {path}: it is not UTF-8 text", path=str(path))) from None
    return read_record(text)


def doubles_text(doubles: Sequence[Double], names: Sequence[str]) -> str:
    """A grid in words: ``Bob>Ann`` (Bob doubled Ann), ``Dan>>Ann`` (and Ann redoubled)."""
    return " ".join(f"{names[d.doubler]}{'>>' if d.redoubled else '>'}{names[d.doubled]}" for d in doubles)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a cell a spreadsheet would run as a formula begins."""


def as_text(cell: object) -> object:
    """A CSV cell as a spreadsheet shows it typed: text that would start a formula gets an apostrophe.

    Numbers stay numbers; only text (names, the doubles written with names) is guarded.

    >>> as_text("=1+1"), as_text("Ann"), as_text(-37)
    ("'=1+1", 'Ann', -37)
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


class _TextWriter:
    """A ``csv.writer`` whose every text cell goes through :func:`as_text`."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Sequence[object]) -> None:
        self._writer.writerow([as_text(cell) for cell in row])


def sheet_csv(sheet: Sheet) -> str:
    """One row per deal: declarer, contract, trump, rank, doubles, status, then for each
    player its hand score (raw), doubling adjustment, deal score and running total; a last
    row holds the totals. Text a spreadsheet would run as a formula starts with an apostrophe."""
    out = io.StringIO()
    writer = _TextWriter(out)
    header = ["deal", "declarer", "contract", "trump", "rank", "doubles", "status"]
    for name in sheet.players:
        header += [f"{name} hand", f"{name} doubling", f"{name} score", f"{name} total"]
    writer.writerow(header)
    for row in sheet.rows:
        line: list[object] = [
            row.number,
            sheet.players[row.declarer],
            row.contract,
            row.trump or "",
            row.rank or "",
            doubles_text(row.doubles, sheet.players),
            row.status,
        ]
        for seat in range(len(sheet.players)):
            if row.final is None:
                line += ["", "", "", ""]
            else:
                assert row.raw is not None and row.adjustments is not None and row.totals is not None
                line += [row.raw[seat], row.adjustments[seat], row.final[seat], row.totals[seat]]
        writer.writerow(line)
    totals: list[object] = ["totals", "", "", "", "", "", "complete" if sheet.complete else "in progress"]
    for t in sheet.totals:
        totals += ["", "", "", t]
    writer.writerow(totals)
    return out.getvalue()


def export_sheet(sheet: Sheet, fmt: str, path: str | None, title: str = "") -> str:
    """Write ``sheet`` as ``fmt`` to ``path`` (or return the text when ``path`` is None)."""
    fmt = fmt.strip().casefold()
    if fmt == "pdf":
        if not path:
            raise SheetError("export", _("a PDF goes to a file: export pdf FILE"))
        _write(path, sheet_pdf(sheet, title))
        return _("wrote {path}", path=path)
    makers: dict[str, Callable[[], str]] = {
        "record": lambda: record_text(sheet),
        "json": lambda: record_text(sheet),
        "csv": lambda: sheet_csv(sheet),
        "html": lambda: sheet_html(sheet, title),
    }
    if fmt not in makers:
        raise SheetError(
            "export",
            _("{format} is not an export format: say one of {formats}", format=repr(fmt), formats=", ".join(FORMATS)),
        )
    text = makers[fmt]()
    if not path:
        return text.rstrip("\n")
    _write(path, text)
    return _("wrote {path}", path=path)


def _write(path: str, data: str | bytes) -> None:
    """Write a file, or refuse saying why in the language of the moment."""
    try:
        if isinstance(data, bytes):
            Path(path).write_bytes(data)
        else:
            Path(path).write_text(data, encoding="utf-8")
    except OSError as e:
        raise SheetError("export", _("cannot write {path}: {why}", path=path, why=os_reason(e))) from None


__all__ = [
    "FORMATS",
    "FORMULA_STARTS",
    "as_text",
    "doubles_text",
    "export_sheet",
    "read_record",
    "read_record_file",
    "record_text",
    "sheet_csv",
]
