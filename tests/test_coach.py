"""The coach: analysis of a record (a constructed blunder found with its exact loss), the
``analysis`` extension read by ``barbu replay``, determinism, workers, the advisor against
exact values, and bad input refused with exit 2."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from barbu import Game, seat_view
from barbu.actions import Action, Declare, NameTrump
from barbu.bots import make_bot
from barbu.bots.card_play import PlayGuide
from barbu.bots.endgame import solve
from barbu.cards import parse_pbn
from barbu.cli import main
from barbu.coach import AdviceError, AnalysisError, Settings, advise, analyse
from barbu.deal import Deal
from barbu.record import game_to_record
from barbu.replay import replay_json
from barbu.rulesets import rules


def _outcomes(deal: Deal, seat: int, sign: int) -> set[int]:
    """Every final score of ``seat`` (own points) over every way the deal can still be played."""
    if deal.final is not None:
        return {sign * deal.final[seat]}
    out: set[int] = set()
    for a in deal.legal_actions():
        d = deal.copy()
        d.apply_unchecked(a)
        out |= _outcomes(d, seat, sign)
    return out


def _game_with_blunder() -> tuple[dict[str, Any], int, int, int]:
    """A one-deal record where, two tricks from the end, a seat plays the card whose
    result is certain and worse by 20 points or more than its other card's, whatever
    anyone does next; with that seat, the play's index and the exact loss."""
    for seed in range(20):
        game = Game.new("classic", seed=seed, first_declarer=0)
        bot = make_bot("random", seed=seed)
        found: tuple[int, int, int] | None = None
        while not game.deals[0].finished:
            deal = game.current
            seat = game.to_act
            assert deal is not None and seat is not None
            t = deal.tricks
            if found is None and t is not None and t.tricks_total - len(t.winners) == 2:
                legal = list(deal.legal_actions())
                results: dict[Action, set[int]] = {}
                for a in legal:
                    d = deal.copy()
                    d.apply_unchecked(a)
                    results[a] = _outcomes(d, seat, game.rules.sign)
                if len(legal) >= 2 and all(len(v) == 1 for v in results.values()):
                    value = {a: min(v) for a, v in results.items()}
                    worst = min(value, key=lambda a: value[a])
                    loss = max(value.values()) - value[worst]
                    if loss >= 20:
                        found = (seat, len(deal.plays) + 1, loss)
                        game.apply(worst, seat)
                        continue
            game.apply(bot.act(seat_view(game, seat)), seat)
        if found is not None:
            return (game_to_record(game), *found)
    raise AssertionError("no position with a certain blunder in 20 seeded deals")


@pytest.fixture(scope="module")
def blunder() -> tuple[dict[str, Any], int, int, int, dict[str, Any]]:
    doc, seat, index, loss = _game_with_blunder()
    out = analyse(doc, Settings(iterations=6, exact_tricks=2, seed=3))
    return doc, seat, index, loss, out


def test_analysis_finds_the_constructed_blunder_with_its_exact_loss(blunder: Any) -> None:
    _doc, seat, index, loss, out = blunder
    (deal,) = out["analysis"]["deals"]
    entry = next(e for e in deal["decisions"] if e["kind"] == "play" and e["index"] == index)
    assert entry["seat"] == seat
    assert entry["exact"]["loss"] == loss
    assert entry["exact"]["mark"] == "blunder"
    assert entry["exact"]["best"] != entry["action"]
    # from the seat's own view, with two tricks left, the search sees it too
    assert entry["loss"] > 0 and entry["mark"] is not None
    # no other card of the last two tricks is worse exactly than this one
    others = [e for e in deal["decisions"] if e["exact"] is not None and e is not entry]
    assert all(e["exact"]["loss"] <= loss for e in others)
    summary = out["analysis"]["players"][seat]
    assert summary["marks"]["blunder"] >= 1 and summary["exact_loss"] >= loss


def test_the_analysis_is_an_extension_replay_accepts_and_ignores(blunder: Any, tmp_path: Path) -> None:
    doc, _, _, _, out = blunder
    assert replay_json(out) == replay_json(doc)
    assert out["analysis"]["format"] == "barbu-analysis/1"
    path = tmp_path / "analysed.json"
    path.write_text(json.dumps(out))
    assert main(["replay", str(path)]) == 0


def test_the_same_record_and_settings_give_the_same_analysis_with_any_workers() -> None:
    game = Game.new("classic", seed=8)
    bot = make_bot("heuristic", seed=2)
    while len(game.deals) < 3:
        game.apply(bot.act(seat_view(game, game.to_act)), game.to_act)
    doc = game_to_record(game)
    settings = Settings(iterations=3, exact_tricks=1, seed=5)
    one = analyse(doc, settings)
    assert analyse(doc, settings, workers=2)["analysis"] == one["analysis"]
    assert len(one["analysis"]["deals"]) == 2
    other = analyse(doc, Settings(iterations=3, exact_tricks=1, seed=6))
    assert other["analysis"]["deals"] != one["analysis"]["deals"]


def test_analyse_on_the_command_line(blunder: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc, seat, index, loss, _ = blunder
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    args = ["analyse", str(path), "--iterations", "2", "--exact-tricks", "2"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert f"card {index} (seat {seat})" in text and f"loss {loss:.1f} (blunder)" in text
    assert main([*args, "--lang", "fr"]) == 0
    assert "gaffe" in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    analysed = json.loads(capsys.readouterr().out)["analysis"]
    assert analysed["settings"]["iterations"] == 2
    assert main([*args, "--json", "--workers", "0"]) == 0  # one process per core: the same analysis
    assert json.loads(capsys.readouterr().out)["analysis"] == analysed
    assert main([*args, "--workers", "-1"]) == 2


def test_a_record_that_does_not_replay_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "barbu-record/1", "variant": "classic", "deals": [{"declarer": 1}]}))
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert "the record does not replay" in err and "declarer must be seat 0" in err and "Traceback" not in err
    with pytest.raises(AnalysisError, match="does not replay"):
        analyse({"format": "barbu-record/1", "variant": "nope", "deals": []})
    path.write_text("[1]")
    assert main(["analyse", str(path)]) == 2
    assert main(["analyse", str(path), "--thresholds", "a,b"]) == 2
    assert "three numbers" in capsys.readouterr().err


