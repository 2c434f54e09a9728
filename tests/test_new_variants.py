"""The variants RULES.md Appendix A once listed as not implemented, each with worked examples.

Every example is a hand-built deal (or a tally) whose score is worked out by hand in the
test's docstring; each variant is then played to the end by every bot level, written as a
record and replayed, and offered by the lobby and the terminal setup from the rule data.
"""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient

from barbu import Declare, EnterTally, Game, rules
from barbu.bots import make_bot
from barbu.bots.card_play import contract_costs
from barbu.deal import Phase
from barbu.errors import OptionsError
from barbu.record import game_to_record
from barbu.replay import replay_json
from barbu.rulesets import applicable_flags
from barbu.server.app import create_app
from barbu.server.lobby import rule_sets
from barbu.sheet import Sheet
from barbu.tui.app import BarbuApp
from barbu.view import seat_view
from table_setup import hands, play_all, score_sheet, to_play
from test_sheet_model import played_record, tallied
from test_tui_setup import choose, pick_rule_set, run, tab_to, type_into, until_started
from test_view import check_views

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


# -- french: the chooser, the leader before the dealer, the chooser's points doubled ----------------

CHOOSER = {"contract_choice": "chooser"}
DOUBLED = {"contract_choice": "chooser_doubled"}


def test_french_chooser_names_each_contract_once_in_turn() -> None:
    """With a chooser, every seat in turn (the player after the dealer) names each of the eight
    contracts once (five with ``first_five_only``); nothing is fixed any more."""
    r = rules("french", CHOOSER)
    assert r.schedule.declarer_chooses and r.scheduled_contract(0) is None
    assert r.deal_count == 32 and r.contracts_per_declarer == 8
    assert rules("french", {**CHOOSER, "first_five_only": True}).deal_count == 20
    game = play_game("french", {**DOUBLED, "player_count": 3}, "random", 9)
    assert [d.declarer for d in game.deals] == [(game.first_declarer + i) % 3 for i in range(24)]
    for s in range(3):
        named = sorted(d.contract.id for d in game.deals if d.declarer == s and d.contract is not None)
        assert named == sorted(c.id for c in game.rules.contracts)
    with pytest.raises(
        OptionsError, match="contract_choice does not apply to classic: it applies to french and french-two-decks only"
    ):
        rules("classic", CHOOSER)
    with pytest.raises(OptionsError, match="contract_choice cannot be 'dealer': use one of 'fixed', 'chooser'"):
        rules("french", {"contract_choice": "dealer"})


FOUR_SUITS = (
    "AKQJT98765432...",  # P0, the dealer: spades
    ".AKQJT9876543..2",  # P1, the chooser: hearts but 2H, and 2C
    "..AKQJT98765432.",  # P2: diamonds
    ".2..AKQJT9876543",  # P3, before the dealer, leads: clubs but 2C, and 2H
)
NO_HEARTS_PLAY = ["AC 2S 2C 2D", *(f"{r}C {r}S {r}H {r}D" for r in "KQJT9876543"), "2H AS AH AD"]


@pytest.mark.parametrize("options, final", [(CHOOSER, [0, 10, 0, 55]), (DOUBLED, [0, 20, 0, 55])])
def test_french_chooser_no_hearts_played(options: dict[str, str], final: list[int]) -> None:
    """P1 chooses No hearts (5 per heart); the dealer is P0, so P3 (before the dealer) leads,
    and play goes P3, P0, P1, P2.

    P3 cashes its twelve clubs: in trick 1 P1 follows with 2C, in tricks 2-12 it throws eleven
    hearts (3H-KH) onto P3's clubs. P3 leads 2H to trick 13 and P1 wins it with AH.
    Hearts: P3 11 -> 55 points, P1 2 (2H, AH) -> 10; total 65.
    Doubled for the chooser: P1's 10 penalty points count 20 (adjustment +10).
    """
    deal = to_play("no-hearts", hands(*FOUR_SUITS), variant="french", options=options, declarer=1)
    assert deal.to_act == 3
    for trick in NO_HEARTS_PLAY:
        play_all(deal, trick)
    assert deal.raw == [0, 10, 0, 55]
    assert deal.final == final
    assert deal.adjustments == [f - r for f, r in zip(final, deal.raw, strict=True)]


