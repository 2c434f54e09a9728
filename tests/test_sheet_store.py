"""Score sheets in the app's store, each as its log of changes: the same tests on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, select, update

from barbu.sheet import DealEntry, Double, Sheet, SheetError
from barbu.sheet.history import SheetHistory
from barbu.sheet.store import SheetStore, slug
from barbu.storage import MIGRATIONS, Store, sheet_changes, sheets
from test_server_store import new_table, random_log
from test_sheet_model import played_record, tallied

NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
def sheets_of(store: Store) -> SheetStore:
    store.migrate()
    return SheetStore(store)


def first_deals(declarer: int = 0) -> list[DealEntry]:
    """Three deals of a declarer's set: a doubled positive contract, a skipped one, a doubled negative one."""
    left, across, right = ((declarer + i) % 4 for i in (1, 2, 3))
    return [
        DealEntry(
            "trumps",
            trump="H",
            doubles=(Double(left, declarer), Double(right, declarer, True)),
            tally={"tricks": [6, 3, 2, 2]},
        ),
        DealEntry("no-king"),
        DealEntry("no-queens", doubles=(Double(across, left),), tally={"queens": [1, 2, 1, 0]}),
    ]


def stored_log(store: Store, sheet_id: str) -> list[dict[str, object]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(sheet_changes.c.seq, sheet_changes.c.change)
            .where(sheet_changes.c.sheet_id == sheet_id)
            .order_by(sheet_changes.c.seq)
        ).all()
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
    return [json.loads(c) for _, c in rows]


def test_a_sheet_is_its_base_record_and_its_log_of_changes(store: Store, sheets_of: SheetStore) -> None:
    start = Sheet.new("classic", players=NAMES, first_declarer=2)
    a = sheets_of.create(SheetHistory(start), "Friday")
    b = sheets_of.create(SheetHistory(Sheet.new("king", players=["Zoé", "Ömer", "Li", "Ana"])), "Friday")
    assert (a.id, b.id, a.version) == ("friday", "friday-2", 1)
    assert sheets_of.open().id == "friday-2"  # the latest changed
    with pytest.raises(SheetError, match="could be"):
        sheets_of.open("fri")
    for entry in first_deals(2):
        a.history.add(entry)
        sheets_of.save(a)
    assert a.version == 4 and sheets_of.open().id == "friday"
    assert stored_log(store, "friday") == a.history.log
    with store.engine.connect() as conn:
        row = conn.execute(select(sheets).where(sheets.c.id == "friday")).mappings().one()
    assert json.loads(row["base"]) == start.record() and row["position"] == 3
    assert (row["deals"], row["variant"], json.loads(row["players"])) == (3, "classic", NAMES)
    # undo is a position in the log: the undone change stays stored, for redo
    a.history.undo()
    sheets_of.save(a)
    again = sheets_of.open("friday")
    assert len(again.history.sheet.rows) == 2 and again.history.can_redo
    assert again.history.redo().totals == a.history.redo().totals
    # a change made after an undo drops the undone changes, in the store too
    again.history.undo()
    again.history.undo()
    again.history.add(DealEntry("domino", rank="8", doubles=(Double(0, 2),), tally={"order": [2, 0, 1, 3]}))
    sheets_of.save(again)
    log = stored_log(store, "friday")
    assert [c["change"] for c in log] == ["add", "add"] and log[-1]["entry"]["contract"] == "domino"
    assert sheets_of.open("friday").history.sheet == again.history.sheet
    assert not sheets_of.open("friday").history.can_redo
    # names in any script come back as they were written
    assert sheets_of.open("friday-2").history.sheet.players == ("Zoé", "Ömer", "Li", "Ana")
    assert [s.id for s in sheets_of.list()] == ["friday", "friday-2"]
    assert sheets_of.remove("friday-2") == "friday-2"
    assert sheets_of.ids() == ["friday"] and stored_log(store, "friday-2") == []