def test_the_advisor_agrees_with_the_exact_solver_where_the_value_is_certain() -> None:
    # thirteen spades, spades trumps: every trick is the declarer's whatever the others hold
    hand = "AKQJT98765432..."
    out = advise("king", hand, seat=0, contract="king-trumps", iterations=4)
    assert out["phase"] == "trump"
    spades = next(c for c in out["choices"] if c["action"] == "S")
    r = rules("king")
    contract = r.contract("king-trumps")
    rest = [c for c in range(52) if not parse_pbn(hand) >> c & 1]
    for shift in (0, 7):
        others = rest[shift:] + rest[:shift]
        hands = [parse_pbn(hand), *(sum(1 << c for c in others[i * 13 : (i + 1) * 13]) for i in range(3))]
        deal = Deal(r, 0, 0, hands, [contract])
        deal.apply_unchecked(Declare("king-trumps"))
        deal.apply_unchecked(NameTrump(0))
        t = deal.tricks
        assert t is not None
        while t.tricks_total - len(t.winners) > 3:  # any line: the declarer takes every trick
            deal.play_unchecked((t.legal_mask() & -t.legal_mask()).bit_length() - 1)
        exact = solve(t, contract, r, PlayGuide.of(deal), 0)[0]
        assert spades["value"] == pytest.approx(exact)
    assert out["choices"][0]["action"] == "S"


def test_the_advisor_values_contracts_and_calls() -> None:
    out = advise("classic", "AKQJT98765432...", seat=0, iterations=2)
    # thirteen spades: first out in domino, every trick in trumps
    assert out["phase"] == "contract" and {c["action"] for c in out["choices"][:2]} == {"domino", "trumps"}
    assert {c["action"] for c in out["choices"]} == {c.id for c in rules("classic").contracts}
    calls = advise("classic", "AKQJ2.A32.K2.A32", seat=1, declarer=0, contract="no-hearts", iterations=2)
    assert calls["phase"] == "call" and set(calls["gains"]["double"]) == {"0", "2", "3"}
    # a declarer's sixth contract: seats that never doubled it must double it now
    owed = advise(
        "classic",
        "AKQJ2.A32.K2.A32",
        seat=1,
        declarer=0,
        declared=["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two"],
        doubled={1: 0, 2: 2, 3: 2},
        contract="trumps",
        choice="S",
        iterations=2,
    )
    assert all("0" in c["action"] for c in owed["choices"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hand": "AKQ..."}, "the hand has 3 cards; a hand of classic holds 13"),
        ({"hand": "AKQJT98765432...", "variant": "thirty-two"}, "not in the deck of thirty-two"),
        ({"hand": "AKQJT98765432...", "declared": ["trumps"], "contract": "trumps"}, "trumps was already declared"),
        ({"hand": "AKQJT9876543X..."}, "'X' is not a rank"),
        ({"hand": "AKQJT98765432...", "seat": 1, "declarer": 0}, "seat 0 is to act now"),
    ],
)
def test_the_advisor_refuses_what_the_rules_forbid(kwargs: dict[str, Any], message: str) -> None:
    args = {"variant": "classic", **kwargs}
    with pytest.raises(AdviceError, match=message):
        advise(args.pop("variant"), args.pop("hand"), **args)


def test_advise_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "AKQJT98765432...", "--iterations", "2"]) == 0
    assert "domino" in capsys.readouterr().out
    assert main(["advise", "AKQJT98765432...", "--iterations", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "contract"
    assert main(["advise", "AKQ..."]) == 2
    assert "the hand has 3 cards" in capsys.readouterr().err
    assert main(["advise", "AKQJT98765432...", "--declared", "trumps", "--contract", "trumps"]) == 2
    assert "already declared" in capsys.readouterr().err


def _load(name: str) -> Any:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    _load("bench_coach").bench_advise("classic", 1, 1)
    assert "advise, contract (1 hands)" in capsys.readouterr().out


def test_the_coach_refusals_keep_their_text_across_processes_and_speak_french() -> None:
    import pickle

    from barbu.language import error_text, speaking

    try:
        advise("classic", "AKQ...", seat=0)
    except AdviceError as e:
        refusal: Exception = e
    else:
        raise AssertionError("a hand of 3 cards was advised")
    assert str(refusal) == "the hand has 3 cards; a hand of classic holds 13"
    with speaking("fr"):
        assert error_text(refusal) == "la main a 3 cartes ; une main de classic en compte 13"
    try:
        advise("classic", "AKQJT98765432...", seat=0, iterations=0)
    except AdviceError as e:
        refusal = e
    for error in (refusal, AnalysisError(coach_settings_error())):
        back = pickle.loads(pickle.dumps(error))  # as a worker process sends it back
        assert str(back) == str(error)
        with speaking("fr"):
            assert error_text(back) == error_text(error) and error_text(back) != str(error)


def coach_settings_error() -> Any:
    try:
        Settings(endgame=9).check()
    except AnalysisError as e:
        return e.text
    raise AssertionError("an endgame of 9 tricks was allowed")
