"""Views grow with the deal: a view kept up to date step by step equals one read afresh, and
the views of several seats read at once (``seat_views``) equal those read one by one.

``seat_view`` extends what it showed before (plays, tricks, calls, history) instead of
rebuilding it; here, at every step of seeded random games of every rule set, every seat's
view and a spectator's equal the views of a copy of the game, which is read from scratch.
"""

from __future__ import annotations

import random

import pytest

from barbu import Game, seat_view
from barbu.actions import Arrange
from barbu.rulesets import RULE_SETS
from barbu.view import seat_views


@pytest.mark.parametrize("variant", sorted(RULE_SETS))
def test_incremental_views_equal_fresh_views(variant: str) -> None:
    rng = random.Random(variant)
    game = Game.new(variant, seed=f"views:{variant}")
    steps = 0
    while not game.is_over:
        seats = [None, *range(game.rules.players)]
        if steps % 3 == 0 or game.phase != "play":
            fresh = game.copy()
            afresh = {seat: seat_view(fresh, seat) for seat in seats}
            for seat in seats:
                assert seat_view(game, seat) == afresh[seat]
            assert seat_views(game, seats) == afresh
        else:
            seat_view(game, game.to_act)  # views taken at some steps only, as a table does
        actions = game.legal_actions()
        action = actions[rng.randrange(len(actions))]
        if game.phase == "arrange":
            assert isinstance(action, Arrange)
        game.apply(action)
        steps += 1
    fresh = game.copy()
    for seat in [None, *range(game.rules.players)]:
        assert seat_view(game, seat) == seat_view(fresh, seat)


def test_a_deal_given_its_hands_after_a_view_shows_them() -> None:
    """A game dealt without hands (a record being replayed) shows the hands once given."""
    dealt = Game.new("classic", seed=4)
    hands = list(dealt.current.dealt or ())  # type: ignore[union-attr]
    game = Game(dealt.rules, dealt.first_declarer)
    before = seat_view(game, 0)
    assert before.hand == () and before.cards_left == (0, 0, 0, 0)
    game.give_hands(hands)
    after = seat_view(game, 0)
    assert len(after.hand) == 13 and after.cards_left == (13, 13, 13, 13)
    assert after == seat_view(game.copy(), 0)
