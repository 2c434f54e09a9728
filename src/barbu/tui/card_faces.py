"""How cards, suits and scores look on the terminal: symbols, colours, fixed widths.

Hearts and diamonds are red, spades and clubs take the terminal's own colour; the suit
symbols keep every card readable without colour.

>>> card_face(card("TH")), card_face(card("QS"))
('10♥', 'Q♠')
>>> card_text(card("TH")).plain, signed(5), signed(-3), signed(0)
('10♥', '+5', '-3', '0')
>>> rank_letters([card("AH"), card("TH"), card("2H")])
'A 10 2'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from rich.text import Text

from barbu.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, card

RED_SUITS = (1, 2)
"""Hearts and diamonds."""

__all__ = [
    "RED_SUITS",
    "card",
    "card_face",
    "card_text",
    "cards_text",
    "rank_face",
    "rank_letters",
    "signed",
    "suit_style",
    "suit_text",
]


def rank_face(rank: int) -> str:
    """A rank as people write it: ``10`` for the ten, else its letter."""
    return "10" if rank == 8 else RANKS[rank]


def card_face(c: int) -> str:
    """A card as people write it: rank, then suit symbol."""
    return rank_face(c % 13) + SUIT_SYMBOLS[c // 13 % 4]


def suit_style(suit: int) -> str:
    """The Rich style of a suit: red for hearts and diamonds (no colour when ``NO_COLOR`` is set,
    where a red turned grey would be hard to read; the symbols tell the suits apart)."""
    if suit in RED_SUITS and not os.environ.get("NO_COLOR"):
        return "bold red"
    return "bold"


def card_text(c: int, style: str = "") -> Text:
    """A card as styled text; ``style`` is added to the suit colour."""
    return Text(card_face(c), style=f"{suit_style(c // 13 % 4)} {style}".strip())


def suit_text(suit: int, name: bool = False) -> Text:
    """A suit symbol (with its name when ``name``) in the suit's colour."""
    label = SUIT_SYMBOLS[suit] + (f" {SUIT_NAMES[suit]}" if name else "")
    return Text(label, style=suit_style(suit))


def cards_text(cards: Iterable[int], sep: str = " ") -> Text:
    """Cards one after the other, each in its colour."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c))
    return out


def rank_letters(cards: Sequence[int]) -> str:
    """The ranks of cards of one suit, high to low as given."""
    return " ".join(rank_face(c % 13) for c in cards)


def signed(value: int) -> str:
    """A score with its sign (an ASCII minus): ``+5``, ``-3``, ``0``."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"-{-value}"
    return "0"
