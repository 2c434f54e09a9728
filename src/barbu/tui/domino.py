"""The domino layout: four rows, one per suit, each laid card in its rank's column.

A row that has not started shows only dots; the starting rank's column is marked
with ``R`` above it. Under the rows: the last few turns (cards laid and passes) and
the finishing order so far.

>>> from barbu import Game, seat_view
>>> from barbu.actions import Declare, NameRank, Call
>>> game = Game.new("classic", seed=2)
>>> game.apply(Declare("domino")); game.apply(NameRank(5))
>>> while game.phase == "call":
...     game.apply(Call())
>>> lines = layout_lines(seat_view(game, 0), ["You", "West", "North", "East"], 0)
>>> lines[0].plain.split()[:3], lines[1].plain.split()[0]
(['Domino', 'from', '7'], 'R')
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from barbu.cards import RANKS
from barbu.tui.card_faces import card_text, rank_face, suit_style, suit_text
from barbu.tui.hand import SUIT_ORDER
from barbu.view import SeatView

PLACINGS = ("1st", "2nd", "3rd", "4th", "5th")
COLUMN = 3
LABEL = 5


def layout_lines(view: SeatView, names: Sequence[str], low_rank: int) -> list[Text]:
    """The layout as lines of text (the widget draws these)."""
    ranks = range(low_rank, 13)
    start = RANKS.index(view.rank) if view.rank is not None else None
    title = f"Domino from {rank_face(start)}" if start is not None else "Domino: the first card sets the rank"
    marks = Text(" " * LABEL)
    head = Text(" " * LABEL)
    for r in ranks:
        marks.append(("R" if r == start else "").rjust(COLUMN - 1) + " ", style="bold")
        head.append(rank_face(r).rjust(COLUMN - 1) + " ", style="dim")
    lines = [Text(title, style="bold"), marks, head]
    rows = view.domino_rows or (None,) * 4
    for at, suit in [(4 * half + suit, suit) for half in range(len(rows) // 4) for suit in SUIT_ORDER]:
        row = rows[at]  # with two decks, the second deck's rows follow the first's
        line = Text("  ")
        line.append_text(suit_text(suit))
        line.append("  ")
        for r in ranks:
            if row is not None and row[0] <= r <= row[1]:
                line.append(rank_face(r).rjust(COLUMN - 1) + " ", style=suit_style(suit))
            else:
                line.append("·".rjust(COLUMN - 1) + " ", style="dim")
        if row is None:
            line.append("not started", style="dim italic")
        lines.append(line)
    plays = view.plays[-view.players :]
    if plays:
        last = Text("Last: ", style="bold")
        for i, (seat, c) in enumerate(plays):
            if i:
                last.append(" · ")
            last.append(names[seat] + " ")
            last.append_text(card_text(c) if c is not None else Text("pass", style="italic"))
        lines += [Text(), last]
    if view.domino_order:
        out = Text("Out: ", style="bold")
        out.append(", ".join(f"{PLACINGS[i]} {names[s]}" for i, s in enumerate(view.domino_order)))
        lines.append(out)
    return lines


class DominoLayout(Widget):
    """The domino rows; see the module docstring."""

    DEFAULT_CSS = """
    DominoLayout { height: 1fr; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: SeatView | None = None
        self.names: Sequence[str] = ()
        self.low_rank = 0
        self.middle = ""

    def show(self, view: SeatView, names: Sequence[str], low_rank: int, middle: str = "") -> None:
        """Show the layout of ``view``; ``middle`` is a line under it (whose turn)."""
        self.view, self.names, self.low_rank, self.middle = view, names, low_rank, middle
        self.refresh()

    def render(self) -> Text:
        if self.view is None:
            return Text()
        lines = layout_lines(self.view, self.names, self.low_rank)
        if self.middle:
            lines.append(Text())
            lines.append(Text(self.middle, style="italic"))
        return Text("\n").join(lines)


__all__ = ["DominoLayout", "layout_lines"]
