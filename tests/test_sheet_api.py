"""The score sheet's JSON API (``/api/sheets``): refusals change nothing, edits and history,
exports that import back, agreement with ``barbu replay``, and the terminal on the same store."""

from __future__ import annotations

import csv
import io
import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient

from barbu.replay import replay_json
from barbu.rulesets import RULE_SETS
from barbu.server.app import create_app
from barbu.sheet import Sheet
from barbu.sheet.command import score_main
from barbu.sheet.stats import sheet_stats
from barbu.sheet.store import SheetStore
from test_sheet_model import played_record, tallied

NAMES = ["Ann", "Bob", "Cat", "Dan"]
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'barbu.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as c:
        yield c


def new_sheet(client: TestClient, **body: Any) -> dict[str, Any]:
    res = client.post("/api/sheets", json={"players": NAMES, **body})
    assert res.status_code == 200, res.text
    return dict(res.json())


def change(client: TestClient, sheet_id: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    res = client.post(f"/api/sheets/{sheet_id}/changes", json=body)
    assert res.status_code == status, res.text
    return dict(res.json())


def add(client: TestClient, sheet_id: str, **entry: Any) -> dict[str, Any]:
    return change(client, sheet_id, {"change": "add", "entry": entry})


def refused(
    client: TestClient, sheet_id: str, path: str, body: dict[str, Any], kind: str, words: str, status: int = 422
) -> dict[str, Any]:
    """POST a request the sheet must refuse, with the core's words; the sheet is exactly as it was."""
    before = client.get(f"/api/sheets/{sheet_id}").json()
    res = client.post(f"/api/sheets/{sheet_id}/{path}", json=body)
    assert res.status_code == status, res.text
    error = res.json()["error"]
    assert error["kind"] == kind and words in error["message"], error
    after = client.get(f"/api/sheets/{sheet_id}").json()
    assert after == before  # same deals, same log, same version
    return dict(error)


def test_the_sheet_s_refusals_are_in_the_asker_s_language(client: TestClient) -> None:
    """The sheet's own refusals (its history, its entries, its notation of doubles and names)
    come in French to a French browser (``Accept-Language`` or the pages' ``barbu_lang``
    cookie) and in English otherwise; either way the sheet is left as it was."""
    sheet = new_sheet(client, title="langues")["id"]
    no_king = {"contract": "no-king"}
    cases: list[tuple[str, dict[str, Any], str, str, str]] = [
        ("undo", {"version": 1}, "history", "nothing to undo", "rien à annuler"),
        ("redo", {}, "history", "nothing to redo", "rien à rétablir"),
        ("changes", {"change": "remove"}, "history", "unknown change 'remove'", "changement inconnu 'remove'"),
        ("changes", {"change": "delete", "deal": 1}, "deal", "there is no deal 1", "il n'y a pas de donne 1"),
        ("changes", {"change": "edit", "deals": {"0": no_king}}, "deal", "must be a deal number", "numéro de donne"),
        (
            "changes",
            {"change": "add", "entry": {**no_king, "doubles": [[1, 7, 1]]}},
            "call",
            "seat 7 is not at this table",
            "la place 7 n'est pas à cette table",
        ),
        (
            "changes",
            {"change": "add", "entry": {"contract": "trumps", "trump": "X"}},
            "trump",
            "the trump must be one of S, H, D, C",
            "l'atout doit être S, H, D ou C",
        ),
        (
            "changes",
            {"change": "add", "entry": {**no_king, "tally": {"king_of_hearts": 1}}},
            "tally",
            "this deal is not played",
            "cette donne n'est pas jouée",
        ),
        (
            "changes",
            {"change": "players", "players": ["Ann", "Ann", "Cat", "Dan"]},
            "players",
            "two players are called 'Ann'",
            "deux joueurs s'appellent 'Ann'",
        ),
    ]
    for path, body, kind, english, french in cases:
        for headers, cookies, words, other in (
            ({}, {}, english, french),
            ({"Accept-Language": "fr-FR,fr;q=0.9"}, {}, french, english),
            ({"Accept-Language": "en"}, {"barbu_lang": "fr"}, french, english),
        ):
            before = client.get(f"/api/sheets/{sheet}").json()
            for name, value in cookies.items():
                client.cookies.set(name, value)
            res = client.post(f"/api/sheets/{sheet}/{path}", json=body, headers=headers)
            for name in cookies:
                client.cookies.delete(name)
            assert res.status_code == 422, res.text
            error = res.json()["error"]
            assert error["kind"] == kind and words in error["message"] and other not in error["message"], error
            assert client.get(f"/api/sheets/{sheet}").json() == before


def test_every_refusal_says_why_and_changes_nothing(client: TestClient) -> None:
    sheet = new_sheet(client, title="refusals")["id"]
    v = 1

    def add_refused(entry: dict[str, Any], kind: str, words: str) -> dict[str, Any]:
        return refused(client, sheet, "changes", {"change": "add", "entry": entry}, kind, words)

    doubled = [[1, 0, 1]]  # Bob doubled Ann: the deal is played
    for entry, kind, words in [
        # tallies that do not add up, or do not fit the contract
        ({"contract": "no-queens", "doubles": doubled, "tally": {"queens": [1, 1, 1, 0]}}, "tally", "add up to 4"),
        ({"contract": "trumps", "trump": "S", "tally": {"tricks": [6, 3, 2, 1]}}, "tally", "add up to 13"),
        ({"contract": "no-hearts", "doubles": doubled, "tally": {"hearts": [1, 4, 4, 4]}}, "tally", "ace_of_hearts"),
        ({"contract": "domino", "rank": "8", "tally": {"order": [0, 1, 1, 2]}}, "tally", "order must list every seat"),
        # doubles the rules do not allow
        ({"contract": "trumps", "trump": "S", "doubles": [[2, 1, 1]]}, "call", "only the declarer (seat 0) may be"),
        ({"contract": "no-king", "doubles": [[0, 1, 1]]}, "call", "seat 0"),  # the declarer never doubles
        ({"contract": "no-king", "doubles": [[1, 0, 1], [0, 1, 2]]}, "call", "appear twice"),
        ({"contract": "no-king", "doubles": [[1, 7, 1]]}, "call", "seat 7 is not at this table"),
        ({"contract": "no-king", "doubles": "max"}, "call", "doubles must be a list"),
        # trump and rank where they apply, and only there
        ({"contract": "trumps", "tally": {"tricks": [6, 3, 2, 2]}}, "trump", "needs its trump"),
        ({"contract": "trumps", "trump": "X"}, "trump", "one of S, H, D, C"),
        ({"contract": "no-king", "trump": "S"}, "trump", "no trump suit"),
        ({"contract": "domino", "tally": {"order": [0, 1, 2, 3]}}, "rank", "starting rank"),
        ({"contract": "no-king", "rank": "8"}, "rank", "no domino rank"),
        ({"contract": "nothing"}, "contract", "'nothing'"),
        ({}, "contract", "the contracts left are"),
        # an undoubled negative contract is not played: it has no tally
        ({"contract": "no-king", "tally": {"king_of_hearts": 1}}, "tally", "not played"),
    ]:
        add_refused(entry, kind, words)
    for body, kind, words in [  # requests the log cannot hold, or that do not apply
        ({"change": "remove"}, "history", "unknown change 'remove'"),
        ({"change": "add"}, "history", "needs entry"),
        ({"change": "add", "entry": {"contract": "no-king"}, "extra": 1}, "history", "unknown key 'extra'"),
        ({"change": "delete", "deal": 1}, "deal", "there is no deal 1"),
        ({"change": "edit", "deals": {"0": {"contract": "no-king"}}}, "deal", "must be a deal number"),
        ({"change": "players", "players": ["Ann", "Ann", "Cat", "Dan"]}, "players", "two players are called 'Ann'"),
        ({"change": "tally", "tally": {"queens": [1, 1, 1, 1]}}, "tally", "no deal waits for its tally"),
    ]:
        refused(client, sheet, "changes", body, kind, words)
    refused(client, sheet, "undo", {"version": v}, "history", "nothing to undo")
    refused(client, sheet, "redo", {}, "history", "nothing to redo")
    # a contract already used
    v = add(client, sheet, contract="no-king")["version"]
    error = add_refused({"contract": "no-king"}, "contract", "cannot declare 'no-king'")
    assert error["deal"] == 2 and error["seat"] == 0
    assert "no-king" not in [c["id"] for c in client.get(f"/api/sheets/{sheet}").json()["sheet"]["next"]["contracts"]]
    # a deal waiting for its tally comes first
    v = add(client, sheet, contract="trumps", trump="H", doubles=[[1, 0, 2]])["version"]
    assert client.get(f"/api/sheets/{sheet}").json()["sheet"]["pending"] == 2
    add_refused({"contract": "no-queens"}, "deal", "deal 2 waits for its tally")
    refused(client, sheet, "changes", {"change": "tally", "tally": {"tricks": [13, 0, 0, 1]}}, "tally", "add up to 13")
    # a page showing an older version is told, with the sheet as it is now
    res = client.post(
        f"/api/sheets/{sheet}/changes", json={"change": "tally", "tally": {"tricks": [6, 3, 2, 2]}, "version": v - 1}
    )
    assert res.status_code == 409 and res.json()["error"]["kind"] == "stale"
    assert res.json()["sheet"]["version"] == v and res.json()["sheet"]["sheet"]["pending"] == 2
    done = change(client, sheet, {"change": "tally", "tally": {"tricks": [6, 3, 2, 2]}, "version": v})
    assert done["sheet"]["deals"][1]["final"] == [60, -15, 10, 10] and done["version"] == v + 1
    # what cannot be read at all
    assert (
        client.post(f"/api/sheets/{sheet}/changes", content=b"{nope", headers=JSON).json()["error"]["kind"] == "request"
    )
    assert client.post(f"/api/sheets/{sheet}/changes", content=b"x" * 70000, headers=JSON).status_code == 413
    assert client.post("/api/sheets/missing/changes", json={"change": "add"}).status_code == 404
    assert client.get("/api/sheets/missing").status_code == 404


def test_a_missing_compulsory_double_and_a_late_redouble_are_refused(client: TestClient) -> None:
    sheet = new_sheet(client)["id"]
    for contract, tally in [
        ("no-tricks", {"tricks": [4, 3, 3, 3]}),
        ("no-hearts", {"hearts": [1, 4, 4, 4], "ace_of_hearts": 1}),
        ("no-queens", {"queens": [1, 1, 1, 1]}),
        ("no-king", {"king_of_hearts": 2}),
        ("no-last-two", {"second_last": 1, "last": 2}),
    ]:
        add(client, sheet, contract=contract, doubles=[[1, 0, 1], [3, 0, 1]], tally=tally)
    state = client.get(f"/api/sheets/{sheet}").json()["sheet"]
    assert state["next"]["forced"] == [2]  # Cat has not doubled Ann yet, and two contracts are left
    error = refused(
        client,
        sheet,
        "changes",
        {"change": "add", "entry": {"contract": "trumps", "trump": "C", "tally": {"tricks": [4, 3, 3, 3]}}},
        "call",
        "seat 2 must double the declarer (seat 0)",
    )
    assert error["deal"] == 6 and error["seat"] == 2
    refused(client, sheet, "preview", {"entry": {"contract": "trumps", "trump": "C"}}, "call", "seat 2 must double")
    late = new_sheet(client, options={"late_redouble": False}, title="no late redoubles")["id"]
    refused(
        client,
        late,
        "changes",
        {"change": "add", "entry": {"contract": "no-king", "doubles": [[3, 1, 2]]}},
        "call",
        "late redoubles are off",
    )


def test_starting_and_importing_are_checked(client: TestClient) -> None:
    for body, kind, words in [
        ({"players": ["Ann", "Ann", "Cat", "Dan"]}, "players", "two players are called"),
        ({"players": ["Ann", "Bob"]}, "players", "give 4 player names"),
        ({"players": NAMES, "variant": "bridge"}, "record", "bridge"),
        ({"players": NAMES, "options": {"rotation": "sideways"}}, "record", "rotation"),
        ({"players": NAMES, "first_declarer": 4}, "record", "first declarer must be a seat from 0 to 3"),
    ]:
        res = client.post("/api/sheets", json=body)
        assert res.status_code == 422 and res.json()["error"]["kind"] == kind, res.text
        assert words in res.json()["error"]["message"]
    bad = played_record("classic") | {"deals": [{"declarer": 3, "contract": "trumps"}]}
    res = client.post("/api/sheets/import", json={"record": bad})
    assert res.status_code == 422 and "the declarer must be seat" in res.json()["error"]["message"]
    assert client.post("/api/sheets/import", json={"record": "{"}).json()["error"]["message"].startswith("the file")
    assert client.get("/api/sheets").json() == []  # nothing was stored


def test_edits_deletes_inserts_and_history(client: TestClient) -> None:
    sheet = new_sheet(client, title="Friday")["id"]
    add(client, sheet, contract="no-queens", doubles=[[1, 0, 1]], tally={"queens": [0, 2, 1, 1]})
    add(client, sheet, contract="trumps", trump="S", doubles=[[1, 0, 1], [3, 0, 2]], tally={"tricks": [6, 3, 2, 2]})
    view = add(client, sheet, contract="no-king")
    assert view["sheet"]["deals"][2]["status"] == "skipped"
    assert view["sheet"]["deals"][2]["shortcut"].startswith("not played: nobody doubled")
    assert view["undo"] == "add deal 3" and view["changes"] == 3
    # the form for deal 2 offers what its declarer had left then, and its entry
    form = client.post(f"/api/sheets/{sheet}/form", json={"deal": 2}).json()
    assert "trumps" in [c["id"] for c in form["next"]["contracts"]] and form["entry"]["trump"] == "S"
    assert "no-queens" not in [c["id"] for c in form["next"]["contracts"]]
    # edit deal 1: every later deal is recomputed
    view = change(
        client,
        sheet,
        {
            "change": "edit",
            "deals": {"1": {"contract": "no-queens", "doubles": [[2, 0, 1]], "tally": {"queens": [0, 2, 1, 1]}}},
        },
    )
    assert view["sheet"]["deals"][0]["pairs"] == [
        {"seats": [0, 2], "doubler": 2, "doubled": 0, "multiplier": 1, "delta": -6}
    ]
    # an edit that breaks a later deal: refused with the deal and the reason, or kept with drop_later
    swap = {"change": "edit", "deals": {"1": {"contract": "no-king"}}}
    error = refused(client, sheet, "changes", swap, "contract", "deal 3 no longer fits after the change to deal 1")
    assert error["later"] and error["deal"] == 3 and error["changed"] == 1
    both = {
        "change": "edit",
        "deals": {
            "1": {"contract": "no-king"},
            "3": {"contract": "no-queens", "doubles": [[2, 0, 1]], "tally": {"queens": [0, 2, 1, 1]}},
        },
    }
    form = client.post(f"/api/sheets/{sheet}/form", json={"deal": 3, "changes": both["deals"]}).json()
    assert form["entry"]["contract"] == "no-queens" and "no-king" not in [c["id"] for c in form["next"]["contracts"]]
    view = change(client, sheet, both)  # two contracts entered the wrong way round, swapped in one go
    assert [d["contract"] for d in view["sheet"]["deals"]] == ["no-king", "trumps", "no-queens"]
    view = change(
        client,
        sheet,
        {**swap, "deals": {"3": {"contract": "no-tricks", "doubles": [[1, 0, 1]], "tally": {"tricks": [1, 4, 4, 4]}}}},
    )
    dropped = change(client, sheet, {"change": "edit", "deals": {"2": {"contract": "no-tricks"}}, "drop_later": True})
    assert [d["contract"] for d in dropped["sheet"]["deals"]] == ["no-king", "no-tricks"]
    back = client.post(f"/api/sheets/{sheet}/undo", json={"version": dropped["version"]}).json()
    assert [d["contract"] for d in back["sheet"]["deals"]] == ["no-king", "trumps", "no-tricks"]
    assert back["redo"] == "edit deal 2"
    # delete and insert move the later deals, who keep what was entered
    view = change(client, sheet, {"change": "delete", "deal": 1})
    assert [(d["declarer"], d["contract"]) for d in view["sheet"]["deals"]] == [(0, "trumps"), (0, "no-tricks")]
    view = change(client, sheet, {"change": "insert", "deal": 1, "entry": {"contract": "no-king"}})
    assert [d["contract"] for d in view["sheet"]["deals"]] == ["no-king", "trumps", "no-tricks"]
    view = change(client, sheet, {"change": "players", "players": ["Anne", "Bob", "Cat", "Dan"]})
    assert view["sheet"]["players"][0] == "Anne" and view["undo"] == "rename the players"
    view = client.patch(f"/api/sheets/{sheet}", json={"title": "Friday night"}).json()
    assert view["title"] == "Friday night" and view["id"] == "friday"
    assert client.get("/api/sheets").json()[0]["title"] == "Friday night"
    # redo after a new change is gone: the new change dropped what was undone
    assert not view["can_redo"]
    assert client.delete(f"/api/sheets/{sheet}").json() == {"removed": "friday"}
    assert client.get(f"/api/sheets/{sheet}").status_code == 404


def test_preview_and_fill_answer_for_the_page(client: TestClient) -> None:
    sheet = new_sheet(client)["id"]
    row = client.post(f"/api/sheets/{sheet}/preview", json={"entry": {"contract": "no-queens"}}).json()["row"]
    assert row["status"] == "skipped" and row["final"] == [0, -8, -8, -8]
    row = client.post(
        f"/api/sheets/{sheet}/preview",
        json={"entry": {"contract": "no-queens", "doubles": [[1, 0, 2]], "tally": {"queens": [0, 2, 1, 1]}}},
    ).json()["row"]
    assert row["status"] == "scored" and row["final"] == [24, -36, -6, -6]
    res = client.post(f"/api/sheets/{sheet}/fill", json={"declarer": 0, "contract": "trumps", "word": "maximum"})
    cells = res.json()["doubles"]
    assert cells == [{"doubler": s, "doubled": 0, "redoubled": True} for s in (1, 2, 3)]
    res = client.post(
        f"/api/sheets/{sheet}/fill",
        json={"declarer": 0, "contract": "no-tricks", "doubles": [], "seat": 2, "word": "flanks"},
    )
    assert res.json()["doubles"] == [{"doubler": 2, "doubled": s, "redoubled": False} for s in (1, 3)]
    refused(
        client,
        sheet,
        "fill",
        {"declarer": 0, "contract": "trumps", "seat": 1, "word": "flanks"},
        "call",
        "flanks is not allowed here",
    )
    refused(client, sheet, "fill", {"declarer": 0, "contract": "trumps", "word": "lots"}, "call", "not a call word")
    refused(client, sheet, "form", {"deal": 9}, "deal", "deal 9 is not on the sheet")
    assert client.get(f"/api/sheets/{sheet}").json()["version"] == 1  # none of these changed anything


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_scoring_through_the_sheet_agrees_with_replay(client: TestClient, variant: str) -> None:
    doc = tallied(played_record(variant))
    expected = replay_json(doc)
    source = Sheet.from_record(doc)
    sheet = new_sheet(
        client,
        variant=variant,
        options=doc.get("options", {}),
        players=list(source.players),
        first_declarer=source.first_declarer,
    )["id"]
    for row in source.rows:
        view = change(client, sheet, {"change": "add", "entry": row.entry.to_json()})
    state = view["sheet"]
    assert state["complete"] and state["totals"] == expected["totals"] and state["ranking"] == expected["ranking"]
    for mine, theirs in zip(state["deals"], expected["deals"], strict=True):
        for key in ("raw", "adjustments", "final", "played"):
            assert mine[key] == theirs[key], (key, mine["number"])
        assert sorted(p["seats"] for p in mine["pairs"]) == [p["seats"] for p in theirs["pairs"]]
    record = client.get(f"/api/sheets/{sheet}/export/record").json()
    assert replay_json(record) == expected


def test_exports_import_back_to_the_same_sheet(client: TestClient) -> None:
    doc = played_record("classic", seed=5)  # played deals: imported as their tallies
    made = client.post("/api/sheets/import", json={"record": json.dumps(doc), "title": "Club night"}).json()
    assert made["id"] == "club-night" and "28 played deals turned into their tallies" in made["sheet"]["notes"][0]
    sheet = made["id"]
    res = client.get(f"/api/sheets/{sheet}/export/record")
    assert res.headers["content-disposition"] == 'attachment; filename="club-night.barbu.json"'
    again = client.post("/api/sheets/import", json={"record": res.text}).json()
    assert again["id"] != sheet and again["sheet"]["deals"] == made["sheet"]["deals"]
    assert again["sheet"]["totals"] == made["sheet"]["totals"] == replay_json(doc)["totals"]
    assert Sheet.from_record(res.json()) == Sheet.from_record(tallied(doc))
    rows = list(csv.reader(io.StringIO(client.get(f"/api/sheets/{sheet}/export/csv").text)))
    assert rows[0][:7] == ["deal", "declarer", "contract", "trump", "rank", "doubles", "status"]
    assert [int(x) for x in rows[-1][10::4]] == made["sheet"]["totals"] and len(rows) == 30
    page = client.get(f"/api/sheets/{sheet}/export/html")
    assert page.headers["content-type"].startswith("text/html") and "Club night" in page.text
    assert client.get(f"/api/sheets/{sheet}/export/pdf").content.startswith(b"%PDF")
    assert client.get(f"/api/sheets/{sheet}/export/docx").json()["error"]["kind"] == "export"
    # statistics: of one sheet, and across the stored sheets (players matched by name)
    stats = client.get(f"/api/sheets/{sheet}/stats").json()
    assert stats == json.loads(json.dumps(sheet_stats(Sheet.from_record(tallied(doc))).to_json()))
    across = client.get("/api/sheets/stats").json()
    assert across["games"] == 2 and across["players"][0]["games"] == 2
    assert sum(p["total"] for p in across["players"]) == 2 * sum(made["sheet"]["totals"])


class Scripted(io.StringIO):
    """Typed lines; ``before[i]`` runs just before line ``i`` is read (something done elsewhere meanwhile)."""

    def __init__(self, lines: list[str], before: dict[int, Callable[[], object]]) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.before = before
        self.read_lines = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        action = self.before.get(self.read_lines)
        if action is not None:
            action()
        self.read_lines += 1
        return super().readline()


def test_the_terminal_and_the_web_page_share_the_store(db: str, client: TestClient) -> None:
    out = io.StringIO()
    argv = ["new", "--db", db, "--players", ",".join(NAMES), "--title", "kitchen", "--no-play"]
    assert score_main(argv, io.StringIO(), out) == 0
    assert client.get("/api/sheets").json() == []  # started in the terminal, it has no link yet …
    out = io.StringIO()
    assert score_main(["link", "--db", db, "--sheet", "kitchen"], io.StringIO(), out) == 0
    key = out.getvalue().split("#key=")[1].split()[0]
    opened = client.post("/api/sheets/kitchen/session", headers={"Authorization": f"Bearer {key}"})
    assert opened.json() == {"id": "kitchen", "role": "owner"}  # … until the owner's link is opened here …
    assert [s["id"] for s in client.get("/api/sheets").json()] == ["kitchen"]
    change(client, "kitchen", {"change": "add", "entry": {"contract": "no-king"}})  # … a deal on the page …
    out = io.StringIO()
    assert score_main(["show", "--db", db], io.StringIO(), out) == 0
    assert "no-king (not played)" in out.getvalue()  # … shows in the terminal

    # A session open in the terminal sees what the page does meanwhile …
    def on_page(entry: dict[str, Any]) -> Callable[[], object]:
        return lambda: change(client, "kitchen", {"change": "add", "entry": entry})

    out = io.StringIO()
    typed = Scripted(["show", "quit"], {0: on_page({"contract": "no-queens"})})
    assert score_main(["play", "--db", db], typed, out) == 0
    assert "the sheet was changed elsewhere: it now has 2 deals" in out.getvalue()
    # … and a deal typed while the page entered one is refused, not saved over it.
    trumps = {"contract": "trumps", "trump": "S", "doubles": [[1, 0, 1]], "tally": {"tricks": [6, 3, 2, 2]}}
    out = io.StringIO()
    typed = Scripted(["no-hearts", "bob>ann", "1 4 4 4", "bob", "quit"], {3: on_page(trumps)})
    assert score_main(["play", "--db", db], typed, out) == 0
    assert "your change was not saved" in out.getvalue()
    deals = client.get("/api/sheets/kitchen").json()["sheet"]["deals"]
    assert [d["contract"] for d in deals] == ["no-king", "no-queens", "trumps"]
    store = SheetStore(db)
    assert store.open("kitchen").version == client.get("/api/sheets/kitchen").json()["version"] == 4
    store.dispose()
