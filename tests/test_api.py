"""The public API reads well: actions paste back from their repr, a game sums itself up.

Every legal action met along random games of every rule set evaluates back, from its
``repr`` and ``from barbu import *`` alone, to an equal action; so do actions the rules
refuse (values that name no card, suit or rank). ``repr(game)`` says where the game stands
and shows no card and no seed.
"""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import barbu
from barbu import (
    HEARTS,
    JACK,
    RULE_SETS,
    Action,
    Arrange,
    Call,
    Declare,
    EnterTally,
    Game,
    NameRank,
    NameTrump,
    Pass,
    Play,
    card,
    rules,
)
from barbu.arrangement import Arrangements
from barbu.cards import RANK_CONSTANTS, SUIT_CONSTANTS, card_name
from table_setup import cards, opening_calls


def star_namespace() -> dict[str, Any]:
    """What ``from barbu import *`` gives a fresh module."""
    namespace: dict[str, Any] = {}
    exec("from barbu import *", namespace)
    return namespace


STAR = star_namespace()


def pasted(action: Action) -> Action:
    value: Action = eval(repr(action), STAR)
    return value


def some_of(actions: Any, rng: random.Random) -> list[Action]:
    """All the legal actions, or a spread of them for the 72,072 arrangements of a hand."""
    if isinstance(actions, Arrangements):
        return [actions[0], actions[len(actions) - 1], *(rng.choice(actions) for _ in range(5))]
    return list(actions)


def test_each_kind_of_action_has_a_repr_that_reads_as_barbu() -> None:
    assert repr(Play(card("QS"))) == "Play(card('QS'))"
    assert repr(NameTrump(HEARTS)) == "NameTrump(HEARTS)"
    assert repr(NameRank(JACK)) == "NameRank(JACK)"
    assert repr(Declare("no-queens")) == "Declare('no-queens')"
    assert repr(Call(double=(0, 2), redouble=(1,))) == "Call(double=(0, 2), redouble=(1,))"
    assert repr(Call(word="maximum")) == "Call(word='maximum')"
    assert repr(Pass()) == "Pass()"
    arrangement = Arrange(tuple(cards("AS KS QS JS TS 9H 8H 7H 6H 5H 4D 3D 2D")))
    assert repr(arrangement) == "Arrange.parse('AS KS QS JS TS | 9H 8H 7H 6H 5H | 4D 3D 2D')"
    assert repr(EnterTally({"queens": [1, 0, 2, 1]})) == "EnterTally({'queens': [1, 0, 2, 1]})"


def test_the_suit_and_rank_constants_are_the_indices_the_actions_hold() -> None:
    assert [getattr(barbu, name) for name in SUIT_CONSTANTS] == [0, 1, 2, 3]
    assert [getattr(barbu, name) for name in RANK_CONSTANTS] == list(range(13))
    assert all(card_name(card("2S") + rank)[0] == "23456789TJQKA"[rank] for rank in range(13))


def test_actions_the_rules_refuse_also_paste_back() -> None:
    for action in (
        Play(60),
        Play(-1),
        NameTrump(7),
        NameRank(13),
        Declare("no-such-contract"),
        Arrange((card("AS"), 60)),
        Arrange(()),
        Arrange((card("AS"), card("KS"))),
        Call(double=(9,), word="table"),
        EnterTally({}),
        EnterTally({"tricks": [13, 0, 0, 0], "order": [0, 1, 2, 3]}),
    ):
        assert pasted(action) == action, repr(action)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(list(RULE_SETS)), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_legal_action_of_random_games_pastes_back_equal(variant: str, seed: int) -> None:
    game = Game.new(variant, seed=seed)
    rng = random.Random(seed)
    seen = 0
    while not game.is_over:
        legal = game.legal_actions()
        for action in some_of(legal, rng):
            again = pasted(action)
            assert again == action and type(again) is type(action), repr(action)
            seen += 1
        game.apply(rng.choice(legal))
    assert seen > rules(variant).deal_count


SEED = "a-secret-seed-907"


def test_game_repr_says_where_the_game_stands() -> None:
    game = Game.new("classic", seed=SEED, first_declarer=1)
    assert repr(game) == "<Game classic 4 players, deal 1/28, seat 1 to name a contract, totals [0, 0, 0, 0]>"
    game.apply(Declare("trumps"))
    assert (
        repr(game) == "<Game classic 4 players, deal 1/28 trumps, seat 1 to name the trump suit, totals [0, 0, 0, 0]>"
    )
    game.apply(NameTrump(HEARTS))
    assert ", seat 2 to call, " in repr(game)
    while game.phase == "call":
        game.apply(Call())
    assert re.search(r"deal 1/28 trumps, seat \d to play, ", repr(game))


def test_game_repr_at_the_end_and_while_a_deal_waits_for_its_tally() -> None:
    game = Game.new("classic", seed=SEED)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert repr(game) == f"<Game classic 4 players, over after 28 deals, totals {game.totals}>"
    sheet = Game(rules("classic"), first_declarer=0)
    sheet.apply(Declare("no-queens"))
    for call in opening_calls(sheet.rules, "no-queens", 0):
        sheet.apply(call)
    assert repr(sheet) == "<Game classic 4 players, deal 1/28 no-queens, waiting for its tally, totals [0, 0, 0, 0]>"


def test_game_repr_shows_no_card_and_no_seed() -> None:
    rng = random.Random(5)
    for variant in RULE_SETS:
        game = Game.new(variant, seed=SEED)
        for _ in range(60):
            if game.is_over:
                break
            text = repr(game)
            assert not re.search(r"\b(10|[2-9TJQKA])[SHDC]\b", text), text
            assert SEED not in text
            game.apply(rng.choice(game.legal_actions()))
