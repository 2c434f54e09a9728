"""Every worked example of RULES.md §7, played through the engine.

Figures are the ones RULES.md prints (re-derived by hand where a test builds its own
hands); nothing here is copied from the engine's output.
"""

from __future__ import annotations

import pytest

from barbu import Call, Declare, EnterTally, IllegalAction, NameRank, NameTrump, Pass, Play
from barbu.cards import card, mask_of
from barbu.deal import Deal, Phase
from barbu.game import Game
from table_setup import hands, legal_cards, phase, play_all, score_sheet, sheet_deal, to_play

# -- W1: skip splits ---------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, contract, total, declarer_share, other_share",
    [
        ("classic", "no-tricks", -26, 1, -9),
        ("classic", "no-hearts", -30, 0, -10),
        ("classic", "no-queens", -24, 0, -8),
        ("classic", "no-king", -20, 1, -7),
        ("classic", "no-last-two", -30, 0, -10),
        ("ravage-city", "no-queens", -32, 1, -11),
        ("ravage-city", "ravage-city", -24, 0, -8),
        ("five-player", "no-last-two", -30, 2, -8),
    ],
)
def test_w1_undoubled_negative_is_split_unplayed(
    variant: str, contract: str, total: int, declarer_share: int, other_share: int
) -> None:
    game = score_sheet(variant)
    n = game.rules.players
    deck = game.rules.deck_cards
    game.give_hands([mask_of(deck[i::n]) for i in range(n)])
    deal = sheet_deal(game, contract)
    assert deal.skipped and deal.plays == []
    assert deal.raw == [declarer_share] + [other_share] * (n - 1)
    assert deal.adjustments == [0] * n
    assert deal.final == deal.raw
    assert sum(deal.raw) == total
    assert game.totals == deal.raw


def test_w1_any_pair_even_between_non_declarers_means_the_deal_is_played() -> None:
    game = score_sheet()
    deal = sheet_deal(game, "no-tricks", calls={1: Call(double=(2,))}, tally={"tricks": [13, 0, 0, 0]})
    assert not deal.skipped
    assert deal.raw == [-26, 0, 0, 0]
    # P1 -> P2: 0 - 0 = 0
    assert deal.final == [-26, 0, 0, 0]


# -- W2: no queens, a redouble and a pair between non-declarers ---------------------


def test_w2_no_queens_redouble_and_non_declarer_pair() -> None:
    game = score_sheet()
    deal = game.current
    assert deal is not None
    game.apply(Declare("no-queens"), 0)
    game.apply(Call(double=(0,)), 1)
    game.apply(Call(double=(0, 1)), 2)
    game.apply(Call(), 3)
    game.apply(Call(redouble=(1,)), 0)
    # round 2: only P1 (doubled by P2, who called after it)
    assert deal.phase is Phase.CALL and deal.to_act == 1
    game.apply(Call(), 1)
    assert phase(deal) is Phase.TALLY
    assert sorted((p.doubler, p.doubled, p.multiplier) for p in deal.pairs()) == [(1, 0, 2), (2, 0, 1), (2, 1, 1)]
    game.apply(EnterTally({"queens": [0, 2, 1, 1]}))
    assert deal.raw == [0, -12, -6, -6]
    assert deal.adjustments == [24 + 6, -24 - 6, -6 + 6, 0]
    assert deal.final == [30, -42, -6, -6]
    assert sum(deal.final) == -24


# -- W3: no tricks, three doubles of the declarer ---------------------------------


def test_w3_no_tricks_all_double_the_declarer() -> None:
    game = score_sheet()
    deal = sheet_deal(
        game,
        "no-tricks",
        calls={1: Call(double=(0,)), 2: Call(double=(0,)), 3: Call(double=(0,))},
        tally={"tricks": [2, 5, 3, 3]},
    )
    assert deal.raw == [-4, -10, -6, -6]
    assert deal.final == [6, -16, -8, -8]
    assert sum(deal.final) == -26


