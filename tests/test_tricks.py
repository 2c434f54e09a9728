"""Trick play (RULES.md §2.9.1-2.9.2): legal cards under every play flag, winners, early end.

Each flag is set through a rule set's ``options`` and shown with both values on the
same position, so a flag that does not reach the play, or reaches it inverted, fails.
"""

from __future__ import annotations

from typing import Any

import pytest

from barbu import IllegalAction, Pass, Play
from barbu.cards import card
from barbu.deal import Phase
from barbu.rulesets import rules
from barbu.tricks import TrickPlay, TrickRules
from table_setup import cards, hands, legal_cards, play_all, to_play


def legal_names(deal: Any) -> set[str]:
    from barbu.cards import card_name

    return {card_name(c) for c in legal_cards(deal)}


def names(text: str) -> set[str]:
    return set(text.split())


# -- following suit and winners ---------------------------------------------------------


def test_must_follow_suit_when_able() -> None:
    deal = to_play("no-tricks", hands("5D 6C", "9D 2D AS", "KC", "3H"))
    play_all(deal, "5D")
    assert legal_names(deal) == names("9D 2D")
    with pytest.raises(IllegalAction, match="must follow diamonds"):
        deal.apply(Play(card("AS")), 1)
    with pytest.raises(IllegalAction, match="not in seat 1's hand"):
        deal.apply(Play(card("KC")), 1)
    play_all(deal, "2D")
    assert legal_names(deal) == names("KC")  # void: anything


def test_winner_is_the_highest_card_of_the_led_suit_and_leads_next() -> None:
    deal = to_play("no-tricks", hands("5D 2S", "9D 3S", "AS 4S", "2D 5S"))
    play_all(deal, "5D 9D AS 2D")
    assert deal.tricks is not None and deal.tricks.winners == [1]
    assert deal.to_act == 1
    play_all(deal, "3S 4S")
    assert deal.to_act == 3


def test_winner_in_trumps_is_the_highest_trump_even_low() -> None:
    deal = to_play("trumps", hands("AD 3C", "2H 4C", "KD 5C", "QD 6C"), trump="H")
    play_all(deal, "AD 2H KD QD")
    assert deal.tricks is not None and deal.tricks.winners == [1]


def test_trumps_not_led_and_not_played_the_led_suit_wins() -> None:
    deal = to_play("trumps", hands("5C", "9C", "2D", "AD"), trump="S")
    play_all(deal, "5C 9C 2D AD")
    assert deal.tricks is not None and deal.tricks.winners == [1]


def test_king_plays_anticlockwise() -> None:
    # declarer 1 leads; then seat 0, seat 3, seat 2
    deal = to_play("king-no-tricks", hands("9S 2H", "5S 3H", "AS 4H", "KS 5H"), variant="king", declarer=1)
    order = []
    for c in ("5S", "9S", "KS", "AS"):
        order.append(deal.to_act)
        play_all(deal, c)
    assert order == [1, 0, 3, 2]
    assert deal.tricks is not None and deal.tricks.winners == [2]  # AS was played by seat 2
    assert deal.to_act == 2


# -- heart_lead ------------------------------------------------------------------------------

HL_CONTRACTS = [("classic", "no-hearts"), ("classic", "no-king"), ("salad", "salad"), ("salad", "no-hearts")]


@pytest.mark.parametrize("variant, contract", HL_CONTRACTS)
def test_heart_lead_strict_forbids_hearts_while_other_suits_are_held(variant: str, contract: str) -> None:
    deal = to_play(contract, hands("AH 2H 5C", "3S 4S 5S", "6S 7S 8S", "9S TS JS"), variant=variant)
    assert legal_names(deal) == {"5C"}
    deal = to_play(contract, hands("AH 2H", "3S 4S", "6S 7S", "9S TS"), variant=variant)
    assert legal_names(deal) == {"AH", "2H"}


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-last-two"])
def test_no_heart_lead_rule_outside_its_contracts(contract: str) -> None:
    deal = to_play(contract, hands("AH 2H 5C", "3S 4S 5S", "6S 7S 8S", "9S TS JS"))
    assert legal_names(deal) == {"AH", "2H", "5C"}


def test_heart_lead_free() -> None:
    deal = to_play("no-hearts", hands("AH 2H 5C", "3S 4S 5S", "6S 7S 8S", "9S TS JS"), options={"heart_lead": "free"})
    assert legal_names(deal) == {"AH", "2H", "5C"}


# Trick 1: P0 leads 2S, P1 (void) discards 3H, P2 wins with AS and leads trick 2.
BREAK = ("2S 4D", "3H 5D", "AS 9H 6C", "KS 7D")


