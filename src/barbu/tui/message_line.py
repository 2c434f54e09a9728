"""The message line: what the person is to do now and what just happened, in plain words.

The core speaks of seats by number and cards in record notation (``seat 2``, ``5H``);
the person reads names and suit symbols (``West``, ``5♥``), and ``you`` for their seat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.cards import SUIT_NAMES
from barbu.tui.calls import call_words
from barbu.tui.card_faces import card_face, rank_face

_SEAT = re.compile(r"\bseat (\d+)('s)?")
_PLACE = re.compile(r"\b(?:[Ll]a )?place (\d+)")
"""A seat in the French texts of the core (``la place 2``): read as the seat's name."""
_CARD = re.compile(r"\b([2-9TJQKA])([SHDC])\b")


def in_words(message: str, names: Sequence[str], me: int) -> str:
    """A core message for the person: seats by name (``you``), cards with suit symbols.

    >>> in_words("5H is not legal: seat 0 must follow diamonds", ["You", "West"], 0)
    '5♥ is not legal: you must follow diamonds'
    >>> in_words("KS is not in seat 1's hand", ["You", "West"], 0)
    "K♠ is not in West's hand"
    >>> in_words("la place 1 doit fournir à carreau", ["Vous", "Ouest"], 0)
    'Ouest doit fournir à carreau'
    """

    def place(m: re.Match[str]) -> str:
        s = int(m.group(1))
        return names[s] if 0 <= s < len(names) else m.group(0)

    def seat(m: re.Match[str]) -> str:
        s = int(m.group(1))
        if s == me:
            return "your" if m.group(2) else "you"
        name = names[s] if 0 <= s < len(names) else m.group(0)
        return name + ("'s" if m.group(2) else "")

    def face(m: re.Match[str]) -> str:
        return card_face("23456789TJQKA".index(m.group(1)) + 13 * "SHDC".index(m.group(2)))

    return _CARD.sub(face, _PLACE.sub(place, _SEAT.sub(seat, message)))


def action_words(action: Action, names: Sequence[str], rules_title: str = "") -> str:
    """An action in a few words, for notices and hints.

    >>> action_words(Play(10), ["You", "West"]), action_words(Call(word="maximum"), [])
    ('play Q♠', 'maximum')
    """
    if isinstance(action, Play):
        return f"play {card_face(action.card)}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Declare):
        return f"declare {rules_title or action.contract}"
    if isinstance(action, NameTrump):
        return f"{SUIT_NAMES[action.suit]} as trumps"
    if isinstance(action, NameRank):
        return f"domino from {rank_face(action.rank)}"
    if isinstance(action, Call):
        if action.word is not None:
            return action.word
        return call_words((0, 1, action.double, action.redouble), names)
    if isinstance(action, Arrange):
        return "the rows shown above"
    return str(action)


def message_lines(prompt: str, notice: str, width: int) -> Text:
    """The two message lines: what to do, then what happened. A notice too long for one
    line takes both (the keys line still says what to do).

    >>> message_lines("Your turn", "Refused: no", 40).plain
    'Your turn\\nRefused: no'
    >>> message_lines("Your turn", "x" * 50, 40).plain.count("x")
    50
    """
    if len(notice) <= width:
        out = Text(prompt[:width], style="bold")
        out.append("\n" + notice)
        return out
    if len(notice) > 2 * width:
        notice = notice[: 2 * width - 1] + "…"
    return Text(notice)


__all__ = ["action_words", "in_words", "message_lines"]