def test_w3_calls_settled_on_a_played_deal() -> None:
    # W3's calls on a played deal: the declarer P0 holds the 13 spades and wins every
    # trick (the others, void, discard). Raw -26, 0, 0, 0; each Pk -> P0 is
    # 0 - (-26) = +26 to Pk.
    dealt = hands("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")
    deal = to_play("no-tricks", dealt, calls=[Call(double=(0,)), Call(double=(0,)), Call(double=(0,)), Call()])
    spades = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]
    others = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    for s, o in zip(spades, others, strict=True):
        play_all(deal, f"{s}S {o}H {o}D {o}C")
    assert deal.raw == [-26, 0, 0, 0]
    # each Pk -> P0: 0 - (-26) = +26
    assert deal.final == [-26 - 78, 26, 26, 26]


# -- W4: trumps with a redouble ---------------------------------------------------


@pytest.mark.parametrize("p3_call", [Call(double=(0,)), Call(word="maximum"), Call(word="table")])
def test_w4_trumps_with_a_redouble(p3_call: Call) -> None:
    game = score_sheet()
    deal = game.current
    assert deal is not None
    game.apply(Declare("trumps"), 0)
    game.apply(NameTrump(0), 0)
    game.apply(Call(double=(0,)), 1)
    with pytest.raises(IllegalAction):  # positive contract: P2 may not double P1
        game.apply(Call(double=(1,)), 2)
    game.apply(Call(), 2)
    game.apply(p3_call, 3)
    with pytest.raises(IllegalAction):  # P2 never doubled P0
        game.apply(Call(redouble=(2,)), 0)
    game.apply(Call(redouble=(3,)), 0)
    assert deal.phase is Phase.TALLY  # nobody has a round-2 call
    game.apply(EnterTally({"tricks": [6, 3, 2, 2]}))
    assert deal.raw == [30, 15, 10, 10]
    assert deal.adjustments == [15 + 40, -15, 0, -40]
    assert deal.final == [85, 0, 10, -30]
    assert sum(deal.final) == 65


# -- W5: domino with doubles ---------------------------------------------------------


def test_w5_domino_with_doubles_by_tally() -> None:
    game = score_sheet()
    deal = sheet_deal(game, "domino", calls={1: Call(double=(0,)), 2: Call(double=(0,))}, tally={"order": [2, 0, 3, 1]})
    assert deal.raw == [20, -5, 45, 5]
    assert deal.adjustments == [0, -25, 25, 0]
    assert deal.final == [20, -30, 70, 5]
    assert sum(deal.final) == 65


def test_w5_domino_with_doubles_played_out() -> None:
    # From the 7, turns P0 P1 P2 P3. Hand-traced:
    # P0 7S; P1 7H; P2 8S (out: 1st); P3 6S; P0 9S (out: 2nd); P1 pass; P3 5S (out: 3rd).
    dealt = hands("7S 9S", "7H 4D", "8S", "6S 5S")
    deal = to_play("domino", dealt, rank="7", calls=[Call(double=(0,)), Call(double=(0,)), Call(), Call()])
    play_all(deal, "7S 7H 8S 6S 9S pass 5S")
    assert deal.phase is Phase.DONE
    assert deal.tally == {"order": [2, 0, 3, 1]}
    assert deal.final == [20, -30, 70, 5]


# -- W10: compulsory doubles ---------------------------------------------------------

SET = ["no-tricks", "trumps", "no-hearts", "no-queens", "no-king", "no-last-two", "domino"]
"""P0's set in the order it declares it: the 6th is negative, the 7th is domino."""


def _p0_set_until(k: int, p2_doubled_at: set[int]) -> tuple[Game, Deal]:
    """P0's set on a score sheet up to P2's call at P0's k-th contract (1-based).

    P2 doubles P0 at the contracts in ``p2_doubled_at``; P1 and P3 double P0 at the
    first two contracts, so that they owe nothing later.
    """
    game = score_sheet()
    for i in range(1, k):
        calls: dict[int, Call] = {}
        if i <= 2:
            calls[1] = calls[3] = Call(double=(0,))
        if i in p2_doubled_at:
            calls[2] = Call(double=(0,))
        sheet_deal(game, SET[i - 1], calls)
    deal = game.current
    assert deal is not None and deal.declarer == 0
    game.apply(Declare(SET[k - 1]), 0)
    if deal.phase is Phase.RANK:
        game.apply(NameRank(5), 0)
    game.apply(Call(), 1)  # P1 met its obligation
    assert deal.to_act == 2
    return game, deal


