"""``barbu serve --bot-budget``: a level's thinking budget, read and refused with what is allowed
(in the environment's language), and used by every bot of that level at a table."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from barbu.bots import Bot, make_bot
from barbu.server import bot_budgets, serve_main
from barbu.server import tables as live_tables
from barbu.server.app import create_app
from barbu.server.client import SeatClient, ServerThread
from barbu.server.tables import Settings
from barbu.usage import UsageError
from conftest import QUICK_GATHER


def test_budgets_are_read_per_level() -> None:
    assert bot_budgets([]) == {}
    assert bot_budgets(["search:iterations=16,seconds=null", "expert:worlds=64,ms=null"]) == {
        "search": {"iterations": 16, "seconds": None},
        "expert": {"worlds": 64, "ms": None},
    }
    assert bot_budgets(["expert:ms=20"]) == {"expert": {"ms": 20}}  # the worlds keep their default


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("heuristic:iterations=3", "heuristic has no thinking budget; levels with one: search (iterations, seconds)"),
        ("random", "random has no thinking budget"),
        ("genius:iterations=3", "unknown bot level 'genius'; levels with a thinking budget: search"),
        ("search", "give the budget of search as search:key=value,…, with iterations, seconds"),
        ("search:rollout=random", "rollout is not part of the thinking budget of search; its budget settings are"),
        ("search:depth=3", "search has no setting 'depth'; its settings are: iterations, seconds"),
        ("search:iterations", "bot settings are written key=value"),
        ("search:iterations=0", "iterations must be a whole number of worlds, 1 or more, not 0"),
        ("search:iterations=many", "iterations must be a whole number of worlds, 1 or more, not 'many'"),
        ("search:seconds=-1", "seconds must be a positive time cap, or None for no cap (null on a command line)"),
        ("expert:worlds=1.5", "worlds must be a whole number of worlds, 1 or more, or None"),
        ("expert:ms=0", "ms must be a positive time budget in milliseconds"),
        ("expert:ms=null,worlds=null", "give the expert a time budget (ms) or a number of worlds (worlds), or both"),
    ],
)
def test_a_bad_budget_is_refused_saying_what_is_allowed(text: str, says: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(UsageError) as refused:
        bot_budgets([text])
    assert refused.value.message.startswith("--bot-budget: ")
    assert says in refused.value.message


def test_a_level_given_twice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(UsageError, match="search is given twice; give each level's budget once"):
        bot_budgets(["search:iterations=8", "search:seconds=0.1"])


def test_the_refusals_speak_the_environments_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "fr")
    with pytest.raises(UsageError) as refused:
        bot_budgets(["heuristic:iterations=3"])
    assert "heuristic n'a pas de budget de réflexion ; niveaux qui en ont un : search" in refused.value.message
    with pytest.raises(UsageError) as refused:
        bot_budgets(["search:iterations=0"])
    assert "iterations doit être un nombre entier de mondes, 1 ou plus, et non 0" in refused.value.message
    with pytest.raises(UsageError, match="search est donné deux fois"):
        bot_budgets(["search:iterations=8", "search:iterations=9"])


def test_serve_refuses_a_bad_budget_before_it_touches_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    db = tmp_path / "never.db"
    with pytest.raises(UsageError, match="--bot-budget: expert has no setting 'depth'"):
        serve_main(["--db", f"sqlite:///{db}", "--bot-budget", "expert:depth=2"])
    assert not db.exists()


def test_every_bot_of_a_level_at_a_table_thinks_within_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[str, Bot]] = []

    def recording(level: str, seed: int | None = 0, **settings: Any) -> Bot:
        bot = make_bot(level, seed=seed, **settings)
        made.append((level, bot))
        return bot

    monkeypatch.setattr(live_tables, "make_bot", recording)
    budget = {"iterations": 2, "seconds": None}
    settings = Settings(commit_gather=QUICK_GATHER, bot_delay=0.0, bot_budgets={"search": budget})
    seats = [{"kind": "bot", "level": level} for level in ("search", "heuristic", "search", "random")]
    with ServerThread(create_app(f"sqlite:///{tmp_path}/budget.db", settings)) as server:
        res = httpx.post(f"{server.http}/api/tables", json={"variant": "classic", "seats": seats})
        assert res.status_code == 200, res.text
        table = res.json()["table"]

        async def watch() -> None:
            watcher = await SeatClient(server.ws, keep_frames=False).connect()
            await watcher.hello(table)
            while sum(level == "search" for level, _ in made) < 4:  # the search seats have acted
                await watcher.recv(timeout=120)
            await watcher.close()

        asyncio.run(watch())
    searchers = [bot for level, bot in made if level == "search"]
    assert searchers and all(bot.settings()["iterations"] == 2 for bot in searchers)  # type: ignore[attr-defined]
    assert all(bot.settings()["seconds"] is None for bot in searchers)  # type: ignore[attr-defined]
    default = make_bot("search").settings()  # type: ignore[attr-defined]
    assert default["iterations"] != 2 and default["seconds"] is not None  # the budget is not the default
    assert all(bot.name == "search" for bot in searchers)  # the level keeps its name
    assert {level for level, _ in made} >= {"search", "heuristic"}
