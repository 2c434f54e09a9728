"""Who may read, change, share and delete a score sheet: every ``/api/sheets`` route checks the
credential it is given (owner, editor, viewer or none), on SQLite and on PostgreSQL.

The routes are enumerated from the app itself, so a route added later without an entry in
:data:`NEEDS` fails here until its rights are said.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient

from barbu.server.app import create_app
from barbu.sheet.history import SheetHistory
from barbu.sheet.model import Sheet
from barbu.sheet.store import SheetStore
from barbu.storage import Store

NAMES = ["Ann", "Bob", "Cat", "Dan"]
RANK = {"none": 0, "viewer": 1, "editor": 2, "owner": 3}

NEEDS: dict[tuple[str, str], str] = {
    ("GET", "/api/sheets/{sheet_id}"): "viewer",
    ("GET", "/api/sheets/{sheet_id}/version"): "viewer",
    ("GET", "/api/sheets/{sheet_id}/stats"): "viewer",
    ("GET", "/api/sheets/{sheet_id}/export/{fmt}"): "viewer",
    ("PATCH", "/api/sheets/{sheet_id}"): "editor",
    ("POST", "/api/sheets/{sheet_id}/changes"): "editor",
    ("POST", "/api/sheets/{sheet_id}/undo"): "editor",
    ("POST", "/api/sheets/{sheet_id}/redo"): "editor",
    ("POST", "/api/sheets/{sheet_id}/form"): "editor",
    ("POST", "/api/sheets/{sheet_id}/preview"): "editor",
    ("POST", "/api/sheets/{sheet_id}/fill"): "editor",
    ("GET", "/api/sheets/{sheet_id}/links"): "owner",
    ("POST", "/api/sheets/{sheet_id}/links"): "owner",
    ("DELETE", "/api/sheets/{sheet_id}/links/{link_id}"): "owner",
    ("DELETE", "/api/sheets/{sheet_id}"): "owner",
    ("POST", "/api/sheets/{sheet_id}/session"): "viewer",
}
"""The least role each route of one sheet needs."""

OPEN = {("GET", "/api/sheets"), ("POST", "/api/sheets"), ("POST", "/api/sheets/import"), ("GET", "/api/sheets/stats")}
"""Routes without a sheet: they answer about (or make) the sheets the caller holds."""


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store.url)) as c:
        yield c


def bearer(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


def make(client: TestClient, title: str) -> tuple[str, str]:
    """A new sheet with one deal entered: its id and its owner's key (the client keeps no cookie)."""
    res = client.post("/api/sheets", json={"players": NAMES, "title": title})
    assert res.status_code == 200, res.text
    made = res.json()
    assert made["role"] == "owner" and made["owner"]["link"] == f"/sheets/{made['id']}#key={made['owner']['key']}"
    client.cookies.clear()
    key = made["owner"]["key"]
    added = client.post(
        f"/api/sheets/{made['id']}/changes",
        json={"change": "add", "entry": {"contract": "no-king"}},
        headers=bearer(key),
    )
    assert added.status_code == 200, added.text
    return made["id"], key


def invite(client: TestClient, sheet: str, owner: str, role: str) -> dict[str, Any]:
    res = client.post(f"/api/sheets/{sheet}/links", json={"role": role}, headers=bearer(owner))
    assert res.status_code == 200, res.text
    link = dict(res.json())
    assert link["role"] == role and link["link"] == f"/sheets/{sheet}#key={link['key']}"
    return link


def request(client: TestClient, method: str, path: str, sheet: str, key: str | None, link_id: str) -> httpx.Response:
    """One call of the route, with a body it would accept from someone allowed."""
    url = path.format(sheet_id=sheet, fmt="csv", link_id=link_id)
    bodies: dict[str, Any] = {
        "PATCH": {"title": "renamed"},
        "/changes": {"change": "players", "players": ["Eve", "Bob", "Cat", "Dan"]},
        "/form": {},
        "/preview": {"deal": 2, "entry": {"contract": "no-queens"}},
        "/fill": {"declarer": 1, "contract": "no-queens", "word": "maximum"},
        "/links": {"role": "viewer"},
    }
    body = bodies.get(method) or next((b for end, b in bodies.items() if path.endswith(end)), None)
    if method == "POST" and body is None:
        body = {}
    return client.request(method, url, json=body, headers=bearer(key))


def sheet_routes(client: TestClient) -> set[tuple[str, str]]:
    app: Any = client.app
    out = set()
    for route in app.routes:
        path = getattr(route, "path", "")
        if path.startswith("/api/sheets"):
            out |= {(m, path) for m in getattr(route, "methods", ()) if m != "HEAD"}
    return out


