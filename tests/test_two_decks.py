"""French for 6 to 8 players with two decks (``french-two-decks``, docs/variants/french.md).

Worked examples first (a trick with two equal winning cards, whole deals scored with the
doubled points, the tarot king), each worked out by hand in its docstring; then the rule set
played to the end by every bot level, written as a record with repeated card names and
replayed, scored on the web score sheet, offered by the lobby and the terminal setup, and
kept on the pure path by the compiled accelerator.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from barbu import EnterTally, Game, Play, rules
from barbu.accel import score_model
from barbu.bots import make_bot
from barbu.bots.card_play import contract_costs
from barbu.cards import TWIN, card, card_name, cards_of, parse_pbn, pbn
from barbu.deal import Deal, Phase
from barbu.domino import TwinDominoPlay
from barbu.errors import IllegalAction, OptionsError, TallyError
from barbu.record import game_to_record
from barbu.replay import replay_json
from barbu.rulesets import Rules, applicable_flags
from barbu.server.lobby import rule_sets
from barbu.tally_keys import HEART_CARDS, KINGS_OF_HEARTS, QUEENS
from barbu.tricks import TwinTrickPlay
from barbu.view import seat_view
from table_setup import score_sheet
from test_view import check_views

TWO = "french-two-decks"
TAROT = {"tarot_king": True}


def with_first_trick(r: Rules, first: list[str]) -> list[int]:
    """Hands where seat ``i`` holds ``first[i]`` (a card named twice is each deck's copy in
    turn) and the rest of the deck dealt in card order, ``cards_each`` per seat."""
    taken = r.removed
    hands = []
    for name in first:
        c = card(name)
        c = c + TWIN if taken >> c & 1 else c
        taken |= 1 << c
        hands.append(1 << c)
    rest = cards_of(r.deck & ~taken)
    for seat in range(r.players):
        need = r.cards_each - hands[seat].bit_count()
        for c in rest[:need]:
            hands[seat] |= 1 << c
        rest = rest[need:]
    return hands


def no_tricks_deal(r: Rules, first: list[str]) -> Deal:
    deal = Deal(r, 0, 0, with_first_trick(r, first), r.contracts)
    assert deal.contract is not None and deal.contract.id == "no-tricks" and deal.phase is Phase.PLAY
    return deal


# -- the rule data -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, each, removed",
    [
        ({}, 17, ["2C", "2C"]),
        ({"player_count": 7}, 14, ["2S", "2D", "2C", "2S", "2D", "2C"]),
        ({"player_count": 8}, 13, []),
        ({"player_count": 6, **TAROT}, 17, ["KH", "2C"]),
        ({"player_count": 7, **TAROT}, 14, ["KH", "2S", "2D", "2C", "2S", "2C"]),
        ({"player_count": 8, **TAROT}, 12, ["KH", "2S", "2D", "2C", "3C", "2S", "2D", "2C"]),
    ],
)
def test_two_decks_dealt_evenly(options: dict[str, Any], each: int, removed: list[str]) -> None:
    """104 cards, the fewest low cards taken out so that every seat gets as many (2♣, 2♣, 2♠,
    2♠, 2♦, 2♦, 3♣ … in that order); the tarot king stands for both kings of hearts."""
    r = rules(TWO, options)
    assert r.cards_each == each and r.deck.bit_count() == each * r.players
    assert sorted(card_name(c) for c in cards_of(r.removed)) == sorted(removed)
    assert (r.deck & KINGS_OF_HEARTS).bit_count() == (1 if options.get("tarot_king") else 2)


def test_points_doubled() -> None:
    """Every contract total is twice the one-deck game's: 10 per trick, 5 per heart (26 of
    them), 20 per queen (8), the kings of hearts 160 together, 80 for the first and for the
    last trick, the domino placings doubled (6 players: -100 -60 -20 +20 +60 +100)."""
    r = rules(TWO)
    totals = {c.id: r.total(c) for c in r.contracts}
    assert totals == {
        "no-tricks": 170,
        "no-hearts": 130,
        "no-queens": 160,
        "no-king": 160,
        "salad": 170 + 130 + 160 + 160,
        "more-tricks": -170,
        "first-and-last": 160,
        "domino": 0,
    }
    assert r.flags.domino_values == (-100, -60, -20, 20, 60, 100)
    assert r.sign == -1 and r.deal_count == 48 and not r.doubling


def test_flags_of_two_decks() -> None:
    assert "tarot_king" in applicable_flags(rules(TWO))
    with pytest.raises(OptionsError, match="tarot_king does not apply to french: it applies to french-two-decks only"):
        rules("french", TAROT)
    with pytest.raises(OptionsError, match="player_count 5 is not allowed in french-two-decks: use one of 6, 7, 8"):
        rules(TWO, {"player_count": 5})


# -- worked examples --------------------------------------------------------------------------------


def test_equal_cards_the_last_one_placed_wins() -> None:
    """No tricks, 6 players, seat 0 leads. Trick 1: K♠, A♠, Q♠, A♠, 3♠, 4♠. The two aces of
    spades are equal: the one placed last (seat 3's) wins the trick, and seat 3 leads next."""
    r = rules(TWO)
    deal = no_tricks_deal(r, ["KS", "AS", "QS", "AS", "3S", "4S"])
    for name in ("KS", "AS", "QS", "AS", "3S", "4S"):
        deal.apply(Play(card(name)), deal.to_act)  # a card is named by its face: the copy held is played
    t = deal.tricks
    assert isinstance(t, TwinTrickPlay)
    assert t.winners == [3] and deal.to_act == 3
    assert deal.plays[3] == card("AS") + TWIN and deal.plays[1] == card("AS")


def test_an_equal_card_beats_under_forced_penalty() -> None:
    """With ``forced_penalty`` a seat may not keep a penalty card back under the best card so
    far: a card equal to it wins, so it is not "under" (No queens: Q♠ led, then Q♠ again must
    not be forced; a lower queen would be)."""
    r = rules(TWO, {"forced_penalty": True})
    deal = Deal(r, r.players * 2, 0, with_first_trick(r, ["QS", "QS", "JS", "2S", "3S", "4S"]), r.contracts)
    assert deal.contract is not None and deal.contract.id == "no-queens"
    deal.apply(Play(card("QS")), 0)
    legal = deal.legal_mask()
    assert legal >> (card("QS") + TWIN) & 1


def test_a_seat_holding_both_copies_plays_them_one_at_a_time() -> None:
    """A card held twice is one legal action; it can be played twice, and a third time is refused."""
    r = rules(TWO)
    deal = no_tricks_deal(r, ["AS", "2S", "3S", "4S", "5S", "6S"])
    hands = list(deal.dealt or ())
    assert hands[0] >> card("AS") & 1
    assert pbn(hands[0]).count("A") >= 1
    legal = deal.legal_actions()
    assert len(legal) == len({a.card for a in legal if isinstance(a, Play)})
    missing = next(c for c in range(52) if not (hands[0] >> c | hands[0] >> (c + TWIN)) & 1)
    with pytest.raises(IllegalAction, match=f"{card_name(missing)} is not in seat 0's hand"):
        deal.apply(Play(missing), 0)
    first, second = card("AS"), card("AS") + TWIN
    hands[0] |= 1 << second
    hands[1] &= ~(1 << second)
    hands[1] |= 1 << card("KD") if not any(h >> card("KD") & 1 for h in hands) else 1 << (card("KD") + TWIN)
    twice = Deal(r, 0, 0, hands, r.contracts)
    assert pbn(hands[0]).startswith("AA")
    assert [a for a in twice.legal_actions() if isinstance(a, Play)].count(Play(first)) == 1
    twice.apply(Play(first), 0)
    assert twice.hand(0) >> second & 1 and not twice.hand(0) >> first & 1


@pytest.mark.parametrize(
    "options, contract, tally, raw",
    [
        # 17 tricks at 10 each
        ({}, "no-tricks", {"tricks": [5, 4, 3, 2, 2, 1]}, [50, 40, 30, 20, 20, 10]),
        # 26 hearts at 5 each
        ({}, "no-hearts", {"hearts": [10, 6, 4, 3, 2, 1]}, [50, 30, 20, 15, 10, 5]),
        # 8 queens at 20 each
        ({}, "no-queens", {"queens": [3, 2, 1, 1, 1, 0]}, [60, 40, 20, 20, 20, 0]),
        # two kings of hearts, 80 each
        ({}, "no-king", {"kings_of_hearts": [1, 0, 0, 1, 0, 0]}, [80, 0, 0, 80, 0, 0]),
        ({}, "no-king", {"kings_of_hearts": [0, 2, 0, 0, 0, 0]}, [0, 160, 0, 0, 0, 0]),
        # the tarot king alone: 160
        (TAROT, "no-king", {"kings_of_hearts": [0, 0, 1, 0, 0, 0]}, [0, 0, 160, 0, 0, 0]),
        # seat 0: 4 tricks 40 + 10 hearts 50 + 3 queens 60 + a king 80 = 230; seat 1: 30 + 30 + 40;
        # seat 2: 30 + 20 + 20; seat 3: 30 + 15 + 20 + 80; seat 4: 20 + 10 + 20; seat 5: 20 + 5 (620 in all)
        (
            {},
            "salad",
            {
                "tricks": [4, 3, 3, 3, 2, 2],
                "hearts": [10, 6, 4, 3, 2, 1],
                "queens": [3, 2, 1, 1, 1, 0],
                "kings_of_hearts": [1, 0, 0, 1, 0, 0],
            },
            [230, 100, 70, 145, 50, 25],
        ),
        # 17 tricks at -10 each
        ({}, "more-tricks", {"tricks": [5, 4, 3, 2, 2, 1]}, [-50, -40, -30, -20, -20, -10]),
        # 80 for the first trick, 80 for the last
        ({}, "first-and-last", {"first": 2, "last": 2}, [0, 0, 160, 0, 0, 0]),
        # 7 players: -120 -80 -40 0 +40 +80 +120 by the order out
        ({"player_count": 7}, "domino", {"order": [3, 0, 6, 1, 5, 2, 4]}, [-80, 0, 80, -120, 120, 40, -40]),
    ],
)
def test_whole_deals_scored_with_doubled_points(
    options: dict[str, Any], contract: str, tally: dict[str, Any], raw: list[int]
) -> None:
    """Whole deals as a scorekeeper tallies them (the score sheet), penalty points doubled."""
    game = score_sheet(TWO, options)
    index = [c.id for c in game.rules.contracts].index(contract) * game.rules.players
    for _ in range(index):  # fill the deals before with an even No-something tally
        before = game.current
        assert before is not None and before.contract is not None
        game.apply(EnterTally(even_tally(game.rules, before.contract.id)))
    deal = game.current
    assert deal is not None and deal.contract is not None and deal.contract.id == contract
    game.apply(EnterTally(tally))
    assert deal.raw == raw and deal.final == raw
    assert sum(raw) == game.rules.total(deal.contract)


def even_tally(r: Rules, contract: str) -> dict[str, Any]:
    """A valid tally of ``contract``: counts split as evenly as they go, seat 0 taking the rest."""
    n = r.players

    def split(total: int) -> list[int]:
        return [total - (n - 1) * (total // n)] + [total // n] * (n - 1)

    counts = {
        "tricks": split(r.cards_each),
        "hearts": split((r.deck & HEART_CARDS).bit_count()),
        "queens": split((r.deck & QUEENS).bit_count()),
        "kings_of_hearts": [(r.deck & KINGS_OF_HEARTS).bit_count()] + [0] * (n - 1),
        "first": 1,
        "last": 2,
        "order": list(range(n)),
    }
    return {key: counts[key] for key in r.contract(contract).tally_keys()}


def test_tallies_count_the_kings_of_hearts() -> None:
    """Two kings of hearts: the tally counts them per seat and the counts add up to 2 (1 with
    the tarot king)."""
    game = score_sheet(TWO, {})
    for _ in range(3 * 6):
        deal = game.current
        assert deal is not None and deal.contract is not None
        game.apply(EnterTally(even_tally(game.rules, deal.contract.id)))
    assert game.current is not None and game.current.contract is not None
    assert game.current.contract.id == "no-king"
    with pytest.raises(TallyError, match="kings_of_hearts"):
        game.apply(EnterTally({"kings_of_hearts": [1, 0, 0, 0, 0, 0]}))
    with pytest.raises(TallyError, match="kings_of_hearts"):
        game.apply(EnterTally({"king_of_hearts": 1}))


def test_the_tarot_king_ends_no_king_when_it_falls() -> None:
    """With the tarot king the deck holds one king of hearts: No king of hearts stops on the trick
    that takes it, and its taker scores 160."""
    r = rules(TWO, TAROT)
    game = Game.new(TWO, TAROT, seed=4)
    rng = random.Random(4)
    while not any(d.contract is not None and d.contract.id == "no-king" and d.finished for d in game.deals):
        game.apply(rng.choice(game.legal_actions()))
    deal = next(d for d in game.deals if d.contract is not None and d.contract.id == "no-king")
    assert deal.tricks is not None and deal.raw is not None
    taker = deal.raw.index(160)
    assert deal.tricks.captured[taker] & r.deck & KINGS_OF_HEARTS
    assert deal.tricks.winners[-1] == taker  # the deal stopped on the trick that took it
    assert sorted(deal.raw) == [0] * 5 + [160]


def test_domino_has_two_rows_per_suit() -> None:
    """Two decks: each suit has a row per deck from the starting rank. The leader opens with 7♠
    (R = 7, row one of spades); the second 7♠ opens row two; an 8♠ then fits either row."""
    r = rules(TWO)
    index = [c.id for c in r.contracts].index("domino") * r.players
    deal = Deal(r, index, 0, with_first_trick(r, ["7S", "7S", "8S", "8S", "3S", "4S"]), r.contracts)
    assert isinstance(deal.domino, TwinDominoPlay)
    deal.apply(Play(card("7S")), 0)
    rows = deal.domino.twin_rows()
    assert rows[0] == (5, 5) and rows[4] is None
    deal.apply(Play(card("7S")), 1)
    assert deal.domino.twin_rows()[4] == (5, 5)
    deal.apply(Play(card("8S")), 2)
    deal.apply(Play(card("8S")), 3)
    assert deal.domino.twin_rows()[0] == (5, 6) and deal.domino.twin_rows()[4] == (5, 6)
    view = seat_view_json(deal)
    assert len(view) == 8


def seat_view_json(deal: Deal) -> list[Any]:
    assert deal.domino is not None
    return list(deal.domino.shown_rows())


# -- notation -----------------------------------------------------------------------------------------


def test_a_hand_may_hold_a_card_twice() -> None:
    """PBN with a rank written twice: the first deck's copy, then the second's (or the second's at
    once if the first was dealt to another seat)."""
    both = parse_pbn("AAK..2.", taken=0)
    assert pbn(both) == "AAK..2." and both >> (card("AS") + TWIN) & 1
    assert parse_pbn("A...", taken=1 << card("AS")) == 1 << (card("AS") + TWIN)
    with pytest.raises(Exception, match="three times"):
        parse_pbn("AAA...", taken=0)


# -- whole games -------------------------------------------------------------------------------------


def play_game(options: dict[str, Any], level: str, seed: int, deals: int | None = None, **settings: Any) -> Game:
    """A game of bots of ``level`` (``deals``: stop after so many deals). In a whole game the
    heuristic bots play the first deal of each contract and random bots the others (the
    heuristic is slow on the pure path that two decks take)."""
    game = Game.new(TWO, options, seed)
    n = game.rules.players
    bots = [make_bot(level, seed=seed + s, **settings) for s in range(n)]
    others = [make_bot("random", seed=seed + s) for s in range(n)] if deals is None else bots
    while not game.is_over and (deals is None or len(game.finished_deals()) < deals):
        seat = game.to_act
        assert seat is not None and game.current is not None
        bot = bots[seat] if game.current.index % n == 0 else others[seat]
        game.apply(bot.act(seat_view(game, seat)), seat)
    return game


def assert_replays(game: Game) -> None:
    record = game_to_record(game)
    out = replay_json(record)
    assert out["valid"], out
    assert out["totals"] == game.totals


@pytest.mark.parametrize(
    "options, level, seed, deals",
    [
        ({"player_count": 6}, "random", 1, None),
        ({"player_count": 8, **TAROT}, "random", 2, None),
        ({"player_count": 7}, "heuristic", 3, None),
        ({"player_count": 6, **TAROT, "contract_choice": "chooser_doubled"}, "heuristic", 4, 7),
    ],
)
def test_whole_games(options: dict[str, Any], level: str, seed: int, deals: int | None) -> None:
    """Every deal played to its end (``deals``: the first ones, every seat choosing once
    and more); the penalty points add up to the game total; the record (with card names
    written twice) replays to the same totals."""
    game = play_game(options, level, seed, deals)
    r = game.rules
    if deals is not None:
        assert len(game.finished_deals()) == deals
        assert_replays(game)
        return
    assert game.is_over and len(game.deals) == r.deal_count
    if r.adjustments_add_up_to_zero:
        assert sum(game.totals) == r.game_total()
    assert_replays(game)


def test_search_bot_plays_a_deal() -> None:
    game = play_game({"player_count": 8, **TAROT}, "search", 6, deals=1, iterations=1)
    assert len(game.finished_deals()) == 1
    assert_replays(game)


def test_expert_bot_plays_deals_reading_the_play() -> None:
    """The expert weighs its worlds by the cards played, with the rules of thumb asked on the
    pure path that two decks take."""
    game = play_game({"player_count": 6}, "expert", 5, deals=2, ms=None, worlds=2)
    assert len(game.finished_deals()) == 2
    assert_replays(game)


def test_bots_know_what_cards_cost_in_both_decks() -> None:
    r = rules(TWO)
    costs, _, kind = contract_costs(r.contract("no-king"), r)
    assert len(costs) == 104 and costs[card("KH")] == costs[card("KH") + TWIN] == 80
    assert kind == "avoid"


def test_the_compiled_kernels_leave_two_decks_to_the_pure_path() -> None:
    """The compiled scoring model holds one deck: it declines two, so every kernel falls back."""
    r = rules(TWO)
    assert all(score_model(c, r.shape) is None for c in r.contracts)
    deal = Deal(r, 0, 0, with_first_trick(r, ["AS", "2S", "3S", "4S", "5S", "6S"]), r.contracts)
    assert type(deal.tricks) is TwinTrickPlay


def test_no_view_shows_another_seats_unplayed_cards() -> None:
    game = Game.new(TWO, {"player_count": 7}, seed=3)
    rng = random.Random(5)
    step = 0
    while not game.is_over and len(game.deals) <= 2:
        check_views(game, structure=step % 40 == 0)
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    check_views(game)


def test_lobby_offers_two_decks() -> None:
    two = next(r for r in rule_sets() if r["name"] == TWO)
    assert two["players"] == [6, 7, 8]
    flag = next(f for f in two["flags"] if f["name"] == "tarot_king")
    assert {k: flag[k] for k in ("kind", "default", "choices")} == {"kind": "bool", "default": False, "choices": []}
    assert flag["help"].startswith("One tarot king of hearts")
    assert two["tally"]["6"]["kings_of_hearts"]["label"] == "kings of hearts taken"
    assert two["tally"]["6"]["kings_of_hearts"]["total"] == 2


def test_research_adapters_refuse_two_decks_clearly() -> None:
    """The encodings give each card of one deck one place: two decks are refused up front."""
    from barbu.research.env import env

    with pytest.raises(
        OptionsError, match="french-two-decks plays two decks, which the research encodings do not hold"
    ):
        env(TWO, {}).reset(seed=1)
