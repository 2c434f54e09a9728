"""The unseen cards (barbu.unseen): the facts the play shows, asked of the core; sampling; rebuilding."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu import Game, seat_view
from barbu.actions import Action, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.bots import make_bot
from barbu.cards import RANKS, SUIT_MASKS, SUITS, card, mask_of, parse_pbn
from barbu.deal import Deal
from barbu.rulesets import RULE_SETS, Rules, rules
from barbu.unseen import (
    _PROGRESS,
    HiddenCards,
    deal_from_view,
    forced_of,
    hidden_cards,
    sample_hands,
    shown_not_held,
    view_rules,
)
from barbu.view import SeatView

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
    return [c for c in range(104) if mask >> c & 1]


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
    assert hidden.excluded[1] & SUIT_MASKS[0] == SUIT_MASKS[0] & hidden.unseen
    assert hidden.excluded[2] == 0  # a seat knows its own hand: no facts about itself
    assert shown_not_held(seat_view(game, 2))[1] == SUIT_MASKS[0] & ~mask_of([card("2S")])


def test_a_heart_lead_under_the_strict_rule_shows_only_hearts() -> None:
    hands = ".AKQJT98765432.. AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"
    game = _trick_game(hands, "no-hearts")
    for _ in range(3):
        game.apply(Call(double=(0,)))
    game.apply(Call())
    game.apply(Play(card("2H")))  # seat 0 may lead a heart: it holds nothing else
    hidden = hidden_cards(seat_view(game, 1))
    assert hidden.excluded[0] == hidden.unseen & ~SUIT_MASKS[1]
    assert shown_not_held(seat_view(game, 1))[0] == ((1 << 52) - 1) & ~SUIT_MASKS[1]
    game.apply(Play(card("2S")))
    hidden = hidden_cards(seat_view(game, 2))
    assert hidden.excluded[1] & SUIT_MASKS[1] == SUIT_MASKS[1] & hidden.unseen


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
    assert shown_not_held(seat_view(game, 2))[1] == shown
    assert hidden.excluded[1] == shown & hidden.unseen
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


def test_an_ace_laid_without_a_replay_shows_no_playable_card() -> None:
    game = Game(view_rules_for("classic", {"domino_ace_replays": True}), first_declarer=0)
    hands = [parse_pbn(h) for h in ("A5432.5432.5432.", "KQJT.AKQJ.AKQ.AK", "987.T987.JT9.QJT")]
    hands.append(((1 << 52) - 1) & ~mask_of(c for h in hands for c in _cards(h)))
    game.give_hands(hands)
    game.apply(Declare("domino"))
    game.apply(NameRank(12))  # from the aces
    for _ in range(4):
        game.apply(Call())
    game.apply(Play(card("AS")))
    assert game.to_act == 1  # seat 0 laid an ace and the turn moved on: it can lay nothing now
    shown = mask_of(card(c) for c in ("KS", "AH", "AD", "AC"))
    assert shown_not_held(seat_view(game, 1))[0] == shown
    game.apply(Play(card("AH")))
    assert game.to_act == 1  # seat 1 plays again: that shows nothing about its other cards
    assert shown_not_held(seat_view(game, 2))[1] == 0


# -- the property: real hands obey the facts, sampled worlds agree with the view ------------

PROPERTY_CASES = [*CASES, ("king", {"heart_lead": "strict", "forced_penalty": True})]


def _public_actions(view: SeatView, r: Rules) -> list[Action]:
    """The view's public actions of this deal, in order, as the checked door takes them."""
    out: list[Action] = []
    if view.contract is not None and (r.schedule.declarer_chooses or view.phase == "contract"):
        out.append(Declare(view.contract))
    if view.trump is not None:
        out.append(NameTrump(SUITS.index(view.trump)))
    if view.rank is not None:
        out.append(NameRank(RANKS.index(view.rank)))
    out += [Call(double=d, redouble=rd) for _, _, d, rd in view.calls]
    out += [Pass() if c is None else Play(c) for _, c in view.plays]
    return out


def _replays_legally(view: SeatView, r: Rules, dealt: list[int]) -> None:
    """Deal ``dealt`` and apply the view's public actions through the checked door."""
    assert view.declarer is not None
    if view.phase == "contract":
        available = [r.contract(c) for c in view.contracts_left]
    else:
        assert view.contract is not None
        available = [r.contract(view.contract)]
    deal = Deal(r, view.deal_number - 1, view.declarer, dealt, available, forced_of(view, r))
    for action in _public_actions(view, r):
        if isinstance(action, Declare) and deal.contract is not None:
            continue
        deal.apply(action)  # raises IllegalAction if the sampled world could not have played so
    assert deal.to_act == view.to_act and str(deal.phase) == view.phase


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(PROPERTY_CASES), seed=st.integers(0, 2**32 - 1))
def test_real_hands_satisfy_the_facts_and_sampled_worlds_agree_with_the_view(
    case: tuple[str, dict[str, object]], seed: int
) -> None:
    """At every decision of the first deals of a seeded game: the real hands obey every fact
    the sampler reads, and every sampled world has the view's counts, holds no card the seat
    has seen, and replays the deal's public history legally through the checked door."""
    variant, options = case
    game = Game.new(variant, options, seed=seed)
    r = game.rules
    bot = make_bot("random", seed=seed)
    rng = random.Random(seed)
    while not game.is_over and len(game.deals) <= 2:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        deal = game.current
        assert deal is not None
        if view.phase != "arrange":
            hidden = hidden_cards(view)
            shown = shown_not_held(view)  # read on from what the earlier views read
            _PROGRESS.clear()
            assert shown_not_held(view) == shown  # the same, read from the first play
            held = [deal.hand(s) for s in range(r.players)]
            for s in range(r.players):
                assert not shown[s] & held[s], f"seat {s} holds a card its play showed it could not hold"
                assert hidden.counts[s] == held[s].bit_count()
            assert hidden.unseen == mask_of(c for s in range(r.players) if s != seat for c in _cards(held[s]))
            hands = sample_hands(hidden, rng)
            seen = hidden.hand | mask_of(c for _, c in view.plays if c is not None)
            for s in range(r.players):
                assert hands[s].bit_count() == hidden.counts[s]
                if s != seat:
                    assert not hands[s] & seen
            assert hands[seat] == hidden.hand
            if deal.dealt is not None:
                _replays_legally(view, r, [h | p for h, p in zip(hands, hidden.played, strict=True)])
        game.apply(bot.act(view), seat)