@pytest.mark.parametrize("heart_lead, after", [("strict", {"6C"}), ("broken", {"9H", "6C"}), ("free", {"9H", "6C"})])
def test_heart_lead_once_broken(heart_lead: str, after: set[str]) -> None:
    deal = to_play("no-hearts", hands(*BREAK), options={"heart_lead": heart_lead})
    assert deal.to_act == 0
    play_all(deal, "2S 3H AS KS")
    assert deal.to_act == 2
    assert legal_names(deal) == after


def test_heart_lead_broken_needs_a_heart_in_an_earlier_trick() -> None:
    # broken, but no heart played yet: as strict
    deal = to_play("no-hearts", hands("2S 4D", "3C 5D", "AS 9H 6C", "KS 7D"), options={"heart_lead": "broken"})
    play_all(deal, "2S 3C AS KS")
    assert legal_names(deal) == {"6C"}


def test_king_defaults_to_broken_hearts() -> None:
    assert rules("king").flags.heart_lead == "broken"
    deal = to_play("king-no-hearts", hands(*BREAK), variant="king", declarer=0)
    # anticlockwise: 0 leads, then 3, 2, 1
    play_all(deal, "2S KS AS 3H")
    assert deal.to_act == 2
    # king-no-hearts forces nothing here (P2 leads), hearts are broken
    assert legal_names(deal) == {"9H", "6C"}


# -- trumps flags ------------------------------------------------------------------------------


@pytest.mark.parametrize("flag, expected", [(True, {"2S", "9S"}), (False, {"2S", "9S", "3C"})])
def test_must_trump_when_void(flag: bool, expected: set[str]) -> None:
    deal = to_play("trumps", hands("5D 4D", "2S 9S 3C", "6D", "7D"), trump="S", options={"must_trump_when_void": flag})
    play_all(deal, "5D")
    assert legal_names(deal) == expected


@pytest.mark.parametrize("flag, expected", [(True, {"9S", "KS"}), (False, {"3S", "9S", "KS"})])
def test_overtrump_required_on_a_trump_lead(flag: bool, expected: set[str]) -> None:
    deal = to_play("trumps", hands("5S 2C", "3S 9S KS", "6S", "7S"), trump="S", options={"overtrump_required": flag})
    play_all(deal, "5S")
    assert legal_names(deal) == expected


def test_trump_led_and_nothing_higher_any_trump() -> None:
    deal = to_play("trumps", hands("AS 2C", "3S 9S 4C", "6S", "7S"), trump="S")
    play_all(deal, "AS")
    assert legal_names(deal) == {"3S", "9S"}


@pytest.mark.parametrize(
    "over, under, expected",
    [
        (True, False, {"9S"}),  # classic: must overtrump when able
        (False, False, {"5S", "9S", "3C"}),  # free
        (False, True, {"5S", "9S"}),  # king: any trump, even under
        (True, True, {"9S"}),
    ],
)
def test_void_after_a_trump_overtrump_and_undertrump(over: bool, under: bool, expected: set[str]) -> None:
    deal = to_play(
        "trumps",
        hands("5D 4D", "7S 2C", "5S 9S 3C", "6D"),
        trump="S",
        options={"overtrump_required": over, "undertrump_required": under},
    )
    play_all(deal, "5D 7S")
    assert legal_names(deal) == expected


@pytest.mark.parametrize("under, expected", [(False, {"5S", "3C"}), (True, {"5S"})])
def test_undertrump_required_when_unable_to_overtrump(under: bool, expected: set[str]) -> None:
    deal = to_play("trumps", hands("5D 4D", "KS 2C", "5S 3C", "6D"), trump="S", options={"undertrump_required": under})
    play_all(deal, "5D KS")
    assert legal_names(deal) == expected


def test_plain_suit_led_and_followed_no_duty_to_beat_or_trump() -> None:
    deal = to_play("trumps", hands("5D 4D", "KS 2C", "2D AD 3S", "6D"), trump="S")
    play_all(deal, "5D KS")
    assert legal_names(deal) == {"2D", "AD"}


def test_king_trumps_defaults_void_must_trump_even_under_no_duty_to_overtrump() -> None:
    r = rules("king")
    assert (r.flags.overtrump_required, r.flags.undertrump_required) == (False, True)
    # anticlockwise from declarer 0: 0, 3, 2, 1
    deal = to_play("king-trumps", hands("5D 4D", "5S 9S 3C", "6D", "7S 2C"), variant="king", trump="S")
    play_all(deal, "5D 7S 6D")
    assert legal_names(deal) == {"5S", "9S"}
    deal = to_play("king-trumps", hands("5S 4D", "3S 9S 3C", "6S", "7S 2C"), variant="king", trump="S")
    play_all(deal, "5S 7S 6S")
    assert legal_names(deal) == {"3S", "9S"}


