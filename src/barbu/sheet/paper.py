"""The printable score sheet, laid out like the classic paper sheet, as HTML and as PDF.

A block per declarer, one row per contract (the rule set's table order; in ``king`` and
``french`` one row per deal of the declarer), and for each player four columns: the
doubling marks, the hand score (the contract's raw score), the doubling adjustment and the
deal's total. Each block ends with the declarer's set; the sheet ends with the totals and
the ranking.

Doubling marks are written in the doubler's column: ``B`` means "doubled B", ``B²``
"doubled B, and B redoubled". Players are named by their shortest distinct initials.

:func:`sheet_html` gives one self-contained HTML page that prints on one A4 sheet;
:func:`sheet_pdf` draws the same layout as PDF with the pure-Python ``fpdf2`` package
(the ``pdf`` extra), using DejaVu Sans where the system has it.

>>> from barbu.sheet import DealEntry, Double, Sheet
>>> sheet = Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"])
>>> sheet = sheet.add(DealEntry("trumps", trump="S", doubles=(Double(1, 0), Double(3, 0, True)),
...                             tally={"tricks": [6, 3, 2, 2]}))
>>> layout = paper_layout(sheet)
>>> row = layout.blocks[0].rows[5]
>>> row.number, row.label, [c.marks for c in row.cells], [c.total for c in row.cells]
(1, 'Trumps ♠', ['', 'A', '', 'A²'], [85, 0, 10, -30])
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from barbu.cards import SUIT_SYMBOLS, SUITS
from barbu.language import N_, _, _p, current
from barbu.sheet.doubles import SheetError
from barbu.sheet.model import Sheet
from barbu.sheet.rows import DealRow

FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
)
"""Where :func:`sheet_pdf` looks for a Unicode font (else it uses Helvetica)."""


@dataclass(frozen=True)
class PaperCell:
    """One player's four columns in one row (numbers None where nothing is written)."""

    marks: str
    hand: int | None
    doubling: int | None
    total: int | None


@dataclass(frozen=True)
class PaperRow:
    """A row: the deal number (None for a contract not played yet), the contract and each player's cells."""

    number: int | None
    label: str
    note: str
    cells: tuple[PaperCell, ...]


@dataclass(frozen=True)
class PaperBlock:
    """A declarer's block: its rows and its set's sums per player."""

    declarer: int
    heading: str
    rows: tuple[PaperRow, ...]
    set_hand: tuple[int, ...]
    set_doubling: tuple[int, ...]
    set_total: tuple[int, ...]


@dataclass(frozen=True)
class PaperSheet:
    """The whole printed sheet."""

    heading: str
    subheading: str
    players: tuple[str, ...]
    initials: tuple[str, ...]
    blocks: tuple[PaperBlock, ...]
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    complete: bool
    notes: tuple[str, ...]


def initials(names: tuple[str, ...]) -> tuple[str, ...]:
    """The shortest distinct prefixes of the names (at least one letter each).

    >>> initials(("Ann", "Anna", "Bob", "Cat"))
    ('Ann', 'Anna', 'B', 'C')
    """
    out = []
    for name in names:
        for n in range(1, len(name) + 1):
            prefix = name[:n].casefold()
            if sum(1 for other in names if other.casefold().startswith(prefix)) == 1:
                out.append(name[:n])
                break
        else:
            out.append(name)
    return tuple(out)


LEGEND = N_(
    "dbl: the players a player doubled, in its own column (B: it doubled B; B²: and B redoubled). "
    "hand: the contract's score; ±: the doubling settlement; total: the deal's score (hand ± doubling). "
    "A negative contract nobody doubled is not played: its points are divided."
)
"""What the columns of a printed sheet mean (in English: translated where printed)."""


def _label(row: DealRow) -> str:
    if row.trump is not None:
        return f"{_p('contract', row.title)} {SUIT_SYMBOLS[SUITS.index(row.trump)]}"
    if row.rank is not None:
        return _("{contract} from {rank}", contract=_p("contract", row.title), rank=row.rank)
    return _p("contract", row.title)


def _deal_row(row: DealRow, short: tuple[str, ...]) -> PaperRow:
    n = len(short)
    marks = [
        " ".join(f"{short[d.doubled]}{'²' if d.redoubled else ''}" for d in row.doubles if d.doubler == seat)
        for seat in range(n)
    ]
    note = {"skipped": _("not played"), "pending": _("waiting for the tally")}.get(row.status, "")
    if row.final is None:
        cells = tuple(PaperCell(marks[s], None, None, None) for s in range(n))
    else:
        assert row.raw is not None and row.adjustments is not None
        cells = tuple(PaperCell(marks[s], row.raw[s], row.adjustments[s], row.final[s]) for s in range(n))
    return PaperRow(row.number, _label(row), note, cells)


