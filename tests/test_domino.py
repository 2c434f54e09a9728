"""Domino (RULES.md §2.9.3) and stripped decks (§5): rows, passes, placings, flags.

Every position is traced by hand from the rules; the engine is driven through the
checked door.
"""

from __future__ import annotations

import pytest

from barbu import Call, Declare, IllegalAction, NameRank, Pass, Play
from barbu.cards import RANKS, card, card_name
from barbu.deal import Deal, Phase
from barbu.rulesets import rules
from table_setup import hands, legal_cards, play_all, to_play


def legal(deal: Deal) -> set[str]:
    return {card_name(c) for c in legal_cards(deal)}


# -- passes and placings -----------------------------------------------------------------


def test_a_player_with_a_legal_card_must_play_and_one_without_must_pass() -> None:
    deal = to_play("domino", hands("7S 2H", "8S", "9H", "6S"), rank="7")
    with pytest.raises(IllegalAction, match="cannot pass"):
        deal.apply(Pass(), 0)
    play_all(deal, "7S")
    play_all(deal, "8S")
    assert deal.to_act == 2 and deal.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction):
        deal.apply(Play(card("9H")), 2)
    play_all(deal, "pass")
    assert deal.to_act == 3


def test_players_out_are_skipped_and_the_deal_ends_at_n_minus_1_out() -> None:
    # P1 goes out first, P3 second; P0 (2H left) and P2 remain; P2 goes out third,
    # so P0 takes the last placing with its 2H unplayed.
    deal = to_play("domino", hands("7S 2H 6D", "8S", "7D 9S", "6S"), rank="7")
    play_all(deal, "7S 8S 7D 6S")  # P1 out (1st), P3 out (2nd)
    assert deal.to_act == 0
    play_all(deal, "6D")
    assert deal.to_act == 2  # P1 is skipped
    play_all(deal, "9S")  # P2 out (3rd): the deal ends
    assert deal.phase is Phase.DONE
    assert deal.tally == {"order": [1, 3, 2, 0]}
    assert deal.hand(0) == hands("2H")[0]
    assert deal.raw == [-5, 45, 5, 20]


@pytest.mark.parametrize("values, expected", [(None, [-5, 45, 5, 20]), ([40, 20, 5, 0], [0, 40, 5, 20])])
def test_domino_values_option(values: list[int] | None, expected: list[int]) -> None:
    opts = {"domino_values": values} if values else None
    deal = to_play("domino", hands("7S 2H 6D", "8S", "7D 9S", "6S"), rank="7", options=opts)
    play_all(deal, "7S 8S 7D 6S 6D 9S")
    assert deal.raw == expected


def test_domino_is_not_cut_short_by_early_end() -> None:
    for early_end in (True, False):
        deal = to_play("domino", hands("7S 2H 6D", "8S", "7D 9S", "6S"), rank="7", options={"early_end": early_end})
        play_all(deal, "7S 8S 7D 6S 6D 9S")
        assert deal.phase is Phase.DONE


def test_the_declarer_need_not_hold_the_named_rank() -> None:
    deal = to_play("domino", hands("2S 3S", "4S 5S", "6S 8S", "9S TS"), rank="7")
    for _ in range(4):
        assert deal.legal_actions() == [Pass()]
        play_all(deal, "pass")
    assert deal.to_act == 0


def test_domino_rank_must_be_a_rank_of_the_rule_set() -> None:
    r = rules("classic")
    deal = Deal(r, 0, 0, hands("7S", "8S", "9S", "TS"), r.contracts)
    deal.apply(Declare("domino"), 0)
    assert deal.phase is Phase.RANK
    assert [a.rank for a in deal.legal_actions()] == list(range(13))  # type: ignore[union-attr]
    for bad in (-1, 13):
        with pytest.raises(IllegalAction):
            deal.apply(NameRank(bad), 0)
    assert deal.phase is Phase.RANK


# -- ace replay ---------------------------------------------------------------------------------


@pytest.mark.parametrize("replays", [False, True])
def test_ace_replays(replays: bool) -> None:
    # From the ace: P0 lays AS; with the flag it plays again at once (KS fits).
    deal = to_play("domino", hands("AS KS 2C", "AH 3C", "4C", "5C"), rank="A", options={"domino_ace_replays": replays})
    play_all(deal, "AS")
    if replays:
        assert deal.to_act == 0 and legal(deal) == {"KS"}
        play_all(deal, "KS")  # a king gives no replay
        assert deal.to_act == 1
    else:
        assert deal.to_act == 1


def test_ace_replay_without_a_legal_card_moves_on_without_a_pass() -> None:
    deal = to_play("domino", hands("AS 2C", "AH 3C", "4C", "5C"), rank="A", options={"domino_ace_replays": True})
    play_all(deal, "AS")
    assert deal.to_act == 1
    assert deal.plays == [card("AS")]
    play_all(deal, "AH")  # P1 lays an ace, has nothing more: moves on
    assert deal.to_act == 2 and deal.plays == [card("AS"), card("AH")]


def test_ace_replay_chains_while_aces_are_laid() -> None:
    deal = to_play("domino", hands("AS AH AD 2C", "3C", "4C", "5C"), rank="A", options={"domino_ace_replays": True})
    play_all(deal, "AS AH AD")
    assert deal.to_act == 1


# -- domino_start: first_card -----------------------------------------------------------------


