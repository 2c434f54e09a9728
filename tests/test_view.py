"""Seat views (ARCHITECTURE.md, "one view per seat"): hidden information never leaks.

At every step of random games, every seat's view (and a spectator's) is searched for
card names; each card found must be in that seat's own hand or already played in
public. The check reads the JSON a client would receive, so a card smuggled into any
field is caught.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from barbu import Call, Declare, Game, seat_view
from barbu.actions import Arrange
from barbu.cards import card_name
from barbu.deal import Phase
from barbu.view import DealSummary, SeatView, TrickView, _game_log, _summary, seat_views

CARD_NAME = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC])(?![A-Za-z0-9])")


CARDS_BY_NAME = {card_name(c): c for c in range(52)}


def cards_named(value: Any) -> set[int]:
    """Every card written anywhere in a JSON value, as a client would receive it."""
    text = value if isinstance(value, str) else json.dumps(value)
    return {CARDS_BY_NAME[name] for name in set(CARD_NAME.findall(text))}


def public_cards(game: Game) -> set[int]:
    """Cards everybody has seen in the deal shown and the last finished deal (its review):
    played cards, and every arrangement once all have set (chinese poker)."""
    seen: set[int] = set()
    shown = [game.current or game.deals[-1], *[d for d in game.deals if d.finished][-1:]]
    for deal in shown:
        seen |= {c % 52 for c in deal.plays if c is not None}  # two decks: cards are named by face
        if deal.contract is not None and deal.contract.play == "arrange" and deal.finished:
            seen |= {c for a in deal.arrangements if a for c in a}
    return seen


def own_cards(game: Game, seat: int) -> set[int]:
    deal = game.current or game.deals[-1]
    mine = {c % 52 for c in range(104) if deal.hand(seat) >> c & 1}
    if deal.contract is not None and deal.contract.play == "arrange" and deal.dealt is not None:
        mine |= {c for c in range(52) if deal.dealt[seat] >> c & 1}
    return mine


def only_plain_values(value: Any) -> bool:
    """Views hold plain values and view records only: no live game objects."""
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, list | tuple):
        return all(only_plain_values(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_plain_values(v) for k, v in value.items())
    if isinstance(value, TrickView | DealSummary):
        return all(only_plain_values(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def check_views(game: Game, structure: bool = True) -> None:
    n = game.rules.players
    public = public_cards(game)
    deal = game.current or game.deals[-1]
    for seat in range(n):
        view = seat_view(game, seat)
        text = json.dumps(view.as_json())
        leaked = cards_named(text) - own_cards(game, seat) - public
        assert not leaked, f"seat {seat} sees {sorted(leaked)} in phase {game.phase}"
        arranged = deal._arrange_order()[: len(deal.arrangements)] if deal.phase is Phase.ARRANGE else []
        expected_hand = set() if seat in arranged else {c for c in range(104) if deal.hand(seat) >> c & 1}
        assert set(view.hand) == expected_hand
        for f in dataclasses.fields(SeatView) if structure else ():
            if f.name != "legal_actions":
                assert only_plain_values(getattr(view, f.name)), f.name
        if seat == game.to_act and game.phase != "arrange":
            assert view.legal and len(view.legal) == len(game.legal_actions())
        else:
            assert view.legal == [] and view.legal_actions == []
        assert list(view.cards_left) == [deal.hand(s).bit_count() for s in range(n)]
    spectator = seat_view(game, None)
    data = spectator.as_json()
    assert spectator.hand == () and spectator.legal == [] and spectator.must_double == ()
    leaked = cards_named(data) - public
    assert not leaked, f"a spectator sees {sorted(leaked)}"


GAMES = [
    ("classic", {}, None),
    ("king", {}, None),
    ("chinese-poker", {"rotation": "quick"}, 8),
    ("five-player", {}, 8),
    ("french", {"player_count": 3}, 10),
    ("salad", {"player_count": 5}, 6),
    ("thirty-two", {"domino_start": "first_card"}, 8),
]


@pytest.mark.parametrize("variant, options, deals", GAMES)
def test_no_view_ever_shows_another_seats_unplayed_cards(
    variant: str, options: dict[str, Any], deals: int | None
) -> None:
    """Whole games (or their first ``deals`` deals), every seat, every step."""
    game = Game.new(variant, options, seed=len(variant))
    rng = random.Random(7)
    step = 0
    while not game.is_over and (deals is None or len(game.deals) <= deals):
        check_views(game, structure=step % 25 == 0)
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    check_views(game)


def test_a_seat_sees_its_own_hand_and_only_its_turn_shows_legal_actions() -> None:
    game = Game.new(seed=5)
    declarer = game.to_act
    assert declarer is not None
    mine = seat_view(game, declarer)
    assert mine.legal == [c.id for c in game.rules.contracts]
    assert len(mine.hand) == 13
    deal = game.current
    assert deal is not None and deal.dealt is not None
    assert set(mine.hand) == {c for c in range(52) if deal.dealt[declarer] >> c & 1}
    other = seat_view(game, (declarer + 1) % 4)
    assert other.legal == [] and set(other.hand).isdisjoint(mine.hand)


def test_chinese_poker_arrangements_stay_hidden_until_everyone_has_set() -> None:
    game = Game.new("chinese-poker", seed=3, first_declarer=0)
    # reach the chinese-poker deal of declarer 0 (its 9th contract if named last; name it first)
    game.apply(Declare("chinese-poker"), 0)
    for seat in (1, 2, 3, 0):
        game.apply(Call(), seat)
    deal = game.current
    assert deal is not None and deal.phase is Phase.ARRANGE
    first = deal.to_act
    assert first == 1
    legal = game.legal_actions()
    game.apply(legal[100], 1)
    arranged = deal.arrangements[0]
    assert arranged is not None
    mine = seat_view(game, 1)
    assert mine.arrangements[1] == arranged and mine.hand == ()
    for seat in (0, 2, 3):
        view = seat_view(game, seat)
        assert view.arrangements[1] is None
        assert deal.dealt is not None
        theirs = set(arranged) - {c for c in range(52) if deal.dealt[seat] >> c & 1}
        assert cards_named(view.as_json()).isdisjoint(theirs)
    assert seat_view(game, None).arrangements == (None, None, None, None)
    for seat in (2, 3, 0):
        game.apply(game.legal_actions()[seat], seat)
    assert game.deals[deal.index].finished
    summary = seat_view(game, 2).history[-1]
    assert summary.contract == "chinese-poker" and sum(summary.raw) == 0
    # once the deal is over, everyone (a spectator too) sees every seat's rows, by seat
    rows = tuple(tuple(deal.arrangements_by_seat()[s] or ()) for s in range(4))
    assert rows[1] == arranged and all(len(r) == 13 for r in rows)
    for seat in (0, 1, 2, 3, None):
        after = seat_view(game, seat)
        assert after.history[-1].arrangements == rows
        assert after.as_json()["history"][-1]["arrangements"][1] == [card_name(c) for c in arranged]


def test_views_carry_the_public_options_but_not_the_seed() -> None:
    game = Game.new("classic", {"rotation": "quick", "heart_lead": "free"}, seed=123456789)
    view = seat_view(game, 0)
    assert view.options == {"rotation": "quick", "heart_lead": "free"}
    assert "123456789" not in json.dumps(view.as_json())
    assert not any("seed" in f.name or "dealer" in f.name for f in dataclasses.fields(SeatView))


def test_arrange_action_text_lists_only_the_seats_own_cards() -> None:
    game = Game.new("chinese-poker", seed=8, first_declarer=2)
    game.apply(Declare("chinese-poker"), 2)
    for seat in (3, 0, 1, 2):
        game.apply(Call(), seat)
    assert game.to_act == 3
    action = game.legal_actions()[0]
    assert isinstance(action, Arrange)
    deal = game.current
    assert deal is not None and deal.dealt is not None
    assert set(action.cards) == {c for c in range(52) if deal.dealt[3] >> c & 1}


def history_read_again(game: Game) -> tuple[tuple[DealSummary, ...], tuple[tuple[str, ...], ...]]:
    """What views show of a game's past deals, read from every deal at once."""
    deals = game.deals
    history = tuple(_summary(d) for d in deals if d.finished)
    declared = tuple(
        tuple(d.contract.id for d in deals if d.declarer == s and d.contract is not None)
        for s in range(game.rules.players)
    )
    return history, declared


