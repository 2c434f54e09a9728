"""The arena: duplicate deals, determinism across workers, statistics, reports."""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu import Game
from barbu.actions import Action, Play
from barbu.arena import ArenaSetup, BotSpec, play_duplicate, play_game, run_arena, seat_entries
from barbu.arena.command import arena_main
from barbu.arena.stats import (
    DecisionTimes,
    DuplicateResult,
    EntryTally,
    Estimate,
    report_bots,
    student_t_quantile,
)
from barbu.bots import RandomBot, bot_level
from barbu.usage import UsageError
from barbu.view import SeatView

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"
EXTERNAL = f"external:{sys.executable} {EXAMPLE}"


def _stable(report: dict[str, Any]) -> dict[str, Any]:
    """A JSON report without the fields that measure time (they differ between runs)."""
    out = {k: v for k, v in report.items() if k not in ("workers", "seconds", "games_per_second")}
    out["bots"] = [{k: v for k, v in b.items() if k != "decision_seconds"} for b in report["bots"]]
    return out


# -- duplicate deals --------------------------------------------------------------------


def test_each_entry_sits_once_in_each_seat() -> None:
    for n in (3, 4, 5):
        for entry in range(n):
            seats = {seat_entries(r, n).index(entry) for r in range(n)}
            assert seats == set(range(n))


def test_rotations_play_the_same_deals_with_the_bots_moved() -> None:
    lineup = (EXTERNAL, "random", "random", "random")
    result = play_duplicate(ArenaSetup(lineup, "king", seed=4), index=1, keep_records=True)
    records = result.records
    assert len(records) == 4
    first_hands = [d["hands"] for d in records[0]["deals"]]
    assert len(first_hands) == 20
    for rotation, record in enumerate(records):
        # Same cards in every seat, deal by deal: only the bots move.
        assert [d["hands"] for d in record["deals"]] == first_hands
        assert record["first_declarer"] == records[0]["first_declarer"]
        assert record["players"] == [lineup[e] for e in seat_entries(rotation, 4)]
    assert sorted(r["players"].index(EXTERNAL) for r in records) == [0, 1, 2, 3]
    for entry in result.entries:
        assert len(entry.points) == 4
        assert sum(entry.contract_deals.values()) == 4 * 20
        assert entry.illegal == 0
    # The totals of each game add up (king is zero-sum).
    for rotation in range(4):
        assert sum(result.entries[e].points[rotation] for e in range(4)) == 0


def test_same_seed_same_numbers_whatever_the_workers(tmp_path: Path) -> None:
    lineup = [EXTERNAL, "random", "random", "random"]
    one = run_arena(lineup, variant="king", games=2, seed=11, workers=1, records=tmp_path / "one")
    two = run_arena(lineup, variant="king", games=2, seed=11, workers=2, records=tmp_path / "two")
    assert two.workers == 2
    assert _stable(one.as_json()) == _stable(two.as_json())
    files = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert len(files) == 8
    for name in files:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    other = run_arena(lineup, variant="king", games=2, seed=12, workers=1)
    assert _stable(other.as_json()) != _stable(one.as_json())


@pytest.mark.parametrize(
    ("variant", "options"),
    [("french", {"player_count": 3}), ("salad", {"player_count": 5}), ("thirty-two", {"rotation": "quick"})],
)
def test_any_rule_set_and_player_count(variant: str, options: dict[str, Any]) -> None:
    n = options.get("player_count", 4)
    result = run_arena(["random"] * n, variant=variant, options=options, games=1, workers=1)
    assert result.players == n and result.games_played == n
    assert result.illegal == 0
    assert result.options == options


@pytest.mark.parametrize("level", [level for level in ("random", "heuristic") if bot_level(level) is not None])
def test_registered_bots_play_without_illegal_actions(level: str) -> None:
    result = run_arena([level, "random", "random", "random"], variant="king", games=1, workers=1)
    assert result.bot(level).illegal == 0
    assert result.bot(level).times.count > 0


# -- illegal actions ---------------------------------------------------------------------


class _Stubborn:
    """Always plays the two of clubs, or raises when asked for anything else: a broken bot."""

    name = "stubborn"

    def act(self, view: SeatView) -> Action:
        if view.phase == "play":
            return Play(39)
        raise RuntimeError("I only know how to play")


