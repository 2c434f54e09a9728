"""Cross-site requests: every state-changing route and the WebSocket handshake refuse another origin.

A page on another site can make a victim's browser send requests to the server; what tells
them apart is the ``Origin`` header (and ``Sec-Fetch-Site``) the browser adds. A refused
request is a typed 403 and changes nothing; clients that send neither header (bots, scripts,
curl) keep working, and a JSON body must say it is JSON, so a cross-site HTML form (which
can only send form encodings or plain text) never reaches a route.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import column, inspect, select, table

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from barbu.server import serve_main
from barbu.server.app import create_app
from barbu.server.client import ServerProcess
from barbu.server.tables import Settings
from barbu.usage import UsageError
from conftest import QUICK_COMMITS

STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
EVIL = "http://evil.example"
SAME = "http://testserver"  # the test client's own origin
NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}")) as c:
        yield c


def snapshot(client: TestClient) -> dict[str, list[str]]:
    """Every row of every table of the database, as text."""
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    out: dict[str, list[str]] = {}
    with engine.connect() as conn:
        for name in inspect(conn).get_table_names():
            columns = [c["name"] for c in inspect(conn).get_columns(name)]
            t = table(name, *[column(c) for c in columns])
            out[name] = sorted(repr(tuple(r)) for r in conn.execute(select(t)))
    return out


def state_changing_routes(client: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every route that may change something, read from the app itself."""
    out = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        for method in sorted(getattr(route, "methods", None) or ()):
            if method in STATE_CHANGING:
                out.append((method, route.path))
    return out


def setup_game_and_sheet(client: TestClient) -> tuple[str, str, str, int]:
    """A table with a person's seat, and a score sheet: (table, seat key, sheet, sheet version)."""
    made = client.post("/api/tables", json={"variant": "classic", "seats": [{"kind": "human"}] * 4}).json()
    key = made["seats"][0]["link"].split("key=")[1]
    sheet = client.post("/api/sheets", json={"players": NAMES, "title": "club night"}).json()
    return made["table"], key, sheet["id"], sheet["version"]


def plausible_body(method: str, path: str, key: str, version: int) -> dict[str, Any]:
    """A body the route would accept from its own pages, so a refusal is the guard's doing."""
    if path == "/api/tables":
        return {"variant": "classic", "seats": [{"kind": "human", "name": "Mallory"}] + [{"kind": "bot"}] * 3}
    if path == "/api/sheets":
        return {"players": ["Eve", "Mallory", "Trent", "Oscar"]}
    if path.endswith("/changes"):
        return {"change": "players", "players": ["<img src=x>", "B", "C", "D"], "version": version}
    if method == "PATCH":
        return {"title": "pwned", "version": version}
    if path.endswith("/claim"):
        return {"seat": 0, "key": key}
    return {"version": version}


def fill(path: str, table_id: str, sheet_id: str) -> str:
    return path.replace("{table_id}", table_id).replace("{sheet_id}", sheet_id).replace("{fmt}", "csv")


def test_the_routes_enumerated_include_the_known_state_changing_ones(client: TestClient) -> None:
    routes = set(state_changing_routes(client))
    for known in [
        ("POST", "/api/tables"),
        ("POST", "/api/sheets"),
        ("PATCH", "/api/sheets/{sheet_id}"),
        ("DELETE", "/api/sheets/{sheet_id}"),
        ("POST", "/api/sheets/{sheet_id}/changes"),
    ]:
        assert known in routes


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": EVIL},
        {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},  # a sandboxed frame or a data: page
        {"Origin": "http://testserver:8080"},  # another port is another origin
        {"Origin": "https://testserver"},  # another scheme too
        {"Sec-Fetch-Site": "cross-site"},  # a browser that left the origin out
        {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain is not this origin
        {"Origin": SAME, "Sec-Fetch-Site": "cross-site"},  # the two signals disagree
    ],
)
def test_a_cross_origin_request_to_every_state_changing_route_is_refused_and_changes_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    table_id, key, sheet_id, version = setup_game_and_sheet(client)
    before = snapshot(client)
    routes = state_changing_routes(client)
    assert len(routes) >= 10
    for method, path in routes:
        url = fill(path, table_id, sheet_id)
        body = plausible_body(method, path, key, version)
        res = client.request(method, url, json=body, headers=headers)
        assert res.status_code == 403, (method, path, res.status_code, res.text)
        error = res.json()["error"]
        assert error["code"] == "cross_origin", error
        assert "origin" in error["message"] and "Traceback" not in error["message"]
    assert snapshot(client) == before