@pytest.mark.parametrize("variant, options, deals", [GAMES[0], GAMES[2], GAMES[4], GAMES[6]])
def test_the_game_history_grown_deal_by_deal_is_the_history_read_again(
    variant: str, options: dict[str, Any], deals: int | None
) -> None:
    """At every step of seeded games the history and declared contracts views show, grown as
    deals end, equal those read from every deal; so do views of a copy (a log of its own) and
    of games whose deals changed otherwise than by an append (cut, replaced)."""
    game = Game.new(variant, options, seed=11)
    rng = random.Random(5)
    step = 0
    while not game.is_over and (deals is None or len(game.deals) <= deals):
        log = _game_log(game)
        assert (log.history, log.declared) == history_read_again(game)
        if step % 40 == 0:
            copy = game.copy()
            assert seat_views(copy, range(game.rules.players)) == seat_views(game, range(game.rules.players))
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    log = _game_log(game)
    assert (log.history, log.declared) == history_read_again(game)
    finished = sum(d.finished for d in game.deals)
    assert finished >= 2 and len(log.history) == finished  # the test saw deals end
    # a cut, as an episode's ended copy is made: read again
    game.deals = game.deals[:2]
    log = _game_log(game)
    assert (log.history, log.declared) == history_read_again(game)
    assert seat_view(game, 0).history == history_read_again(game)[0]
    # deals replaced by another game's, the same count: read again, not kept
    other = Game.new(variant, options, seed=12)
    while sum(d.finished for d in other.deals) < 2:
        other.apply(random.Random(len(other.deals)).choice(other.legal_actions()))
    game.deals = other.deals[:2]
    log = _game_log(game)
    assert (log.history, log.declared) == history_read_again(game)
    assert log.history == history_read_again(other)[0][:2]
