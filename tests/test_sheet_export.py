"""Score sheet exports (record, CSV, HTML, PDF) and the statistics."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from barbu.replay import replay_json
from barbu.rulesets import RULE_SETS
from barbu.sheet import DealEntry, Double, Sheet
from barbu.sheet.export import read_record, record_text, sheet_csv
from barbu.sheet.paper import initials, paper_layout, sheet_html, sheet_pdf
from barbu.sheet.stats import sheet_stats, stats_across
from test_sheet_model import played_record, tallied


def small_sheet() -> Sheet:
    sheet = Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"], first_declarer=1)
    sheet = sheet.add(
        DealEntry("trumps", trump="H", doubles=(Double(2, 1), Double(0, 1, True)), tally={"tricks": [2, 6, 3, 2]})
    )
    sheet = sheet.add(DealEntry("no-king"))
    return sheet.add(DealEntry("no-queens", doubles=(Double(3, 1),)))  # waits for its tally


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_export_and_import_give_the_same_sheet(variant: str) -> None:
    sheet = Sheet.from_record(tallied(played_record(variant)))
    again = read_record(record_text(sheet))
    assert again == sheet and again.totals == sheet.totals
    assert replay_json(json.loads(record_text(sheet)))["valid"]


def test_a_sheet_in_progress_round_trips_with_its_pending_deal() -> None:
    sheet = small_sheet()
    assert sheet.pending is not None
    again = read_record(record_text(sheet))
    assert again == sheet and again.pending is not None and again.pending.doubles == (Double(3, 1),)
    assert again.enter_tally({"queens": [0, 4, 0, 0]}).rows[-1].final == [0, -48, 0, 24]


def test_csv_has_a_row_per_deal_and_the_totals() -> None:
    sheet = small_sheet()
    rows = list(csv.reader(io.StringIO(sheet_csv(sheet))))
    assert rows[0][:7] == ["deal", "declarer", "contract", "trump", "rank", "doubles", "status"]
    assert rows[0][7:11] == ["Ann hand", "Ann doubling", "Ann score", "Ann total"]
    first = dict(zip(rows[0], rows[1], strict=True))
    assert first["declarer"] == "Bob" and first["trump"] == "H" and first["doubles"] == "Ann>>Bob Cat>Bob"
    assert (first["Bob hand"], first["Bob doubling"], first["Bob score"]) == ("30", "55", "85")
    second = dict(zip(rows[0], rows[2], strict=True))
    assert second["status"] == "skipped" and second["Bob score"] == "1" and second["Ann total"] == "-37"
    assert dict(zip(rows[0], rows[3], strict=True))["status"] == "pending"
    assert rows[4][0] == "totals" and rows[4][6] == "in progress"
    assert [rows[4][7 + 4 * s + 3] for s in range(4)] == [str(t) for t in sheet.totals]


def test_csv_cells_a_spreadsheet_would_run_as_a_formula_are_written_as_text() -> None:
    """A name starting with = + - @ (or a tab or a carriage return) is what a spreadsheet runs as a
    formula when it opens the file; each such cell starts with an apostrophe, which shows it as typed."""
    names = ['=HYPERLINK("http://evil.example","x")', "+1+1", "@SUM(A1)", "-2+3"]
    sheet = Sheet.new("classic", players=names, first_declarer=0).add(DealEntry("no-king", doubles=(Double(1, 0),)))
    rows = list(csv.reader(io.StringIO(sheet_csv(sheet))))
    texts = [cell for row in rows for cell in row if not re.fullmatch(r"-?[0-9]+", cell)]
    assert not [cell for cell in texts if cell[:1] in ("=", "+", "-", "@", "\t", "\r")], texts
    assert rows[0][7] == "'" + names[0] + " hand" and rows[1][1] == "'" + names[0]
    assert rows[1][5] == "'+1+1>" + names[0]
    plain = list(csv.reader(io.StringIO(sheet_csv(small_sheet()))))
    assert plain[0][7] == "Ann hand" and "-37" in plain[2]  # names and scores as they were


def test_printable_html_is_laid_out_like_the_paper_sheet() -> None:
    sheet = Sheet.from_record(tallied(played_record("classic")))
    page = sheet_html(sheet, "club <night>")
    assert page.startswith("<!DOCTYPE html>") and "@page { size: A4" in page
    assert "club &lt;night&gt;" in page  # names and titles are escaped
    assert page.count("<tbody>") == 4  # a block per declarer
    assert page.count('<tr class="set">') == 4
    layout = paper_layout(sheet)
    for block in layout.blocks:
        assert [r.label.split(" ")[0] for r in block.rows][:2] == ["No", "No"]
        assert len(block.rows) == 7 and all(r.number is not None for r in block.rows)
        assert sum(block.set_total) == 0  # classic: each declarer's set sums to 0
    # Every deal's row holds each player's hand score, adjustment and total.
    row = next(r for b in layout.blocks for r in b.rows if r.number == 1)
    first = sheet.rows[0]
    assert [c.hand for c in row.cells] == first.raw and [c.total for c in row.cells] == first.final
    for d in first.doubles:
        assert layout.initials[d.doubled] + ("²" if d.redoubled else "") in row.cells[d.doubler].marks.split()
    totals = re.findall(r"rank (\d)</td><td>(-?\d+)</td>", page)
    assert [int(t) for _, t in totals] == sheet.totals
    assert initials(("Ann", "Anna", "Bob")) == ("Ann", "Anna", "B")


def test_an_unplayed_contract_keeps_its_empty_row() -> None:
    layout = paper_layout(small_sheet())
    bob = layout.blocks[0]
    assert bob.heading == "Bob declares" and len(bob.rows) == 7
    assert [r.number for r in bob.rows] == [None, None, 3, 2, None, 1, None]
    assert bob.rows[3].note == "not played" and bob.rows[2].note == "waiting for the tally"


def test_pdf_is_one_a4_page() -> None:
    pdf = sheet_pdf(Sheet.from_record(tallied(played_record("five-player"))), "club")
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    assert b"595.28" in pdf  # A4 width in points


def test_the_printed_html_fits_one_a4_page_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "sheet.html"
    page.write_text(sheet_html(Sheet.from_record(tallied(played_record("chinese-poker"))), "club"))
    out = tmp_path / "sheet.pdf"
    subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--print-to-pdf={out}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pdf = out.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1


def test_statistics_of_one_sheet_and_across_sheets() -> None:
    sheet = Sheet.from_record(tallied(played_record("classic")))
    stats = sheet_stats(sheet)
    for seat, p in enumerate(stats.players):
        assert p.total == sheet.totals[seat] and p.rank == sheet.ranking[seat]
        assert sum(p.by_contract.values()) == p.total
        assert p.doubling_points == sum(r.adjustments[seat] for r in sheet.rows if r.adjustments is not None)
        assert p.declared == 7 and p.deals == 28
        assert p.best_contract is not None and p.by_contract[p.best_contract] == max(p.by_contract.values())
        assert p.by_contract[p.worst_contract or ""] == min(p.by_contract.values())
    pairs = sum(len(r.pairs) for r in sheet.rows)
    assert sum(p.doubles_made for p in stats.players) == pairs == sum(c.pairs for c in stats.contracts)
    assert sum(p.doubles_won + p.doubles_lost + p.doubles_even for p in stats.players) == 2 * pairs
    assert sum(p.wins for p in stats.players) == sheet.ranking.count(1)
    other = Sheet.from_record(tallied(played_record("classic", seed=12)))
    both = stats_across([sheet, other])
    ann = next(p for p in both.players if p.name == "Ann")
    assert ann.games == 2 and ann.total == sheet.totals[0] + other.totals[0]
    assert ann.deals_by_contract["trumps"] == 8
    assert json.loads(json.dumps(both.to_json()))["games"] == 2


def test_a_rule_set_without_doubling_prints_one_score_column_per_player() -> None:
    sheet = Sheet.from_record(tallied(played_record("king")))
    page = sheet_html(sheet)
    assert '<th class="first">score</th>' in page and "<th>±</th>" not in page
    assert all(f"{t} (rank {r})" in page for t, r in zip(sheet.totals, sheet.ranking, strict=True))
    blocks = paper_layout(sheet).blocks
    assert [len(b.rows) for b in blocks] == [5, 5, 5, 5]  # king: a row per deal of the declarer
    assert sheet_pdf(sheet).startswith(b"%PDF")
