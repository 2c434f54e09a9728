"""Each rule set beyond classic (RULES.md §4): one or more hand-checked scenarios each.

Figures are worked out by hand in the comments from the values tables of RULES.md.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from barbu import Arrange, Call, Declare, EnterTally, Game, IllegalAction, NameTrump, rules
from barbu.deal import Deal, Phase
from table_setup import cards, hands, play_all, score_sheet, sheet_deal, to_play

ONE_SUIT_EACH = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")
DOWN = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]


def declarer_wins_everything(deal: Deal) -> None:
    """P0 (all spades) leads spades high to low; the others (one suit each) discard."""
    up = list(reversed(DOWN))
    for s, o in zip(DOWN, up, strict=True):
        if deal.phase is Phase.DONE:
            return
        play_all(deal, f"{s}S {o}H {o}D {o}C")


# -- ravage-city ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "suits, total, expected",
    [
        # one leader with 4; everyone else 3
        ([[4, 4, 4, 4], [3, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]], -24, [-24, 0, 0, 0]),
        # P0 reaches 5 in two suits (counted once) and ties P1: -24 / 2
        ([[5, 5, 3, 3], [5, 2, 3, 2], [1, 3, 4, 4], [2, 3, 3, 4]], -24, [-12, -12, 0, 0]),
        ([[4, 4, 4, 4], [4, 3, 3, 2], [3, 3, 3, 3], [2, 3, 3, 4]], -24, [-8, -8, 0, -8]),
        ([[4, 4, 4, 4], [4, 3, 3, 2], [2, 4, 3, 3], [3, 2, 3, 4]], -24, [-6, -6, -6, -6]),
        ([[5, 5, 3, 3], [5, 2, 3, 2], [1, 3, 4, 4], [2, 3, 3, 4]], -36, [-18, -18, 0, 0]),
        ([[4, 4, 4, 4], [4, 3, 3, 2], [3, 3, 3, 3], [2, 3, 3, 4]], -36, [-12, -12, 0, -12]),
        ([[4, 4, 4, 4], [4, 3, 3, 2], [2, 4, 3, 3], [3, 2, 3, 4]], -36, [-9, -9, -9, -9]),
    ],
)
def test_ravage_city_shares_the_penalty_among_the_tied_leaders(
    suits: list[list[int]], total: int, expected: list[int]
) -> None:
    game = score_sheet("ravage-city", {"ravage_city_total": total} if total != -24 else None)
    deal = sheet_deal(game, "ravage-city", {1: Call(double=(0,))}, {"suits": suits})
    assert deal.raw == expected
    assert sum(deal.final or []) == total


def test_ravage_city_played_all_thirteen_tricks() -> None:
    # P0 takes every trick: 13 cards of each suit, the sole leader.
    deal = to_play("ravage-city", hands(*ONE_SUIT_EACH), variant="ravage-city")
    declarer_wins_everything(deal)
    assert deal.tricks is not None and len(deal.tricks.winners) == 13
    assert deal.raw == [-24, 0, 0, 0]


def test_ravage_city_set_has_eight_contracts_and_32_deals() -> None:
    r = rules("ravage-city")
    game = score_sheet("ravage-city")
    assert [str(a) for a in game.legal_actions()] == [c.id for c in r.contracts]
    assert len(r.contracts) == 8 and r.deal_count == 32


# -- chinese-poker ---------------------------------------------------------------------------------

# back 5, middle 5, front 3
P0 = "AS KS QS JS TS  9S 9H 9D 9C 2S  AH AD AC"  # straight flush, four nines, three aces
P1 = "8D 8C 8H 8S 3S  KD QD JD TD 7D  KH KC 2H"  # four eights, flush, pair of kings
P2 = "7S 7C 7H 6S 6H  5S 5H 5D 4S 4H  QH QC 3H"  # sevens full, fives full, pair of queens
P3 = "TH TC 4C 3C 2D  6D 6C 5C 4D 3D  JH JC 2C"  # pair of tens, pair of sixes, pair of jacks: foul


def test_chinese_poker_scored_by_hand() -> None:
    # P0 v P1: 3 rows + 3 = +6.  P0 v P2: +6.  P1 v P2: back quads > full house (P1),
    # middle full house > flush (P2), front KK > QQ (P1): P1 +1.  Each valid v the
    # foul P3: +6.  Sums: P0 18, P1 -6+1+6 = 1, P2 -6-1+6 = -1, P3 -18; times 4.
    deal = Deal(rules("chinese-poker"), 0, 0, hands(P0, P1, P2, P3), rules("chinese-poker").contracts)
    deal.apply(Declare("chinese-poker"), 0)
    deal.apply(Call(double=(0,)), 1)
    for seat in (2, 3, 0):
        deal.apply(Call(), seat)
    assert deal.phase is Phase.ARRANGE
    for seat, text in ((1, P1), (2, P2), (3, P3), (0, P0)):
        deal.apply(Arrange(tuple(cards(text))), seat)
    assert deal.raw == [72, 4, -4, -72]
    # P1 -> P0: 4 - 72 = -68
    assert deal.final == [140, -64, -4, -72]


def test_chinese_poker_rows_may_be_written_in_any_order_within_a_row() -> None:
    deal = Deal(rules("chinese-poker"), 0, 0, hands(P0, P1, P2, P3), rules("chinese-poker").contracts)
    deal.apply(Declare("chinese-poker"), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    for seat, text in ((1, P1), (2, P2), (3, P3), (0, P0)):
        c = cards(text)
        shuffled = c[:5][::-1] + c[5:10][::-1] + c[10:][::-1]
        deal.apply(Arrange(tuple(shuffled)), seat)
    assert deal.raw == [72, 4, -4, -72]


def test_chinese_poker_counts_for_compulsory_doubles_with_k_9() -> None:
    game = score_sheet("chinese-poker")
    ids = [c.id for c in rules("chinese-poker").contracts]
    tallies: dict[str, dict[str, Any]] = {
        "ravage-city": {"suits": [[4, 4, 4, 4], [3, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]]},
    }
    # the first 7 contracts of P0's set: nobody doubles (negatives are skipped)
    for contract in ids[:7]:
        sheet_deal(game, contract, tally=tallies.get(contract))
    deal = game.current
    assert deal is not None
    game.apply(Declare("chinese-poker"), 0)  # the 8th: k = 8, c = 0: 2 >= 9 - 8 + 1
    assert deal.forced == frozenset({1, 2, 3})
    with pytest.raises(IllegalAction, match="must double"):
        game.apply(Call(), 1)


# -- salad ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, options, contract, expected",
    [
        # one trick: 2H KH AH QH, won by P2 with the AH
        ("salad", {}, "no-tricks", -5),
        ("salad", {}, "no-hearts", -40),  # four hearts at -10, the AH no extra
        ("salad", {}, "no-queens", -20),  # the QH is a queen
        ("salad", {}, "no-king", -50),
        ("salad", {}, "no-last-two", -30),  # the only trick is the last
        ("salad", {}, "salad", -5 - 40 - 20 - 50 - 30),  # KH and QH count in every part
        ("salad", {"player_count": 5}, "salad", -5 - 50 - 20 - 50 - 30),  # five hearts here
        ("french", {}, "salad", 5 + 20 + 20 + 80),  # penalty points, no last-trick part
        ("french", {"player_count": 3}, "salad", 5 + 15 + 80),  # three hearts, no queen
    ],
)
def test_salad_counts_the_king_and_queen_of_hearts_in_every_part(
    variant: str, options: dict[str, Any], contract: str, expected: int
) -> None:
    n = rules(variant, options).players
    seats = ["2H", "KH", "AH", "QH", "3H"][:n]
    deal = to_play(contract, hands(*seats), variant=variant, options=options)
    play_all(deal, " ".join(seats))
    raw = [0] * n
    raw[2] = expected
    assert deal.raw == raw


def test_salad_played_out_totals_its_parts() -> None:
    deal = to_play("salad", hands(*ONE_SUIT_EACH), variant="salad")
    declarer_wins_everything(deal)
    assert deal.raw == [-355, 0, 0, 0]


def test_five_player_salad_has_no_black_twos() -> None:
    r = rules("salad", {"player_count": 5})
    assert r.cards_each == 10 and r.deal_count == 30
    assert r.total(r.contract("salad")) == -340
    assert "domino" not in [c.id for c in r.contracts]


# -- five-player ------------------------------------------------------------------------------------------


def test_five_player_last_two_are_tricks_nine_and_ten() -> None:
    game = score_sheet("five-player")
    deal = sheet_deal(game, "no-last-two", {1: Call(double=(0,))}, {"second_last": 3, "last": 4})
    assert deal.raw == [0, 0, 0, -10, -20]
    # P1 -> P0: 0 - 0
    assert deal.final == [0, 0, 0, -10, -20]


def test_five_player_calls_in_order_and_flanks_three() -> None:
    game = score_sheet("five-player", first=2)
    game.apply(Declare("no-queens"), 2)
    deal = game.current
    assert deal is not None
    order = []
    while deal.phase is Phase.CALL and deal.doubling is not None and deal.doubling.round == 1:
        order.append(deal.to_act)
        game.apply(Call(word="flanks") if deal.to_act == 3 else Call(), deal.to_act)
    assert order == [3, 4, 0, 1, 2]
    assert {(p.doubler, p.doubled) for p in deal.pairs()} == {(3, 4), (3, 0), (3, 1)}


def test_five_player_domino_values() -> None:
    game = score_sheet("five-player")
    deal = sheet_deal(game, "domino", tally={"order": [3, 1, 4, 0, 2]})
    assert deal.raw == [0, 25, -6, 45, 10]
    assert sum(deal.raw) == 74


# -- french ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, order, expected",
    [
        (3, [2, 0, 1], [0, 40, -40]),
        (4, [2, 0, 3, 1], [-20, 40, -50, 20]),
        (5, [4, 3, 2, 1, 0], [50, 25, 0, -25, -50]),
    ],
)
def test_french_domino_placing_tables(n: int, order: list[int], expected: list[int]) -> None:
    opts = {"player_count": n} if n != 4 else None
    game = score_sheet("french", opts)
    for _ in range(7 * n):
        deal = game.current
        assert deal is not None and deal.phase is Phase.TALLY
        keys = deal.contract.tally_keys() if deal.contract else ()
        game.apply(EnterTally(_french_tally(deal.contract.id if deal.contract else "", n, keys)))
    deal = game.current
    assert deal is not None and deal.contract is not None and deal.contract.id == "domino"
    game.apply(EnterTally({"order": order}))
    assert deal.raw == expected


def _french_tally(contract: str, n: int, keys: tuple[str, ...]) -> dict[str, Any]:
    each = {3: 17, 4: 13, 5: 10}[n]
    spread = [each] + [0] * (n - 1)
    out: dict[str, Any] = {}
    for k in keys:
        if k == "tricks":
            out[k] = spread
        elif k == "hearts":
            out[k] = [13] + [0] * (n - 1)
        elif k == "queens":
            out[k] = [4] + [0] * (n - 1)
        else:
            out[k] = 0
    return out


def test_french_more_tricks_and_first_and_last() -> None:
    r = rules("french")
    # more-tricks: each trick -5 (penalty points: good). One trick, won by P3.
    deal = Deal(r, 5 * 4, 1, hands("2C", "3C", "4C", "AC"), r.contracts)
    assert deal.contract is not None and deal.contract.id == "more-tricks"
    assert deal.to_act == 1
    play_all(deal, "3C 4C AC 2C")
    assert deal.raw == [0, 0, 0, -5]
    # first-and-last: 40 for trick 1 and 40 for trick N (here N = 2)
    deal = Deal(r, 6 * 4, 0, hands("AS 2D", "2S AD", "3S 3D", "4S 4D"), r.contracts)
    assert deal.contract is not None and deal.contract.id == "first-and-last"
    play_all(deal, "AS 2S 3S 4S  2D AD 3D 4D")
    assert deal.raw == [40, 40, 0, 0]


def test_french_has_no_calls_and_penalty_points_rank_lowest_first() -> None:
    game = Game.new("french", seed=1)
    rng = random.Random(1)
    while not game.is_over:
        assert game.phase not in ("contract", "call", "rank")
        game.apply(rng.choice(game.legal_actions()))
    assert sum(game.totals) == 4 * (65 + 65 + 80 + 80 + 290 - 65 + 80 - 10)
    best = min(game.totals)
    assert game.winners() == [s for s, t in enumerate(game.totals) if t == best]


# -- king --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, tally, expected",
    [
        ("king-no-king", {"king_of_hearts": 3}, [0, 0, 0, -320]),
        ("king-no-queens", {"queens": [0, 1, 2, 1]}, [0, -100, -200, -100]),
        ("king-no-boys", {"jacks_and_kings": [1, 3, 2, 2]}, [-60, -180, -120, -120]),
        ("king-no-hearts", {"hearts": [5, 0, 4, 4]}, [-150, 0, -120, -120]),
        ("king-no-last-two", {"second_last": 2, "last": 2}, [0, 0, -360, 0]),
        ("king-no-tricks", {"tricks": [1, 2, 3, 7]}, [-50, -100, -150, -350]),
        ("king-trumps", {"tricks": [1, 2, 3, 7]}, [50, 100, 150, 350]),
    ],
)
def test_king_values(contract: str, tally: dict[str, Any], expected: list[int]) -> None:
    game = score_sheet("king")
    deal = game.current
    assert deal is not None
    game.apply(Declare(contract), 0)
    if deal.phase is Phase.TRUMP:
        game.apply(NameTrump(2), 0)
    assert deal.phase is Phase.TALLY
    game.apply(EnterTally(tally))
    assert deal.raw == expected == deal.final


def test_king_played_deal_goes_round_anticlockwise() -> None:
    # king-no-tricks, declarer 2 leads: 2, 1, 0, 3
    deal = to_play("king-no-tricks", hands("5S", "9S", "2S", "AS"), variant="king", declarer=2)
    seats = []
    for c in ("2S", "9S", "5S", "AS"):
        seats.append(deal.to_act)
        play_all(deal, c)
    assert seats == [2, 1, 0, 3]
    assert deal.raw == [0, 0, 0, -50]


def test_king_game_rotation_and_zero_sum() -> None:
    game = Game.new("king", seed=2, first_declarer=0)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert [d.declarer for d in game.deals] == [(0 - i) % 4 for i in range(20)]
    assert sum(game.totals) == 0
    per_seat = {s: sorted(d.contract.id for d in game.deals if d.declarer == s and d.contract) for s in range(4)}
    for s, contracts in per_seat.items():
        assert contracts.count("king-trumps") == 2 and len(contracts) == 5, s


# -- thirty-two --------------------------------------------------------------------------------------------------

EIGHT_EACH = ("AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987")


def test_thirty_two_plays_eight_tricks_and_scores_the_last_two() -> None:
    deal = to_play("no-last-two", hands(*EIGHT_EACH), variant="thirty-two")
    up = ["7", "8", "9", "T", "J", "Q", "K", "A"]
    for s, o in zip(reversed(up), up, strict=True):
        play_all(deal, f"{s}S {o}H {o}D {o}C")
    assert deal.tricks is not None and len(deal.tricks.winners) == 8
    assert deal.raw == [-30, 0, 0, 0]
    game = score_sheet("thirty-two")
    d = sheet_deal(game, "no-last-two", {1: Call(double=(0,))}, {"second_last": 1, "last": 2})
    assert d.raw == [0, -10, -20, 0]


def test_thirty_two_no_hearts_counts_eight_hearts() -> None:
    deal = to_play("no-hearts", hands(*EIGHT_EACH), variant="thirty-two")
    up = ["7", "8", "9", "T", "J", "Q", "K", "A"]
    for s, o in zip(reversed(up), up, strict=True):
        play_all(deal, f"{s}S {o}H {o}D {o}C")
    assert deal.raw == [-20, 0, 0, 0]  # seven hearts at -2, the ace at -6


# -- quick rotation in every rule set with blocks -----------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, options",
    [
        ("classic", {}),
        ("ravage-city", {}),
        ("chinese-poker", {}),
        ("salad", {}),
        ("salad", {"player_count": 5}),
        ("five-player", {}),
        ("thirty-two", {}),
    ],
)
def test_quick_rotation_every_seat_still_declares_each_contract_once(variant: str, options: dict[str, Any]) -> None:
    game = Game.new(variant, {**options, "rotation": "quick"}, seed=21, first_declarer=1)
    rng = random.Random(21)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    r = game.rules
    assert [d.declarer for d in game.deals] == [(1 + i) % r.players for i in range(r.deal_count)]
    for s in range(r.players):
        own = sorted(d.contract.id for d in game.deals if d.declarer == s and d.contract)
        assert own == sorted(c.id for c in r.contracts)
