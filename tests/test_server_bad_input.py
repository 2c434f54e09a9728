"""Bad input is a typed refusal, never a 500 or a traceback: names, nested or huge JSON, a database that is not one."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient

from starlette.requests import Request

from barbu.names import check_text
from barbu.server.app import create_app
from barbu.server.bodies import MAX_DEPTH, BodyError, loads, read_json
from barbu.server.client import SeatClient, ServerThread, free_port

NAMES = ["Ann", "Bob", "Cat", "Dan"]
JSON = {"content-type": "application/json"}
BAD_NAMES = ["x\ud800", "a\x07b", "a\x00", "\x1b[31mred", "x" * 41]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}"), raise_server_exceptions=False) as c:
        yield c


def send(client: TestClient, method: str, path: str, body: Any) -> Any:
    """``body`` as ASCII JSON (lone surrogates escaped, as a browser's JSON.stringify sends them)."""
    return client.request(method, path, content=json.dumps(body), headers=JSON)


def nested(depth: int) -> bytes:
    return b'{"a":' + b"[" * depth + b"]" * depth + b"}"


def test_deeply_nested_json_is_a_typed_400_on_every_route(client: TestClient) -> None:
    sheet = client.post("/api/sheets", json={"players": NAMES}).json()["id"]
    routes = [
        ("POST", "/api/tables"),
        ("POST", "/api/sheets"),
        ("POST", "/api/sheets/import"),
        ("PATCH", f"/api/sheets/{sheet}"),
        *[("POST", f"/api/sheets/{sheet}/{name}") for name in ("changes", "undo", "redo", "form", "preview", "fill")],
    ]
    for method, path in routes:
        res = client.request(method, path, content=nested(3000), headers=JSON)
        assert res.status_code == 400, (path, res.status_code, res.text)
        error = res.json()["error"]
        assert error.get("code", error.get("kind")) in ("bad_request", "request"), (path, error)
        assert f"{MAX_DEPTH} levels" in error["message"], (path, error)
    # nesting within the limit is read as before
    ok = client.post("/api/sheets", content=b'{"players": ["Ann", "Bob", "Cat", "Dan"], "options": {}}', headers=JSON)
    assert ok.status_code == 200, ok.text


def test_a_body_past_the_limit_is_refused_without_reading_it_all() -> None:
    sent: list[int] = []

    async def receive() -> dict[str, Any]:
        sent.append(1)
        return {"type": "http.request", "body": b"x" * 65536, "more_body": True}

    async def main() -> None:
        request = Request({"type": "http", "method": "POST", "headers": []}, receive)
        with pytest.raises(BodyError) as e:
            await read_json(request, 100_000)
        assert e.value.code == "too_large"
        announced = Request({"type": "http", "method": "POST", "headers": [(b"content-length", b"52428800")]}, receive)
        with pytest.raises(BodyError):
            await read_json(announced, 100_000)

    asyncio.run(main())
    assert len(sent) <= 3  # two chunks past the limit, never the 50 MB


def test_the_json_reader_says_what_is_wrong() -> None:
    assert loads(b'{"a": [1, {"b": "[[[[ inside a string ]]]]"}]}') == {"a": [1, {"b": "[[[[ inside a string ]]]]"}]}
    with pytest.raises(BodyError, match="levels"):
        loads(nested(MAX_DEPTH + 1))
    loads(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    with pytest.raises(BodyError, match="not valid JSON"):
        loads(b'{"a": ')
    with pytest.raises(BodyError, match="UTF-8"):
        loads(b'{"a": "\xff"}')


def test_names_and_titles_are_checked_in_one_place() -> None:
    assert check_text("  Ann   Lee ", "name", 40) == "Ann Lee"
    for bad in BAD_NAMES:
        with pytest.raises(ValueError, match="name") as e:
            check_text(bad, "name", 40)
        assert "\ud800" not in str(e.value) and "\x00" not in str(e.value)
    with pytest.raises(ValueError, match="empty"):
        check_text("   ", "name", 40)
    assert check_text("", "title", 120, required=False, kind="title") == ""


def test_a_refused_name_or_title_is_in_the_askers_language(client: TestClient) -> None:
    """The core's refusal of a name or a title is a text the lobby and the sheets translate."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "a\x07"}, {"kind": "human"}, {"kind": "human"}]
    body = json.dumps({"variant": "classic", "seats": seats})
    res = client.post("/api/tables", content=body, headers={**JSON, "Accept-Language": "fr"})
    assert res.status_code == 400, res.text
    assert res.json()["error"]["message"] == (
        "nom de la place 1 : il contient U+0007, un caractère de contrôle ; "
        "un nom compte de 0 à 40 caractères de texte imprimable"
    )
    res = client.post("/api/tables", content=body, headers={**JSON, "Accept-Language": "en"})
    assert res.json()["error"]["message"] == (
        "seat 1 name: it holds U+0007, a control character; a name is 0 to 40 characters of printable text"
    )
    sheet = client.post("/api/sheets", json={"players": NAMES, "title": "Friday"}).json()
    res = client.patch(f"/api/sheets/{sheet['id']}", json={"title": "\u202eFriday"}, headers={"Accept-Language": "fr"})
    assert res.status_code == 422, res.text
    assert res.json()["error"]["message"] == (
        "titre : il ouvre un forçage bidirectionnel (U+202E) qu'il ne ferme pas (par U+202C) ; "
        "un titre compte de 1 à 120 caractères de texte imprimable"
    )


def test_bad_names_are_refused_naming_the_field(client: TestClient) -> None:
    for bad in BAD_NAMES:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": bad}, {"kind": "human"}, {"kind": "human"}]
        res = send(client, "POST", "/api/tables", {"variant": "classic", "seats": seats})
        assert res.status_code == 400, (bad, res.text)
        assert res.json()["error"]["code"] == "bad_request" and "seat 1 name" in res.json()["error"]["message"]
        res = send(client, "POST", "/api/sheets", {"players": ["Ann", bad, "Cat", "Dan"]})
        assert res.status_code == 422 and res.json()["error"]["kind"] == "players", (bad, res.text)
        assert "seat 1" in res.json()["error"]["message"]
        res = send(client, "POST", "/api/sheets", {"players": NAMES, "title": bad + "y" * 100})
        assert res.status_code == 422 and "title" in res.json()["error"]["message"], (bad, res.text)
    sheet = client.post("/api/sheets", json={"players": NAMES, "title": "Friday"}).json()
    res = send(client, "PATCH", f"/api/sheets/{sheet['id']}", {"title": "x\ud800"})
    assert res.status_code == 422 and "title" in res.json()["error"]["message"]
    res = client.post(
        f"/api/sheets/{sheet['id']}/changes", json={"change": "players", "players": ["a\x07", *NAMES[1:]]}
    )
    assert res.status_code == 422 and res.json()["error"]["kind"] == "players"
    assert client.get(f"/api/sheets/{sheet['id']}").json()["title"] == "Friday"


UNCLOSED_BIDI = [
    "\u202eAnn",
    "Ann\u202b",
    "\u2067Ann",
    "x\u202d\u202ay\u202c",
    "Ann\u202c",
    "Ann\u2069",
]
"""Names holding a bidirectional override, embedding or isolate they do not close (or a close they did not
open): shown on a page, such a name turns the page's own text after it around ("Ann's contract 1 of 7"
would read ".7 fo 1 tcartnoc s'nnA")."""


def test_a_name_that_would_turn_the_text_after_it_around_is_refused(client: TestClient) -> None:
    for bad in UNCLOSED_BIDI:
        seats = [{"kind": "human", "name": bad}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
        res = send(client, "POST", "/api/tables", {"variant": "classic", "seats": seats})
        assert res.status_code == 400 and "seat 0 name" in res.json()["error"]["message"], (bad, res.text)
        assert "close" in res.json()["error"]["message"]
        res = send(client, "POST", "/api/sheets", {"players": [bad, *NAMES[1:]]})
        assert res.status_code == 422 and res.json()["error"]["kind"] == "players", (bad, res.text)
        res = send(client, "POST", "/api/sheets", {"players": NAMES, "title": bad})
        assert res.status_code == 422 and "title" in res.json()["error"]["message"], (bad, res.text)
    for fine in [
        "\u202eAnn\u202c",
        "\u2068a\u202eb\u2069",
        "\u2067\u05e9\u05e8\u05d4\u2069 Lee",
        "\u200fRLM mark",
        "<b>\u202ex\u202c</b>",
    ]:
        made = send(client, "POST", "/api/sheets", {"players": [fine, *NAMES[1:]], "title": fine})
        assert made.status_code == 200, (fine, made.text)
        assert made.json()["sheet"]["players"][0] == fine and made.json()["title"] == fine


def test_a_query_parameter_of_the_wrong_type_is_a_typed_refusal(client: TestClient) -> None:
    """``?limit=abc`` is refused in the API's own error shape, naming the parameter, not in the framework's."""
    for query in ("limit=abc", "limit=1.5", "limit=", "status=open&limit=%ED%A0%80"):
        res = client.get(f"/api/tables?{query}")
        assert res.status_code == 400, (query, res.status_code, res.text)
        error = res.json()["error"]
        assert error["code"] == "bad_request" and "limit" in error["message"] and "whole number" in error["message"]
        assert "Input should" not in res.text and "detail" not in res.json(), res.text
    assert client.get("/api/tables?limit=3").status_code == 200


def test_a_version_that_is_not_a_number_is_refused_not_echoed(client: TestClient) -> None:
    """The ``version`` a change carries is a whole number; text (a lone surrogate too) is refused, never echoed."""
    sheet = client.post("/api/sheets", json={"players": NAMES, "title": "Friday"}).json()
    before = client.get(f"/api/sheets/{sheet['id']}").json()
    for version in ["x\ud800", "1", 1.5, True, [1], {"v": 1}]:
        for route, body in [
            ("changes", {"change": "add", "entry": {"contract": "no-king"}}),
            ("undo", {}),
            ("redo", {}),
        ]:
            res = send(client, "POST", f"/api/sheets/{sheet['id']}/{route}", {**body, "version": version})
            assert res.status_code == 400, (route, version, res.status_code, res.text)
            error = res.json()["error"]
            assert error["kind"] == "request" and "version" in error["message"] and "\ud800" not in error["message"]
        res = send(client, "PATCH", f"/api/sheets/{sheet['id']}", {"title": "Saturday", "version": version})
        assert res.status_code == 400, (version, res.text)
    assert client.get(f"/api/sheets/{sheet['id']}").json() == before


def test_a_deeply_nested_frame_is_a_typed_refusal(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'frames.db'}")
    with ServerThread(app) as server:

        async def main() -> None:
            c = await SeatClient(server.ws).connect()
            await c.send('{"type": "ping", "x": ' + "[" * 2000 + "]" * 2000 + "}")
            error = await c.recv()
            assert error["type"] == "error" and error["code"] == "malformed", error
            assert f"{MAX_DEPTH} levels" in error["message"]
            await c.send({"type": "ping"})
            assert (await c.recv())["type"] == "pong"
            await c.close()

        asyncio.run(main())


def test_a_file_that_is_not_a_database_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "random.db"
    path.write_bytes(os.urandom(8192))
    run = subprocess.run(
        [sys.executable, "-m", "barbu", "serve", "--port", str(free_port()), "--db", f"sqlite:///{path}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = (run.stdout + run.stderr).strip()
    assert run.returncode == 2, out
    assert len(out.splitlines()) == 1, out
    assert str(path) in out and "not a SQLite database" in out and "Traceback" not in out


def test_a_refused_option_is_in_the_askers_language(client: TestClient) -> None:
    """A rule set's refusal of a flag or a value reaches the lobby in the language asked for;
    the English stays as the core writes it."""
    for options, english, french in (
        ({"colour": 1}, "unknown flag 'colour'; flags are: ", "option inconnue 'colour' ; les options sont : "),
        ({"rotation": "sideways"}, "rotation cannot be 'sideways': use", "rotation ne peut pas valoir 'sideways'"),
    ):
        body = {"variant": "classic", "options": options}
        res = client.post("/api/tables", json=body, headers={"Accept-Language": "fr"})
        assert res.status_code == 400 and res.json()["error"]["message"].startswith(french), res.text
        res = client.post("/api/tables", json=body, headers={"Accept-Language": "en"})
        assert res.status_code == 400 and res.json()["error"]["message"].startswith(english), res.text
    res = client.post("/api/tables", json={"variant": "nope"}, headers={"Accept-Language": "fr"})
    assert res.status_code == 400 and "règle du jeu inconnue 'nope'" in res.json()["error"]["message"], res.text
