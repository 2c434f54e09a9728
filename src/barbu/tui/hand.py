"""The person's hand: sorted by suit, legal cards marked, played by keys, typing or mouse.

Two lines: the cards (♠ ♥ ♣ ♦, so the colours alternate; high to low in each suit,
the card under the cursor in reverse video), and under them a mark per card: ``•``
under the cards the core lists as legal when not every card is, or the row letter of
an arrangement. Illegal cards are also dimmed, so the marks are there without colour.

Keys when it is the person's turn to play: ``←`` ``→`` (``↑`` ``↓`` jump a suit),
``Enter`` or a click plays the card; typing rank then suit (``qs``, ``10h``, ``th``)
plays that card; a suit letter alone jumps to that suit.

>>> from barbu.cards import card
>>> hand = Hand()
>>> hand.cards = sorted_hand([card("2S"), card("AH"), card("KS"), card("3C")])
>>> [card_face(c) for c in hand.cards]
['K♠', '2♠', 'A♥', '3♣']
>>> hand.type_keys("k"), hand.type_keys("s")
(None, 11)
>>> hand.type_keys("1"), hand.type_keys("0"), hand.type_keys("h")
(None, None, 21)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from barbu.cards import RANKS, SUITS
from barbu.tui.card_faces import card_face, suit_style

SUIT_ORDER = (0, 1, 3, 2)
"""Spades, hearts, clubs, diamonds: black and red alternate."""

CELL = 4
"""Columns per card: the card right-aligned in 3, then a space."""
SUIT_GAP = 2
LEFT = 1

RANK_KEYS = {ch.lower(): i for i, ch in enumerate(RANKS)}
SUIT_KEYS = {ch.lower(): i for i, ch in enumerate(SUITS)}
ROW_KEYS = {"b": 0, "1": 0, "m": 1, "2": 1, "f": 2, "3": 2, "u": None, "0": None, "backspace": None, "delete": None}
"""Arrangement keys: back, middle, front, or take the card out of its row."""


def sorted_hand(cards: Iterable[int]) -> list[int]:
    """Cards in display order: suits ♠ ♥ ♣ ♦, high to low within a suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c // 13 % 4), -(c % 13)))


