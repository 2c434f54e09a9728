"""The tables the ``barbu`` commands print: one way for all of them, in plain text.

A table has a title, a row of headings and rows of cells, each column aligned right (numbers)
or left (words). It is drawn as ``rich`` draws its default tables (a heavy line under the
headings, light lines around the rows, one space each side of a cell, the title centred above),
in line-drawing characters, or in ASCII when the output cannot encode them. On a terminal the
title is in italics and the headings in bold. A table wider than the terminal is cut into
several tables stacked one under the other, each with the leading columns (``keep``: the game,
the deal) and as many of the other columns as fit, so that no cell is ever broken.

Printing a table this way takes no import beyond the standard library (``rich`` took a quarter
of ``barbu simulate``'s start-up, see docs/native.md).

>>> columns = [Column("deal"), Column("contract", right=False), Column("Ann"), Column("Bob")]
>>> rows = [["1", "no-kings", "3", "-3"], ["2", "domino", "-45", "45"]]
>>> table_text("a game", columns, rows).splitlines()[0]  # the title, centred
'            a game             '
>>> print(table_text("", columns, rows))
┏━━━━━━┳━━━━━━━━━━┳━━━━━┳━━━━━┓
┃ deal ┃ contract ┃ Ann ┃ Bob ┃
┡━━━━━━╇━━━━━━━━━━╇━━━━━╇━━━━━┩
│    1 │ no-kings │   3 │  -3 │
│    2 │ domino   │ -45 │  45 │
└──────┴──────────┴─────┴─────┘
>>> print(table_text("", columns, [["1", "no-kings", "3", "-3"]], width=30, keep=2, ascii=True))
+------+----------+-----+
| deal | contract | Ann |
|------+----------+-----|
|    1 | no-kings |   3 |
+------+----------+-----+
+------+----------+-----+
| deal | contract | Bob |
|------+----------+-----|
|    1 | no-kings |  -3 |
+------+----------+-----+
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from typing import NamedTuple, TextIO


class Column(NamedTuple):
    """A column: its heading, and whether its cells are aligned right (numbers) or left (words)."""

    heading: str
    right: bool = True


class _Box(NamedTuple):
    """The characters of a table's lines: the top, under the headings, the bottom, and the
    vertical lines of the headings and of the rows."""

    top: tuple[str, str, str, str]
    """The left corner, the line, the crossing with a column's border, the right corner."""
    under: tuple[str, str, str, str]
    bottom: tuple[str, str, str, str]
    head: str
    row: str


_LINES = _Box(("┏", "━", "┳", "┓"), ("┡", "━", "╇", "┩"), ("└", "─", "┴", "┘"), "┃", "│")
_ASCII = _Box(("+", "-", "+", "+"), ("|", "-", "+", "|"), ("+", "-", "+", "+"), "|", "|")


def table_text(
    title: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: int = 80,
    keep: int = 1,
    ascii: bool = False,
    styled: bool = False,
) -> str:
    """The table as lines of text (no newline at the end), cut into stacked tables of at most
    ``width`` characters (each repeating the first ``keep`` columns) when it is wider.
    ``ascii`` draws it with ``+``, ``-`` and ``|``; ``styled`` puts the title in italics and
    the headings in bold (terminal escape codes)."""
    widths = [max(len(c.heading), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    parts: list[list[int]] = []
    kept = list(range(min(keep, len(columns))))
    part = list(kept)
    for i in range(len(kept), len(columns)):
        if len(part) > len(kept) and _width([widths[j] for j in (*part, i)]) > width:
            parts.append(part)
            part = [*kept, i]
        else:
            part.append(i)
    parts.append(part)
    box = _ASCII if ascii else _LINES
    lines: list[str] = []
    for n, part in enumerate(parts):
        lines += _draw(
            title if n == 0 else "",
            [columns[i] for i in part],
            [[r[i] for i in part] for r in rows],
            [widths[i] for i in part],
            box,
            styled,
        )
    return "\n".join(lines)


def _width(widths: Sequence[int]) -> int:
    """The width of a table whose columns' cells are ``widths`` wide: a space each side of a
    cell, a line between columns and at both ends."""
    return sum(widths) + 3 * len(widths) + 1


def _draw(
    title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], widths: Sequence[int], box: _Box, styled: bool
) -> list[str]:
    def rule(corners: tuple[str, str, str, str]) -> str:
        left, line, cross, right = corners
        return left + cross.join(line * (w + 2) for w in widths) + right

    def cells(texts: Sequence[str], bar: str, bold: bool = False) -> str:
        out = [(t.rjust(w) if c.right else t.ljust(w)) for t, c, w in zip(texts, columns, widths, strict=True)]
        if bold:
            out = [f"\x1b[1m{t}\x1b[0m" for t in out]
        return bar + bar.join(f" {t} " for t in out) + bar

    lines = []
    if title:
        room = max(0, _width(widths) - len(title))
        line = (
            " " * (room // 2) + title + " " * (room - room // 2)
        )  # centred as rich centres: any odd space on the right
        lines.append(f"\x1b[3m{line}\x1b[0m" if styled else line)
    lines.append(rule(box.top))
    lines.append(cells([c.heading for c in columns], box.head, styled))
    lines.append(rule(box.under))
    lines += [cells(r, box.row) for r in rows]
    lines.append(rule(box.bottom))
    return lines


def print_table(
    title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], keep: int = 1, out: TextIO | None = None
) -> None:
    """Print a table on ``out`` (standard output by default), cut to the terminal's width
    (``COLUMNS``, else the terminal's, else 80 columns), styled on a terminal unless
    ``NO_COLOR`` is set."""
    out = sys.stdout if out is None else out
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    terminal = out.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    width = shutil.get_terminal_size((80, 24)).columns
    print(
        table_text(title, columns, rows, width, keep, ascii=not encoding.startswith("utf"), styled=terminal), file=out
    )