def test_illegal_actions_are_counted_and_replaced() -> None:
    game = Game.new("king", seed=2)
    tallies = [EntryTally() for _ in range(4)]
    play_game(game, [_Stubborn(), RandomBot(1), RandomBot(2), RandomBot(3)], tallies, random.Random(0))
    assert game.is_over
    stubborn = tallies[0]
    assert stubborn.illegal > 0 and stubborn.times.count >= stubborn.illegal
    assert len(stubborn.failures) == 3
    assert any("RuntimeError: I only know how to play" in f for f in stubborn.failures)
    assert [t.illegal for t in tallies[1:]] == [0, 0, 0]


def test_a_broken_external_bot_is_counted_in_the_arena() -> None:
    broken = f"external:{sys.executable} -c 'print(\"hello\")'"
    result = run_arena([broken, "random", "random", "random"], variant="king", games=1, workers=1)
    report = result.bot(broken)
    assert report.illegal == report.times.count > 0
    assert result.bot("random").illegal == 0


# -- statistics --------------------------------------------------------------------------


def test_interval_matches_a_hand_computation() -> None:
    values = [12.0, -3.0, 7.5, 0.0, 4.0, 9.0]
    est = Estimate.of(values)
    mean = sum(values) / 6  # 4.9166...
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 5)
    assert est.mean == pytest.approx(mean)
    assert est.half_width == pytest.approx(2.570582 * sd / math.sqrt(6), rel=1e-6)  # t(0.975, 5)
    assert est.half_width is not None and est.low == pytest.approx(mean - est.half_width)
    assert Estimate.of([3.0]).half_width is None


@pytest.mark.parametrize(
    ("df", "quantile"), [(1, 12.7062), (3, 3.18245), (7, 2.36462), (20, 2.08596), (100, 1.98397), (10**9, 1.95996)]
)
def test_student_t_quantiles_match_the_tables(df: int, quantile: float) -> None:
    assert student_t_quantile(0.975, df) == pytest.approx(quantile, rel=1e-5)
    assert student_t_quantile(0.025, df) == pytest.approx(-quantile, rel=1e-5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=1e-6, max_value=50.0), min_size=1, max_size=200))
def test_decision_time_median_within_its_resolution(times: list[float]) -> None:
    hist = DecisionTimes()
    for t in times:
        hist.add(t)
    median = hist.median
    assert median is not None
    assert median == pytest.approx(statistics.median_low(times), rel=0.012)
    assert hist.max == max(times)
    assert hist.count == len(times)
    assert hist.mean == pytest.approx(sum(times) / len(times))


def test_report_aggregates_repeated_bots_per_duplicate_game() -> None:
    # Two duplicate games, lineup A B B (3 rotations each), made-up numbers.
    def entry(points: list[int], contract: dict[str, tuple[int, int]]) -> EntryTally:
        t = EntryTally(points=points)
        for c, (total, deals) in contract.items():
            t.contract_points[c], t.contract_deals[c] = total, deals
        return t

    first = DuplicateResult(
        0,
        [
            entry([30, 0, 30], {"x": (60, 3)}),
            entry([-10, 0, -20], {"x": (-30, 3)}),
            entry([-20, 0, -10], {"x": (-30, 3)}),
        ],
    )
    second = DuplicateResult(
        1,
        [
            entry([12, 12, 12], {"x": (36, 3), "y": (0, 3)}),
            entry([-6, -6, -6], {"x": (-18, 3)}),
            entry([-6, -6, -6], {"x": (-18, 3)}),
        ],
    )
    reports, table = report_bots(["A", "B", "B"], [first, second], ["x", "y"])
    a, b = reports
    assert (a.bot, a.seats, b.bot, b.seats) == ("A", 1, "B", 2)
    assert table == [[20.0, -10.0], [12.0, -6.0]]
    assert a.points_per_game == Estimate.of([20.0, 12.0])
    assert a.points_per_game.half_width == pytest.approx(12.706205 * 4.0, rel=1e-6)  # sd 5.657, se 4
    assert b.per_contract["x"] == Estimate.of([-10.0, -6.0])
    assert a.per_contract["y"] == Estimate(0.0, None, 1)  # only one duplicate game had y
    assert "y" not in b.per_contract