def test_a_save_made_on_an_older_version_is_refused_and_changes_nothing(store: Store, sheets_of: SheetStore) -> None:
    sheets_of.create(SheetHistory(Sheet.new("classic", players=NAMES)), "club")
    web = sheets_of.open("club")
    terminal = sheets_of.open("club")
    web.history.add(first_deals()[0])
    sheets_of.save(web)
    terminal.history.add(DealEntry("no-king"))
    with pytest.raises(SheetError, match="changed elsewhere meanwhile"):
        sheets_of.save(terminal)
    now = sheets_of.open("club")
    assert now.version == 2 and [r.contract for r in now.history.sheet.rows] == ["trumps"]
    assert stored_log(store, "club") == web.history.log
    sheets_of.remove("club")
    web.history.add(DealEntry("no-king"))
    with pytest.raises(SheetError, match="removed meanwhile"):
        sheets_of.save(web)
    with pytest.raises(SheetError, match="no sheet yet"):
        sheets_of.open()


def test_the_log_is_the_truth_not_the_listing_cache(store: Store, sheets_of: SheetStore) -> None:
    stored = sheets_of.create(SheetHistory(Sheet.new("classic", players=NAMES)), "cache")
    for entry in first_deals():
        stored.history.add(entry)
    sheets_of.save(stored)
    with store.engine.begin() as conn:
        conn.execute(update(sheets).where(sheets.c.id == "cache").values(deals=99, players='["X", "Y", "Z", "W"]'))
    assert sheets_of.list()[0].deals == 99  # the listing reads the cache …
    sheet = sheets_of.open("cache").history.sheet  # … opening replays the log
    assert len(sheet.rows) == 3 and sheet.players == tuple(NAMES)
    with store.engine.begin() as conn:  # a log that no longer replays is named, not trusted
        bad = {"change": "add", "entry": {"contract": "trumps", "trump": "S", "doubles": [], "tally": {"tricks": [1]}}}
        conn.execute(
            update(sheet_changes)
            .where(sheet_changes.c.sheet_id == "cache", sheet_changes.c.seq == 3)
            .values(change=json.dumps(bad))
        )
    with pytest.raises(SheetError, match=r"'cache' does not replay: change 3 of the log does not apply"):
        sheets_of.open("cache")


def test_an_imported_record_is_stored_and_read_back_the_same(sheets_of: SheetStore) -> None:
    sheet = Sheet.from_record(played_record("five-player"))
    stored = sheets_of.create(SheetHistory(sheet), "five")
    again = sheets_of.open(stored.id).history.sheet
    assert again == sheet and again.record() == Sheet.from_record(tallied(played_record("five-player"))).record()


def test_migrating_from_the_first_schema_keeps_the_tables(store: Store) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "v0001")
    with store.engine.connect() as conn:
        assert "sheets" not in inspect(conn).get_table_names()
    row = new_table(store)
    store.append_actions(random_log(row, 10))
    store.migrate()
    assert len(store.load_table(row.id).actions) == 10  # type: ignore[union-attr]
    sheets_of = SheetStore(store)
    sheets_of.create(SheetHistory(Sheet.new("classic", players=NAMES)), "after")
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "v0001")
    with store.engine.connect() as conn:
        names = set(inspect(conn).get_table_names())
    assert "sheets" not in names and "sheet_changes" not in names and "actions" in names


def test_a_database_url_is_migrated_when_opened(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/fresh.db"
    first = SheetStore(url)
    first.create(SheetHistory(Sheet.new("classic", players=NAMES)), "New: one!")
    first.dispose()
    again = SheetStore(url)  # a second opening finds the schema up to date
    assert [s.id for s in again.list()] == ["new-one"]
    again.dispose()
    assert slug("stats") == "stats"  # a reserved word …
    reserved = SheetStore(url)
    assert reserved.create(SheetHistory(Sheet.new("king")), "stats").id == "stats-2"  # … is never an id
    reserved.dispose()


def test_an_unreachable_database_is_a_clear_error() -> None:
    from barbu.storage import StoreError

    with pytest.raises(StoreError, match="cannot open the database"):
        SheetStore("postgresql://nobody@127.0.0.1:1/none")
