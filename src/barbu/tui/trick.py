"""The table seen from above: the seats around it and the trick in the middle.

The person sits at the bottom; the seat on their left (seat + 1) on the left, and so
on clockwise (three players: left and right; five: left, two across, right). Each seat
shows its name, ``▶`` when it is to act, and whether it is the declarer. In the middle:
the cards of the current trick in front of the seats that played them, or, until the
next card is led, the last trick with its winner's card in reverse video and who won it.

>>> canvas = Canvas(12, 3)
>>> canvas.put(2, 1, Text("Q♠"))
>>> canvas.centre(6, 2, Text("won"))
>>> [line.plain for line in canvas.lines]
['            ', '  Q♠        ', '     won    ']
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from barbu.language import _
from barbu.tui.card_faces import card_text
from barbu.view import SeatView, TrickView


class Canvas:
    """Lines of styled text of a fixed size, written at positions (what's outside is cut)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.lines = [Text(" " * self.width) for _ in range(self.height)]
        self.origin = (0, 0)
        """Where ``(0, 0)`` of :meth:`put` lies on the canvas."""

    def put(self, x: int, y: int, text: Text) -> None:
        """Write ``text`` from column ``x`` of line ``y``."""
        x, y = x + self.origin[0], y + self.origin[1]
        if not 0 <= y < self.height:
            return
        x = max(0, min(x, self.width - 1))
        text = text[: self.width - x]
        line = self.lines[y]
        self.lines[y] = line[:x] + text + line[x + text.cell_len :]

    def centre(self, x: int, y: int, text: Text) -> None:
        """Write ``text`` centred on column ``x``."""
        self.put(max(0, x - text.cell_len // 2), y, text)

    def right(self, x: int, y: int, text: Text) -> None:
        """Write ``text`` ending at column ``x``."""
        self.put(max(0, x - text.cell_len), y, text)

    def text(self) -> Text:
        """The whole canvas as one text."""
        return Text("\n").join(self.lines)


MAX_WIDTH = 60
MAX_HEIGHT = 18
"""The largest table drawn; a larger window centres it."""

PLACES = {
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
    5: ("bottom", "left", "top-left", "top-right", "right"),
    6: ("bottom", "left", "top-left", "top", "top-right", "right"),
    7: ("bottom", "bottom-left", "left", "top-left", "top-right", "right", "bottom-right"),
    8: ("bottom", "bottom-left", "left", "top-left", "top", "top-right", "right", "bottom-right"),
}
"""Where each seat sits, from the person's seat round clockwise."""


def place_of(seat: int, me: int, players: int) -> str:
    """Where ``seat`` sits on the person's screen.

    >>> [place_of(s, 2, 4) for s in range(4)]
    ['top', 'right', 'bottom', 'left']
    """
    return PLACES[players][(seat - me) % players]


class TrickArea(Widget):
    """The seats and the trick; see the module docstring."""

    DEFAULT_CSS = """
    TrickArea { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: SeatView | None = None
        self.names: Sequence[str] = ()
        self.tags: Sequence[str] = ()
        self.middle = ""

    def show(self, view: SeatView, names: Sequence[str], tags: Sequence[str], middle: str = "") -> None:
        """Show ``view``; ``tags`` is a word under each name (bot level); ``middle`` a line for the centre."""
        self.view = view
        self.names = names
        self.tags = tags
        self.middle = middle
        self.refresh()

    def _anchors(self, place: str, w: int, h: int) -> tuple[tuple[int, int, str], tuple[int, int]]:
        """(label x, label y, alignment) and (card x, card y) of a place."""
        mid = h // 2 - 1
        return {
            "bottom": ((w // 2, h - 2, "centre"), (w // 2, h - 4)),
            "top": ((w // 2, 0, "centre"), (w // 2, 3)),
            "left": ((1, mid, "left"), (w * 3 // 10, mid + 1)),
            "right": ((w - 1, mid, "right"), (w * 7 // 10, mid + 1)),
            "top-left": ((w * 3 // 10, 0, "centre"), (w * 4 // 10, 3)),
            "top-right": ((w * 7 // 10, 0, "centre"), (w * 6 // 10, 3)),
            "bottom-left": ((1, h - 3, "left"), (w * 4 // 10, h - 5)),
            "bottom-right": ((w - 1, h - 3, "right"), (w * 6 // 10, h - 5)),
        }[place]

    def render(self) -> Text:
        canvas = Canvas(self.size.width, self.size.height)
        # The table keeps the size it has at 80x24, centred in a larger window.
        w, h = min(self.size.width, MAX_WIDTH), min(self.size.height, MAX_HEIGHT)
        canvas.origin = ((self.size.width - w) // 2, (self.size.height - h) // 2)
        view = self.view
        if view is None:
            return canvas.text()
        trick: TrickView | None = view.current_trick
        done = False
        if trick is None and view.phase == "play" and view.tricks:
            trick, done = view.tricks[-1], True
        played = dict(zip(trick.seats, trick.cards, strict=False)) if trick is not None else {}
        for seat in range(view.players):
            (lx, ly, align), (cx, cy) = self._anchors(place_of(seat, view.seat or 0, view.players), w, h)
            name = Text(self.names[seat], style="bold")
            if seat == view.to_act:
                name.append(" ▶", style="bold")
            tag = Text(_("declarer") if seat == view.declarer else self.tags[seat], style="italic")
            for dy, text in ((0, name), (1, tag)):
                if align == "centre":
                    canvas.centre(lx, ly + dy, text)
                elif align == "left":
                    canvas.put(lx, ly + dy, text)
                else:
                    canvas.right(lx, ly + dy, text)
            if seat in played:
                style = "reverse" if done and trick is not None and seat == trick.winner else ""
                canvas.centre(cx, cy, card_text(played[seat], style))
        status_y = (3 + h // 2) // 2
        middle_y = (h // 2 + h - 4) // 2
        if trick is not None and done and trick.winner is not None:
            n = len(view.tricks)
            if trick.winner == view.seat:
                won = _("you win trick {n}", n=n)
            else:
                won = _("{name} wins trick {n}", name=self.names[trick.winner], n=n)
            canvas.centre(w // 2, status_y, Text(won, style="bold"))
        elif trick is not None:
            n = len(view.tricks) + 1
            if trick.leader == view.seat:
                led = _("trick {n} · you led", n=n)
            else:
                led = _("trick {n} · {name} led", n=n, name=self.names[trick.leader])
            canvas.centre(w // 2, status_y, Text(led, style="dim"))
        if self.middle:
            canvas.centre(w // 2, middle_y, Text(self.middle, style="italic"))
        return canvas.text()


__all__ = ["PLACES", "Canvas", "TrickArea", "place_of"]
