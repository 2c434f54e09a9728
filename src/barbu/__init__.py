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
from barbu.view import SeatView, seat_view

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