@pytest.mark.parametrize(
    "k, earlier, forced",
    [
        (5, set(), False),
        (6, set(), True),
        (6, {3}, False),
        (7, {3}, True),  # the 7th contract is domino: forced all the same
        (7, {3, 4}, False),
    ],
)
def test_w10_compulsory_doubles_table(k: int, earlier: set[int], forced: bool) -> None:
    game, deal = _p0_set_until(k, earlier)
    assert game.is_legal(Call(double=(0,)), 2)
    assert game.is_legal(Call(word="maximum"), 2)
    assert game.is_legal(Call(), 2) is (not forced)
    assert game.is_legal(Call(word="pass"), 2) is (not forced)
    assert deal.doubling is not None
    assert deal.doubling.must_double(2) == ([0] if forced else [])
    assert all(0 in c.double for c in deal.legal_actions() if isinstance(c, Call)) is forced


def test_w10_at_k6_with_c0_pass_or_doubling_p1_only_is_illegal_and_forced_again_at_k7() -> None:
    game, deal = _p0_set_until(6, set())
    for bad in (Call(), Call(word="pass"), Call(double=(1,)), Call(double=(1, 3)), Call(word="flanks")):
        with pytest.raises(IllegalAction, match="must double the declarer"):
            game.apply(bad, 2)
    game.apply(Call(double=(0, 1)), 2)
    while deal.phase is Phase.CALL:
        game.apply(Call(), deal.to_act)
    game.apply(EnterTally({"second_last": 1, "last": 2}))
    game.apply(Declare("domino"), 0)
    game.apply(NameRank(5), 0)
    game.apply(Call(), 1)
    assert not game.is_legal(Call(), 2)
    game.apply(Call(word="maximum"), 2)
    seventh = game.current
    assert seventh is not None and seventh.doubling is not None
    assert seventh.doubling.calls[-1].doubles == (0,)  # domino: maximum doubles the declarer only


# -- W12: heart lead and trick winners --------------------------------------------


@pytest.mark.parametrize("contract", ["no-hearts", "no-king"])
def test_w12_heart_lead_strict(contract: str) -> None:
    deal = to_play(contract, hands("AH 2H 5C", "3S 4S 5S", "6S 7S 8S", "9S TS JS"))
    assert deal.legal_actions() == [Play(card("5C"))]
    with pytest.raises(IllegalAction, match="heart"):
        deal.apply(Play(card("AH")), 0)
    deal = to_play(contract, hands("AH 2H", "3S 4S", "6S 7S", "9S TS"))
    assert legal_cards(deal) == {card("AH"), card("2H")}


def test_w12_trumps_winner_is_the_highest_trump() -> None:
    deal = to_play("trumps", hands("5D", "7S", "9S", "AD"), trump="S")
    play_all(deal, "5D 7S 9S AD")
    assert deal.tricks is not None and deal.tricks.winners == [2]
    assert deal.raw == [0, 0, 5, 0]


def test_w12_off_suit_ace_never_wins() -> None:
    deal = to_play("no-tricks", hands("5D", "AH", "9D", "2D"))
    play_all(deal, "5D AH 9D 2D")
    assert deal.tricks is not None and deal.tricks.winners == [2]
    assert deal.raw == [0, 0, -2, 0]


# -- W13: early end -----------------------------------------------------------------

ONE_SUIT_EACH = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")


@pytest.mark.parametrize("early_end", [True, False])
def test_w13_no_queens_ends_after_the_trick_of_the_fourth_queen(early_end: bool) -> None:
    # P0 holds every spade and wins every trick; QS in trick 1, QD in trick 2,
    # QC in trick 5, QH (the fourth queen) in trick 9.
    deal = to_play("no-queens", hands(*ONE_SUIT_EACH), options={"early_end": early_end})
    tricks = [
        "QS 2H 2D 2C",
        "AS 3H QD 3C",
        "KS 4H 3D 4C",
        "JS 5H 4D 5C",
        "TS 6H 5D QC",
        "9S 7H 6D 6C",
        "8S 8H 7D 7C",
        "7S 9H 8D 8C",
        "6S QH 9D 9C",
        "5S TH TD TC",
        "4S JH JD JC",
        "3S KH KD KC",
        "2S AH AD AC",
    ]
    for t in tricks[:8]:
        play_all(deal, t)
    assert deal.phase is Phase.PLAY
    play_all(deal, tricks[8])
    if early_end:
        assert phase(deal) is Phase.DONE
        assert deal.tricks is not None and len(deal.tricks.winners) == 9
        with pytest.raises(IllegalAction):
            deal.apply(Play(card("5S")), 0)
    else:
        assert deal.phase is Phase.PLAY
        for t in tricks[9:]:
            play_all(deal, t)
        assert phase(deal) is Phase.DONE
    assert deal.raw == [-24, 0, 0, 0]