def test_every_sheet_route_has_its_rights_said(client: TestClient) -> None:
    assert sheet_routes(client) == set(NEEDS) | OPEN


def test_each_role_may_do_exactly_what_it_is_given(client: TestClient) -> None:
    for (method, path), need in NEEDS.items():
        for role in ("none", "stranger", "viewer", "editor", "owner"):
            sheet, owner = make(client, f"{method} {path} {role}")
            other_sheet, other_owner = make(client, f"other {method} {path} {role}")
            victim = invite(client, sheet, owner, "viewer")["id"]
            key = {
                "none": None,
                "stranger": other_owner,  # the owner of another sheet is a stranger here
                "viewer": invite(client, sheet, owner, "viewer")["key"],
                "editor": invite(client, sheet, owner, "editor")["key"],
                "owner": owner,
            }[role]
            if path.endswith("/redo"):  # something to redo
                assert client.post(f"/api/sheets/{sheet}/undo", json={}, headers=bearer(owner)).status_code == 200
            before = client.get(f"/api/sheets/{sheet}", headers=bearer(owner)).json()
            links_before = client.get(f"/api/sheets/{sheet}/links", headers=bearer(owner)).json()
            res = request(client, method, path, sheet, key, victim)
            allowed = RANK.get(role, 0) >= RANK[need]
            what = f"{role} on {method} {path}: {res.status_code} {res.text[:200]}"
            if allowed:
                assert res.status_code == 200, what
                continue
            error = res.json()["error"]
            if role in ("none", "stranger"):
                assert res.status_code == 404 and error["code"] == "unknown_sheet", what
            else:
                assert res.status_code == 403 and error["code"] == "forbidden", what
                assert role in error["message"] and need in error["message"], what
            assert "set-cookie" not in res.headers, what
            after = client.get(f"/api/sheets/{sheet}", headers=bearer(owner))
            assert after.status_code == 200 and after.json() == before, what  # nothing changed
            assert client.get(f"/api/sheets/{sheet}/links", headers=bearer(owner)).json() == links_before, what
            assert client.get(f"/api/sheets/{other_sheet}", headers=bearer(other_owner)).status_code == 200


def test_a_stranger_lists_no_sheet_and_a_holder_only_theirs(client: TestClient) -> None:
    ann, ann_key = make(client, "Ann's")
    bob, bob_key = make(client, "Bob's")
    viewer = invite(client, bob, bob_key, "viewer")["key"]
    assert client.get("/api/sheets").json() == []
    assert client.get("/api/sheets/stats").json()["games"] == 0
    assert [s["id"] for s in client.get("/api/sheets", headers=bearer(ann_key)).json()] == [ann]
    listed = client.get("/api/sheets", headers=bearer(viewer)).json()
    assert [(s["id"], s["role"]) for s in listed] == [(bob, "viewer")]
    assert client.get("/api/sheets/stats", headers=bearer(ann_key)).json()["games"] == 1
    # a made-up key, or one sheet's key offered for another, reveals nothing
    assert client.get("/api/sheets", headers=bearer("x" * 24)).json() == []
    assert client.get(f"/api/sheets/{bob}", headers=bearer(ann_key)).json()["error"]["code"] == "unknown_sheet"
    missing = client.get("/api/sheets/no-such-sheet", headers=bearer(ann_key))
    hidden = client.get(f"/api/sheets/{bob}", headers=bearer(ann_key))
    assert missing.status_code == hidden.status_code == 404
    assert missing.json()["error"]["message"].replace("no-such-sheet", bob) == hidden.json()["error"]["message"]


def test_the_link_is_exchanged_for_a_cookie_the_page_cannot_read(client: TestClient) -> None:
    sheet, owner = make(client, "cookie")
    editor = invite(client, sheet, owner, "editor")["key"]
    assert client.get(f"/api/sheets/{sheet}").status_code == 404
    res = client.post(f"/api/sheets/{sheet}/session", headers=bearer(editor))
    assert res.status_code == 200 and res.json()["role"] == "editor"
    cookie = res.headers["set-cookie"]
    for part in ("HttpOnly", "SameSite=strict", "Path=/api/sheets"):
        assert part.casefold() in cookie.casefold(), cookie
    # now the browser's cookie alone carries the right: no header, and never the query string
    assert client.get(f"/api/sheets/{sheet}").json()["role"] == "editor"
    assert client.patch(f"/api/sheets/{sheet}", json={"title": "by cookie"}).status_code == 200
    assert client.delete(f"/api/sheets/{sheet}").status_code == 403
    assert [s["id"] for s in client.get("/api/sheets").json()] == [sheet]
    client.cookies.clear()
    assert client.get(f"/api/sheets/{sheet}", params={"key": owner}).status_code == 404
    # a wrong key sets no cookie
    wrong = client.post(f"/api/sheets/{sheet}/session", headers=bearer("y" * 24))
    assert wrong.status_code == 404 and "set-cookie" not in wrong.headers


