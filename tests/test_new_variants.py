"""The variants RULES.md Appendix A once listed as not implemented, each with worked examples.

Every example is a hand-built deal (or a tally) whose score is worked out by hand in the
test's docstring; each variant is then played to the end by every bot level, written as a
record and replayed, and offered by the lobby and the terminal setup from the rule data.
"""

from __future__ import annotations

from typing import Any

import pytest

from barbu import Declare, EnterTally, Game, rules
from barbu.bots import make_bot
from barbu.bots.card_play import contract_costs
from barbu.deal import Phase
from barbu.errors import OptionsError
from barbu.record import game_to_record
from barbu.replay import replay_json
from barbu.rulesets import applicable_flags
from barbu.server.lobby import rule_sets
from barbu.view import seat_view
from table_setup import hands, play_all, score_sheet, to_play

SEVENTH = {"seventh_and_last": True}

# -- king: the seventh and the last trick -------------------------------------------------------


def test_king_seventh_and_last_replaces_the_last_two() -> None:
    """With ``seventh_and_last`` King plays the 7th and the last trick instead of the last two;
    the game still sums to 0 (12 negatives of -2600 against 8 trumps of +650 each)."""
    r = rules("king", SEVENTH)
    ids = [c.id for c in r.contracts]
    assert "king-seventh-and-last" in ids and "king-no-last-two" not in ids
    assert ids.index("king-seventh-and-last") == [c.id for c in rules("king").contracts].index("king-no-last-two")
    assert r.total(r.contract("king-seventh-and-last")) == -360
    assert r.game_total() == 0
    assert "seventh_and_last" in applicable_flags(rules("king"))
    with pytest.raises(OptionsError, match="seventh_and_last does not apply to classic: it applies to king only"):
        rules("classic", SEVENTH)
    with pytest.raises(OptionsError, match="must be true or false"):
        rules("king", {"seventh_and_last": "yes"})


def test_king_seventh_and_last_played_deal() -> None:
    """Declarer P0 leads; play goes anticlockwise (P0, P3, P2, P1).

    Hands: P0 twelve spades A-3 and 2H; P1 all clubs; P2 3H and diamonds A-3; P3 2S, 2D and
    hearts A-4. P0 cashes seven spades (tricks 1-7; P3 follows with 2S once, then throws
    hearts), leads 2H in trick 8, which P3 wins with AH (P2 follows with 3H); P3 cashes four
    hearts (tricks 9-12), then leads 2D, and P2's last card, AD, wins trick 13.

    Trick 7 went to P0, trick 13 to P2: raw P0 -180, P1 0, P2 -180, P3 0 (sum -360).
    The same cards under No last two would charge tricks 12 (P3) and 13 (P2) instead.
    """
    dealt = hands(
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
        "...AKQJT98765432",
        "3H AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
        "2S 2D AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
    )
    tricks = [
        "AS 2S 3D 2C",
        "KS 4H 4D 3C",
        "QS 5H 5D 4C",
        "JS 6H 6D 5C",
        "TS 7H 7D 6C",
        "9S 8H 8D 7C",
        "8S 9H 9D 8C",
        "2H AH 3H 9C",
        "KH TD TC 7S",
        "QH JD JC 6S",
        "JH QD QC 5S",
        "TH KD KC 4S",
        "2D AD AC 3S",
    ]
    deal = to_play("king-seventh-and-last", dealt, variant="king", options=SEVENTH)
    for trick in tricks:
        play_all(deal, trick)
    assert deal.tricks is not None and deal.tricks.winners[6] == 0 and deal.tricks.winners[-2:] == [3, 2]
    assert deal.tally == {"seventh": 0, "last": 2}
    assert deal.raw == deal.final == [-180, 0, -180, 0]
    other = to_play("king-no-last-two", dealt, variant="king")
    for trick in tricks:
        play_all(other, trick)
    assert other.raw == [0, 0, -180, -180]


