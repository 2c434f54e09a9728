"""Chinese poker: the person splits 13 cards into back 5, middle 5 and front 3.

The hand line at the bottom keeps the cursor; ``b`` (or ``1``), ``m`` (``2``) and ``f``
(``3``) put the card under it in the back, middle or front row, ``u`` (``0``) takes it
out; a letter under each card tells its row. This panel shows the rows with their
poker value (:mod:`barbu.poker`) and warns when they are fouled (legal, but a fouled
arrangement loses every row against every valid one). ``Enter`` sets the arrangement.

>>> from barbu.cards import card
>>> rows = Rows([card(c) for c in "AS KS QS JS 9S 2H 2D 5C 7C 8C 3D 3H 4S".split()])
>>> for c in "AS KS QS JS 9S".split(): rows.put(card(c), 0)
>>> for c in "2H 2D 5C 7C 8C".split(): rows.put(card(c), 1)
>>> rows.action() is None, rows.missing()
(True, 'put 3 more cards in the front')
>>> for c in "3D 3H 4S".split(): rows.put(card(c), 2)
>>> rows.action() is not None, rows.fouled()
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from barbu.actions import Arrange
from barbu.poker import CATEGORIES, hand_value, is_foul
from barbu.tui.card_faces import cards_text
from barbu.tui.hand import sorted_hand

ROW_NAMES = ("back", "middle", "front")
ROW_SIZES = (5, 5, 3)
ROW_LETTERS = ("B", "M", "F")


class Rows:
    """The person's arrangement in the making: which row each card is in."""

    def __init__(self, hand: Sequence[int]) -> None:
        self.hand = sorted_hand(hand)
        self.row_of: dict[int, int] = {}

    def put(self, c: int, row: int | None) -> str | None:
        """Put card ``c`` in ``row`` (None: take it out); a reason when the row is full."""
        if row is None:
            self.row_of.pop(c, None)
            return None
        if self.row_of.get(c) != row and len(self.cards(row)) >= ROW_SIZES[row]:
            return f"the {ROW_NAMES[row]} row already holds {ROW_SIZES[row]} cards"
        self.row_of[c] = row
        return None

    def fill(self, cards: Sequence[int]) -> None:
        """Take a whole arrangement (back 5, middle 5, front 3), e.g. a hint."""
        self.row_of = {c: (0 if i < 5 else 1 if i < 10 else 2) for i, c in enumerate(cards)}

    def cards(self, row: int) -> list[int]:
        """The cards of ``row``, high to low."""
        return sorted((c for c, r in self.row_of.items() if r == row), key=lambda c: (-(c % 13), c // 13 % 4))

    def marks(self) -> dict[int, str]:
        """The row letter of each placed card, for the hand line."""
        return {c: ROW_LETTERS[r] for c, r in self.row_of.items()}

    def missing(self) -> str:
        """What is still to do, or an empty string."""
        for row, size in enumerate(ROW_SIZES):
            k = size - len(self.cards(row))
            if k:
                return f"put {k} more card{'s' if k > 1 else ''} in the {ROW_NAMES[row]}"
        return ""

    def action(self) -> Arrange | None:
        """The arrangement, once every row is full."""
        if self.missing():
            return None
        return Arrange(tuple(self.cards(0) + self.cards(1) + self.cards(2)))

    def fouled(self) -> bool:
        """True when the full rows break back ≥ middle ≥ front."""
        return not self.missing() and is_foul(self.cards(0), self.cards(1), self.cards(2))


def rows_text(cards: Sequence[int]) -> Text:
    """An arrangement (back 5, middle 5, front 3) as three lines with their poker values."""
    out = Text()
    for row, (start, end) in enumerate(((0, 5), (5, 10), (10, 13))):
        part = list(cards[start:end])
        out.append(f"{ROW_LETTERS[row]} {ROW_NAMES[row]:<7}", style="bold")
        out.append_text(cards_text(part))
        out.append(f"  {CATEGORIES[hand_value(part)[0]]}\n", style="italic")
    return out


class ArrangementPanel(Widget):
    """The rows of the arrangement; see the module docstring."""

    DEFAULT_CSS = """
    ArrangementPanel { height: 1fr; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = Rows([])
        self.stamp = -1
        self.active = False
        self.waiting = ""
        self.mine: Sequence[int] | None = None

    def start(self, hand: Sequence[int], stamp: int) -> None:
        """Begin a new arrangement of ``hand`` (kept while ``stamp`` is the same)."""
        if stamp != self.stamp:
            self.stamp = stamp
            self.rows = Rows(hand)
        self.active = True
        self.waiting = ""
        self.refresh()

    def wait(self, mine: Sequence[int] | None, waiting: str) -> None:
        """Another seat is arranging; ``mine`` is the person's arrangement once set."""
        self.active = False
        self.mine = mine
        self.waiting = waiting
        self.refresh()

    def render(self) -> Text:
        if not self.active:
            return self._waiting()
        out = Text("Chinese poker: arrange your 13 cards\n", style="bold")
        out.append("back ≥ middle ≥ front, or the hand is fouled\n\n", style="dim")
        for row, name in enumerate(ROW_NAMES):
            cards = self.rows.cards(row)
            out.append(f"{ROW_LETTERS[row]} {name:<7}{len(cards)}/{ROW_SIZES[row]}  ", style="bold")
            out.append_text(cards_text(cards))
            if len(cards) == ROW_SIZES[row]:
                out.append(f"  {CATEGORIES[hand_value(cards)[0]]}", style="italic")
            out.append("\n")
        placed = set(self.rows.row_of)
        rest = [c for c in self.rows.hand if c not in placed]
        if rest:
            out.append("  to place  ", style="bold")
            out.append_text(cards_text(rest))
            out.append("\n")
        out.append("\n")
        missing = self.rows.missing()
        if missing:
            out.append(missing[0].upper() + missing[1:] + ".\n")
        elif self.rows.fouled():
            out.append("Fouled: allowed, but it loses every row\nto every valid arrangement.\n", style="bold")
        else:
            out.append("Ready: Enter sets this arrangement.\n", style="bold")
        out.append("\nb/1 back · m/2 middle · f/3 front · u/0 out\n", style="dim")
        out.append("Enter set · F3 the bot's arrangement\n", style="dim")
        return out

    def _waiting(self) -> Text:
        out = Text("Chinese poker\n", style="bold")
        out.append("Each player sets back, middle and front rows in turn, from the\n", style="dim")
        out.append("declarer's left; the rows are shown when all are set.\n\n", style="dim")
        if self.mine:
            out.append("Your rows:\n")
            out.append_text(rows_text(self.mine))
            out.append("\n")
        if self.waiting:
            out.append(self.waiting, style="italic")
        return out


__all__ = ["ROW_LETTERS", "ROW_NAMES", "ArrangementPanel", "Rows"]
