"""The external-bot protocol: JSON lines over stdin/stdout, answers parsed into actions."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from barbu import Game, seat_view
from barbu.actions import Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.arena import play_game
from barbu.arena.stats import EntryTally
from barbu.bots import Bot, RandomBot
from barbu.bots.external import GIVE_UP_AFTER, BotFailure, ExternalBot, parse_answer
from barbu.cards import card
from barbu.view import SeatView

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"


def _view_at(variant: str, phase: str, seed: int = 0) -> tuple[Game, SeatView]:
    """A game played at random up to the first decision of ``phase``."""
    game = Game.new(variant, seed=seed)
    rng = random.Random(seed)
    while game.phase != phase:
        view = seat_view(game, game.to_act)
        game.apply(RandomBot(rng.randrange(1000)).act(view), game.to_act)
    return game, seat_view(game, game.to_act)


def test_answers_in_every_phase() -> None:
    game, view = _view_at("classic", "contract")
    assert parse_answer(view.legal[0], view) == view.legal_actions[0]
    assert parse_answer("NO-QUEENS", view) == Declare("no-queens")

    game.apply(Declare("trumps"))
    view = seat_view(game, game.to_act)
    assert parse_answer("h", view) == NameTrump(1)
    assert parse_answer("♣", view) == NameTrump(3)

    game, view = _view_at("classic", "call")
    declarer = view.declarer
    assert declarer is not None
    assert parse_answer({"double": [declarer]}, view) == Call(double=(declarer,))
    assert parse_answer({"double": [], "redouble": []}, view) == Call()
    assert parse_answer("pass", view) == Call()
    assert parse_answer("maximum", view) == Call(word="maximum")
    assert parse_answer({"call": "flanks"}, view) == Call(word="flanks")
    offered = view.as_json()["legal_actions"]
    for legal, given, action in zip(view.legal, offered, view.legal_actions, strict=True):
        assert parse_answer(legal, view) == action
        assert parse_answer(given, view) == action  # an object of legal_actions, sent back as given

    game, view = _view_at("classic", "play")
    assert parse_answer("qs", view) == Play(card("QS"))
    assert parse_answer("10H", view) == Play(card("TH"))


def test_domino_rank_and_pass() -> None:
    game = Game.new("classic", seed=4)
    game.apply(Declare("domino"))
    view = seat_view(game, game.to_act)
    assert view.phase == "rank"
    assert parse_answer("j", view) == NameRank(9)
    game, view = _view_at("classic", "play")
    assert parse_answer("pass", view) == Pass()


def test_arrangement_answers() -> None:
    game = Game.new("chinese-poker", seed=1)
    game.apply(Declare("chinese-poker"))
    while game.phase != "arrange":
        game.apply(game.legal_actions()[0])
    view = seat_view(game, game.to_act)
    names = [str(Play(c)) for c in view.hand]
    expected = Arrange(tuple(view.hand))
    assert parse_answer(names, view) == expected
    assert parse_answer([names[:5], names[5:10], names[10:]], view) == expected
    assert parse_answer(" ".join(names[:5]) + " | " + " ".join(names[5:]), view) == expected
    with pytest.raises(BotFailure, match="5, 5 and 3"):
        parse_answer([names[:4], names[4:10], names[10:]], view)
    with pytest.raises(BotFailure, match="13 cards"):
        parse_answer(names[:12], view)


@pytest.mark.parametrize(
    ("phase", "answer", "message"),
    [
        ("contract", 7, "not a contract id"),
        ("call", {"double": "P0"}, "list of seat numbers"),
        ("call", {"doubles": [0]}, "unknown key"),
        ("call", "double everyone", "not a call"),
        ("call", {"call": "all"}, "unknown call 'all'"),
        ("call", {"type": "call", "double": [0], "call": "maximum"}, "not both"),
        ("play", {"type": "play", "card": "QX"}, "not a card"),
        ("play", {"type": "shout"}, "unknown action type"),
        ("play", "Q of spades", "not an action"),
        ("play", ["QS"], "not a card"),
    ],
)
def test_garbage_answers_say_what_is_expected(phase: str, answer: object, message: str) -> None:
    _, view = _view_at("classic", phase)
    with pytest.raises(BotFailure, match=message):
        parse_answer(answer, view)


def _play_one(variant: str, bot: ExternalBot, seed: int = 3) -> tuple[Game, list[EntryTally]]:
    game = Game.new(variant, seed=seed)
    players: list[Bot] = [bot, RandomBot(1), RandomBot(2), RandomBot(3)]
    tallies = [EntryTally() for _ in players]
    play_game(game, players, tallies, random.Random(0))
    return game, tallies


@pytest.mark.parametrize("variant", ["classic", "chinese-poker"])
def test_example_bot_plays_a_whole_game_through_the_protocol(variant: str) -> None:
    with ExternalBot([sys.executable, str(EXAMPLE)], seed=5) as bot:
        game, tallies = _play_one(variant, bot)
    assert game.is_over
    assert [t.illegal for t in tallies] == [0, 0, 0, 0]
    assert tallies[0].times.count > 300
    if variant == "chinese-poker":
        chinese = [d for d in game.deals if d.contract is not None and d.contract.id == "chinese-poker"]
        assert chinese and all(d.arrangements for d in chinese)


def test_example_bot_is_deterministic_with_its_seed() -> None:
    totals = []
    for _ in range(2):
        with ExternalBot([sys.executable, str(EXAMPLE)], seed=9) as bot:
            game, _ = _play_one("king", bot)
        totals.append([[str(m.action) for m in game.history], game.totals])
    assert totals[0] == totals[1]


def test_a_crashing_bot_is_counted_illegal_and_given_up(tmp_path: Path) -> None:
    with ExternalBot([sys.executable, "-c", "import sys; sys.exit(3)"]) as bot:
        game, tallies = _play_one("king", bot)
    assert game.is_over
    assert tallies[0].illegal == tallies[0].times.count > 0
    assert [t.illegal for t in tallies[1:]] == [0, 0, 0]
    assert "exit status 3" in tallies[0].failures[0]
    assert bot.short_lives == GIVE_UP_AFTER


def test_a_bot_answering_garbage_is_counted_illegal() -> None:
    script = "import sys\nfor line in sys.stdin: print('no idea', flush=True)"
    with ExternalBot([sys.executable, "-c", script]) as bot:
        game, tallies = _play_one("king", bot)
    assert game.is_over
    assert tallies[0].illegal == tallies[0].times.count
    assert "'no idea'" in tallies[0].failures[0]
    assert bot.short_lives == 0


def test_an_illegal_card_is_counted_and_replaced() -> None:
    # Always the first card it holds: legal in some tricks, not when it must follow another suit.
    script = (
        "import json, sys\nfor line in sys.stdin:\n v = json.loads(line)\n"
        " print(json.dumps(v['hand'][0] if v['phase'] == 'play' and v['hand'] else v['legal'][0]), flush=True)"
    )
    with ExternalBot([sys.executable, "-c", script]) as bot:
        game, tallies = _play_one("classic", bot)
    assert game.is_over
    assert 0 < tallies[0].illegal < tallies[0].times.count
    assert "illegal" in tallies[0].failures[0]


def test_a_hanging_bot_times_out() -> None:
    game = Game.new("classic", seed=1)
    view = seat_view(game, game.to_act)
    with ExternalBot([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.3) as bot:
        start = time.monotonic()
        with pytest.raises(BotFailure, match=r"did not answer within 0\.3 s"):
            bot.act(view)
        assert time.monotonic() - start < 5
        assert bot.short_lives == 1


def test_a_missing_program_fails_clearly(tmp_path: Path) -> None:
    game = Game.new("classic", seed=1)
    with ExternalBot([str(tmp_path / "no-such-bot")]) as bot, pytest.raises(BotFailure, match="cannot start"):
        bot.act(seat_view(game, game.to_act))


def test_the_bot_receives_its_view_and_its_seed(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    script = (
        "import json, os, sys\n"
        f"out = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        " out.write(json.dumps([os.environ['BARBU_BOT_SEED'], json.loads(line)]) + '\\n'); out.flush()\n"
        " print(json.dumps(json.loads(line)['legal'][0]), flush=True)"
    )
    game = Game.new("classic", seed=2)
    view = seat_view(game, game.to_act)
    with ExternalBot([sys.executable, "-c", script], seed=77) as bot:
        assert bot.act(view) == view.legal_actions[0]
    import json

    seed, seen = json.loads(log.read_text())
    assert seed == "77"
    assert seen == json.loads(json.dumps(view.as_json()))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="needs a command"):
        ExternalBot([])
    with pytest.raises(ValueError, match="timeout"):
        ExternalBot(["true"], timeout=0)