def test_king_seventh_and_last_on_the_score_sheet() -> None:
    """A tallied deal: P1 won trick 7, P3 the last trick -> raw 0, -180, 0, -180.
    A seat that won both pays both: P2 -> 0, 0, -360, 0."""
    for tally, expected in (
        ({"seventh": 1, "last": 3}, [0, -180, 0, -180]),
        ({"seventh": 2, "last": 2}, [0, 0, -360, 0]),
    ):
        game = score_sheet("king", SEVENTH)
        deal = game.current
        assert deal is not None
        game.apply(Declare("king-seventh-and-last"), 0)
        assert deal.phase is Phase.TALLY
        game.apply(EnterTally(tally))
        assert deal.raw == deal.final == expected
    game = score_sheet("king", SEVENTH)
    game.apply(Declare("king-seventh-and-last"), 0)
    with pytest.raises(Exception, match="seventh"):
        game.apply(EnterTally({"second_last": 1, "last": 2}))


def test_king_seventh_and_last_bots_know_what_tricks_cost() -> None:
    """Trick 7 and trick 13 each cost their winner 180 (a cost, so positive); no card costs anything."""
    r = rules("king", SEVENTH)
    cards, tricks, kind = contract_costs(r.contract("king-seventh-and-last"), r)
    assert kind == "avoid" and not any(cards)
    assert [i + 1 for i, t in enumerate(tricks) if t] == [7, 13] and tricks[6] == tricks[12] > 0


# -- whole games by every bot level, records and replay -------------------------------------------


def play_game(variant: str, options: dict[str, Any], level: str, seed: int, deals: int | None = None) -> Game:
    """A game between four bots of ``level`` (``deals``: stop after so many deals)."""
    game = Game.new(variant, options, seed)
    bots = [make_bot(level, seed=seed + s) for s in range(game.rules.players)]
    while not game.is_over and (deals is None or len(game.finished_deals()) < deals):
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
    return game


def assert_replays(game: Game) -> None:
    """The game's record replays to the same scores."""
    out = replay_json(game_to_record(game))
    assert out["valid"], out
    assert out["totals"] == game.totals


@pytest.mark.parametrize("level, seed", [("random", 1), ("random", 2), ("heuristic", 3), ("heuristic", 4)])
def test_king_seventh_and_last_whole_games(level: str, seed: int) -> None:
    game = play_game("king", SEVENTH, level, seed)
    assert game.is_over and sum(game.totals) == 0
    played = [d for d in game.deals if d.contract is not None and d.contract.id == "king-seventh-and-last"]
    assert all(d.tally is not None and set(d.tally) == {"seventh", "last"} for d in played)
    assert_replays(game)


def test_king_seventh_and_last_search_bot_plays_its_deals() -> None:
    """The search bot declares and plays the new contract (the deals up to its first one)."""
    game = Game.new("king", SEVENTH, seed=8)
    bots = [make_bot("search", seed=s) for s in range(4)]
    while not game.is_over:
        deal = game.current
        assert deal is not None
        if deal.contract is None and deal.phase is Phase.CONTRACT:
            ids = [a.contract for a in game.legal_actions() if isinstance(a, Declare)]
            if "king-seventh-and-last" in ids:
                game.apply(Declare("king-seventh-and-last"))
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
        if any(d.contract and d.contract.id == "king-seventh-and-last" and d.finished for d in game.deals):
            break
    assert any(d.contract and d.contract.id == "king-seventh-and-last" and d.finished for d in game.deals)
    assert_replays(game)


# -- the lobby and the terminal setup offer them from the data ---------------------------------------


def test_lobby_offers_the_new_flags_and_titles() -> None:
    king = next(r for r in rule_sets() if r["name"] == "king")
    assert {"name": "seventh_and_last", "kind": "bool", "default": False, "choices": []} in king["flags"]
    assert {"id": "king-seventh-and-last", "title": "Seventh and last trick"} in king["contracts"]
    assert king["tally"]["4"]["seventh"]["label"] == "who won trick 7"


def test_random_seeded_games_are_reproducible() -> None:
    a = play_game("king", SEVENTH, "random", 5)
    b = play_game("king", SEVENTH, "random", 5)
    assert a.totals == b.totals