def test_w13_no_king_ends_after_the_trick_where_the_king_is_discarded() -> None:
    # P1 (hearts only) discards the K of hearts in trick 3, won by the declarer P0.
    deal = to_play("no-king", hands(*ONE_SUIT_EACH))
    play_all(deal, "AS 2H 2D 2C  KS 3H 3D 3C  QS KH 4D 4C")
    assert deal.phase is Phase.DONE
    assert deal.tricks is not None and deal.tricks.winners == [0, 0, 0]
    assert deal.raw == [-20, 0, 0, 0]


def test_w13_no_king_winner_of_the_trick_takes_the_penalty() -> None:
    # P2 wins trick 3 (a diamond trick) in which P1 discards the K of hearts.
    dealt = hands("AS KS 2D 3S", "QS JS KH 4S", "TS 9S AD 5S", "8S 7S 3D 6S")
    deal = to_play("no-king", dealt)
    play_all(deal, "AS QS TS 8S  KS JS 9S 7S  2D KH AD 3D")
    assert deal.phase is Phase.DONE
    assert deal.tricks is not None and deal.tricks.winners == [0, 0, 2]
    assert deal.raw == [0, 0, -20, 0]


# -- W14: domino legality -------------------------------------------------------------


def test_w14_legal_cards_from_the_seven() -> None:
    # P0 7S, P1 8S, P2 7H; then P3 holds 6S 9S 8H 7C AD.
    dealt = hands("7S 2H 3H", "8S 2D 3D", "7H 2C 3C", "6S 9S 8H 7C AD")
    deal = to_play("domino", dealt, rank="7")
    play_all(deal, "7S 8S 7H")
    assert deal.to_act == 3
    legal = legal_cards(deal)
    assert legal == {card(c) for c in ("6S", "9S", "8H", "7C")}
    with pytest.raises(IllegalAction):
        deal.apply(Play(card("AD")), 3)


def test_w14_from_the_ace_rows_grow_downward_only() -> None:
    dealt = hands("AS KS 2S", "QS 3H", "AH JS", "QH 4C")
    deal = to_play("domino", dealt, rank="A")
    assert {a.card for a in deal.legal_actions()} == {card("AS")}  # type: ignore[union-attr]
    play_all(deal, "AS")
    # P1: QS does not touch A; it must pass
    assert deal.legal_actions() == [Pass()]
    play_all(deal, "pass")
    assert {a.card for a in deal.legal_actions()} == {card("AH")}  # type: ignore[union-attr]
    play_all(deal, "AH pass")
    # P0: KS fits below AS, 2S does not (no wrap-around)
    assert {a.card for a in deal.legal_actions()} == {card("KS")}  # type: ignore[union-attr]


def test_w14_from_the_two_rows_grow_upward_only() -> None:
    dealt = hands("2S AS 3S", "2H KH", "4S QS", "3H 5C")
    deal = to_play("domino", dealt, rank="2")
    play_all(deal, "2S 2H")
    # P2: 4S does not touch 2S; nothing below 2
    assert deal.legal_actions() == [Pass()]
    play_all(deal, "pass")
    assert {a.card for a in deal.legal_actions()} == {card("3H")}  # type: ignore[union-attr]
    play_all(deal, "3H")
    # P0: 3S fits above 2S; AS does not wrap below the 2
    assert {a.card for a in deal.legal_actions()} == {card("3S")}  # type: ignore[union-attr]


def test_w14_declarer_without_the_rank_passes_on_its_first_turn() -> None:
    deal = to_play("domino", hands("6S 8S", "7S", "7H", "7D"), rank="7")
    assert deal.to_act == 0 and deal.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction):
        deal.apply(Play(card("6S")), 0)
    deal.apply(Pass(), 0)
    assert deal.to_act == 1