# -- forced_penalty -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, hand1, flag, expected",
    [
        ("no-hearts", "2H 5C", True, {"2H"}),
        ("no-hearts", "2H 5C", False, {"2H", "5C"}),
        ("no-queens", "QH 2H 5C", True, {"QH"}),
        ("no-king", "QH KH 5C", True, {"KH"}),
        ("no-king", "QH 5C", True, {"QH", "5C"}),  # no penalty card: anything
        ("salad", "QC 2H 5C", True, {"QC", "2H"}),
        ("no-tricks", "2H 5C", True, {"2H", "5C"}),  # no penalty cards in no tricks
        ("no-last-two", "QH KH 5C", True, {"QH", "KH", "5C"}),
    ],
)
def test_forced_penalty_a_void_player_must_discard_a_penalty_card(
    contract: str, hand1: str, flag: bool, expected: set[str]
) -> None:
    variant = "salad" if contract == "salad" else "classic"
    deal = to_play(contract, hands("2S 3S", hand1, "4S 5S", "6S 7S"), variant=variant, options={"forced_penalty": flag})
    play_all(deal, "2S")
    assert legal_names(deal) == expected


@pytest.mark.parametrize(
    "lead, flag, expected",
    [
        ("KS", True, {"QS"}),  # QS is below the KS in the trick: it must go
        ("KS", False, {"QS", "3S"}),
        ("5S", True, {"QS", "3S"}),  # nothing higher in the trick than the QS: free
        ("AS", True, {"QS"}),
    ],
)
def test_forced_penalty_b_following_under_a_higher_card(lead: str, flag: bool, expected: set[str]) -> None:
    deal = to_play("no-queens", hands(f"{lead} 2C", "QS 3S 5C", "4S", "6S"), options={"forced_penalty": flag})
    play_all(deal, lead)
    assert legal_names(deal) == expected


def test_forced_penalty_b_counts_the_highest_card_of_the_led_suit_so_far() -> None:
    # hearts led 5H, then KH by P1: P2 must follow with a heart below the KH
    deal = to_play(
        "no-hearts", hands("5H", "KH", "9H JH", "AH"), options={"forced_penalty": True, "heart_lead": "free"}
    )
    play_all(deal, "5H KH")
    assert legal_names(deal) == {"9H", "JH"}  # both below the KH
    deal = to_play(
        "no-hearts", hands("5H", "8H", "9H 2H", "AH"), options={"forced_penalty": True, "heart_lead": "free"}
    )
    play_all(deal, "5H 8H")
    assert legal_names(deal) == {"2H"}  # 9H is above the 8H: only 2H is kept-back


def test_forced_penalty_is_on_in_king() -> None:
    assert rules("king").flags.forced_penalty
    # king-no-queens: P3 (next, anticlockwise) is void in spades and holds QD: it must play it
    deal = to_play("king-no-queens", hands("2S 3S", "4S", "5S", "QD 5C"), variant="king")
    play_all(deal, "2S")
    assert deal.to_act == 3 and legal_names(deal) == {"QD"}
    deal = to_play(
        "king-no-queens", hands("2S 3S", "4S", "5S", "QD 5C"), variant="king", options={"forced_penalty": False}
    )
    play_all(deal, "2S")
    assert legal_names(deal) == {"QD", "5C"}


def test_forced_penalty_boys_includes_jacks_and_kings() -> None:
    deal = to_play("king-no-boys", hands("2S 3S", "4S", "5S", "JD 5C"), variant="king")
    play_all(deal, "2S")
    assert legal_names(deal) == {"JD"}


# -- early end --------------------------------------------------------------------------------------


def _run(deal: Any, tricks: list[str]) -> int:
    played = 0
    for t in tricks:
        if deal.phase is Phase.DONE:
            break
        play_all(deal, t)
        played += 1
    return played


# Each seat holds one suit: P0 spades, P1 hearts, P2 diamonds, P3 clubs (13 cards each).
ONE_SUIT_EACH = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")
RANKS_UP = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


def spade_tricks(hearts: list[str], diamonds: list[str], clubs: list[str]) -> list[str]:
    """13 tricks of the declarer P0 leading spades high to low, the others discarding."""
    spades = list(reversed(RANKS_UP))
    return [f"{s}S {h}H {d}D {c}C" for s, h, d, c in zip(spades, hearts, diamonds, clubs, strict=True)]


@pytest.mark.parametrize("early_end, expected_tricks", [(True, 4), (False, 13)])
def test_no_king_ends_with_the_king(early_end: bool, expected_tricks: int) -> None:
    hearts = ["2", "3", "4", "K", "5", "6", "7", "8", "9", "T", "J", "Q", "A"]
    deal = to_play("no-king", hands(*ONE_SUIT_EACH), options={"early_end": early_end})
    assert _run(deal, spade_tricks(hearts, RANKS_UP, RANKS_UP)) == expected_tricks
    assert deal.phase is Phase.DONE
    assert deal.raw == [-20, 0, 0, 0]


