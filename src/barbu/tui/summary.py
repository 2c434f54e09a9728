"""The end of a deal (scores and the settlement of each business pair) and of the game
(the ranking).

A pair's settlement is the core's own :func:`~barbu.doubling.settle` applied to that
pair alone: ``multiplier × (raw[doubler] − raw[doubled])`` to the doubler, the
opposite to the doubled seat.

>>> from barbu.view import DealSummary
>>> deal = DealSummary(1, 0, "no-queens", None, None, (0, -12, -6, -6), (30, -30, 0, 0), (30, -42, -6, -6),
...                    ((1, 0, 2), (2, 0, 1), (2, 1, 1)), True)
>>> pair_lines(deal, ["You", "West", "North", "East"])[0]
'West→You ×2: West -24, You +24'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from barbu.doubling import Pair, settle
from barbu.language import _, _p
from barbu.poker import CATEGORIES, hand_value
from barbu.rulesets import Rules
from barbu.tui.card_faces import card_text, signed
from barbu.view import DealSummary

LABEL = 10
COLUMN = 7


def pair_lines(deal: DealSummary, names: Sequence[str]) -> list[str]:
    """One line per business pair: who doubled whom and what it moved."""
    out = []
    for a, b, m in deal.pairs:
        adj = settle(deal.raw, [Pair(a, b, m)])
        pair = f"{names[a]}→{names[b]}{' ×2' if m == 2 else ''}"
        out.append(f"{pair}: {names[a]} {signed(adj[a])}, {names[b]} {signed(adj[b])}")
    return out


def score_rows(labels_values: Sequence[tuple[str, Sequence[int]]], names: Sequence[str]) -> list[Text]:
    """A small table: a heading of names, then one line per (label, scores)."""
    head = Text(" " * LABEL)
    for name in names:
        head.append(name[: COLUMN - 1].rjust(COLUMN), style="bold")
    lines = [head]
    for label, values in labels_values:
        line = Text(label.ljust(LABEL), style="bold" if label in (_("deal"), _("total")) else "")
        for v in values:
            line.append(signed(v).rjust(COLUMN))
        lines.append(line)
    return lines


def deal_lines(
    deal: DealSummary,
    rules: Rules,
    names: Sequence[str],
    totals: Sequence[int],
    last_trick: Sequence[tuple[int, int | None]] = (),
    arrangements: Sequence[Sequence[int] | None] = (),
) -> list[Text]:
    """The end-of-deal summary as lines of text."""
    contract = rules.contract(deal.contract)
    what = _p("contract", contract.title)
    if deal.trump is not None:
        what += _(" ({suit} trumps)", suit="♠♥♦♣"["SHDC".index(deal.trump)])
    if deal.rank is not None:
        what += _(" (from {rank})", rank=deal.rank.replace("T", "10"))
    who = names[deal.declarer]
    lines = [Text(_("Deal {n}: {name} declared {contract}", n=deal.number, name=who, contract=what), style="bold")]
    if not deal.played:
        lines.append(Text(_("Not played: nobody doubled, the points are shared."), style="italic"))
    if last_trick:
        line = Text(_("Last trick "), style="dim")
        for i, (seat, c) in enumerate(last_trick):
            if i:
                line.append(" · ")
            line.append(names[seat] + " ")
            line.append_text(card_text(c) if c is not None else Text(_p("call", "pass")))
        lines.append(line)
    for seat, cards in enumerate(arrangements):
        if cards and len(cards) == 13:
            rows = [CATEGORIES[hand_value(list(r))[0]] for r in (cards[:5], cards[5:10], cards[10:])]
            lines.append(Text(f"{names[seat][:COLUMN]:<8}" + " / ".join(rows), style="dim"))
    lines.append(Text())
    lines += score_rows(
        [(_("raw"), deal.raw), (_("doubling"), deal.adjustments), (_("deal"), deal.final), (_("total"), totals)], names
    )
    if deal.pairs:
        lines.append(Text())
        lines += [Text(p) for p in pair_lines(deal, names)]
    return lines


def ranking_lines(ranking: Sequence[int], totals: Sequence[int], names: Sequence[str], rules: Rules) -> list[Text]:
    """The final ranking, best first (equal totals share a rank)."""
    title = _p("variant", rules.ruleset.title)
    lines = [Text(_("Game over: {title}, {n} deals", title=title, n=rules.deal_count), style="bold"), Text()]
    if rules.ruleset.penalty_points:
        lines.append(Text(_("Penalty points: the lowest total wins."), style="italic"))
    for seat in sorted(range(len(totals)), key=lambda s: (ranking[s], s)):
        line = Text(f"{ranking[seat]:>2}.  {names[seat]:<12}{signed(totals[seat]):>7}")
        if ranking[seat] == 1:
            line.append("  " + _("winner"), style="bold")
            line.stylize("bold")
        lines.append(line)
    if rules.ruleset.positive_totals_win:
        positive = [names[s] for s, t in enumerate(totals) if t > 0] or list(names)
        custom = _("Turkish custom, every positive total wins: {names}", names=", ".join(positive))
        lines += [Text(), Text(custom, style="italic")]
    return lines


class SummaryPanel(VerticalScroll, can_focus=True):
    """The end of a deal or of the game; ``Enter`` goes on, ``↑`` ``↓`` scroll a long one."""

    DEFAULT_CSS = """
    SummaryPanel { height: 1fr; padding: 0 1; }
    SummaryPanel > Static { height: auto; }
    """

    BINDINGS = [Binding("enter", "go_on", "go on", show=False)]  # noqa: RUF012 - Textual reads it

    class GoOn(Message):
        """The person has read the summary."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []

    def compose(self) -> ComposeResult:
        yield Static(id="summary-text")

    def show(self, lines: list[Text]) -> None:
        """Show ``lines`` (from the top)."""
        if lines != self.lines:
            self.lines = lines
            self.query_one("#summary-text", Static).update(Text("\n").join(lines))
            self.scroll_home(animate=False)

    def action_go_on(self) -> None:
        self.post_message(self.GoOn())


__all__ = ["SummaryPanel", "deal_lines", "pair_lines", "ranking_lines", "score_rows"]
