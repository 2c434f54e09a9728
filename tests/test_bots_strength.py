"""The strength measure of benchmarks/bench_search.py (``strength``): its duplicate deals.

The measure compares two bots (levels with settings) on duplicate deals; these tests check its
mechanics at a tiny budget (the search at 2 worlds against 1): every deal is played once per seat
with the hero in that seat, on the same cards; a run is a function of its seed; a stopped run
resumes where its file stops, to the same result; the table's per-game figure is four deals of
each contract with the contracts' intervals combined; and the command line reads the two bots.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import pytest

from barbu.bots import Bot
from barbu.rulesets import rules
from barbu.view import SeatView

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_search.py"
VARIANT = "thirty-two"
"""Eight tricks a deal: the quickest rule set with every contract of classic."""
HERO = "search:iterations=2,seconds=null"
FIELD = "search:iterations=1,seconds=null"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_search", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench() -> Any:
    return _bench()


class Watched:
    """A bot that notes the first view it is shown (its hand, its seat) and then plays on."""

    def __init__(self, inner: Bot, level: str, log: list[tuple[str, int, int, tuple[int, ...]]]) -> None:
        self.inner, self.level, self.log = inner, level, log

    def act(self, view: SeatView) -> Any:
        assert view.seat is not None
        if not any(entry[1] == id(self) for entry in self.log):
            self.log.append((self.level, id(self), view.seat, view.hand))
        return self.inner.act(view)


def test_each_deal_is_played_once_per_seat_on_the_same_cards(bench: Any, monkeypatch: Any) -> None:
    log: list[tuple[str, int, int, tuple[int, ...]]] = []
    rounds: list[list[tuple[str, int, tuple[int, ...]]]] = []
    make = bench.spec_bot

    def watched(level: str, seed: int | None = 0) -> Any:
        bot = Watched(make(level, seed), level, log)
        return bot

    original = bench.bench_bots.play_rotation

    def rotation(*args: Any, **kwargs: Any) -> Any:
        log.clear()
        result = original(*args, **kwargs)
        rounds.append([(level, seat, hand) for level, _, seat, hand in log])
        return result

    monkeypatch.setattr(bench, "spec_bot", watched)
    monkeypatch.setattr(bench.bench_bots, "play_rotation", rotation)
    runs = bench.strength_runs(HERO, FIELD, 1, 5, VARIANT, None, quiet=True)
    contracts = [c.id for c in rules(VARIANT).contracts]
    assert [(r["contract"], r["seat"]) for r in runs] == [(c, s) for c in contracts for s in range(4)]
    for k, contract in enumerate(contracts):
        # The four rotations of a deal: the hero (2 worlds) in seat 0, 1, 2, 3 in turn, the
        # field (1 world) in the other seats, and every seat dealt the same hand each time.
        deal = rounds[4 * k : 4 * k + 4]
        heroes = [sorted(seat for level, seat, _ in r if level == HERO) for r in deal]
        assert heroes == [[0], [1], [2], [3]], contract
        assert all(sorted(level for level, _, _ in r) == [FIELD, FIELD, FIELD, HERO] for r in deal)
        hands = [sorted((seat, hand) for _, seat, hand in r) for r in deal]
        assert hands[0] == hands[1] == hands[2] == hands[3], contract
        assert len({r["game"] for r in runs if r["contract"] == contract}) == 1
    # Every contract's deal has its own cards.
    assert len({tuple(sorted((s, h) for _, s, h in rounds[4 * k])) for k in range(len(contracts))}) == len(contracts)


def test_a_run_is_seeded_and_resumes_to_the_same_result(bench: Any, tmp_path: Path) -> None:
    path = tmp_path / "strength.json"
    first = bench.strength_runs(HERO, FIELD, 1, 9, VARIANT, path, quiet=True)
    points = [(r["contract"], r["seat"], r["hero"], r["others"]) for r in first]
    assert json.loads(path.read_text())["rotations"] == first
    # Stop the file after ten rotations: a rerun plays the rest, to the same points.
    saved = json.loads(path.read_text())
    saved["rotations"] = saved["rotations"][:10]
    path.write_text(json.dumps(saved))
    again = bench.strength_runs(HERO, FIELD, 1, 9, VARIANT, path, quiet=True)
    assert [(r["contract"], r["seat"], r["hero"], r["others"]) for r in again] == points
    # Another seed deals other cards (so other points somewhere).
    other = bench.strength_runs(HERO, FIELD, 1, 10, VARIANT, None, quiet=True)
    assert [(r["hero"], r["others"]) for r in other] != [(r["hero"], r["others"]) for r in first]
    # A file of another measure is refused, not mixed in.
    with pytest.raises(SystemExit, match="was written by a run with"):
        bench.strength_runs("search:iterations=3,seconds=null", FIELD, 1, 9, VARIANT, path, quiet=True)
    with pytest.raises(SystemExit, match="was written by a run with"):
        bench.strength_runs("expert:worlds=2,ms=null", FIELD, 1, 9, VARIANT, path, quiet=True)
    # The same bots written with their settings in another order are the same measure.
    same = bench.strength_runs("search:seconds=null,iterations=2", FIELD, 1, 9, VARIANT, path, quiet=True)
    assert same == again


def test_files_written_before_specs_are_read_as_the_search_at_their_worlds(bench: Any, tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    rotation = {"contract": "no-tricks", "deal": 0, "seat": 0, "game": 0, "hero": 1.0, "others": 0.5, "times": []}
    path.write_text(
        json.dumps({"args": {"worlds": 2, "against": 1, "seed": 9, "variant": VARIANT}, "rotations": [rotation]})
    )
    assert bench.strength_files([path], bench.strength_args(HERO, FIELD, 9, VARIANT)) == [rotation]
    with pytest.raises(SystemExit, match="was written by a run with"):
        bench.strength_files([path], bench.strength_args(HERO, FIELD, 10, VARIANT))


def test_the_table_counts_complete_deals_and_sums_the_contracts(bench: Any) -> None:
    runs = [
        {"contract": c, "deal": d, "seat": s, "hero": float(lead + s), "others": 1.5, "times": []}
        for c, leads in (("a", [1.0, 3.0, 5.0]), ("b", [0.0, -2.0, 2.0]))
        for d, lead in enumerate(leads)
        for s in range(4)
    ]
    # A deal with only two rotations played is left out.
    runs += [{"contract": "a", "deal": 9, "seat": s, "hero": 100.0, "others": 0.0, "times": []} for s in range(2)]
    table = bench.strength_table(runs, 4)
    # Hero minus others averaged over the seats: lead + 1.5 - 1.5 = lead.
    assert table["a"]["n"] == 3 and table["a"]["mean"] == pytest.approx(3.0)
    assert table["b"]["mean"] == pytest.approx(0.0)
    assert table["game"]["mean"] == pytest.approx(4 * 3.0)
    # Student's t with 2 degrees of freedom (4.303) times the standard error of each contract.
    assert table["a"]["half_width"] == pytest.approx(4.303 * 2 / math.sqrt(3), rel=1e-3)
    combined = 4 * math.hypot(table["a"]["half_width"], table["b"]["half_width"])
    assert table["game"]["half_width"] == pytest.approx(combined)


def _command(bench: Any, *argv: str) -> tuple[str, str]:
    parser = argparse.ArgumentParser()
    for flag, kind in (("--worlds", int), ("--against", int), ("--hero", str), ("--field", str)):
        parser.add_argument(flag, type=kind)
    return bench.strength_bots(parser, parser.parse_args(list(argv)))  # type: ignore[no-any-return]


def test_the_command_line_names_the_two_bots(bench: Any, capsys: Any) -> None:
    # As before: the search at 320 worlds against 64, or at the numbers given.
    assert _command(bench) == ("search:iterations=320,seconds=null", "search:iterations=64,seconds=null")
    assert _command(bench, "--worlds", "128", "--against", "16") == (
        "search:iterations=128,seconds=null",
        "search:iterations=16,seconds=null",
    )
    # Levels with settings, each side on its own.
    assert _command(bench, "--hero", "expert:worlds=320,ms=null", "--field", "search:iterations=320,seconds=null") == (
        "expert:worlds=320,ms=null",
        "search:iterations=320,seconds=null",
    )
    assert (
        _command(bench, "--hero", "expert:worlds=8,ms=null", "--against", "4")[1] == "search:iterations=4,seconds=null"
    )
    # Refusals say what is wrong, in the bots' words, and stop the command.
    for argv, said in (
        (("--hero", "expert", "--worlds", "8"), "not both"),
        (("--field", "search", "--against", "8"), "not both"),
        (("--hero", "grandmaster"), "unknown bot level"),
        (("--field", "search:depth=3"), "search has no setting 'depth'"),
        (("--hero", "expert:worlds=0,ms=null"), "worlds must be a whole number of worlds"),
    ):
        with pytest.raises(SystemExit):
            _command(bench, *argv)
        assert said in capsys.readouterr().err, argv


def test_a_clock_in_a_spec_is_named(bench: Any) -> None:
    assert bench.clock_settings("expert:worlds=320,ms=null") == []
    assert bench.clock_settings("expert:worlds=320") == ["ms"]
    assert bench.clock_settings("search:iterations=320") == ["seconds"]
