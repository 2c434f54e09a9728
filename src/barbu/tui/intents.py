"""What the person asks for: widgets send intents, the app asks the core whether they stand.

A widget never decides whether an action is legal; it posts an :class:`Intent` and the
app applies it through the checked door, showing the core's reason when it is refused.
"""

from __future__ import annotations

from textual.message import Message

from barbu.actions import Action


class Intent(Message):
    """The person wants to take ``action`` (a card, a call, a contract, an arrangement…)."""

    def __init__(self, action: Action) -> None:
        super().__init__()
        self.action = action


__all__ = ["Intent"]
