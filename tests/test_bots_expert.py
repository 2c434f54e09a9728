"""The expert bot: settings, a decision fixed by its seed and its number of worlds, the
anytime budget, the play read as evidence, and legality in several rule sets."""

from __future__ import annotations

import random

import pytest

from barbu import Game, accel, seat_view
from barbu.actions import Action, Play
from barbu.bots import bot_levels, bot_settings, make_bot
from barbu.bots import search as search_module
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.endgame import solve
from barbu.bots.expert import AHEAD_ENDGAME, DEFAULT_WORLDS, ENDGAME, PLAY_EVIDENCE, ExpertBot, PlayEvidence
from barbu.deal import Deal
from barbu.unseen import hidden_cards, sample_hands, view_rules
from barbu.view import SeatView

FIXED = {"ms": None, "worlds": 3}


def test_the_expert_level_is_registered_with_its_settings() -> None:
    assert "expert" in bot_levels()
    assert bot_settings("expert") == {"ms": 1500, "worlds": 320, "endgame": ENDGAME, "inference": PLAY_EVIDENCE}
    assert ENDGAME == 4 and AHEAD_ENDGAME == 3
    # Never fewer worlds nor less time than the search's default allows.
    search = bot_settings("search")
    assert bot_settings("expert")["worlds"] >= search["iterations"]
    assert bot_settings("expert")["ms"] >= 1000 * search["seconds"]
    bot = make_bot("expert", seed=2, ms=100, worlds=9, endgame=2, inference=1.0)
    assert isinstance(bot, ExpertBot) and bot.name == "expert"
    assert bot.settings() == {"ms": 100, "worlds": 9, "endgame": 2, "inference": 1.0}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ms": 0}, "ms must be"),
        ({"ms": "fast"}, "ms must be"),
        ({"worlds": 0}, "worlds must be"),
        ({"worlds": 2.5}, "worlds must be"),
        ({"ms": None, "worlds": None}, "time budget"),
        ({"inference": 0}, "inference"),
        ({"inference": 1.5}, "inference"),
        ({"endgame": -1}, "endgame"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot("expert", **settings)


def _positions(count: int, seed: int = 5) -> list[SeatView]:
    """Decisions with a choice of every kind (seat 0, and every contract), in a game between heuristic bots."""
    game = Game.new("classic", seed=seed)
    helpers = [make_bot("heuristic", seed=s) for s in range(4)]
    views: list[SeatView] = []
    while not game.is_over and len(views) < count:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if (seat == 0 or view.phase == "contract") and len(view.legal_actions) > 1:
            views.append(view)
        game.apply(helpers[seat].act(view), seat)
    return views


def test_a_decision_depends_on_the_seed_and_the_worlds_only() -> None:
    """With a fixed number of worlds the decision is the same whatever the bot decided
    before (each decision seeds its own generator from the public position)."""
    views = _positions(8)
    kinds = {v.phase for v in views}
    assert {"contract", "call", "play"} <= kinds
    fresh = [make_bot("expert", seed=4, **FIXED).act(v) for v in views]
    one = make_bot("expert", seed=4, **FIXED)
    assert [one.act(v) for v in reversed(views)] == list(reversed(fresh))
    assert all(a in v.legal_actions for a, v in zip(fresh, views, strict=True))


def test_the_budget_is_worlds_or_milliseconds(monkeypatch: pytest.MonkeyPatch) -> None:
    view = next(v for v in _positions(30) if v.phase == "play" and len(v.legal_actions) > 2)
    searched: list[int] = []
    original = search_module.Budget.more

    def counting(budget: search_module.Budget) -> bool:
        more = original(budget)
        if not more:
            searched.append(budget.done)
        return more

    monkeypatch.setattr(search_module.Budget, "more", counting)
    make_bot("expert", seed=1, ms=None, worlds=7).act(view)
    assert searched == [7]
    make_bot("expert", seed=1, ms=1).act(view)  # the clock, not the worlds, ends it: at least one world
    assert 1 <= searched[-1] < DEFAULT_WORLDS
    make_bot("expert", seed=1, ms=1000, worlds=5).act(view)
    assert searched[-1] == 5


def _deal_with_tricks_left(left: int, seed: int) -> Deal:
    """A classic deal between heuristic bots at the start of a trick, ``left`` tricks before its end."""
    game = Game.new("classic", seed=seed)
    helpers = [make_bot("heuristic", seed=s) for s in range(4)]
    while True:
        deal = game.current
        t = deal.tricks if deal is not None else None
        if deal is not None and t is not None and not t.trick and t.tricks_total - len(t.winners) == left:
            return deal.copy()
        seat = game.to_act
        assert seat is not None
        game.apply(helpers[seat].act(seat_view(game, seat)), seat)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_card_play_solves_four_tricks_and_the_deals_ahead_three(seed: int) -> None:
    """The expert's playouts solve the last four tricks exactly (the search's stop at three,
    whatever its ``endgame``); the deals simulated ahead from a contract keep three."""
    deal = _deal_with_tricks_left(4, seed)
    t = deal.tricks
    assert t is not None and deal.contract is not None
    guide = PlayGuide.of(deal)
    me = t.turn
    exact = solve(t, deal.contract, deal.rules, guide, me)[me]
    expert = ExpertBot(seed=0, ms=None, worlds=1)
    assert expert.finish(deal.copy(), guide, me) == exact
    capped = make_bot("search", seed=0, seconds=None, endgame=4)
    three = make_bot("search", seed=0, seconds=None)
    assert isinstance(capped, search_module.SearchBot) and isinstance(three, search_module.SearchBot)
    assert capped.finish(deal.copy(), guide, me) == three.finish(deal.copy(), guide, me)
    assert ExpertBot(seed=0, ms=None, worlds=1, endgame=3).finish(deal.copy(), guide, me) == three.finish(
        deal.copy(), guide, me
    )
    depths: list[int | None] = []
    original = ExpertBot.finish

    def recording(
        bot: ExpertBot, d: Deal, g: PlayGuide, m: int, exact: bool = True, endgame: int | None = None
    ) -> float:
        depths.append(endgame)
        return original(bot, d, g, m, exact, endgame)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ExpertBot, "finish", recording)
        expert.simulate(deal.copy(), me)
    assert depths == [AHEAD_ENDGAME] and expert.ahead == AHEAD_ENDGAME


