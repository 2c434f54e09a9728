"""The side panel: the deal and its contract, the business pairs, what each seat has
taken so far in this deal (face up where the contract shows it) and the game totals.

What a seat has taken depends on the contract: its penalty cards (hearts, queens, K♥…)
where the contract has them, tricks in the others, the cards of each suit in Ravage
City, cards left in domino.

>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=2)
>>> lines = board_lines(seat_view(game, 0), game.rules, ["You", "West", "North", "East"])
>>> lines[0].plain
'Deal 1 of 28'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from barbu.cards import SUIT_SYMBOLS
from barbu.language import _, _p, ordinal
from barbu.rulesets import Rules
from barbu.tui.card_faces import card_text, signed, suit_style
from barbu.view import SeatView

NAME = 8
TAKEN = 13


def pairs_text(pairs: Sequence[tuple[int, int, int]], names: Sequence[str]) -> str:
    """Business pairs as ``West→North ×2, You→North``."""
    return ", ".join(f"{names[a]}→{names[b]}" + (" ×2" if m == 2 else "") for a, b, m in pairs)


def _compact(cards: list[int], width: int) -> Text:
    """Cards face up; grouped by suit (``♥AQ52``) when they would not fit."""
    out = Text()
    if len(cards) * 3 <= width:
        for c in cards:
            out.append_text(card_text(c))
        return out
    for suit in range(4):
        ranks = [c % 13 for c in cards if c // 13 % 4 == suit]
        if ranks:
            out.append(
                SUIT_SYMBOLS[suit] + "".join("23456789TJQKA"[r] for r in sorted(ranks, reverse=True)),
                style=suit_style(suit),
            )
    return out


def taken_column(view: SeatView, rules: Rules) -> tuple[str, list[Text]]:
    """The heading and, per seat, what that seat has taken in this deal."""
    n = view.players
    if view.contract is None or view.phase in ("contract", "trump", "rank", "call"):
        return "", [Text() for _ in range(n)]
    contract = rules.contract(view.contract)
    if contract.play == "domino":
        out = []
        for s in range(n):
            if s in view.domino_order:
                out.append(Text(_("out {place}", place=ordinal(view.domino_order.index(s) + 1)), style="bold"))
            else:
                out.append(Text(_("{n} cards", n=view.cards_left[s])))
        return "domino", out
    if contract.play == "arrange":
        return "", [Text(_("arranged") if view.arrangements and view.arrangements[s] else "") for s in range(n)]
    if contract.id == "ravage-city":
        out = []
        for s in range(n):
            line = Text()
            for suit in range(4):
                count = sum(1 for c in view.captured[s] if c // 13 % 4 == suit)
                line.append(f"{SUIT_SYMBOLS[suit]}{count}", style=suit_style(suit))
            out.append(line)
        return _("by suit"), out
    penalty = contract.penalty_cards(rules.deck)
    if penalty:
        heading = {"no-queens": _("queens"), "king-no-queens": _("queens"), "no-king": "K♥", "king-no-king": "K♥"}
        out = [_compact([c for c in view.captured[s] if penalty >> c & 1], TAKEN) for s in range(n)]
        return heading.get(contract.id, _("taken")), out
    tricks = [0] * n
    for t in view.tricks:
        if t.winner is not None:
            tricks[t.winner] += 1
    return _("tricks"), [Text(str(k)) for k in tricks]


def board_lines(view: SeatView, rules: Rules, names: Sequence[str]) -> list[Text]:
    """The panel as lines of text."""
    lines = [Text(_("Deal {n} of {count}", n=view.deal_number, count=view.deals_total), style="bold")]
    if view.declarer is not None:
        k = len(view.declared[view.declarer]) if view.contract else len(view.declared[view.declarer]) + 1
        lines.append(
            Text(
                _(
                    "Declarer: {name} ({k} of {count})",
                    name=names[view.declarer],
                    k=ordinal(k),
                    count=rules.contracts_per_declarer,
                )
            )
        )
    if view.contract is not None:
        contract = rules.contract(view.contract)
        line = Text(_p("contract", contract.title), style="bold")
        if view.trump is not None:
            suit = "SHDC".index(view.trump)
            line.append(" ")
            line.append(SUIT_SYMBOLS[suit], style=suit_style(suit))
        line.append(f"  T {signed(contract.total(rules.shape))}", style="dim")
        lines.append(line)
    if view.pairs:
        lines.append(Text(_("Pairs") + " ", style="bold") + Text(pairs_text(view.pairs, names)))
    lines.append(Text())
    heading, taken = taken_column(view, rules)
    head = Text(" " * NAME) + Text(heading.ljust(TAKEN), style="dim") + Text(_("total").rjust(6), style="dim")
    lines.append(head)
    for s in range(view.players):
        name = names[s].replace("North-", "N-")[: NAME - 2] + (" ▶" if s == view.to_act else "")
        row = Text(name.ljust(NAME), style="bold" if s == view.seat else "")
        cell = taken[s][:TAKEN]
        row.append_text(cell)
        row.append(" " * (TAKEN - cell.cell_len))
        total = view.totals[s] if view.totals else 0
        row.append(signed(total).rjust(6))
        lines.append(row)
    return lines


class Scoreboard(Widget):
    """The side panel; see the module docstring."""

    DEFAULT_CSS = """
    Scoreboard { width: 30; height: 1fr; border: round $secondary; padding: 0 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []

    def show(self, view: SeatView, rules: Rules, names: Sequence[str]) -> None:
        """Show the panel for ``view``."""
        self.lines = board_lines(view, rules, names)
        self.refresh()

    def render(self) -> Text:
        return Text("\n").join(self.lines)


__all__ = ["Scoreboard", "board_lines", "pairs_text", "taken_column"]
