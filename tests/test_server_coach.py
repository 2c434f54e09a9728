"""The coach on the web: the analysis route (a record refused with its reason, too large, a game in
progress never analysed, a finished one by anyone) and the table's hint (only the seat's own holder,
only against bots or once every person at the table agreed, rate-limited)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient

from barbu import Game, seat_view
from barbu.bots import make_bot
from barbu.record import game_to_record
from barbu.server import coaching
from barbu.server.app import create_app
from barbu.server.protocol import HINTS_INTERVAL
from barbu.server.tables import Settings

COOKIE = "barbu_browser"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}", Settings(bot_delay=0.0))) as c:
        yield c


def short_record(deals: int = 1) -> dict[str, Any]:
    """A record of the first ``deals`` deals of a classic game played by bots."""
    game = Game.new("classic", seed=4)
    bot = make_bot("heuristic", seed=4)
    while len(game.deals) <= deals:
        game.apply(bot.act(seat_view(game, game.to_act)), game.to_act)
    return game_to_record(game)


def table_with(client: TestClient, humans: int) -> tuple[str, list[str]]:
    client.cookies.clear()
    seats = [{"kind": "human"}] * humans + [{"kind": "bot"}] * (4 - humans)
    res = client.post("/api/tables", json={"variant": "classic", "seats": seats})
    assert res.status_code == 200, res.text
    client.cookies.clear()
    return res.json()["table"], [s["link"].split("key=")[1] for s in res.json()["seats"]]


def holder(client: TestClient, table: str, seat: int, key: str) -> str:
    client.cookies.clear()
    res = client.post(f"/api/tables/{table}/claim", json={"seat": seat, "key": key})
    assert res.status_code == 200, res.text
    cookie = str(res.cookies[COOKIE])
    client.cookies.clear()
    return cookie


def hint(client: TestClient, table: str, browser: str | None) -> Any:
    headers = {"Cookie": f"{COOKIE}={browser}"} if browser else {}
    return client.post(f"/api/tables/{table}/hint", json={}, headers=headers)


def test_a_record_that_does_not_replay_is_refused_with_its_reason(client: TestClient) -> None:
    doc = short_record()
    doc["deals"][0]["play"][3] = doc["deals"][0]["play"][0]  # a card played twice
    res = client.post("/api/analysis", json={"record": doc})
    assert res.status_code == 400
    message = res.json()["error"]["message"]
    assert "does not replay" in message and "deal 1" in message and "Traceback" not in message
    for body in ({}, {"record": [1]}, {"table": 3}, {"record": {}, "table": "x"}):
        res = client.post("/api/analysis", json=body)
        assert res.status_code == 400 and res.json()["error"]["message"], body
    res = client.post("/api/analysis", content=b"{not json", headers={"Content-Type": "application/json"})
    assert res.status_code == 400


def test_a_record_too_large_is_refused_with_413(client: TestClient) -> None:
    doc = short_record()
    doc["padding"] = "x" * (coaching.RECORD_BYTES + 10)
    res = client.post("/api/analysis", json={"record": doc})
    assert res.status_code == 413


def test_a_record_is_analysed_with_its_board_and_a_game_in_progress_never(client: TestClient) -> None:
    res = client.post("/api/analysis", json={"record": short_record()})
    assert res.status_code == 200, res.text
    out = res.json()
    assert out["analysis"]["settings"]["iterations"] == coaching.WEB_SETTINGS.iterations
    (deal,) = out["board"]
    assert len(deal["steps"]) == len(out["analysis"]["deals"][0]["decisions"])
    assert [len(h) for h in deal["steps"][0]["hands"]] == [13, 13, 13, 13]
    table, _ = table_with(client, 0)  # four bots: playing, not over
    res = client.post("/api/analysis", json={"table": table})
    assert res.status_code == 409 and res.json()["error"]["code"] == "not_finished"
    assert client.post("/api/analysis", json={"table": "nope"}).status_code == 404


def test_a_finished_game_of_the_server_is_analysed_for_anyone(tmp_path: Path) -> None:
    """A whole game stored as the server would have; nobody at the table asks, and it is analysed."""
    import random

    from barbu.actions import action_to_json
    from barbu.storage import ActionRow, SeatRow, Store, TableRow

    url = f"sqlite:///{tmp_path / 'done.db'}"
    store = Store(url)
    store.migrate()
    game = Game.new("king", {}, "seed", 1)
    rng = random.Random(3)
    rows = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        rows.append(ActionRow("done", len(rows) + 1, seat, action_to_json(action), None, "bot"))
    now = time.time()
    store.create_table(
        TableRow("done", "king", {}, "seed", 1, "me", now, "finished", now),
        [SeatRow(s, "bot", "random") for s in range(4)],
    )
    store.append_actions(rows)
    store.dispose()
    with TestClient(create_app(url)) as client:
        res = client.post("/api/analysis", json={"table": "done"})
        assert res.status_code == 200, res.text
        out = res.json()
        assert len(out["board"]) == len(game.deals) and len(out["analysis"]["players"]) == 4


def test_analyses_are_rate_limited_per_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coaching, "ANALYSIS_BURST", 1.0)
    monkeypatch.setattr(coaching, "ANALYSES_PER_MINUTE", 0.01)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}")) as client:
        doc = short_record()
        assert client.post("/api/analysis", json={"record": doc}).status_code == 200
        res = client.post("/api/analysis", json={"record": doc})
        assert res.status_code == 429 and int(res.headers["Retry-After"]) > 60
        doc["deals"][0]["declarer"] = 9  # a record that does not replay is refused first, and costs nothing
        assert client.post("/api/analysis", json={"record": doc}).status_code == 400


def test_the_hint_answers_only_the_seat_holder_against_bots(client: TestClient) -> None:
    table, keys = table_with(client, 1)
    mine = holder(client, table, 0, keys[0])
    assert client.get(f"/api/tables/{table}/hint", headers={"Cookie": f"{COOKIE}={mine}"}).json() == {"available": True}
    with client.websocket_connect("/ws", headers={"Cookie": f"{COOKIE}={mine}"}) as ws:
        ws.send_json({"type": "hello", "table": table, "seat": 0})  # the game starts; bots act until seat 0's turn
        deadline = time.monotonic() + 20
        res = hint(client, table, mine)
        while res.status_code == 409 and time.monotonic() < deadline:
            time.sleep(0.1)
            res = hint(client, table, mine)
    assert res.status_code == 200, res.text
    answer = res.json()
    assert answer["seat"] == 0 and answer["phase"] in ("contract", "call") and len(answer["choices"]) >= 2
    assert hint(client, table, None).status_code == 403  # watching: no seat, no hint
    assert hint(client, table, "x" * 43).status_code == 403  # another browser


def test_no_hint_at_a_table_with_another_human(client: TestClient) -> None:
    table, keys = table_with(client, 2)
    mine = holder(client, table, 0, keys[0])
    res = hint(client, table, mine)
    assert res.status_code == 403 and res.json()["error"]["code"] == "humans_at_table"
    assert client.get(f"/api/tables/{table}/hint", headers={"Cookie": f"{COOKIE}={mine}"}).json()["available"] is False


def test_hints_are_rate_limited(client: TestClient) -> None:
    table, keys = table_with(client, 1)
    mine = holder(client, table, 1 - 1, keys[0])
    codes = [hint(client, table, "y" * 43).status_code for _ in range(int(coaching.HINTS_PER_MINUTE / 3))]
    assert set(codes) == {403}  # refused for who asks, but each costs the address
    res = hint(client, table, mine)
    assert res.status_code == 429 and int(res.headers["Retry-After"]) >= 1


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` (frames of other types skipped)."""
    for _ in range(200):
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def test_hints_open_at_a_table_with_people_once_every_person_agrees(client: TestClient) -> None:
    table, keys = table_with(client, 2)
    first, second = holder(client, table, 0, keys[0]), holder(client, table, 1, keys[1])
    with (
        client.websocket_connect("/ws", headers={"Cookie": f"{COOKIE}={first}"}) as a,
        client.websocket_connect("/ws", headers={"Cookie": f"{COOKIE}={second}"}) as b,
        client.websocket_connect("/ws") as watcher,
    ):
        a.send_json({"type": "hello", "table": table, "seat": 0})
        assert until(a, "table")["hints"] == {"agreed": [], "on": False}
        b.send_json({"type": "hello", "table": table, "seat": 1})
        watcher.send_json({"type": "hello", "table": table})
        until(watcher, "table")
        # a watcher has no say; a malformed answer is refused; both change nothing
        watcher.send_json({"type": "hints", "agree": True})
        assert until(watcher, "error")["code"] == "no_credential"
        a.send_json({"type": "hints", "agree": "yes"})
        assert until(a, "error")["code"] == "malformed"
        # seat 0 proposes: everyone sees it; hints stay closed to both until seat 1 accepts
        a.send_json({"type": "hints", "agree": True})
        for ws in (a, b, watcher):
            while (frame := until(ws, "table"))["hints"]["agreed"] != [0]:
                pass
            assert frame["hints"] == {"agreed": [0], "on": False}
        for cookie in (first, second):
            res = hint(client, table, cookie)
            assert res.status_code == 403 and res.json()["error"]["code"] == "humans_at_table"
        a.send_json({"type": "hints", "agree": True})  # too soon after its last answer
        assert until(a, "error")["code"] == "rate_limited"
        b.send_json({"type": "hints", "agree": True})
        while not (frame := until(watcher, "table"))["hints"]["on"]:
            pass
        assert frame["hints"] == {"agreed": [0, 1], "on": True}
        for cookie in (first, second):
            allowed = client.get(f"/api/tables/{table}/hint", headers={"Cookie": f"{COOKIE}={cookie}"}).json()
            assert allowed == {"available": True}
        assert hint(client, table, "z" * 43).status_code == 403  # still only for the seats' own browsers
        # one no closes them for everyone
        time.sleep(HINTS_INTERVAL)
        b.send_json({"type": "hints", "agree": False})
        while (frame := until(a, "table"))["hints"]["on"]:
            pass
        assert frame["hints"] == {"agreed": [], "on": False}
        assert hint(client, table, first).status_code == 403


def test_a_worker_process_that_dies_is_replaced() -> None:
    import asyncio
    import os
    from concurrent.futures.process import BrokenProcessPool

    workers = coaching.CoachWorkers()

    async def main() -> None:
        with pytest.raises(BrokenProcessPool):
            await workers.run("hints", os._exit, 3)  # the worker dies as if killed
        assert await workers.run("hints", sum, [1, 2, 3]) == 6

    try:
        asyncio.run(main())
    finally:
        workers.stop()


def test_a_refused_record_is_refused_in_the_language_of_the_request(client: TestClient) -> None:
    doc = short_record()
    doc["deals"][0]["play"][3] = doc["deals"][0]["play"][0]  # a card played twice
    res = client.post("/api/analysis", json={"record": doc}, headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert res.status_code == 400
    message = res.json()["error"]["message"]
    assert message.startswith("le relevé ne peut pas être analysé : le relevé ne se rejoue pas"), message
    res = client.post("/api/analysis", json={"record": doc}, headers={"Accept-Language": "en"})
    assert res.json()["error"]["message"].startswith("the record cannot be analysed: the record does not replay")