def test_a_fifth_exact_trick_is_a_setting_within_twenty_cards() -> None:
    """``endgame=5`` solves the last five tricks exactly (20 cards, ``endgame_cards``); a
    larger setting is cut to them."""
    deal = _deal_with_tricks_left(5, 1)
    t = deal.tricks
    assert t is not None and deal.contract is not None
    guide = PlayGuide.of(deal)
    me = t.turn
    exact = solve(t, deal.contract, deal.rules, guide, me)[me]
    assert ExpertBot.endgame_cards == 20
    for endgame in (5, 6):
        assert ExpertBot(seed=0, ms=None, worlds=1, endgame=endgame).finish(deal.copy(), guide, me) == exact


class _Rules:
    """Plays every card by the rules of thumb on the real position (to test what the expert reads)."""

    name = "rules"

    def __init__(self, game: Game) -> None:
        self.game = game

    def act(self, view: SeatView) -> Action:
        deal = self.game.current
        if view.phase != "play" or deal is None or deal.tricks is None:
            return make_bot("heuristic", seed=0).act(view)
        t = deal.tricks
        guide = PlayGuide.of(deal)
        if accel.NATIVE and guide.kind in ("avoid", "take"):
            return Play(accel.choose(t, guide))
        return Play(choose_card(t, t.turn, guide))


def test_the_real_deal_explains_every_card_played_by_the_rules_of_thumb() -> None:
    game = Game.new("classic", seed=9)
    player = _Rules(game)
    checked = 0
    while not game.is_over and checked < 6:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        deal = game.current
        if view.phase == "play" and seat == 0 and len(view.plays) >= 6 and deal is not None and deal.tricks:
            table = view_rules(view)
            hidden = hidden_cards(view, table)
            evidence = PlayEvidence(view, table, hidden, 0.5)
            real = [deal.tricks.hands[s] for s in range(4)]
            assert evidence.weight(real) == evidence.calls.weight(real)
            rng = random.Random(checked)
            others = [evidence.weight(sample_hands(hidden, rng)) for _ in range(20)]
            assert min(others) <= evidence.weight(real)
            assert any(w < evidence.calls.weight(real) for w in others) or len(view.plays) < 8
            assert PlayEvidence(view, table, hidden, 1.0).weight(real) == evidence.calls.weight(real)
            checked += 1
        game.apply(player.act(view), seat)
    assert checked == 6


@pytest.mark.parametrize(("variant", "options"), [("classic", {}), ("king", {}), ("french", {"player_count": 3})])
def test_the_expert_plays_legally_in_several_rule_sets(variant: str, options: dict[str, object]) -> None:
    game = Game.new(variant, options, seed=2)
    n = game.rules.players
    bots = [make_bot("expert", seed=1, ms=None, worlds=2)] + [make_bot("heuristic", seed=s) for s in range(1, n)]
    while not game.is_over and len(game.deals) <= 2:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