@pytest.mark.parametrize(
    "contract, tally, raw, final",
    [
        # queens 2, 1, 1, 0 at 20 each; the chooser P0's 40 doubled to 80
        ("no-queens", {"queens": [2, 1, 1, 0]}, [40, 20, 20, 0], [80, 20, 20, 0]),
        # tricks 3, 4, 3, 3 at -5 each; the chooser's -15 halved toward zero: -7
        ("more-tricks", {"tricks": [3, 4, 3, 3]}, [-15, -20, -15, -15], [-7, -20, -15, -15]),
        # out first, second, third, fourth: -50, -20, +20, +40; the chooser's -50 halved: -25
        ("domino", {"order": [0, 1, 2, 3]}, [-50, -20, 20, 40], [-25, -20, 20, 40]),
        # the chooser last out: its +40 doubled to +80
        ("domino", {"order": [3, 2, 1, 0]}, [40, 20, -20, -50], [80, 20, -20, -50]),
        # the chooser took nothing: nothing to double
        ("first-and-last", {"first": 1, "last": 2}, [0, 40, 40, 0], [0, 40, 40, 0]),
    ],
)
def test_french_chooser_doubled_on_the_score_sheet(
    contract: str, tally: dict[str, Any], raw: list[int], final: list[int]
) -> None:
    """Penalty points: the chooser's (P0's) points count double, its negative points half."""
    game = score_sheet("french", DOUBLED)
    deal = game.current
    assert deal is not None and deal.declarer == 0 and deal.phase is Phase.CONTRACT
    game.apply(Declare(contract), 0)
    assert deal.phase is Phase.TALLY
    game.apply(EnterTally(tally))
    assert deal.raw == raw and deal.final == final
    assert game.totals == final


# -- whole games by every bot level, records and replay -------------------------------------------


FEW_WORLDS: dict[str, Any] = {"iterations": 64}
"""The search bot's worlds in the tests of whole deals: they check what it plays, not how well."""


def play_game(
    variant: str, options: dict[str, Any], level: str, seed: int, deals: int | None = None, **settings: Any
) -> Game:
    """A game between four bots of ``level`` with ``settings`` (``deals``: stop after so many deals)."""
    game = Game.new(variant, options, seed)
    bots = [make_bot(level, seed=seed + s, **settings) for s in range(game.rules.players)]
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
    bots = [make_bot("search", seed=s, **FEW_WORLDS) for s in range(4)]
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


@pytest.mark.parametrize("level, seed", [("random", 1), ("heuristic", 2), ("heuristic", 3)])
def test_french_chooser_whole_games(level: str, seed: int) -> None:
    game = play_game("french", DOUBLED, level, seed)
    assert game.is_over and len(game.deals) == 32
    leaders = {d.play_seats[0] for d in game.deals if d.declarer == 1}
    assert leaders == {3}, "the player before the dealer leads (or opens the domino)"
    assert_replays(game)


def test_french_chooser_search_bot_plays_its_deals() -> None:
    """The search bot chooses and plays the first two deals."""
    game = play_game("french", DOUBLED, "search", 6, deals=2, **FEW_WORLDS)
    assert len(game.finished_deals()) == 2
    assert_replays(game)


def test_lobby_offers_the_new_flags_and_titles() -> None:
    king = next(r for r in rule_sets() if r["name"] == "king")
    flag = next(f for f in king["flags"] if f["name"] == "seventh_and_last")
    assert {k: flag[k] for k in ("kind", "default", "choices")} == {"kind": "bool", "default": False, "choices": []}
    assert {"id": "king-seventh-and-last", "title": "Seventh and last trick"} in king["contracts"]
    assert king["tally"]["4"]["seventh"]["label"] == "who won trick 7"
    french = next(r for r in rule_sets() if r["name"] == "french")
    choice = next(f for f in french["flags"] if f["name"] == "contract_choice")
    assert {k: choice[k] for k in ("kind", "default", "choices")} == {
        "kind": "choice",
        "default": "fixed",
        "choices": ["fixed", "chooser", "chooser_doubled"],
    }