def test_first_card_start_lets_the_declarer_open_with_any_card_which_sets_the_rank() -> None:
    r = rules("classic", {"domino_start": "first_card"})
    deal = Deal(r, 0, 0, hands("9H 2C 5D", "8H 9S 7S", "TH 9C", "3S"), r.contracts)
    deal.apply(Declare("domino"), 0)
    assert deal.phase is Phase.CALL  # no rank to name
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    assert legal(deal) == {"9H", "2C", "5D"}
    play_all(deal, "9H")
    assert deal.rank == RANKS.index("9")
    assert legal(deal) == {"8H", "9S"}  # 7S: spades open only with the 9


# -- removed cards (§5) --------------------------------------------------------------------------


def test_five_player_from_the_two_opens_clubs_and_diamonds_at_once() -> None:
    # 2C and 2D are removed: their rows count as started, 3C and 3D are legal at once.
    deal = to_play("domino", hands("2S 3C 3D 5H 4C", "6S", "7S", "8S", "9S"), variant="five-player", rank="2")
    assert legal(deal) == {"2S", "3C", "3D"}
    play_all(deal, "3C")
    assert deal.domino is not None and deal.domino.rows()[3] == (0, 1)


def test_five_player_forbid_rank_refuses_the_two_and_rows_end_at_the_missing_card() -> None:
    r = rules("five-player", {"removed_card_rule": "forbid_rank"})
    assert RANKS.index("2") not in r.domino_ranks
    deal = Deal(r, 0, 0, hands("3C 4C", "5S", "6S", "7S", "8S"), r.contracts)
    deal.apply(Declare("domino"), 0)
    with pytest.raises(IllegalAction, match="cannot start domino"):
        deal.apply(NameRank(0), 0)
    deal.apply(NameRank(1), 0)  # from the 3
    for seat in (1, 2, 3, 4, 0):
        deal.apply(Call(), seat)
    assert legal(deal) == {"3C"}
    play_all(deal, "3C pass pass pass pass")
    assert legal(deal) == {"4C"}


def test_five_player_forbid_rank_from_the_two_leaves_clubs_unopenable() -> None:
    # Under "laid" the same position from the 2 lets 3C go at once (test above);
    # the rank 2 is refused under forbid_rank, so compare the rank lists.
    assert rules("five-player").domino_ranks == tuple(range(13))
    assert rules("five-player", {"removed_card_rule": "forbid_rank"}).domino_ranks == tuple(range(1, 13))
    assert rules("classic", {"removed_card_rule": "forbid_rank"}).domino_ranks == tuple(range(13))


@pytest.mark.parametrize("n, expected", [(3, {"3C", "3H", "2D"}), (5, {"3S", "3C", "3H", "2D"})])
def test_french_opening_with_a_two_starts_the_rows_of_removed_twos(n: int, expected: set[str]) -> None:
    # 3 players: 2C removed; 5 players: 2S and 2C removed. P0 opens with 2H, so R = 2:
    # the hearts row and the rows of the removed twos are started.
    r = rules("french", {"player_count": n})
    seats = ["2H 9C", "3S 3C 3H 3D 2D", "9S", "9D", "TC"][:n]
    deal = Deal(r, 7 * n, 0, hands(*seats), r.contracts)
    assert deal.contract is not None and deal.contract.id == "domino" and deal.phase is Phase.PLAY
    assert legal(deal) == {"2H", "9C"}
    play_all(deal, "2H")
    assert deal.to_act == 1  # a two gives no replay
    assert legal(deal) == expected


@pytest.mark.parametrize("n", [3, 5])
def test_french_forbid_rank_forbids_opening_with_a_removed_rank(n: int) -> None:
    r = rules("french", {"player_count": n, "removed_card_rule": "forbid_rank"})
    seats = ["2H 3S 9C", "9H", "9S", "9D", "8C"][:n]
    deal = Deal(r, 7 * n, 0, hands(*seats), r.contracts)
    assert legal(deal) == {"3S", "9C"}
    with pytest.raises(IllegalAction):
        deal.apply(Play(card("2H")), 0)


def test_french_opening_ace_plays_again() -> None:
    r = rules("french")
    deal = Deal(r, 28, 0, hands("AS KS 5D", "9H", "9S", "9D"), r.contracts)
    play_all(deal, "AS")
    assert deal.rank == RANKS.index("A")
    assert deal.to_act == 0 and legal(deal) == {"KS"}


# -- thirty-two -----------------------------------------------------------------------------------------


def test_thirty_two_domino_ranks_run_from_seven_and_grow_upward_from_seven() -> None:
    r = rules("thirty-two")
    assert r.domino_ranks == tuple(range(RANKS.index("7"), 13))
    deal = Deal(r, 0, 0, hands("7S 8S", "9S 8H", "TS", "JS"), r.contracts)
    deal.apply(Declare("domino"), 0)
    for low in range(RANKS.index("7")):
        with pytest.raises(IllegalAction):
            deal.apply(NameRank(low), 0)
    deal.apply(NameRank(RANKS.index("7")), 0)
    for seat in (1, 2, 3, 0):
        deal.apply(Call(), seat)
    play_all(deal, "7S")
    assert legal(deal) == set()  # P1: 8S not held, 9S not adjacent, no 7
    play_all(deal, "pass pass pass")
    assert legal(deal) == {"8S"}
    deal_a = Deal(r, 0, 0, hands("AS KS", "QS", "JS", "TS"), r.contracts)
    deal_a.apply(Declare("domino"), 0)
    deal_a.apply(NameRank(12), 0)
    for seat in (1, 2, 3, 0):
        deal_a.apply(Call(), seat)
    play_all(deal_a, "AS pass pass pass")
    assert legal(deal_a) == {"KS"}