def test_king_no_boys_ends_with_the_eighth_jack_or_king() -> None:
    # P0 plays JS (trick 4) and KS (trick 2); the others discard their jacks and kings
    # (hearts: tricks 1, 5; diamonds: 3, 6; clubs: 7, 9): the eighth falls in trick 9.
    hearts = ["J", "2", "3", "4", "K", "5", "6", "7", "8", "9", "T", "Q", "A"]
    diamonds = ["2", "3", "J", "4", "5", "K", "6", "7", "8", "9", "T", "Q", "A"]
    clubs = ["2", "3", "4", "5", "6", "7", "J", "8", "K", "9", "T", "Q", "A"]
    # anticlockwise: P0 leads, then P3, P2, P1
    tricks = [t.split() for t in spade_tricks(hearts, diamonds, clubs)]
    order = [f"{t[0]} {t[3]} {t[2]} {t[1]}" for t in tricks]
    deal = to_play("king-no-boys", hands(*ONE_SUIT_EACH), variant="king", options={"forced_penalty": False})
    assert _run(deal, order) == 9
    assert deal.raw == [-480, 0, 0, 0]


@pytest.mark.parametrize("early_end, expected_tricks", [(True, 7), (False, 13)])
def test_king_no_hearts_ends_with_the_thirteenth_heart(early_end: bool, expected_tricks: int) -> None:
    # P0 all spades, P3 all clubs; P1 and P2 hold the hearts and diamonds. Void in
    # spades, P1 and P2 must discard hearts (forced penalty): the 13th heart falls in
    # trick 7. Anticlockwise: P0, P3, P2, P1.
    dealt = hands("AKQJT98765432...", ".AKQJT98.AKQJT9.", ".765432.8765432.", "...AKQJT98765432")
    deal = to_play("king-no-hearts", dealt, variant="king", options={"early_end": early_end})
    tricks = [
        "AS 2C 2H 8H",
        "KS 3C 3H 9H",
        "QS 4C 4H TH",
        "JS 5C 5H JH",
        "TS 6C 6H QH",
        "9S 7C 7H KH",
        "8S 8C 2D AH",
        "7S 9C 3D 9D",
        "6S TC 4D TD",
        "5S JC 5D JD",
        "4S QC 6D QD",
        "3S KC 7D KD",
        "2S AC 8D AD",
    ]
    assert _run(deal, tricks) == expected_tricks
    assert deal.phase is Phase.DONE
    assert deal.raw == [-390, 0, 0, 0]


def test_early_end_mask_stops_as_soon_as_every_penalty_card_is_out() -> None:
    # A 4-card position played on TrickPlay: the two hearts of this position are the
    # "penalty cards"; they are out after trick 2.
    dealt = hands("AS KS 2D 3D", "2H 3H 4C 5C", "4D 5D 6D 7D", "8D 9D TD JD")
    t = TrickPlay(dealt, leader=0, rules=TrickRules(direction=-1, early_end=dealt[1] & hands("2H 3H")[0]))
    for c in cards("AS JD 4D 2H"):
        t.play(c)
    assert not t.finished
    for c in cards("KS 8D 5D 3H"):
        t.play(c)
    assert t.finished and t.winners == [0, 0]


@pytest.mark.parametrize("contract", ["no-hearts", "no-tricks", "no-last-two", "trumps"])
def test_contracts_without_early_end_play_every_trick(contract: str) -> None:
    deal = to_play(contract, hands(*ONE_SUIT_EACH), trump="S" if contract == "trumps" else None)
    assert _run(deal, spade_tricks(RANKS_UP, RANKS_UP, RANKS_UP)) == 13
    assert deal.tricks is not None and deal.tricks.winners == [0] * 13


def test_salad_never_ends_early() -> None:
    deal = to_play("salad", hands(*ONE_SUIT_EACH), variant="salad")
    assert _run(deal, spade_tricks(list(reversed(RANKS_UP)), RANKS_UP, RANKS_UP)) == 13


# -- checked door refusals ----------------------------------------------------------------------------


def test_a_pass_is_not_a_trick_play_and_refusals_change_nothing() -> None:
    deal = to_play("no-tricks", hands("5D 6C", "9D 2D AS", "KC", "3H"))
    before = (deal.plays[:], deal.to_act, deal.tricks.hands[:] if deal.tricks else None)
    for action, seat in ((Pass(), 0), (Play(card("9D")), 0), (Play(card("5D")), 1), (Play(99), 0)):
        with pytest.raises(IllegalAction):
            deal.apply(action, seat)
    assert (deal.plays[:], deal.to_act, deal.tricks.hands[:] if deal.tricks else None) == before
