"""The texts a table sends are the views' JSON: at every step of seeded random games of every rule
set, each seat's and a spectator's fields as :class:`barbu.server.tables.ViewTexts` keeps them
(encoded once, a growing list extended with its new items) equal ``json.dumps`` of
``seat_view(...).as_json()``, field by field, whether the views are read at every step or only
now and then (several items grown at once, a new deal's lists starting again)."""

from __future__ import annotations

import json
import random

import pytest

from barbu import Game, seat_view
from barbu.rulesets import RULE_SETS
from barbu.server.tables import ViewTexts
from barbu.view import seat_views


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


STEPS = 400
"""Steps of each game checked: several deals, their lists grown and started again."""


@pytest.mark.parametrize("every", [1, 4])
@pytest.mark.parametrize("variant", sorted(RULE_SETS))
def test_kept_texts_equal_the_views_json(variant: str, every: int) -> None:
    rng = random.Random(f"{variant}/{every}")
    game = Game.new(variant, seed=f"texts:{variant}")
    texts = ViewTexts()
    seats = [*range(game.rules.players), None]
    steps = 0
    while not game.is_over and steps < STEPS:
        if steps % every == 0:
            views = seat_views(game, seats)
            for seat in seats:
                expected = {k: compact(v) for k, v in seat_view(game, seat).as_json().items()}
                assert texts.fields(seat, views[seat]) == expected, (steps, seat)
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        steps += 1
    assert len(game.deals) > 2
    views = seat_views(game, seats)
    for seat in seats:
        assert texts.fields(seat, views[seat]) == {k: compact(v) for k, v in seat_view(game, seat).as_json().items()}


@pytest.mark.parametrize("every", [1, 3])
@pytest.mark.parametrize("variant", sorted(RULE_SETS))
def test_reported_changes_are_the_fields_that_differ(variant: str, every: int) -> None:
    """The changes :meth:`ViewTexts.shared` and :meth:`ViewTexts.own` report with the texts (what
    a broadcast's patch holds) are exactly the fields whose text differs from the texts they
    gave the audience last: every field the first time, none when nothing moved."""
    rng = random.Random(f"changes:{variant}/{every}")
    game = Game.new(variant, seed=f"changes:{variant}")
    texts = ViewTexts()
    seats = [*range(game.rules.players), None]
    given: dict[object, dict[str, str]] = {}
    steps = 0
    while not game.is_over and steps < STEPS:
        if steps % every == 0:
            views = seat_views(game, seats)
            shared, changed = texts.shared(views[seats[0]])
            before = given.get("shared", {})
            assert changed == {k: v for k, v in shared.items() if before.get(k) != v}, steps
            assert texts.shared(views[seats[0]]) == (shared, {})  # the same moment again: no change
            given["shared"] = shared
            for seat in seats:
                own, changed = texts.own(seat, views[seat])
                before = given.get(seat, {})
                assert changed == {k: v for k, v in own.items() if before.get(k) != v}, (steps, seat)
                given[seat] = own
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        steps += 1
    texts.forget(0)
    own, changed = texts.own(0, seat_views(game, [0])[0])
    assert changed == own  # forgotten: every field again
