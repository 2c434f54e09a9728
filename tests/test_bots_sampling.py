"""Deals consistent with a seat's view: the facts read from the play, sampling, rebuilding."""

from __future__ import annotations

import random

import pytest

from barbu import Game, seat_view
from barbu.actions import Call, Declare, NameRank, Play
from barbu.bots import make_bot
from barbu.bots.sampling import (
    HiddenCards,
    deal_from_view,
    forced_of,
    hidden_cards,
    sample_hands,
    view_rules,
)
from barbu.cards import SUIT_MASKS, card, mask_of, parse_pbn
from barbu.rulesets import RULE_SETS, Rules, rules

CASES: list[tuple[str, dict[str, object]]] = [(v, {}) for v in RULE_SETS] + [
    ("salad", {"player_count": 5}),
    ("french", {"player_count": 3}),
    ("french", {"player_count": 5}),
    ("classic", {"heart_lead": "broken", "forced_penalty": True, "undertrump_required": True}),
    ("classic", {"must_trump_when_void": False, "overtrump_required": False, "domino_ace_replays": True}),
]


@pytest.mark.parametrize(("variant", "options"), CASES, ids=[f"{v}-{o}" for v, o in CASES])
def test_facts_hold_and_rebuilt_deals_match(variant: str, options: dict[str, object]) -> None:
    """At random positions of random games: the true hands obey every fact the view shows,
    sampled hands obey them too, and the deal rebuilt from sampled hands offers the seat
    exactly the legal actions the real game offers."""
    rng = random.Random(variant)
    game = Game.new(variant, options, seed=3)
    bot = make_bot("random", seed=3)
    checked = 0
    while not game.is_over and len(game.deals) <= 10:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if view.phase != "arrange" and rng.random() < 0.25:
            hidden = hidden_cards(view)
            deal = game.current
            assert deal is not None
            for s in range(view.players):
                if s != seat:
                    assert not hidden.excluded[s] & deal.hand(s)
                    assert deal.hand(s).bit_count() == hidden.counts[s]
            assert hidden.unseen == mask_of(c for s in range(view.players) if s != seat for c in _cards(deal.hand(s)))
            hands = sample_hands(hidden, rng)
            for s in range(view.players):
                assert hands[s].bit_count() == hidden.counts[s]
                assert not hands[s] & hidden.excluded[s]
            assert hands[seat] == hidden.hand
            rebuilt = deal_from_view(view, hands)
            assert rebuilt.to_act == view.to_act and rebuilt.phase == deal.phase
            assert list(rebuilt.legal_actions()) == list(view.legal_actions)
            checked += 1
        game.apply(bot.act(view), seat)
    assert checked > 5


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _trick_game(hands: str, contract: str, options: dict[str, object] | None = None) -> Game:
    """A classic game whose first deal has the given PBN hands (seat 0 declares)."""
    game = Game(view_rules_for("classic", options), first_declarer=0)
    game.give_hands([parse_pbn(h) for h in hands.split()])
    game.apply(Declare(contract))
    return game


def view_rules_for(variant: str, options: dict[str, object] | None) -> Rules:
    return rules(variant, options)


def test_a_discard_shows_a_void() -> None:
    game = _trick_game("AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "no-tricks")
    for _ in range(3):
        game.apply(Call(double=(0,)))
    game.apply(Call())
    for c in ("2S", "AH"):
        game.apply(Play(card(c)))
    hidden = hidden_cards(seat_view(game, 2))
    assert hidden.excluded[1] & SUIT_MASKS[0] == SUIT_MASKS[0]
    assert hidden.excluded[2] == 0  # a seat knows its own hand: no facts about itself


def test_a_heart_lead_under_the_strict_rule_shows_only_hearts() -> None:
    hands = ".AKQJT98765432.. AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"
    game = _trick_game(hands, "no-hearts")
    for _ in range(3):
        game.apply(Call(double=(0,)))
    game.apply(Call())
    game.apply(Play(card("2H")))  # seat 0 may lead a heart: it holds nothing else
    hidden = hidden_cards(seat_view(game, 1))
    assert hidden.excluded[0] == ((1 << 52) - 1) & ~SUIT_MASKS[1]
    game.apply(Play(card("2S")))
    hidden = hidden_cards(seat_view(game, 2))
    assert hidden.excluded[1] & SUIT_MASKS[1] == SUIT_MASKS[1]


def test_a_domino_pass_shows_no_playable_card() -> None:
    game = Game(view_rules_for("classic", None), first_declarer=0)
    hands = ["AKQJT987.AKQ.A.A", "5432.JT98.KQJ.KQ", "6.765432.T98765.", "..432.JT98765432"]
    game.give_hands([parse_pbn(h) for h in hands])
    game.apply(Declare("domino"))
    game.apply(NameRank(5))  # from the 7
    for _ in range(4):
        game.apply(Call())
    game.apply(Play(card("7S")))
    game.apply(game.legal_actions()[0])  # seat 1 holds no 6S, 8S, 7H, 7D or 7C: it passes
    hidden = hidden_cards(seat_view(game, 2))
    shown = mask_of(card(c) for c in ("6S", "8S", "7H", "7D", "7C"))
    assert hidden.excluded[1] & shown == shown
    assert hidden.counts[1] == 13


def test_sampling_under_tight_facts_finds_the_only_deal() -> None:
    # Seat 0 sees; seats 1-3 each hold two cards and the facts leave one deal only.
    a, b, c, d, e, f = (card(x) for x in ("2S", "3S", "2H", "3H", "2D", "3D"))
    spades, hearts, diamonds = mask_of([a, b]), mask_of([c, d]), mask_of([e, f])
    hidden = HiddenCards(
        seat=0,
        hand=mask_of([card("AC")]),
        unseen=spades | hearts | diamonds,
        counts=(1, 2, 2, 2),
        excluded=(0, hearts | diamonds, spades | diamonds, spades | hearts),
        played=(0, 0, 0, 0),
    )
    for seed in range(20):
        assert sample_hands(hidden, random.Random(seed)) == [mask_of([card("AC")]), spades, hearts, diamonds]


def test_contradictory_facts_are_refused() -> None:
    hidden = HiddenCards(
        seat=0,
        hand=0,
        unseen=mask_of([card("2S"), card("3S")]),
        counts=(0, 1, 1),
        excluded=(0, SUIT_MASKS[0], SUIT_MASKS[0]),
        played=(0, 0, 0),
    )
    with pytest.raises(ValueError, match="no deal agrees"):
        sample_hands(hidden, random.Random(0))


def test_forced_doublers_are_read_from_the_public_history() -> None:
    game = Game.new("classic", seed=8)
    bot = make_bot("random", seed=8)
    seen = 0
    while not game.is_over and len(game.deals) <= 14:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if view.phase == "call":
            assert game.current is not None
            assert forced_of(view) == game.current.forced
            seen += bool(game.current.forced)
        game.apply(bot.act(view), seat)
    assert seen


def test_the_view_carries_the_house_rules() -> None:
    game = Game.new("classic", {"heart_lead": "broken"}, seed=1)
    view = seat_view(game, game.to_act)
    assert view.options == {"heart_lead": "broken"}
    assert view_rules(view).flags.heart_lead == "broken"


def test_a_spectator_has_no_hidden_cards() -> None:
    game = Game.new("classic", seed=1)
    with pytest.raises(ValueError, match="spectator"):
        hidden_cards(seat_view(game, None))
