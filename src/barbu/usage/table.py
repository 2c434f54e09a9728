"""The tables the ``barbu`` commands print: one way for all of them, in plain text.

``barbu simulate``, ``barbu replay``, ``barbu arena`` and ``barbu score`` (the sheet and its
statistics) all print a :class:`Table`. A table has a title, a row of headings, rows of cells
(each column aligned right for numbers or left for words) and an optional caption under it.
It is drawn as ``rich`` draws its default tables (a heavy line under the headings, light lines
around the rows, one space each side of a cell, the title centred above), in line-drawing
characters, or in ASCII when the output cannot encode them. On a terminal the title is in
italics and the headings in bold, and a cell may carry colour (:func:`coloured`); elsewhere
(a file, a pipe, ``NO_COLOR``) the colour is left out, so what is written is plain text.

A table wider than its width is first narrowed where a column may wrap (``wrap``: its cells
are folded onto several lines, at spaces where they can be), then cut into several tables
stacked one under the other, each with the leading columns (``keep``: the game, the deal) and
as many of the other columns as fit, so that no number is ever broken. Widths count
characters, so accented words (``déclarant``) line up like any other.

Printing a table this way takes no import beyond the standard library (``rich`` took a quarter
of ``barbu simulate``'s start-up, see docs/native.md).

>>> columns = [Column("deal"), Column("contract", right=False), Column("Ann"), Column("Bob")]
>>> rows = [["1", "no-kings", "3", "-3"], ["2", "domino", "-45", "45"]]
>>> Table("a game", columns, rows).text().splitlines()[0]  # the title, centred
'            a game             '
>>> print(Table("", columns, rows, caption="points").text())
┏━━━━━━┳━━━━━━━━━━┳━━━━━┳━━━━━┓
┃ deal ┃ contract ┃ Ann ┃ Bob ┃
┡━━━━━━╇━━━━━━━━━━╇━━━━━╇━━━━━┩
│    1 │ no-kings │   3 │  -3 │
│    2 │ domino   │ -45 │  45 │
└──────┴──────────┴─────┴─────┘
            points
>>> print(Table("", columns, [["1", "no-kings", "3", "-3"]], keep=2).text(width=30, ascii=True))
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
import re
import shutil
import sys
import textwrap
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TextIO


class Column(NamedTuple):
    """A column: its heading, whether its cells are aligned right (numbers) or left (words),
    and whether a cell may be folded onto several lines (``wrap``, at least ``least`` wide)
    when the table is too wide."""

    heading: str
    right: bool = True
    wrap: bool = False
    least: int = 12


COLOURS = {"green": "32", "red": "31", "bold": "1"}
"""The colours a cell may carry, as terminal codes."""

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def coloured(text: str, colour: str) -> str:
    """``text`` in one of :data:`COLOURS`; shown on a terminal, left out everywhere else.

    >>> coloured("+3.0 ± 1.0", "green")
    '\\x1b[32m+3.0 ± 1.0\\x1b[0m'
    >>> Table("", [Column("x")], [[coloured("7", "red")]]).text().splitlines()[3]
    '│ 7 │'
    """
    return f"\x1b[{COLOURS[colour]}m{text}\x1b[0m"


def _shown(text: str) -> int:
    """How many characters ``text`` takes on the screen (its colour codes take none)."""
    return len(_ESCAPE.sub("", text))


class _Box(NamedTuple):
    """The characters of a table's lines: the top, under the headings, between groups of
    rows, the bottom (None: no such line), and the vertical lines of the headings and of the
    rows (empty: the columns are set apart by their spaces alone)."""

    top: tuple[str, str, str, str] | None
    """The left corner, the line, the crossing with a column's border, the right corner."""
    under: tuple[str, str, str, str]
    between: tuple[str, str, str, str]
    bottom: tuple[str, str, str, str] | None
    head: str
    row: str


_LINES = _Box(("┏", "━", "┳", "┓"), ("┡", "━", "╇", "┩"), ("├", "─", "┼", "┤"), ("└", "─", "┴", "┘"), "┃", "│")
_ASCII = _Box(("+", "-", "+", "+"), ("|", "-", "+", "|"), ("|", "-", "+", "|"), ("+", "-", "+", "+"), "|", "|")
_OPEN_LINES = _Box(None, ("", "─", "", ""), ("", "─", "", ""), None, "", "")
_OPEN_ASCII = _Box(None, ("", "-", "", ""), ("", "-", "", ""), None, "", "")


