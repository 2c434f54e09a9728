"""Each experiment of "Barbu strategy, measured" (docs/strategy.md, benchmarks/strategy.py) run at a
tiny size: it runs, prints its table, measures what it says it measures, and gives the same figures
again from the same seed."""

from __future__ import annotations

import argparse
import importlib.util
import math
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="module")
def strategy() -> Any:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "strategy.py"
    spec = importlib.util.spec_from_file_location("strategy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def args(**kw: Any) -> argparse.Namespace:
    base = {"batches": 2, "worlds": 2, "hands": 2, "length": 6, "sets": 2, "margin": 1000.0, "seed": 0}
    return argparse.Namespace(**{**base, **kw})


def test_every_experiment_is_listed(strategy: Any) -> None:
    assert set(strategy.EXPERIMENTS) == {
        "domino-rank",
        "jack-lead",
        "long-hearts",
        "late-set",
        "redouble",
        "invite",
        "domino-cards",
    }


def test_the_seeds_first_three_hints_run(strategy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    strategy.domino_rank(args(worlds=1))
    out = capsys.readouterr().out
    assert "starting rank" in out and "vs 7" in out
    strategy.jack_lead(args(worlds=1))
    assert "vs JS" in capsys.readouterr().out
    strategy.long_hearts(args(worlds=1))
    assert "share of hands whose best contract" in capsys.readouterr().out


def test_late_set_plays_the_same_deals_under_three_policies(strategy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    points = strategy.late_set(args(sets=1, worlds=1))
    assert set(points) == {"free", "late", "early"} and all(len(xs) == 1 for xs in points.values())
    assert all(math.isfinite(xs[0]) for xs in points.values())
    assert "late vs early" in capsys.readouterr().out
    assert strategy.late_set(args(sets=1, worlds=1)) == points  # seeded: the same figures again


def test_late_set_policies_keep_or_lead_with_no_tricks_and_trumps(
    strategy: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from barbu.actions import Declare
    from barbu.rulesets import rules

    original = strategy.SearchBot.act
    named: list[str] = []

    def spy(self: Any, view: Any) -> Any:
        action = original(self, view)
        if isinstance(action, Declare):  # the heuristic seats' calls go through the search too
            named.append(action.contract)
        return action

    monkeypatch.setattr(strategy.SearchBot, "act", spy)
    for policy, late_first in (("late", False), ("early", True)):
        named.clear()
        strategy._set_points(5, policy, 1)
        assert len(named) == 7 and sorted(named) == sorted(c.id for c in rules("classic").contracts)
        assert (set(named[:2]) == set(strategy.LATE)) is late_first
        assert (set(named[5:]) == set(strategy.LATE)) is not late_first


def test_redouble_values_the_declarers_redouble_both_ways(strategy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    gains = strategy.redouble(args(hands=2, worlds=2))
    assert set(gains) == {"read", "desperate"} and all(len(xs) == 2 for xs in gains.values())
    out = capsys.readouterr().out
    assert "share of hands where redoubling gains" in out and "by contract" in out


def test_invite_compares_the_more_and_less_doubled_of_two_good_contracts(
    strategy: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    chosen = strategy.invite(args(hands=3, worlds=2, margin=1000.0))
    assert len(chosen["more doubled"]) == len(chosen["less doubled"]) <= 3
    out = capsys.readouterr().out
    assert "Hands whose two best contracts" in out or "No hand of 3" in out
    assert strategy.invite(args(hands=2, worlds=2, margin=-1.0)) == {"more doubled": [], "less doubled": []}


def test_domino_cards_compares_paired_hands(strategy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    values = strategy.domino_cards(args(hands=1, worlds=1))
    assert list(values) == ["7-6-5 block", "7, 6, 5 spread", "ace and two", "eight and six"]
    assert all(len(xs) == 1 for xs in values.values())
    assert "difference" in capsys.readouterr().out