class Hand(Widget, can_focus=True):
    """The person's cards; see the module docstring."""

    DEFAULT_CSS = """
    Hand { height: 2; padding: 0 0; }
    """

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("left", "move(-1)", "previous card", show=False),
        Binding("right", "move(1)", "next card", show=False),
        Binding("up", "jump(-1)", "previous suit", show=False),
        Binding("down", "jump(1)", "next suit", show=False),
        Binding("home", "move(-99)", show=False),
        Binding("end", "move(99)", show=False),
        Binding("enter", "choose", "play", show=False),
        Binding("space", "choose", "play", show=False),
        Binding("escape", "clear", show=False),
    ]

    class Chosen(Message):
        """Enter or a click on a card (``card`` None: Enter with no card to play, a domino pass)."""

        def __init__(self, card: int | None) -> None:
            super().__init__()
            self.card = card

    class Typed(Message):
        """A card typed by name (it may not be in the hand: the core says so)."""

        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    class RowKey(Message):
        """An arrangement key on ``card``: row 0 back, 1 middle, 2 front, None out of its row."""

        def __init__(self, card: int, row: int | None) -> None:
            super().__init__()
            self.card = card
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[int] = []
        self.legal: frozenset[int] | None = None
        """Cards the core lists as legal (None: no restriction is shown)."""
        self.marks: Mapping[int, str] = {}
        """A letter under a card (arrangement rows)."""
        self.mode = "idle"
        """``idle`` (shown only), ``play`` or ``arrange``."""
        self.cursor = 0
        self.typed = ""
        self._spans: list[tuple[int, int, int]] = []
        self._turn = -1

    # -- what is shown -----------------------------------------------------------

    def show(
        self,
        cards: Iterable[int],
        mode: str = "idle",
        legal: Iterable[int] | None = None,
        marks: Mapping[int, str] | None = None,
        turn: int = -1,
    ) -> None:
        """Show ``cards`` in ``mode``; keep the cursor on the same card where it can.

        On a new ``turn`` the cursor leaves a card that is not legal for the first legal one.
        """
        current = self.current
        self.cards = sorted_hand(cards)
        self.mode = mode
        self.legal = frozenset(legal) if legal is not None else None
        self.marks = dict(marks or {})
        if mode == "idle":
            self.typed = ""
        if current in self.cards:
            self.cursor = self.cards.index(current)
        else:
            self.cursor = min(self.cursor, max(len(self.cards) - 1, 0))
        if turn != self._turn:
            self._turn = turn
            if mode == "play" and self.legal and self.current not in self.legal:
                self.cursor = next(i for i, c in enumerate(self.cards) if c in self.legal)
        self.refresh()

    @property
    def current(self) -> int | None:
        """The card under the cursor."""
        if 0 <= self.cursor < len(self.cards):
            return self.cards[self.cursor]
        return None

    def point_at(self, c: int) -> None:
        """Put the cursor on card ``c`` (a hint)."""
        if c in self.cards:
            self.cursor = self.cards.index(c)
            self.refresh()

    def render(self) -> Text:
        line = Text(" " * LEFT)
        marks = Text(" " * LEFT)
        self._spans = []
        restricted = self.mode == "play" and self.legal is not None and len(self.legal) < len(self.cards)
        last_suit = None
        for i, c in enumerate(self.cards):
            if last_suit is not None and c // 13 % 4 != last_suit:
                line.append(" " * SUIT_GAP)
                marks.append(" " * SUIT_GAP)
            last_suit = c // 13 % 4
            face = card_face(c).rjust(3)
            style = suit_style(c // 13 % 4)
            if restricted and self.legal is not None and c not in self.legal:
                style = "dim"
            if i == self.cursor and self.mode != "idle":
                style += " reverse"
            start = line.cell_len
            line.append(face, style=style)
            self._spans.append((start, start + 3, i))
            line.append(" ")
            mark = self.marks.get(c, "")
            if not mark and restricted and self.legal is not None and c in self.legal:
                mark = "•"
            marks.append(mark.center(3)[:3] + " ", style="bold")
        if not self.cards:
            line.append("(no cards left)", style="dim")
        if self.typed:
            marks.append(f"   typed: {self.typed}_", style="bold")
        line.append("\n")
        line.append_text(marks)
        return line

    # -- keys and mouse ------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = max(0, min(len(self.cards) - 1, self.cursor + step))
            self.refresh()

    def action_jump(self, step: int) -> None:
        """Move to the first card of the next (or previous) suit."""
        if not self.cards:
            return
        suit = self.cards[self.cursor] // 13 % 4
        order = [s for s in SUIT_ORDER if any(c // 13 % 4 == s for c in self.cards)]
        target = order[(order.index(suit) + step) % len(order)]
        self.cursor = next(i for i, c in enumerate(self.cards) if c // 13 % 4 == target)
        self.refresh()

    def action_choose(self) -> None:
        if self.mode == "idle":
            return
        self.post_message(self.Chosen(self.current if self.mode == "arrange" or self.legal != frozenset() else None))

    def action_clear(self) -> None:
        self.typed = ""
        self.refresh()

    def type_keys(self, key: str) -> int | None:
        """Feed one typed character; return a card once its rank and suit are typed."""
        key = key.lower()
        if self.typed == "1":
            self.typed = ""
            if key == "0":
                self.typed = "10"
                return None
        if self.typed and key in SUIT_KEYS:
            rank = RANK_KEYS["t"] if self.typed == "10" else RANK_KEYS[self.typed]
            self.typed = ""
            return SUIT_KEYS[key] * 13 + rank
        if key in RANK_KEYS or key == "1":
            self.typed = key
            return None
        self.typed = ""
        if key in SUIT_KEYS:
            first = next((i for i, c in enumerate(self.cards) if c // 13 % 4 == SUIT_KEYS[key]), None)
            if first is not None:
                self.cursor = first
        return None

    def on_key(self, event: events.Key) -> None:
        if self.mode == "arrange" and event.key in ROW_KEYS:
            event.stop()
            c = self.current
            if c is not None:
                self.post_message(self.RowKey(c, ROW_KEYS[event.key]))
                self.action_move(1)
            return
        if self.mode != "play" or event.character is None or not event.is_printable:
            return
        ch = event.character.lower()
        if ch in RANK_KEYS or ch in SUIT_KEYS or ch in "10":
            event.stop()
            typed = self.type_keys(ch)
            if typed is not None:
                self.post_message(self.Typed(typed))
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        if self.mode == "idle" or event.y != 0:
            return
        for start, end, i in self._spans:
            if start <= event.x < end:
                self.cursor = i
                self.refresh()
                self.action_choose()
                return


__all__ = ["CELL", "SUIT_ORDER", "Hand", "sorted_hand"]