def paper_layout(sheet: Sheet, title: str = "") -> PaperSheet:
    """The printed sheet's content, block by block."""
    r = sheet.rules
    n = r.players
    short = initials(sheet.players)
    rows = sheet.rows
    blocks = []
    order = [(sheet.first_declarer + r.direction * i) % n for i in range(n)]
    empty = tuple(PaperCell("", None, None, None) for _seat in range(n))
    for declarer in order:
        own = [row for row in rows if row.declarer == declarer]
        paper_rows: list[PaperRow] = []
        if r.schedule.each_once:
            by_contract = {row.contract: row for row in own}
            for c in r.contracts:
                row = by_contract.get(c.id)
                paper_rows.append(_deal_row(row, short) if row else PaperRow(None, _p("contract", c.title), "", empty))
        else:
            paper_rows = [_deal_row(row, short) for row in own]
            for i in range(len(own), r.contracts_per_declarer):
                scheduled = r.scheduled_contract(_deal_index(sheet, declarer, i))
                paper_rows.append(PaperRow(None, _p("contract", scheduled.title) if scheduled else "", "", empty))
        scored = [row for row in own if row.final is not None]
        sums = [
            tuple(sum(getattr(row, key)[s] for row in scored) for s in range(n))
            for key in ("raw", "adjustments", "final")
        ]
        blocks.append(
            PaperBlock(
                declarer,
                _("{name} declares", name=sheet.players[declarer]),
                tuple(paper_rows),
                sums[0],
                sums[1],
                sums[2],
            )
        )
    options = ", ".join(f"{k} {v}" for k, v in sheet.options.items())
    sub = _("{n} deals · first declarer {name}", n=r.deal_count, name=sheet.players[sheet.first_declarer])
    if r.flags.rotation == "quick" and not r.ruleset.fixed_rotation:
        sub += " · " + _("quick rotation")
    if options:
        sub += " · " + _("options: {options}", options=options)
    if r.ruleset.penalty_points:
        sub += " · " + _("penalty points: the lowest total wins")
    heading = f"Barbu · {_p('variant', r.ruleset.title)}" + (f" · {title}" if title else "")
    return PaperSheet(
        heading,
        sub,
        sheet.players,
        short,
        tuple(blocks),
        tuple(sheet.totals),
        tuple(sheet.ranking),
        sheet.complete,
        sheet.notes,
    )


def _deal_index(sheet: Sheet, declarer: int, k: int) -> int:
    """The 0-based index of ``declarer``'s ``k``-th deal (0-based) in the schedule."""
    r = sheet.rules
    seen = 0
    for i in range(r.deal_count):
        if r.declarer_of(i, sheet.first_declarer) == declarer:
            if seen == k:
                return i
            seen += 1
    raise SheetError("deal", _("seat {seat} has no deal {n}", seat=declarer, n=k + 1))


def _num(v: int | None, signed: bool = False) -> str:
    if v is None:
        return ""
    return f"{v:+d}" if signed and v else str(v)


CSS = """
@page { size: A4 portrait; margin: 9mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; font-size: 8pt; color: #111; margin: 0; }
@media screen { body { margin: 16px auto; max-width: 1000px; padding: 0 8px; } }
h1 { font-size: 13pt; margin: 0 0 1mm; }
p.meta { margin: 0 0 2.5mm; color: #333; }
table.sheet { width: 100%; border-collapse: collapse; table-layout: fixed; }
.sheet th, .sheet td { border: 0.4pt solid #999; padding: 0.5mm 0.8mm; text-align: right;
  white-space: nowrap; overflow: hidden; text-overflow: clip; height: 4.6mm; }
.sheet thead th { background: #e8e8e8; text-align: center; font-weight: bold; }
.sheet thead tr.names th { font-size: 9pt; border-bottom: 0.4pt solid #999; }
.sheet thead tr.columns th { font-size: 6.5pt; font-weight: normal; padding: 0.3mm 0.2mm; }
.sheet .first { border-left: 1.4pt solid #111; }
.sheet td.no { text-align: center; color: #555; }
.sheet td.contract { text-align: left; }
.sheet td.contract small { color: #666; font-style: italic; }
.sheet td.marks { text-align: left; color: #a00; font-size: 6.6pt; white-space: normal; line-height: 1.05;
  word-spacing: -0.5pt; }
.sheet td.total { font-weight: bold; }
.sheet tbody { break-inside: avoid; page-break-inside: avoid; }
.sheet tr.declarer th { text-align: left; background: #f3f3f3; border-top: 1.4pt solid #111; font-size: 8.5pt; }
.sheet tr.set td { border-top: 0.9pt solid #111; font-weight: bold; background: #fafafa; }
.sheet tr.unplayed td { color: #999; }
.sheet tfoot td { font-weight: bold; border-top: 1.8pt double #111; font-size: 9pt; }
.red { color: #c00; }
body.players-5 .sheet td, body.players-6 .sheet td { font-size: 6.8pt; padding: 0.5mm 0.5mm; }
p.legend { font-size: 6.8pt; color: #444; margin: 2mm 0 0; }
"""


