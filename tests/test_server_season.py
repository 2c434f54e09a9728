"""The season benchmark, in small: rated bot games through the server's API reach the ladder,
with a level's thinking budget set on the server (``--bot-budget``) and its name kept."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from typing import Any

from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS


def _season_module() -> Any:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "season.py"
    spec = importlib.util.spec_from_file_location("season", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["season"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_short_season_rates_every_game_and_ranks_the_levels_on_the_ladder(tmp_path: Path) -> None:
    season = _season_module()
    levels = ["random", "heuristic"]
    options = ("--bot-delay", "0", "--tables-per-client", "1000")
    with ServerProcess(f"sqlite:///{tmp_path}/season.db", *QUICK_COMMITS, *options) as server:
        result = asyncio.run(season.season(server, 3, levels, "king", 3, seed=2))
    assert result.games == 3
    # every game was rated: each level counts the games it sat in, and nothing else is on the ladder
    assert {p["bot"]: p["games"] for p in result.ladder} == dict(result.played)
    assert sorted(result.ranked()) == sorted(levels) and sum(result.played.values()) >= 3
    assert [p["place"] for p in result.ladder] == [1, 2]
    text = season.report(result, levels)
    assert "known order of strength" in text and "heuristic" in text


def test_a_season_with_a_budgeted_search_level_names_it_search_on_the_ladder(tmp_path: Path) -> None:
    season = _season_module()
    levels = ["random", "search"]
    options = season.server_options(["search:iterations=2,seconds=null"])
    assert options.count("--bot-budget") == 1
    with ServerProcess(f"sqlite:///{tmp_path}/season.db", *QUICK_COMMITS, *options) as server:
        result = asyncio.run(season.season(server, 2, levels, "king", 2, seed=3))
    assert result.games == 2 and result.played["search"] >= 1
    assert {p["bot"]: p["games"] for p in result.ladder} == dict(result.played)
    assert sorted(result.ranked()) == levels  # the level, not its budget, is the player