# -- reports -----------------------------------------------------------------------------


def test_json_report_schema(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    status = arena_main(
        ["random", "random", "random", EXTERNAL, "--variant", "thirty-two", "--option", "rotation=\"quick\"",
         "--games", "2", "--seed", "3", "--workers", "1", "--json", str(out), "--quiet"]
    )  # fmt: skip
    assert status == 0
    report = json.loads(out.read_text())
    assert report["format"] == "barbu-arena/1"
    assert report["variant"] == "thirty-two" and report["options"] == {"rotation": "quick"}
    assert (report["players"], report["games"], report["games_played"], report["seed"]) == (4, 2, 8, 3)
    assert report["higher_is_better"] is True
    assert report["contracts"] == ["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two", "trumps", "domino"]
    assert [b["bot"] for b in report["bots"]] == ["random", EXTERNAL]
    assert [b["seats"] for b in report["bots"]] == [3, 1]
    for bot in report["bots"]:
        assert set(bot) == {
            "bot", "seats", "points_per_game", "per_contract", "decisions", "decision_seconds", "illegal", "failures"
        }  # fmt: skip
        assert set(bot["points_per_game"]) == {"mean", "half_width", "low", "high", "n"}
        assert bot["points_per_game"]["n"] == 2
        assert set(bot["per_contract"]) <= set(report["contracts"])
        assert set(bot["decision_seconds"]) == {"median", "p95", "max", "mean"}
        assert 0 < bot["decision_seconds"]["median"] <= bot["decision_seconds"]["max"]
        assert bot["illegal"] == 0 and bot["failures"] == []
    # Barbu is zero-sum: the seats' points per game add up to zero.
    assert sum(b["points_per_game"]["mean"] * b["seats"] for b in report["bots"]) == pytest.approx(0, abs=1e-9)
    assert len(report["duplicates"]) == 2 and all(len(row) == 2 for row in report["duplicates"])
    assert report["games_per_second"] > 0


def test_plot_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "arena.png"
    assert arena_main(["random", "random", "random", "--variant", "french", "-o", "player_count=3",
                       "--games", "2", "--workers", "1", "--plot", str(out), "--quiet"]) == 0  # fmt: skip
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_table_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        arena_main(["random", "random", "random", "random", "--variant", "king", "--games", "1", "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "points per game" in out and "Boys (no jacks or kings)" in out and "illegal" in out
    assert "king-no-boys" not in out  # the contract's title for people; the JSON keeps its id


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["random", "random"], "classic has 4 players: name 4 bots, not 2"),
        (["random"] * 4 + ["--variant", "poker"], "unknown variant 'poker'"),
        (["random"] * 4 + ["-o", "rotation=sideways"], "rotation"),
        (["wizard"] * 4, "unknown bot 'wizard'"),
        (["random:depth=3"] * 4, "random has no setting 'depth'"),
        (["search:iterations=0"] + ["random"] * 3, "bad settings in 'search:iterations=0'"),
        (["external:"] + ["random"] * 3, "external needs a command"),
        (["external:no-such-program-here"] + ["random"] * 3, "cannot find the program"),
        (["random"] * 4 + ["--games", "0"], "argument --games: '0' is out of range; give a whole number 1 or more"),
        (["random"] * 4 + ["--workers", "0"], "argument --workers: '0' is out of range; give a whole number 1 or more"),
    ],
)
def test_bad_arguments_are_refused_clearly(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as refused:
        arena_main([*argv, "--quiet"])
    assert message in str(refused.value)


def test_bot_specs() -> None:
    assert BotSpec.parse("random").settings == {}
    assert BotSpec.parse("search:rollout=random,iterations=3").settings == {"rollout": "random", "iterations": 3}
    with pytest.raises(ValueError, match="random takes no settings"):
        BotSpec.parse("random:mode=fast")
    spec = BotSpec.parse("external:python3 'my bot.py' --deep")
    assert spec.level == "external" and spec.command == ("python3", "my bot.py", "--deep")
    with pytest.raises(ValueError, match="key=value"):
        BotSpec.parse("random:fast")
