"""One deal as a state machine (RULES.md §2): phases, the skip, the checked door.

Every refusal must leave the deal exactly as it was: each test that provokes one
compares a snapshot taken before and after.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from barbu import (
    Arrange,
    Call,
    Declare,
    EnterTally,
    IllegalAction,
    NameRank,
    NameTrump,
    OutOfTurn,
    Pass,
    Play,
    TallyError,
)
from barbu.cards import card, mask_of
from barbu.deal import Deal, Phase
from barbu.rulesets import rules
from table_setup import hands, opening_calls, phase, play_all, to_play


def dealt_round_robin(variant: str = "classic", options: dict[str, Any] | None = None, seed: int = 0) -> list[int]:
    r = rules(variant, options)
    deck = list(r.deck_cards)
    random.Random(seed).shuffle(deck)
    return [mask_of(deck[i :: r.players]) for i in range(r.players)]


def fresh(variant: str = "classic", options: dict[str, Any] | None = None, declarer: int = 0) -> Deal:
    r = rules(variant, options)
    return Deal(r, 0, declarer, dealt_round_robin(variant, options), r.contracts)


def snapshot(deal: Deal) -> tuple[Any, ...]:
    return (
        deal.phase,
        deal.to_act,
        deal.contract,
        deal.trump,
        deal.rank,
        [deal.hand(s) for s in range(deal.players)],
        list(deal.plays),
        [(c.seat, c.round, c.doubles, c.redoubles) for c in deal.doubling.calls] if deal.doubling else None,
        deal.pairs(),
        list(deal.arrangements),
        deal.raw,
        [str(a) for a in deal.legal_actions()] if deal.phase is not Phase.ARRANGE else len(deal.legal_actions()),
    )


def refused(
    deal: Deal, action: Any, seat: int | None, error: type[Exception] = IllegalAction, match: str | None = None
) -> None:
    before = snapshot(deal)
    with pytest.raises(error, match=match):
        deal.apply(action, seat)
    assert snapshot(deal) == before


# -- phases ------------------------------------------------------------------------------


def test_negative_contract_phases() -> None:
    deal = fresh()
    assert deal.phase is Phase.CONTRACT and deal.to_act == 0
    deal.apply(Declare("no-queens"), 0)
    assert phase(deal) is Phase.CALL and deal.to_act == 1
    for call in opening_calls(deal.rules, "no-queens", 0):
        deal.apply(call, deal.to_act)
    assert phase(deal) is Phase.PLAY and deal.to_act == 0  # the declarer leads


def test_trumps_names_the_suit_before_the_calls() -> None:
    deal = fresh(declarer=2)
    deal.apply(Declare("trumps"), 2)
    assert deal.phase is Phase.TRUMP and deal.to_act == 2
    assert deal.legal_actions() == [NameTrump(s) for s in range(4)]
    deal.apply(NameTrump(3), 2)
    assert deal.trump == 3 and phase(deal) is Phase.CALL and deal.to_act == 3


def test_domino_names_the_rank_before_the_calls() -> None:
    deal = fresh()
    deal.apply(Declare("domino"), 0)
    assert deal.phase is Phase.RANK
    assert deal.legal_actions() == [NameRank(r) for r in range(13)]
    deal.apply(NameRank(12), 0)
    assert deal.rank == 12 and phase(deal) is Phase.CALL


@pytest.mark.parametrize("contract, trump, rank", [("trumps", 0, None), ("domino", None, 5)])
def test_positive_contracts_are_played_without_any_double(contract: str, trump: int | None, rank: int | None) -> None:
    deal = fresh()
    deal.apply(Declare(contract), 0)
    if trump is not None:
        deal.apply(NameTrump(trump), 0)
    if rank is not None:
        deal.apply(NameRank(rank), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    assert deal.phase is Phase.PLAY and not deal.skipped


@pytest.mark.parametrize("skip", [True, False])
def test_skip_undoubled_negative_flag(skip: bool) -> None:
    deal = fresh(options={"skip_undoubled_negative": skip})
    deal.apply(Declare("no-tricks"), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    if skip:
        assert deal.phase is Phase.DONE and deal.skipped
        assert deal.raw == [1, -9, -9, -9] and deal.adjustments == [0, 0, 0, 0]
    else:
        assert deal.phase is Phase.PLAY and not deal.skipped


def test_chinese_poker_is_never_skipped_and_arranges_in_round_one_order() -> None:
    deal = fresh("chinese-poker", declarer=1)
    deal.apply(Declare("chinese-poker"), 1)
    for caller in (2, 3, 0, 1):
        deal.apply(Call(), caller)
    assert deal.phase is Phase.ARRANGE and not deal.skipped
    order = []
    while deal.phase is Phase.ARRANGE:
        seat = deal.to_act
        assert seat is not None
        order.append(seat)
        assert len(deal.legal_actions()) == 72072
        deal.apply(deal.legal_actions()[seat * 1000], seat)
    assert order == [2, 3, 0, 1]
    assert deal.phase is Phase.DONE and sum(deal.raw or [1]) == 0


def test_salad_and_french_and_king_phases() -> None:
    # salad: every contract is negative, so undoubled deals are skipped
    deal = fresh("salad")
    deal.apply(Declare("salad"), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    assert deal.skipped and deal.raw == [-355 - 3 * -119, -119, -119, -119]
    # french: the contract is scheduled, there are no calls
    r = rules("french")
    deal = Deal(r, 5, 1, dealt_round_robin("french"), r.contracts)
    assert deal.contract is not None and deal.contract.id == "no-hearts"
    assert deal.phase is Phase.PLAY and deal.doubling is None and deal.to_act == 1
    # king: no calls either
    deal = fresh("king", declarer=3)
    deal.apply(Declare("king-trumps"), 3)
    deal.apply(NameTrump(1), 3)
    assert deal.phase is Phase.PLAY and deal.doubling is None and deal.to_act == 3


def test_a_deal_without_hands_waits_for_its_tally() -> None:
    r = rules("classic")
    deal = Deal(r, 0, 0, None, r.contracts)
    deal.apply(Declare("no-hearts"), 0)
    for call in opening_calls(r, "no-hearts", 0):
        deal.apply(call, deal.to_act)
    assert deal.phase is Phase.TALLY and deal.to_act is None and deal.legal_actions() == []
    refused(deal, Play(card("2S")), 0)
    refused(deal, EnterTally({"hearts": [4, 3, 3, 2], "ace_of_hearts": 0}), None, TallyError, "add up to 13")
    refused(deal, EnterTally({"hearts": [4, 3, 3, 3]}), None, TallyError, "missing ace_of_hearts")
    deal.apply(EnterTally({"hearts": [4, 3, 3, 3], "ace_of_hearts": 1}))
    # P1 -> P0: -10 - (-8) = -2
    assert deal.raw == [-8, -10, -6, -6] and deal.final == [-6, -12, -6, -6]


# -- the checked door ---------------------------------------------------------------------------


def test_wrong_actions_for_the_phase_are_refused_and_change_nothing() -> None:
    deal = fresh()
    refused(deal, Play(card("2S")), 0, match="must name a contract")
    refused(deal, Call(), 0, match="must name a contract")
    refused(deal, NameTrump(0), 0)
    refused(deal, Declare("salad"), 0, match="contracts left are no-tricks")
    refused(deal, Declare("no-tricks"), 1, OutOfTurn, "seat 0's turn")
    refused(deal, EnterTally({"tricks": [13, 0, 0, 0]}), None, match="not waiting for a tally")
    deal.apply(Declare("trumps"), 0)
    refused(deal, NameTrump(4), 0, match="one of S, H, D, C")
    refused(deal, NameRank(3), 0)
    refused(deal, Declare("no-tricks"), 0)
    deal.apply(NameTrump(0), 0)
    refused(deal, Call(double=(0,)), 2, OutOfTurn)
    refused(deal, Call(double=(2,)), 1, match="only the declarer")
    refused(deal, Pass(), 1)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    refused(deal, Call(), 1)
    refused(deal, Pass(), 0, match="cannot pass")
    hand0 = deal.hand(0)
    other = next(c for c in range(52) if not hand0 >> c & 1)
    refused(deal, Play(other), 0, match="not in seat 0's hand")
    mine = next(c for c in range(52) if hand0 >> c & 1)
    refused(deal, Play(mine), 1, OutOfTurn)


def test_arrangements_must_hold_exactly_the_hand() -> None:
    deal = fresh("chinese-poker")
    deal.apply(Declare("chinese-poker"), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    mine = [c for c in range(52) if deal.hand(1) >> c & 1]
    other = next(c for c in range(52) if not deal.hand(1) >> c & 1)
    refused(deal, Arrange(tuple(mine[:12])), 1, match="exactly its 13 cards")
    refused(deal, Arrange((*mine[:12], other)), 1, match="exactly its 13 cards")
    refused(deal, Arrange((*mine, other)), 1)
    refused(deal, Arrange(tuple(mine)), 2, OutOfTurn)
    refused(deal, Play(mine[0]), 1)
    deal.apply(Arrange(tuple(reversed(mine))), 1)
    assert deal.to_act == 2


def test_nothing_is_accepted_once_the_deal_is_over() -> None:
    deal = to_play("no-tricks", hands("2S", "3S", "4S", "5S"))
    play_all(deal, "2S 3S 4S 5S")
    assert deal.phase is Phase.DONE and deal.raw == [0, 0, 0, -2]
    refused(deal, Play(card("2S")), 0, match="is over")
    refused(deal, Call(), None, match="is over")


def test_hands_can_be_given_only_before_the_first_action() -> None:
    r = rules("classic")
    deal = Deal(r, 0, 0, None, r.contracts)
    deal.give_hands(dealt_round_robin())
    with pytest.raises(IllegalAction):
        deal.give_hands(dealt_round_robin())
    deal = Deal(r, 0, 0, None, r.contracts)
    deal.apply(Declare("no-king"), 0)
    with pytest.raises(IllegalAction):
        deal.give_hands(dealt_round_robin())


def test_hands_given_to_a_scheduled_deal_waiting_for_its_tally_start_the_play() -> None:
    r = rules("french")
    deal = Deal(r, 0, 2, None, r.contracts)
    assert deal.phase is Phase.TALLY
    deal.give_hands(dealt_round_robin("french"))
    assert phase(deal) is Phase.PLAY and deal.to_act == 2


# -- copies and the two doors -----------------------------------------------------------------------


def test_copy_is_independent() -> None:
    deal = fresh()
    deal.apply(Declare("no-queens"), 0)
    twin = deal.copy()
    twin.apply(Call(double=(0, 2)), 1)
    assert deal.doubling is not None and deal.doubling.calls == [] and deal.to_act == 1
    for call in opening_calls(deal.rules, "no-queens", 0):
        deal.apply(call, deal.to_act)
    before = snapshot(deal)
    twin2 = deal.copy()
    twin2.apply(twin2.legal_actions()[0], 0)
    assert snapshot(deal) == before


def _random_deal(seed: int, door: str) -> Deal:
    rng = random.Random(seed)
    deal = fresh()
    while deal.phase is not Phase.DONE:
        action = rng.choice(list(deal.legal_actions()))
        if door == "checked":
            deal.apply(action, deal.to_act)
        else:
            deal.apply_unchecked(action)
    return deal


@pytest.mark.parametrize("seed", range(6))
def test_checked_and_unchecked_doors_agree(seed: int) -> None:
    a, b = _random_deal(seed, "checked"), _random_deal(seed, "unchecked")
    assert (a.contract, a.plays, a.play_seats, a.pairs(), a.raw, a.final) == (
        b.contract,
        b.plays,
        b.play_seats,
        b.pairs(),
        b.raw,
        b.final,
    )


def test_shorthand_calls_go_through_the_unchecked_door_too() -> None:
    deal = fresh()
    deal.apply(Declare("no-queens"), 0)
    deal.apply_unchecked(Call(word="maximum"))
    deal.apply_unchecked(Call(word="flanks"))
    assert {(p.doubler, p.doubled, p.multiplier) for p in deal.pairs()} == {(1, 0, 1), (1, 2, 1), (1, 3, 1), (2, 3, 1)}


# -- garbage through the checked door: a typed refusal, never a crash --------------------------------


@pytest.mark.parametrize(
    "call",
    [
        Call(double=("1",)),  # type: ignore[arg-type]
        Call(double=(None,)),  # type: ignore[arg-type]
        Call(double=(1, "a")),  # type: ignore[arg-type]
        Call(redouble=(None,)),  # type: ignore[arg-type]
        Call(double=(True,)),
        Call(double=(1.0,)),  # type: ignore[arg-type]
        Call(word=5),  # type: ignore[arg-type]
    ],
)
def test_calls_naming_something_other_than_a_seat_are_refused(call: Call) -> None:
    deal = fresh()
    deal.apply(Declare("no-queens"), 0)
    deal.apply(Call(), 1)
    refused(deal, call, 2)


@pytest.mark.parametrize(
    "cards",
    [tuple(["AS"] * 13), tuple([None] * 13), (-1, *range(12)), (*range(12), 52), (*range(12), 3.0)],
)
def test_arrangements_of_something_other_than_cards_are_refused(cards: tuple[object, ...]) -> None:
    deal = fresh("chinese-poker")
    deal.apply(Declare("chinese-poker"), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    refused(deal, Arrange(cards), 1)  # type: ignore[arg-type]
