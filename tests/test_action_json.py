"""Actions as JSON (barbu.actions): every action a seat can take survives the trip and back,
broken objects say what is allowed, and the view offers each legal action in that form."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu.actions import Arrange, Call, EnterTally, action_from_json, action_to_json
from barbu.bots import legal_choices
from barbu.errors import ActionNotationError
from barbu.game import Game
from barbu.rulesets import RULE_SETS
from barbu.view import seat_view


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 10**6))
def test_every_legal_action_round_trips_through_its_json(variant: str, seed: int) -> None:
    game = Game.new(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(200):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        choices = legal_choices(seat_view(game, seat))
        for action in [choices[rng.randrange(len(choices))] for _ in range(3)]:
            intent = json.loads(json.dumps(action_to_json(action)))
            assert action_from_json(intent) == action
        game.apply(action_from_json(action_to_json(choices[rng.randrange(len(choices))])), seat)


@pytest.mark.parametrize(
    ("intent", "words"),
    [
        ("play QS", "must be an object"),
        ({"type": "shout"}, "unknown action type"),
        ({"type": "declare"}, '"contract"'),
        ({"type": "trump", "suit": "X"}, "not a suit"),
        ({"type": "rank", "rank": "1"}, "not a rank"),
        ({"type": "play", "card": "QX"}, "not a card"),
        ({"type": "arrange", "cards": "QS"}, "13 cards"),
        ({"type": "call", "double": "P1"}, "list of seat numbers"),
        ({"type": "call", "double": [True]}, "list of seat numbers"),
        ({"type": "call", "call": "bravo"}, "unknown call 'bravo'"),
        ({"type": "call", "word": "maximum"}, 'a call takes "call", "double", "redouble"; not \'word\''),
        ({"type": "call", "dbl": [0]}, "not 'dbl'"),
        ({"type": "call", "call": "maximum", "double": [0]}, "not both"),
        ({"type": "play", "card": "QS", "extra": 1}, "a play takes \"card\"; not 'extra'"),
        ({"type": "pass", "card": "QS"}, "a pass takes no other key"),
    ],
)
def test_a_broken_action_says_what_is_allowed(intent: object, words: str) -> None:
    with pytest.raises(ActionNotationError, match=words):
        action_from_json(intent)


def test_a_spoken_call_uses_the_record_key() -> None:
    """Calls are written as in a record's calls: ``call`` for the spoken words."""
    assert action_from_json({"type": "call", "call": "maximum"}) == Call(word="maximum")
    assert action_to_json(Call(word="flanks")) == {"type": "call", "call": "flanks"}


def test_arrangements_and_tallies() -> None:
    arrange = Arrange(tuple(range(13)))
    assert action_from_json(action_to_json(arrange)) == arrange
    with pytest.raises(ActionNotationError):
        action_to_json(EnterTally({"queens": [1, 1, 1, 1]}))


@settings(max_examples=15, deadline=None)
@given(variant=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 10**6))
def test_the_view_offers_each_legal_action_as_json_beside_its_label(variant: str, seed: int) -> None:
    """A client sends back one of ``legal_actions`` as given: it names the very action labelled."""
    game = Game.new(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(120):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        sent = json.loads(json.dumps(view.as_json()))
        assert len(sent["legal_actions"]) == len(sent["legal"]) == len(view.legal_actions)
        assert [action_from_json(a) for a in sent["legal_actions"]] == view.legal_actions
        assert seat_view(game, (seat + 1) % game.rules.players).as_json()["legal_actions"] == []
        if view.phase == "arrange":
            game.apply(legal_choices(view)[0], seat)
        else:
            game.apply(action_from_json(rng.choice(sent["legal_actions"])), seat)
