"""Barbu, the French compendium card game: the rules core and its public API.

>>> from barbu import Game, Declare
>>> game = Game.new("classic", seed=1)
>>> game.apply(Declare("trumps"))
>>> game.phase
'trump'
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
from barbu.cards import CardSet, card, card_name
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

__all__ = [
    "RULE_SETS",
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
