"""The score sheet, as a scorekeeper keeps it on paper: for every deal, its declarer and
contract, then three lines per deal: the raw scores, the doubling adjustments, and the
running totals after the deal.

>>> from barbu.view import DealSummary
>>> from barbu.rulesets import rules
>>> deal = DealSummary(1, 0, "no-queens", None, None, (0, -12, -6, -6), (30, -30, 0, 0), (30, -42, -6, -6),
...                    ((1, 0, 2),), True)
>>> rows = sheet_rows([deal], rules("classic"), ["You", "West", "North", "East"])
>>> [r[3] for r in rows], rows[2][4:]
(['raw', 'dbl', 'total'], ['+30', '-42', '-6', '-6'])
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from barbu.language import _, _p
from barbu.rulesets import Rules
from barbu.tui.card_faces import signed
from barbu.view import DealSummary


def contract_words(deal: DealSummary, rules: Rules) -> str:
    """A deal's contract in a few words: ``Trumps ♠``, ``Domino from 7``."""
    text = _p("contract", rules.contract(deal.contract).title)
    if deal.trump is not None:
        text += " " + "♠♥♦♣"["SHDC".index(deal.trump)]
    if deal.rank is not None:
        text += " " + _("from {rank}", rank=deal.rank.replace("T", "10"))
    if not deal.played:
        text += " " + _("(split)")
    return text


def sheet_rows(history: Sequence[DealSummary], rules: Rules, names: Sequence[str]) -> list[list[str]]:
    """The sheet's rows: per deal ``raw``, ``dbl`` (adjustments) and ``total`` (running)."""
    totals = [0] * len(names)
    rows: list[list[str]] = []
    for deal in history:
        totals = [t + f for t, f in zip(totals, deal.final, strict=True)]
        words = contract_words(deal, rules)
        rows.append([str(deal.number), names[deal.declarer], words, _("raw"), *(signed(v) for v in deal.raw)])
        adjustments = [signed(v) if v else "·" for v in deal.adjustments]
        rows.append(["", "", "", _("dbl"), *adjustments])
        rows.append(["", "", "", _("total"), *(signed(v) for v in totals)])
    return rows


class ScoreSheet(ModalScreen[None]):
    """The score sheet over the whole screen; ``Esc`` (or ``F2``) closes it."""

    DEFAULT_CSS = """
    ScoreSheet { align: center middle; }
    ScoreSheet > Vertical { width: 100%; height: 100%; border: round $primary; background: $surface; }
    ScoreSheet #sheet-title { height: 1; }
    ScoreSheet DataTable { height: 1fr; }
    ScoreSheet #sheet-keys { height: 1; color: $text-muted; }
    """

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("escape", "dismiss", "close"),
        Binding("f2", "dismiss", "close"),
        Binding("o", "dismiss", "close", show=False),
    ]

    def __init__(self, history: Sequence[DealSummary], rules: Rules, names: Sequence[str]) -> None:
        super().__init__()
        self.history = list(history)
        self.rules = rules
        self.names = list(names)

    def compose(self) -> ComposeResult:
        with Vertical():
            played = len(self.history)
            title = _(
                "Score sheet · {title} · {n} of {count} deals",
                title=_p("variant", self.rules.ruleset.title),
                n=played,
                count=self.rules.deal_count,
            )
            yield Static(Text(title, style="bold"), id="sheet-title")
            table: DataTable[str | Text] = DataTable(zebra_stripes=False, cursor_type="row")
            table.add_columns("#", _("declarer"), _("contract"), "", *(n[:7] for n in self.names))
            rows = sheet_rows(self.history, self.rules, self.names)
            for i, row in enumerate(rows):
                if i % 3 == 2:
                    table.add_row(
                        *(
                            Text(cell, style="bold", justify="right") if j >= 4 else Text(cell, style="bold")
                            for j, cell in enumerate(row)
                        )
                    )
                else:
                    table.add_row(*(Text(cell, justify="right") if j >= 4 else cell for j, cell in enumerate(row)))
            if not rows:
                table.add_row("", "", _("no deal finished yet"), "", *("" for _name in self.names))
            yield table
            yield Static(_("↑↓ scroll · Esc or F2 close"), id="sheet-keys")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.focus()
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


__all__ = ["ScoreSheet", "contract_words", "sheet_rows"]