def test_same_origin_and_header_less_clients_keep_working(client: TestClient) -> None:
    _, _, sheet_id, version = setup_game_and_sheet(client)  # no Origin at all: a script, a bot
    res = client.patch(
        f"/api/sheets/{sheet_id}", json={"title": "renamed", "version": version}, headers={"Origin": SAME}
    )
    assert res.status_code == 200, res.text
    version = res.json()["version"]
    res = client.post(
        f"/api/sheets/{sheet_id}/changes",
        json={"change": "players", "players": ["A", "B", "C", "D"], "version": version},
        headers={"Origin": SAME, "Sec-Fetch-Site": "same-origin"},
    )
    assert res.status_code == 200, res.text
    res = client.post("/api/tables", json={"variant": "classic"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert res.status_code == 200, res.text
    res = client.post("/api/tables", json={"variant": "classic"}, headers={"Sec-Fetch-Site": "none"})  # typed URL
    assert res.status_code == 200, res.text
    assert client.delete(f"/api/sheets/{sheet_id}", headers={"Origin": SAME}).status_code == 200
    # reading stays open to everyone: it changes nothing
    assert client.get("/api/tables?status=open", headers={"Origin": EVIL}).status_code == 200


def test_an_allowed_origin_passes_behind_a_proxy(tmp_path: Path) -> None:
    settings = Settings(allowed_origins=("https://barbu.example",))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", settings)) as client:
        ok = client.post(
            "/api/tables",
            json={"variant": "classic"},
            headers={"Origin": "https://barbu.example", "Sec-Fetch-Site": "cross-site"},
        )
        assert ok.status_code == 200, ok.text
        refused = client.post("/api/tables", json={"variant": "classic"}, headers={"Origin": "https://other.example"})
        assert refused.status_code == 403


def test_a_form_or_plain_text_body_is_refused(client: TestClient) -> None:
    """What a cross-site HTML form can send (no preflight): never accepted as JSON."""
    _, _, sheet_id, version = setup_game_and_sheet(client)
    before = snapshot(client)
    cases = [
        ("/api/tables", "application/x-www-form-urlencoded", b"variant=classic"),
        ("/api/tables", "text/plain", json.dumps({"variant": "classic"}).encode()),
        (
            "/api/tables",
            "multipart/form-data; boundary=x",
            b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
        ),
        (
            f"/api/sheets/{sheet_id}/changes",
            "text/plain",
            json.dumps({"change": "players", "players": ["X", "B", "C", "D"], "version": version}).encode(),
        ),
        ("/api/sheets", None, json.dumps({"players": NAMES}).encode()),
    ]
    for path, kind, body in cases:
        headers = {"Content-Type": kind} if kind else {}
        res = client.post(path, content=body, headers=headers)
        assert res.status_code == 415, (path, kind, res.text)
        error = res.json()["error"]
        assert error["code"] == "content_type" and "application/json" in error["message"], error
    assert snapshot(client) == before
    # JSON with a charset is JSON
    res = client.post(
        "/api/tables", content=b'{"variant": "classic"}', headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert res.status_code == 200, res.text


def test_a_cross_origin_websocket_handshake_is_refused_before_any_message(client: TestClient) -> None:
    table_id, key, _, _ = setup_game_and_sheet(client)
    for headers in ({"Origin": EVIL}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws", headers=headers) as ws:
            ws.send_text(json.dumps({"type": "hello", "table": table_id, "key": key}))
            ws.receive_text()
        assert refused.value.code == 1008
    # the seat was never taken: nobody joined
    seats = client.get("/api/tables?status=open").json()[0]["seats"]
    assert not any(s["joined"] for s in seats)
    # the same origin, and a client without Origin, are welcome
    for headers in ({"Origin": SAME}, {}):
        with client.websocket_connect("/ws", headers=headers) as ws:
            ws.send_text(json.dumps({"type": "hello", "table": table_id}))
            assert json.loads(ws.receive_text())["type"] == "welcome"


def test_a_real_server_refuses_a_cross_origin_handshake(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'real.db'}", *QUICK_COMMITS) as server:
        made = httpx.post(server.http + "/api/tables", json={"variant": "classic"}).json()

        async def main() -> None:
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(server.ws, origin=websockets.Origin(EVIL)):
                    pass
            assert refused.value.response.status_code == 403
            async with websockets.connect(server.ws, origin=websockets.Origin(server.http)) as ws:
                await ws.send(json.dumps({"type": "hello", "table": made["table"]}))
                assert json.loads(await ws.recv())["type"] == "welcome"

        asyncio.run(main())
        res = httpx.post(server.http + "/api/tables", json={"variant": "classic"}, headers={"Origin": EVIL})
        assert res.status_code == 403 and res.json()["error"]["code"] == "cross_origin"


def test_serve_checks_its_allowed_origins() -> None:
    for bad in ["ftp://barbu.example", "barbu.example", "https://barbu.example/path", "https://"]:
        with pytest.raises(UsageError) as refused:
            serve_main(["--allow-origin", bad, "--db", "sqlite://"])
        assert refused.value.message.startswith("--allow-origin") and bad in refused.value.message
