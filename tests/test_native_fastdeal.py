"""The fast door on compact state (:mod:`barbu.fastdeal`) against the core's :class:`Deal`.

Seeded random games of every one-deck rule set are played through the game's own deals and,
deal by deal in lockstep, through a :class:`FastDeal` of the same hands: the same seat to
act, legal actions, pairs and contract before the cards, the same card play (fields and
legal masks at every card), the same final points. The compiled dealing (``Shuffler``) is
compared with :class:`barbu.game.Dealer`. With ``BARBU_PURE=1`` the same tests run the pure
path (the door's card play and dealing in Python).
"""

from __future__ import annotations

import copy
import random

import pytest

from barbu import Game, accel
from barbu.actions import Pass, Play
from barbu.cards import cards_of
from barbu.deal import Phase
from barbu.fastdeal import CallTable, FastDeal, FastDealer
from barbu.game import Dealer
from barbu.rulesets import RULE_SETS, rules
from barbu.tricks import TrickPlay

DOOR_RULE_SETS = sorted(
    name for name, rs in RULE_SETS.items() if rs.decks == 1 and all(c.play != "arrange" for c in rules(name).contracts)
)
OPTIONS: dict[str, tuple[str, dict[str, object]]] = {
    "french+chooser": ("french", {"contract_choice": "chooser_doubled"}),
    "classic+late": ("classic", {"late_redouble": False}),
}
"""Rule sets with options their defaults do not cover: the chooser's adjustment, no late redoubles."""

TRICK_FIELDS = ("hands", "leader", "turn", "finished", "players", "rules", "trick", "captured", "winners", "played")
DOMINO_FIELDS = ("hands", "turn", "finished", "players", "rank", "order", "laid", "removed", "direction", "low_rank")


def _play_state(play: object) -> tuple[object, ...]:
    names = TRICK_FIELDS if isinstance(play, TrickPlay) else DOMINO_FIELDS
    return tuple((type(play).__name__, n, getattr(play, n)) for n in names)


def _lockstep(variant: str, options: dict[str, object] | None, games: int) -> tuple[int, int]:
    """Plays ``games`` seeded random games and every deal through a FastDeal too; returns the
    deals checked and how many of them the door scored in compiled code."""
    rng = random.Random(variant)
    checked = compiled = 0
    for g in range(games):
        game = Game.new(variant, options, seed=f"door:{variant}:{g}")
        while not game.is_over:
            deal = game.current
            assert deal is not None and deal.dealt is not None
            table = CallTable.of(game.rules, deal.available, deal.forced, deal.index)
            door = FastDeal(table, deal.declarer, deal.dealt)
            door_actions = door.legal_actions()
            while deal.phase not in (Phase.PLAY, Phase.DONE):
                actions = tuple(deal.legal_actions())
                assert door_actions == actions
                assert (door.to_act, door.contract, door.pairs) == (deal.to_act, deal.contract, deal.pairs())
                i = rng.randrange(len(actions))
                game.apply_unchecked(actions[i])
                door_actions = door.apply(door_actions[i])
            assert door_actions == ()
            assert door.to_act is None and door.pairs == deal.pairs()
            if deal.phase is Phase.PLAY:
                play = door.cardplay
                assert play is not None and deal.cardplay is not None
                assert type(play) is type(deal.cardplay)
                mask = play.legal_mask()
                while deal.phase is Phase.PLAY:
                    assert _play_state(play) == _play_state(deal.cardplay)
                    assert mask == deal.legal_mask()
                    cards = cards_of(mask)
                    card = cards[rng.randrange(len(cards))] if cards else None
                    game.apply_unchecked(Play(card) if card is not None else Pass())
                    mask = play.play_next(card)  # type: ignore[arg-type]
                assert mask == -1 and play.finished
            else:
                assert door.cardplay is None  # skipped undoubled: scored without play
            assert deal.final is not None
            compiled += door._model is not None
            assert door.final() == deal.final
            checked += 1
    return checked, compiled


@pytest.mark.parametrize("variant", DOOR_RULE_SETS)
def test_the_fast_door_plays_every_deal_as_the_core(variant: str) -> None:
    checked, compiled = _lockstep(variant, None, 2)
    assert checked == 2 * rules(variant).deal_count
    assert (compiled > 0) == accel.NATIVE  # trick deals scored by the compiled score model, then compared


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_fast_door_follows_the_options(name: str) -> None:
    variant, options = OPTIONS[name]
    checked, compiled = _lockstep(variant, options, 1)
    assert checked == rules(variant, options).deal_count
    if options.get("contract_choice") == "chooser_doubled":
        assert compiled == 0  # the compiled scores do not add the chooser's adjustment: the pure path scores


def test_the_fast_dealer_deals_as_the_dealer() -> None:
    for variant in ("classic", "five-player", "thirty-two", "king"):
        r = rules(variant)
        for seed in (0, 1, 7, -5, 2**32, 2**40 + 3, -(2**63), 2**64 - 1):
            fast, dealer = FastDealer(r, seed), Dealer(seed)
            for declarer in [*range(r.players), 0, 2]:
                assert fast.deal(declarer) == dealer.deal(r, declarer)
            assert (accel.shuffler(r, seed) is not None) == accel.NATIVE


def test_the_compiled_dealing_is_declined_where_it_has_no_path() -> None:
    r = rules("classic")
    assert accel.shuffler(rules("french-two-decks"), 1) is None
    assert accel.shuffler(r, 2**64) is None and accel.shuffler(r, "1") is None  # type: ignore[arg-type]
    assert FastDealer(r, 2**64).deal(1) == Dealer(2**64).deal(r, 1)


def test_the_fast_door_refuses_what_it_does_not_play() -> None:
    poker = rules("chinese-poker")
    with pytest.raises(ValueError, match="one-deck trick and domino contracts"):
        CallTable.of(poker, poker.contracts)
    twin = rules("french-two-decks")
    with pytest.raises(ValueError, match="one-deck trick and domino contracts"):
        CallTable.of(twin, twin.contracts)
    r = rules("classic")
    door = FastDeal(CallTable.of(r, r.contracts), 0, FastDealer(r, 1).deal(0))
    with pytest.raises(ValueError, match="not over"):
        door.final()


def test_the_fast_door_takes_an_action_equal_to_a_listed_one() -> None:
    r = rules("classic")
    hands = FastDealer(r, 4).deal(1)
    listed, made = (FastDeal(CallTable.of(r, r.contracts), 1, hands) for _ in range(2))
    actions = listed.legal_actions()
    while actions:
        action = actions[-1]
        equal = copy.copy(action)
        assert equal == action and equal is not action
        actions = listed.apply(action)
        assert made.apply(equal) == actions
    assert made.pairs == listed.pairs and made.cardplay is not None and listed.cardplay is not None
    assert made.cardplay.hands == listed.cardplay.hands
