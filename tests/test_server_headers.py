"""The security headers on every answer of the web app: pages, scripts, the API, errors, exports."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from barbu.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'barbu.db'}")) as c:
        yield c


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy as {directive: sources}."""
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            assert words[0] not in out, f"{words[0]} given twice"
            out[words[0]] = words[1:]
    return out


def sheet(client: TestClient) -> str:
    res = client.post("/api/sheets", json={"players": ["Ann", "Bob", "Cid", "Dan"], "title": "Friday"})
    assert res.status_code == 200, res.text
    return str(res.json()["id"])


def test_every_answer_carries_the_headers(client: TestClient) -> None:
    sid = sheet(client)
    answers = [
        client.get("/"),
        client.get("/t/abc"),
        client.get("/sheets"),
        client.get(f"/sheets/{sid}"),
        client.get("/static/lobby.js"),
        client.get("/static/style.css"),
        client.get("/api/rules"),
        client.get(f"/api/sheets/{sid}/export/csv"),
        client.get("/no/such/page"),
        client.post("/api/tables", content=b"{nope"),
        client.put("/api/rules"),
    ]
    for res in answers:
        where = f"{res.request.method} {res.request.url.path} ({res.status_code})"
        h = res.headers
        assert h["x-content-type-options"] == "nosniff", where
        assert h["referrer-policy"] == "no-referrer", where
        assert h["x-frame-options"] == "DENY", where
        assert h["cross-origin-opener-policy"] == "same-origin", where
        granted = [p for p in h["permissions-policy"].split(",") if not p.strip().endswith("=()")]
        assert granted == [], where
        csp = policy(h["content-security-policy"])
        assert csp["default-src"] == ["'self'"], where
        assert csp["script-src"] == ["'self'"], where
        assert csp["style-src"] == ["'self'"], where
        assert csp["object-src"] == ["'none'"], where
        assert csp["base-uri"] == ["'none'"], where
        assert csp["frame-ancestors"] == ["'none'"], where
        assert csp["form-action"] == ["'self'"], where
        assert "'self'" in csp["connect-src"], where
        assert csp["require-trusted-types-for"] == ["'script'"], where  # no string becomes HTML
        assert not any("unsafe" in s for sources in csp.values() for s in sources), where


def test_the_websocket_origin_is_allowed_by_name(client: TestClient) -> None:
    csp = policy(client.get("/", headers={"host": "cards.example:8443"}).headers["content-security-policy"])
    assert csp["connect-src"] == ["'self'", "ws://cards.example:8443", "wss://cards.example:8443"]
    forged = policy(client.get("/", headers={"host": "x; script-src *"}).headers["content-security-policy"])
    assert forged["connect-src"] == ["'self'"] and forged["script-src"] == ["'self'"]


def test_the_printable_sheet_keeps_its_own_styles_and_runs_no_script(client: TestClient) -> None:
    res = client.get(f"/api/sheets/{sheet(client)}/export/html")
    assert res.status_code == 200 and "<style>" in res.text
    csp = policy(res.headers["content-security-policy"])
    assert csp["default-src"] == ["'none'"]
    assert csp["style-src"] == ["'unsafe-inline'"]
    assert "script-src" not in csp  # default-src 'none': no script at all
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert res.headers["x-content-type-options"] == "nosniff"


def test_the_pages_have_no_inline_script_or_style() -> None:
    static = Path(__file__).parent.parent / "src" / "barbu" / "server" / "static"
    for path in static.glob("*.html"):
        text = path.read_text()
        assert "<style" not in text and "style=" not in text, path.name
        assert "<script>" not in text and not re.search(r"<[^>]*\son[a-z]+\s*=", text), path.name
    for path in static.glob("*.js"):
        text = path.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", 'setAttribute("style"'):
            assert sink not in text, f"{path.name} uses {sink}"
