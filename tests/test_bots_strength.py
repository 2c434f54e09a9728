"""The strength measure of benchmarks/bench_search.py (``strength``): its duplicate deals.

The measure compares two budgets of the search bot on duplicate deals; these tests check its
mechanics at a tiny budget (2 worlds against 1): every deal is played once per seat with the
hero in that seat, on the same cards; a run is a function of its seed; a stopped run resumes
where its file stops, to the same result; and the table's per-game figure is four deals of
each contract with the contracts' intervals combined.
"""

from __future__ import annotations

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
    make = bench.worlds_bot

    def watched(level: str, seed: int | None = 0) -> Any:
        bot = Watched(make(level, seed), level, log)
        return bot

    original = bench.bench_bots.play_rotation

    def rotation(*args: Any, **kwargs: Any) -> Any:
        log.clear()
        result = original(*args, **kwargs)
        rounds.append([(level, seat, hand) for level, _, seat, hand in log])
        return result

    monkeypatch.setattr(bench, "worlds_bot", watched)
    monkeypatch.setattr(bench.bench_bots, "play_rotation", rotation)
    runs = bench.strength_runs(2, 1, 1, 5, VARIANT, None, quiet=True)
    contracts = [c.id for c in rules(VARIANT).contracts]
    assert [(r["contract"], r["seat"]) for r in runs] == [(c, s) for c in contracts for s in range(4)]
    for k, contract in enumerate(contracts):
        # The four rotations of a deal: the hero (2 worlds) in seat 0, 1, 2, 3 in turn, the
        # field (1 world) in the other seats, and every seat dealt the same hand each time.
        deal = rounds[4 * k : 4 * k + 4]
        heroes = [sorted(seat for level, seat, _ in r if level == "2") for r in deal]
        assert heroes == [[0], [1], [2], [3]], contract
        assert all(sorted(level for level, _, _ in r) == ["1", "1", "1", "2"] for r in deal)
        hands = [sorted((seat, hand) for _, seat, hand in r) for r in deal]
        assert hands[0] == hands[1] == hands[2] == hands[3], contract
        assert len({r["game"] for r in runs if r["contract"] == contract}) == 1
    # Every contract's deal has its own cards.
    assert len({tuple(sorted((s, h) for _, s, h in rounds[4 * k])) for k in range(len(contracts))}) == len(contracts)


def test_a_run_is_seeded_and_resumes_to_the_same_result(bench: Any, tmp_path: Path) -> None:
    path = tmp_path / "strength.json"
    first = bench.strength_runs(2, 1, 1, 9, VARIANT, path, quiet=True)
    points = [(r["contract"], r["seat"], r["hero"], r["others"]) for r in first]
    assert json.loads(path.read_text())["rotations"] == first
    # Stop the file after ten rotations: a rerun plays the rest, to the same points.
    saved = json.loads(path.read_text())
    saved["rotations"] = saved["rotations"][:10]
    path.write_text(json.dumps(saved))
    again = bench.strength_runs(2, 1, 1, 9, VARIANT, path, quiet=True)
    assert [(r["contract"], r["seat"], r["hero"], r["others"]) for r in again] == points
    # Another seed deals other cards (so other points somewhere).
    other = bench.strength_runs(2, 1, 1, 10, VARIANT, None, quiet=True)
    assert [(r["hero"], r["others"]) for r in other] != [(r["hero"], r["others"]) for r in first]
    # A file of another measure is refused, not mixed in.
    with pytest.raises(SystemExit, match="was written by a run with"):
        bench.strength_runs(3, 1, 1, 9, VARIANT, path, quiet=True)


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