def test_a_revoked_invitation_stops_working(client: TestClient) -> None:
    sheet, owner = make(client, "revoked")
    link = invite(client, sheet, owner, "editor")
    assert client.patch(f"/api/sheets/{sheet}", json={"title": "by the editor"}, headers=bearer(link["key"])).is_success
    listed = client.get(f"/api/sheets/{sheet}/links", headers=bearer(owner)).json()
    assert [(x["id"], x["role"]) for x in listed if x["role"] != "owner"] == [(link["id"], "editor")]
    assert all("key" not in x for x in listed)  # keys are shown once, at creation; only hashes are kept
    assert client.delete(f"/api/sheets/{sheet}/links/{link['id']}", headers=bearer(owner)).status_code == 200
    gone = client.patch(f"/api/sheets/{sheet}", json={"title": "again"}, headers=bearer(link["key"]))
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "unknown_sheet"
    assert client.get(f"/api/sheets/{sheet}", headers=bearer(owner)).json()["title"] == "by the editor"
    # the owner's own link cannot be revoked (the sheet would have no owner left)
    own = next(x for x in listed if x["role"] == "owner")["id"]
    refused = client.delete(f"/api/sheets/{sheet}/links/{own}", headers=bearer(owner))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    unknown = client.delete(f"/api/sheets/{sheet}/links/nope", headers=bearer(owner))
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_link"


def test_an_invitation_names_a_role_the_owner_may_give(client: TestClient) -> None:
    sheet, owner = make(client, "roles")
    for bad in ({"role": "owner"}, {"role": "admin"}, {}, {"role": ["viewer"]}):
        res = client.post(f"/api/sheets/{sheet}/links", json=bad, headers=bearer(owner))
        assert res.status_code == 422 and "viewer or editor" in res.json()["error"]["message"], res.text


def test_the_owner_deletes_and_the_keys_die_with_the_sheet(client: TestClient) -> None:
    sheet, owner = make(client, "deleted")
    viewer = invite(client, sheet, owner, "viewer")["key"]
    assert client.delete(f"/api/sheets/{sheet}", headers=bearer(owner)).json() == {"removed": sheet}
    for key in (owner, viewer):
        assert client.get(f"/api/sheets/{sheet}", headers=bearer(key)).status_code == 404
    # a new sheet given the same id is not opened by the old keys
    again = client.post("/api/sheets", json={"players": NAMES, "title": "deleted"}).json()
    client.cookies.clear()
    assert again["id"] == sheet
    assert client.get(f"/api/sheets/{sheet}", headers=bearer(owner)).status_code == 404


def test_keys_are_random_and_stored_only_as_hashes(client: TestClient, store: Store) -> None:
    made = [make(client, f"keys {n}") for n in range(3)]
    keys = [k for _, k in made]
    assert len(set(keys)) == 3 and all(len(k) >= 22 for k in keys)  # >= 128 bits of token_urlsafe
    with store.engine.connect() as conn:
        dump = "\n".join(
            str(row) for t in ("sheets", "sheet_links") for row in conn.exec_driver_sql(f"SELECT * FROM {t}")
        )
    assert not any(k in dump for k in keys)


def test_older_sheets_stay_with_the_terminal_until_it_prints_an_owner_link(client: TestClient, store: Store) -> None:
    from io import StringIO

    from barbu.sheet.command import score_main

    terminal = SheetStore(store.url)
    old = terminal.create(SheetHistory(Sheet.new("classic", players=NAMES)), "from the terminal")
    terminal.dispose()
    assert client.get(f"/api/sheets/{old.id}").status_code == 404
    assert client.get("/api/sheets").json() == []
    out = StringIO()
    assert score_main(["link", "--db", store.url, "--sheet", old.id], StringIO(), out) == 0
    printed = out.getvalue()
    key = printed.split("#key=")[1].split()[0]
    assert f"/sheets/{old.id}#key={key}" in printed and "owner" in printed
    assert client.get(f"/api/sheets/{old.id}", headers=bearer(key)).json()["role"] == "owner"
    out = StringIO()
    assert score_main(["link", "--db", store.url, "--sheet", old.id, "--role", "viewer"], StringIO(), out) == 0
    viewer = out.getvalue().split("#key=")[1].split()[0]
    assert client.get(f"/api/sheets/{old.id}", headers=bearer(viewer)).json()["role"] == "viewer"
