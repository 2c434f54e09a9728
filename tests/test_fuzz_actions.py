"""The actions fuzzer's short run, and the inputs it found that crashed the checked door."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from barbu.actions import Call, Declare, NameRank, NameTrump, Play, action_from_json
from barbu.errors import ActionNotationError, IllegalAction
from barbu.game import Game
from barbu.server.protocol import Limits, ProtocolError, parse_message


def fuzz_actions() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_actions.py"
    spec = importlib.util.spec_from_file_location("fuzz_actions", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_actions"] = module
    spec.loader.exec_module(module)
    return module


def at_phase(variant: str, phase: str) -> Game:
    game = Game.new(variant, None, "regression", 0)
    while game.phase != phase:
        game.apply(game.legal_actions()[0])
    game.legal_actions()  # fills the legal-move cache, so that pickles compare the state alone
    return game


@pytest.mark.parametrize(
    ("variant", "phase", "action"),
    [
        ("classic", "play", Play(True)),
        ("classic", "trump", NameTrump(True)),
        ("classic", "rank", NameRank(True)),
    ],
)
def test_a_bool_is_not_a_card_suit_or_rank(variant: str, phase: str, action: Any) -> None:
    """``True == 1``: the door took ``Play(True)`` for the 3 of spades, and the log then said otherwise."""
    game = at_phase(variant, phase)
    before = pickle.dumps(game)
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert pickle.dumps(game) == before


@pytest.mark.parametrize(
    ("phase", "action"), [("contract", Declare(7)), ("contract", Declare(None)), ("call", Call(word=3))]
)
def test_a_contract_or_call_word_that_is_not_text_is_refused_not_a_crash(phase: str, action: Any) -> None:
    """The refusal's message wrote the action with ``str``, which failed on a value that is not text."""
    game = at_phase("classic", phase)
    before = pickle.dumps(game)
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    assert repr(action.contract if isinstance(action, Declare) else action.word) in str(refused.value)
    assert pickle.dumps(game) == before


def test_an_intent_nested_deeper_than_repr_can_print_is_refused_briefly() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ActionNotationError, match="unknown action type a list; types are") as refused:
        action_from_json({"type": deep})
    assert len(str(refused.value)) < 200
    with pytest.raises(ActionNotationError, match="unknown call a list"):
        action_from_json({"type": "call", "call": deep})


def test_a_frame_nested_deeper_than_the_json_decoder_goes_is_malformed() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_message("[" * 4000 + "]" * 4000, Limits())
    assert refused.value.code == "malformed"


def test_a_short_fuzz_run_over_every_rule_set_finds_no_crash_and_no_refusal_that_changes_a_game() -> None:
    module = fuzz_actions()
    figures = module.Fuzzer(seed=7, tries=4, decisions=120).run(len(module.RULE_SETS))
    assert figures.crash_count == 0, figures.crashes
    assert figures.changed == []
    assert set(figures.by_variant) == set(module.RULE_SETS) and figures.replays == len(module.RULE_SETS)
    assert figures.inputs > 3000 and figures.refused > 0.9 * figures.inputs


class BuggyGame(Game):
    def apply(self, action: Any, seat: Any = None) -> None:
        raise KeyError("a bug")


class ChangeThenRefuse(Game):
    def apply(self, action: Any, seat: Any = None) -> None:
        self.totals[0] += 1
        raise IllegalAction("play", "no")


def test_the_fuzzer_reports_a_crash_and_a_refusal_that_changes_the_game() -> None:
    """The checks themselves can fail: a door that raises something untyped, or changes the game and refuses."""
    module = fuzz_actions()
    fuzzer = module.Fuzzer(seed=1, tries=1)
    fuzzer._apply(BuggyGame.new("classic", None, "s", 0), Play(0), 0, "s", "payload", "apply")
    assert fuzzer.figures.crash_count == 1 and "KeyError" in fuzzer.figures.crashes[0]["kind"]
    fuzzer._apply(ChangeThenRefuse.new("classic", None, "s", 0), Play(0), 0, "s", "payload", "apply")
    assert len(fuzzer.figures.changed) == 1