def test_random_seeded_games_are_reproducible() -> None:
    a = play_game("king", SEVENTH, "random", 5)
    b = play_game("king", SEVENTH, "random", 5)
    assert a.totals == b.totals


@pytest.mark.parametrize(
    "variant, flag, value, options",
    [
        ("french", "flag-contract_choice", "chooser_doubled", DOUBLED),
        ("king", "flag-seventh_and_last", True, SEVENTH),
    ],
)
def test_the_terminal_setup_offers_the_new_options(
    variant: str, flag: str, value: object, options: dict[str, Any]
) -> None:
    """The setup screen of ``barbu play`` shows the new flags from the rule data and starts
    the game with them."""
    app = BarbuApp(None, pace=0)

    async def scenario(pilot: Any, app: BarbuApp) -> None:
        await pick_rule_set(pilot, app, variant)
        if isinstance(value, bool):
            await tab_to(pilot, app, flag)
            await pilot.press("space")
        else:
            await choose(pilot, app, flag, value)
        await type_into(pilot, app, "seed", "5")
        await pilot.press("enter")
        await until_started(pilot, app)

    run(app, scenario)
    assert app.table.rules == rules(variant, options)


@pytest.mark.parametrize("variant, options", [("king", SEVENTH), ("french", DOUBLED)])
def test_the_score_sheet_scores_the_new_variants_like_replay(
    tmp_path: Path, variant: str, options: dict[str, Any]
) -> None:
    """A whole game, tallied deal by deal on the web score sheet, scores as ``barbu replay``
    scores its record, and the sheet exports a record that replays the same."""
    doc = tallied(played_record(variant, options=tuple(options.items())))
    expected = replay_json(doc)
    assert expected["valid"] and expected["complete"]
    source = Sheet.from_record(doc)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}")) as client:
        body = {"variant": variant, "options": options, "players": list(source.players)}
        made = client.post("/api/sheets", json={**body, "first_declarer": source.first_declarer})
        sheet = made.json()["id"]
        for row in source.rows:
            res = client.post(f"/api/sheets/{sheet}/changes", json={"change": "add", "entry": row.entry.to_json()})
            assert res.status_code == 200, res.text
        state = res.json()["sheet"]
        assert state["complete"] and state["totals"] == expected["totals"]
        for mine, theirs in zip(state["deals"], expected["deals"], strict=True):
            assert [mine[k] for k in ("raw", "adjustments", "final")] == [
                theirs[k] for k in ("raw", "adjustments", "final")
            ]
        assert replay_json(client.get(f"/api/sheets/{sheet}/export/record").json()) == expected


@pytest.mark.parametrize(
    "params, utility",
    [
        ({"variant": "king", "options": '{"seventh_and_last": true}'}, "ZERO_SUM"),
        ({"variant": "french", "options": '{"contract_choice": "chooser_doubled"}'}, "GENERAL_SUM"),
        ({"variant": "french", "options": '{"contract_choice": "chooser"}', "episode": "deal"}, "GENERAL_SUM"),
    ],
)
def test_research_adapters_play_the_new_variants(params: dict[str, str], utility: str) -> None:
    """OpenSpiel's own checks pass on whole games; doubling the chooser's points leaves the
    returns without a fixed sum, so the game says so. PettingZoo's API test passes too."""
    import pyspiel
    from pettingzoo.test import api_test

    from barbu.research.env import env
    from barbu.research.openspiel_game import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, params)
    assert game.get_type().utility == getattr(pyspiel.GameType.Utility, utility)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    options = json.loads(params["options"])
    api_test(env(params["variant"], options), num_cycles=60)


@pytest.mark.parametrize("variant, options", [("king", SEVENTH), ("french", DOUBLED)])
def test_no_view_of_the_new_variants_shows_another_seats_unplayed_cards(variant: str, options: dict[str, Any]) -> None:
    """The first eight deals, every seat and the spectator, every step (the view tests' check)."""
    game = Game.new(variant, options, seed=3)
    rng = random.Random(5)
    step = 0
    while not game.is_over and len(game.deals) <= 8:
        check_views(game, structure=step % 25 == 0)
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    check_views(game)