@dataclass(frozen=True)
class Table:
    """A table to print: ``title`` above, ``caption`` below, ``columns`` and ``rows`` of cells
    (text, perhaps :func:`coloured`); a light line follows each row whose index is in
    ``lines_after`` (the totals of a set of deals); a table cut to fit repeats its first
    ``keep`` columns."""

    title: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[str]]
    caption: str = ""
    keep: int = 1
    lines_after: Collection[int] = field(default=frozenset())
    framed: bool = True
    """Lines around the table and between its columns; without them (a score sheet of many
    players in 80 columns) the columns are set apart by spaces and a line runs under the headings."""

    def text(self, width: int = 80, ascii: bool = False, styled: bool = False) -> str:
        """The table as lines of text (no newline at the end) of at most ``width`` characters
        where it can be. ``ascii`` draws it with ``+``, ``-`` and ``|``; ``styled`` puts the
        title in italics, the headings in bold and the cells' colours (terminal codes);
        without it the colours are left out."""
        columns = self.columns
        box = (_LINES if self.framed else _OPEN_LINES) if not ascii else (_ASCII if self.framed else _OPEN_ASCII)
        rows = [list(r) if styled else [_ESCAPE.sub("", c) for c in r] for r in self.rows]
        widths = [max(_shown(c.heading), *(_shown(r[i]) for r in rows)) for i, c in enumerate(columns)]
        kept = list(range(min(self.keep, len(columns))))
        over = _width(widths, box) - width
        for i, c in enumerate(columns):  # narrow the wrapping columns first
            if c.wrap and over > 0:
                cut = min(over, widths[i] - min(widths[i], max(c.least, _shown(c.heading))))
                widths[i] -= cut
                over -= cut
        parts: list[list[int]] = []
        part = list(kept)
        for i in range(len(kept), len(columns)):
            if len(part) > len(kept) and _width([widths[j] for j in (*part, i)], box) > width:
                parts.append(part)
                part = [*kept, i]
            else:
                part.append(i)
        parts.append(part)
        lines: list[str] = []
        for n, part in enumerate(parts):
            lines += _draw(
                self.title if n == 0 else "",
                [columns[i] for i in part],
                [[r[i] for i in part] for r in rows],
                [widths[i] for i in part],
                box,
                styled,
                self.lines_after,
            )
        if self.caption:
            room = max(_width([widths[i] for i in parts[0]], box), 1)
            lines += [_centred(line, room).rstrip() for line in textwrap.wrap(self.caption, min(room, width))]
        return "\n".join(lines)


def _width(widths: Sequence[int], box: _Box) -> int:
    """The width of a table whose columns' cells are ``widths`` wide: a space each side of a
    cell, the box's line between columns and at both ends."""
    return sum(widths) + 2 * len(widths) + len(box.row) * (len(widths) + 1)


def _centred(text: str, width: int) -> str:
    """``text`` centred in ``width`` as rich centres it: any odd space on the right."""
    room = max(0, width - _shown(text))
    return " " * (room // 2) + text + " " * (room - room // 2)


def _fold(text: str, width: int) -> list[str]:
    """A cell's lines at most ``width`` wide: folded at spaces, a word longer than the width cut."""
    if _shown(text) <= width:
        return [text]
    plain = _ESCAPE.sub("", text)  # a folded cell loses its colour: no code is cut in two
    return textwrap.wrap(plain, width, break_on_hyphens=False) or [""]


def _draw(
    title: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    widths: Sequence[int],
    box: _Box,
    styled: bool,
    lines_after: Collection[int],
) -> list[str]:
    def rule(corners: tuple[str, str, str, str]) -> str:
        left, line, cross, right = corners
        return left + cross.join(line * (w + 2) for w in widths) + right

    def cells(texts: Sequence[str], bar: str, bold: bool = False) -> list[str]:
        folded = [_fold(t, w) for t, w in zip(texts, widths, strict=True)]
        out = []
        for k in range(max(len(f) for f in folded)):
            line = []
            for f, c, w in zip(folded, columns, widths, strict=True):
                t = f[k] if k < len(f) else ""
                pad = " " * (w - _shown(t))
                t = pad + t if c.right else t + pad
                line.append(f"\x1b[1m{t}\x1b[0m" if bold else t)
            out.append(bar + bar.join(f" {t} " for t in line) + bar)
        return out

    lines = []
    if title:
        line = _centred(title, _width(widths, box))
        lines.append(f"\x1b[3m{line}\x1b[0m" if styled else line)
    if box.top is not None:
        lines.append(rule(box.top))
    lines += cells([c.heading for c in columns], box.head, styled)
    lines.append(rule(box.under))
    for i, r in enumerate(rows):
        lines += cells(r, box.row)
        if i in lines_after and i + 1 < len(rows):
            lines.append(rule(box.between))
    if box.bottom is not None:
        lines.append(rule(box.bottom))
    return lines


def print_table(table: Table, out: TextIO | None = None) -> None:
    """Print a table on ``out`` (standard output by default), cut to the terminal's width
    (``COLUMNS``, else the terminal's, else 80 columns), styled on a terminal unless
    ``NO_COLOR`` is set, in ASCII where the output cannot encode line-drawing characters."""
    out = sys.stdout if out is None else out
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    terminal = out.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    width = shutil.get_terminal_size((80, 24)).columns
    print(table.text(width, ascii=not encoding.startswith("utf"), styled=terminal), file=out)


__all__ = ["COLOURS", "Column", "Table", "coloured", "print_table"]