def _suit_html(text: str) -> str:
    out = html.escape(text)
    for sym in "♥♦":
        out = out.replace(sym, f'<span class="red">{sym}</span>')
    return out


def sheet_html(sheet: Sheet, title: str = "") -> str:
    """The printable sheet as one self-contained HTML page (print CSS: one A4 page).

    In a rule set without doubling each player has one column, its score.
    """
    p = paper_layout(sheet, title)
    n = len(p.players)
    doubling = sheet.rules.doubling
    k = 4 if doubling else 1
    wide = 14 if n < 5 else 12.5
    group = (96.0 - wide) / n
    cols = ['<col style="width:4%">', f'<col style="width:{wide}%">']
    for _seat in range(n):
        cols += [f'<col style="width:{group * w:.2f}%">' for w in ((0.36, 0.2, 0.2, 0.24) if doubling else (1,))]
    e = html.escape

    def cells(marks: str, hand: int | None, adj: int | None, total: int | None, cls: str = "marks first") -> str:
        if not doubling:
            return f'<td class="total first">{_num(total)}</td>'
        return (
            f'<td class="{cls}">{e(marks)}</td><td>{_num(hand)}</td>'
            f'<td>{_num(adj, True)}</td><td class="total">{_num(total)}</td>'
        )

    heads = (
        f'<th class="first">{e(_("dbl"))}</th><th>{e(_("hand"))}</th><th>±</th><th>{e(_("total"))}</th>'
        if doubling
        else f'<th class="first">{e(_("score"))}</th>'
    )
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{current()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<title>{e(p.heading)}</title><style>{CSS}</style></head><body class="players-{n}">',
        f"<h1>{e(p.heading)}</h1>",
        f'<p class="meta">{e(p.subheading)}</p>',
        '<table class="sheet">',
        "<colgroup>" + "".join(cols) + "</colgroup>",
        "<thead>",
        f'<tr class="names"><th rowspan="2">#</th><th rowspan="2">{e(_("contract"))}</th>'
        + "".join(
            f'<th colspan="{k}" class="first">{e(name)} ({e(ini)})</th>'
            for name, ini in zip(p.players, p.initials, strict=True)
        )
        + "</tr>",
        '<tr class="columns">' + heads * n + "</tr>",
        "</thead>",
    ]
    for block in p.blocks:
        out.append("<tbody>")
        out.append(f'<tr class="declarer"><th colspan="{2 + k * n}">{e(block.heading)}</th></tr>')
        for row in block.rows:
            cls = ' class="unplayed"' if row.number is None else ""
            note = f" <small>{e(row.note)}</small>" if row.note else ""
            tds = "".join(cells(c.marks, c.hand, c.doubling, c.total) for c in row.cells)
            number = row.number if row.number is not None else ""
            label = f'<td class="contract">{_suit_html(row.label)}{note}</td>'
            out.append(f'<tr{cls}><td class="no">{number}</td>{label}{tds}</tr>')
        sums = "".join(
            cells("", h, d, t, "first")
            for h, d, t in zip(block.set_hand, block.set_doubling, block.set_total, strict=True)
        )
        set_of = e(_("set of {name}", name=p.players[block.declarer]))
        out.append(f'<tr class="set"><td></td><td class="contract">{set_of}</td>{sums}</tr>')
        out.append("</tbody>")
    state = _("final totals") if p.complete else _("totals so far")
    if doubling:
        totals = "".join(
            f'<td class="first" colspan="3">{e(_("rank {n}", n=r))}</td><td>{t}</td>'
            for t, r in zip(p.totals, p.ranking, strict=True)
        )
    else:
        totals = "".join(
            f'<td class="first">{e(_("{total} (rank {n})", total=t, n=r))}</td>'
            for t, r in zip(p.totals, p.ranking, strict=True)
        )
    out.append(f'<tfoot><tr><td></td><td class="contract">{state}</td>{totals}</tr></tfoot>')
    out.append("</table>")
    legend = _(LEGEND) if doubling else _("score: each player's score in the deal.")
    out.append(f'<p class="legend">{e(legend)}</p>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _font_path() -> str | None:
    for path in FONT_PATHS:
        if Path(path).is_file():
            return path
    return None


def sheet_pdf(sheet: Sheet, title: str = "") -> bytes:
    """The printable sheet as a one-page A4 PDF (needs the ``fpdf2`` package)."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise SheetError(
            "export",
            _("PDF needs the fpdf2 package (pip install 'barbu[pdf]'); or export html and print it to PDF"),
        ) from None
    p = paper_layout(sheet, title)
    n = len(p.players)
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_margins(9, 9, 9)
    pdf.set_auto_page_break(True, 9)
    pdf.add_page()
    font_path = _font_path()
    if font_path:
        pdf.add_font("sheet", "", font_path)
        face = "sheet"

        def text(s: str) -> str:
            return s

    else:
        face = "helvetica"

        def text(s: str) -> str:
            for sym, letter in zip(SUIT_SYMBOLS, SUITS, strict=True):
                s = s.replace(sym, letter)
            return s.replace("×", "x").replace("±", "+/-").encode("latin-1", "replace").decode("latin-1")

    width = 192.0
    w_no, w_contract = width * 0.04, width * (0.14 if n < 5 else 0.125)
    group = (width - w_no - w_contract) / n
    doubling = sheet.rules.doubling
    w_cells = [group * f for f in (0.36, 0.2, 0.2, 0.24)] if doubling else [0.0, 0.0, 0.0, group]
    h = 4.6

    def cell(w: float, s: str, align: str = "R", fill: bool = False, size: float = 7.5, color: int = 0) -> None:
        pdf.set_font(face, size=size)
        while size > 4 and pdf.get_string_width(text(s)) > w - 1.2:
            size -= 0.25
            pdf.set_font(face, size=size)
        pdf.set_text_color(color, 0, 0)
        pdf.cell(w, h, text(s), border=1, align=align, fill=fill)

    pdf.set_font(face, size=12)
    pdf.cell(0, 6, text(p.heading), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(face, size=7.5)
    pdf.cell(0, 5, text(p.subheading), new_x="LMARGIN", new_y="NEXT")
    pdf.set_draw_color(150, 150, 150)
    pdf.set_fill_color(232, 232, 232)
    cell(w_no, "#", "C", True)
    cell(w_contract, _("contract"), "C", True)
    for name, ini in zip(p.players, p.initials, strict=True):
        cell(group, f"{name} ({ini})", "C", True, 8)
    pdf.ln(h)
    cell(w_no + w_contract, "", "C", True)
    for _seat in range(n):
        for w, s in zip(w_cells, (_("dbl"), _("hand"), "±", _("total") if doubling else _("score")), strict=True):
            if w:
                cell(w, s, "C", True)
    pdf.ln(h)
    for block in p.blocks:
        pdf.set_fill_color(243, 243, 243)
        cell(width, block.heading, "L", True, 8)
        pdf.ln(h)
        for row in block.rows:
            cell(w_no, str(row.number) if row.number is not None else "", "C")
            label = row.label + (f" ({row.note})" if row.note else "")
            cell(w_contract, label, "L", size=6.5 if row.note else 7.5)
            for c in row.cells:
                if doubling:
                    cell(w_cells[0], c.marks, "L", size=6.5, color=170)
                    cell(w_cells[1], _num(c.hand))
                    cell(w_cells[2], _num(c.doubling, True))
                cell(w_cells[3], _num(c.total))
            pdf.ln(h)
        pdf.set_fill_color(250, 250, 250)
        cell(w_no, "", fill=True)
        cell(w_contract, _("set of {name}", name=p.players[block.declarer]), "L", True)
        for hs, ds, ts in zip(block.set_hand, block.set_doubling, block.set_total, strict=True):
            if doubling:
                cell(w_cells[0], "", fill=True)
                cell(w_cells[1], str(hs), fill=True)
                cell(w_cells[2], _num(ds, True), fill=True)
            cell(w_cells[3], str(ts), fill=True)
        pdf.ln(h)
    pdf.ln(1)
    cell(w_no, "")
    cell(w_contract, _("final totals") if p.complete else _("totals so far"), "L", size=8.5)
    for t, k in zip(p.totals, p.ranking, strict=True):
        if doubling:
            cell(w_cells[0] + w_cells[1] + w_cells[2], _("rank {n}", n=k), size=8.5)
            cell(w_cells[3], str(t), size=8.5)
        else:
            cell(w_cells[3], _("{total} (rank {n})", total=t, n=k), size=8.5)
    pdf.ln(h + 1)
    pdf.set_font(face, size=6.5)
    pdf.set_text_color(60, 60, 60)
    legend = _(LEGEND)
    pdf.multi_cell(0, 3.2, text(legend if doubling else _("score: each player's score in the deal.")))
    return bytes(pdf.output())


__all__ = [
    "FONT_PATHS",
    "PaperBlock",
    "PaperCell",
    "PaperRow",
    "PaperSheet",
    "initials",
    "paper_layout",
    "sheet_html",
    "sheet_pdf",
]
