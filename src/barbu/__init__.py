"""Barbu, the French compendium card game: the rules core and its public API.

>>> from barbu import Game, Declare
>>> game = Game.new("classic", seed=1)
>>> game.apply(Declare("trumps"))
>>> game.phase
'trump'
>>> import barbu
>>> barbu.__version__
'0.2.0'
"""

from typing import TYPE_CHECKING

from barbu.actions import (
    Action,
    Arrange,
    Call,
    Declare,
    EnterTally,
    NameRank,
    NameTrump,
    Pass,
    Play,
    action_from_json,
    action_to_json,
)
from barbu.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EIGHT,
    FIVE,
    FOUR,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SIX,
    SPADES,
    TEN,
    THREE,
    TWO,
    CardSet,
    card,
    card_name,
)
from barbu.deal import Deal, Phase
from barbu.errors import (
    ActionNotationError,
    BarbuError,
    IllegalAction,
    NotationError,
    OptionsError,
    OutOfTurn,
    RecordError,
    TallyError,
)
from barbu.game import Game
from barbu.rulesets import RULE_SETS, Rules, rules

if TYPE_CHECKING:
    from barbu.view import SeatView, seat_view


def __getattr__(name: str) -> object:
    """:class:`~barbu.view.SeatView` and :func:`~barbu.view.seat_view`, imported when first
    asked for: a command that builds no view (``barbu simulate`` of random bots) skips their import.

    >>> import barbu
    >>> barbu.seat_view.__module__
    'barbu.view'
    """
    if name in ("SeatView", "seat_view"):
        from barbu import view

        found: object = getattr(view, name)
        globals()[name] = found  # asked once: a plain module attribute from then on
        return found
    raise AttributeError(f"module 'barbu' has no attribute {name!r}")


__version__ = "0.2.0"
"""The package's version (CHANGELOG.md); the one place it is written."""

__all__ = [
    "ACE",
    "CLUBS",
    "DIAMONDS",
    "EIGHT",
    "FIVE",
    "FOUR",
    "HEARTS",
    "JACK",
    "KING",
    "NINE",
    "QUEEN",
    "RULE_SETS",
    "SEVEN",
    "SIX",
    "SPADES",
    "TEN",
    "THREE",
    "TWO",
    "Action",
    "ActionNotationError",
    "Arrange",
    "BarbuError",
    "Call",
    "CardSet",
    "Deal",
    "Declare",
    "EnterTally",
    "Game",
    "IllegalAction",
    "NameRank",
    "NameTrump",
    "NotationError",
    "OptionsError",
    "OutOfTurn",
    "Pass",
    "Phase",
    "Play",
    "RecordError",
    "Rules",
    "SeatView",
    "TallyError",
    "action_from_json",
    "action_to_json",
    "card",
    "card_name",
    "rules",
    "seat_view",
]
