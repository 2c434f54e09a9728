"""Seat claims: a browser trades a link's key for a cookie no script can read, once; the same link in
another browser is refused unless that browser takes the seat over, and then the first is told."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from barbu.server.app import create_app

COOKIE = "barbu_browser"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}")) as c:
        yield c


def new_table(client: TestClient, browser: str | None = None) -> tuple[str, list[str], str]:
    """Two people and two bots: (table, the two keys, the creator's browser cookie)."""
    client.cookies.clear()
    headers = {"Cookie": f"{COOKIE}={browser}"} if browser else {}
    res = client.post(
        "/api/tables",
        json={"variant": "classic", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2},
        headers=headers,
    )
    assert res.status_code == 200, res.text
    body = res.json()
    cookie = browser or res.cookies[COOKIE]
    client.cookies.clear()
    return body["table"], [s["link"].split("key=")[1] for s in body["seats"]], cookie


def claim(client: TestClient, table: str, body: dict[str, Any], browser: str | None) -> Any:
    client.cookies.clear()
    headers = {"Cookie": f"{COOKIE}={browser}"} if browser else {}
    res = client.post(f"/api/tables/{table}/claim", json=body, headers=headers)
    client.cookies.clear()
    return res


def hello(client: TestClient, browser: str | None, **fields: Any) -> Any:
    headers = {"Cookie": f"{COOKIE}={browser}"} if browser else {}
    return client.websocket_connect("/ws", headers=headers), {"type": "hello", **fields}


def frames_until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.receive_text())
        if frame["type"] in (kind, "error"):
            return dict(frame)


def test_the_cookie_is_http_only_strict_and_the_key_buys_it_once(client: TestClient) -> None:
    table, keys, _ = new_table(client)
    client.cookies.clear()
    res = client.post(f"/api/tables/{table}/claim", json={"seat": 0, "key": keys[0]})
    assert res.status_code == 200, res.text
    assert res.json()["seat"] == 0
    cookie = res.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    browser = res.cookies[COOKIE]
    assert keys[0] not in cookie and len(browser) >= 32
    client.cookies.clear()  # from here on, each request says which browser it comes from
    # the cookie now seats this browser without the key
    conn, msg = hello(client, browser, table=table, seat=0)
    with conn as ws:
        ws.send_text(json.dumps(msg))
        welcome = frames_until(ws, "welcome")
        assert welcome["seat"] == 0
        assert len(frames_until(ws, "state")["view"]["hand"]) == 13
    # a seat number without the cookie is nothing
    conn, msg = hello(client, None, table=table, seat=0)
    with conn as ws:
        ws.send_text(json.dumps(msg))
        assert frames_until(ws, "welcome")["code"] == "bad_credential"
    # a wrong key claims nothing
    res = claim(client, table, {"seat": 1, "key": keys[0][::-1]}, None)
    assert res.status_code == 403 and res.json()["error"]["code"] == "bad_credential"


def test_a_claimed_seat_is_not_silently_taken_from_elsewhere(client: TestClient) -> None:
    table, keys, _ = new_table(client)
    first = claim(client, table, {"seat": 0, "key": keys[0]}, None).cookies[COOKIE]
    conn, msg = hello(client, first, table=table, seat=0)
    with conn as ws_first:
        ws_first.send_text(json.dumps(msg))
        assert frames_until(ws_first, "welcome")["seat"] == 0
        # the leaked key, from a script with no cookie: refused, the first browser keeps the seat
        conn2, msg2 = hello(client, None, table=table, key=keys[0])
        with conn2 as ws_thief:
            ws_thief.send_text(json.dumps(msg2))
            error = frames_until(ws_thief, "welcome")
            assert error["code"] == "seat_held" and "another browser" in error["message"]
        # from another browser: asked, not seated
        res = claim(client, table, {"seat": 0, "key": keys[0]}, "another-browser-cookie-value-000000")
        assert res.status_code == 409 and res.json()["error"]["code"] == "seat_held"
        # the same browser again: fine
        assert claim(client, table, {"seat": 0, "key": keys[0]}, first).status_code == 200
        # an explicit takeover moves the seat, and the first browser is told and let go
        res = claim(client, table, {"seat": 0, "key": keys[0], "takeover": True}, "another-browser-cookie-value-000000")
        assert res.status_code == 200 and res.json()["taken_over"] is True
        frame = frames_until(ws_first, "taken_over")
        assert frame["code"] == "taken_over" and "another browser" in frame["message"]
        with pytest.raises(WebSocketDisconnect):
            while True:
                ws_first.receive_text()
    # the first browser's cookie no longer seats it
    conn, msg = hello(client, first, table=table, seat=0)
    with conn as ws:
        ws.send_text(json.dumps(msg))
        assert frames_until(ws, "welcome")["code"] == "bad_credential"


def test_a_key_that_no_browser_claimed_still_seats_a_program(client: TestClient) -> None:
    table, keys, _ = new_table(client)
    conn, msg = hello(client, None, table=table, key=keys[1])
    with conn as ws:
        ws.send_text(json.dumps(msg))
        assert frames_until(ws, "welcome")["seat"] == 1


def test_the_creator_alone_sees_the_unclaimed_invitations(client: TestClient) -> None:
    table, keys, creator = new_table(client)
    client.cookies.clear()
    res = client.get(f"/api/tables/{table}/invitations", headers={"Cookie": f"{COOKIE}={creator}"})
    assert res.status_code == 200, res.text
    assert [(s["seat"], s["link"].split("key=")[1]) for s in res.json()["seats"]] == [(0, keys[0]), (1, keys[1])]
    client.cookies.clear()
    res = client.get(
        f"/api/tables/{table}/invitations", headers={"Cookie": f"{COOKIE}=somebody-else-entirely-000000000"}
    )
    assert res.status_code == 200 and res.json()["seats"] == [] and res.json()["creator"] is False
    client.cookies.clear()
    assert client.get(f"/api/tables/{table}/invitations").json()["seats"] == []
    # a claimed seat's invitation is spent: it is no longer listed
    claim(client, table, {"seat": 0, "key": keys[0]}, creator)
    client.cookies.clear()
    res = client.get(f"/api/tables/{table}/invitations", headers={"Cookie": f"{COOKIE}={creator}"})
    assert [s["seat"] for s in res.json()["seats"]] == [1]
