"""The action-log store, the same tests on SQLite and on PostgreSQL (which must be running)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from barbu.actions import action_from_json, action_to_json
from barbu.game import Game
from barbu.server import tables as tables_module
from barbu.server.journal import Journal
from barbu.server.protocol import ProtocolError
from barbu.server.tables import TableService, replay
from barbu.storage import ActionRow, SeatRow, Store, StoredTable, StoreError, TableRow, database_url, metadata


def new_table(store: Store, table_id: str = "t1", seed: str = "secret-seed", creator: str = "1.2.3.4") -> TableRow:
    first = Game.new("classic", {}, seed).first_declarer
    row = TableRow(table_id, "classic", {"rotation": "quick"}, seed, first, creator, 1.0)
    seats = [
        SeatRow(0, "human", credential_hash="h0", name="Ana"),
        SeatRow(1, "bot", "random"),
        SeatRow(2, "human", credential_hash="h2"),
        SeatRow(3, "bot", "heuristic"),
    ]
    store.create_table(row, seats)
    return row


def random_log(row: TableRow, n: int, seed: int = 1) -> list[ActionRow]:
    game = Game.new(row.variant, row.options, row.seed, row.first_declarer)
    rng = random.Random(seed)
    out = []
    for seq in range(1, n + 1):
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        out.append(ActionRow(row.id, seq, seat, action_to_json(action), f"id{seq}", "human"))
    return out


def test_migrations_build_exactly_the_schema_of_the_code(store: Store) -> None:
    store.migrate()
    store.migrate()  # a second run changes nothing
    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diffs == []
        assert {"tables", "seats", "actions", "sheets", "sheet_changes", "sheet_links", "alembic_version"} <= set(
            inspect(conn).get_table_names()
        )
        assert conn.execute(text("select version_num from alembic_version")).scalar_one() == "v0005"


def test_a_table_is_its_settings_its_seats_and_its_action_log(store: Store) -> None:
    store.migrate()
    row = new_table(store)
    log = random_log(row, 120)
    store.append_actions(log[:60])
    store.append_actions(log[60:], [(row.id, "playing", None)])
    stored = store.load_table(row.id)
    assert stored is not None
    assert stored.table.seed == "secret-seed" and stored.table.options == {"rotation": "quick"}
    assert stored.table.status == "playing"
    assert [(s.kind, s.bot_level, s.name) for s in stored.seats] == [
        ("human", None, "Ana"),
        ("bot", "random", None),
        ("human", None, None),
        ("bot", "heuristic", None),
    ]
    assert stored.actions == log
    # replaying the log gives the game that produced it
    game = replay(stored.table, stored.actions)
    expected = Game.new(row.variant, row.options, row.seed, row.first_declarer)
    for a in log:
        expected.apply(action_from_json(a.intent), a.seat)
    assert game.history == expected.history and game.phase == expected.phase
    assert store.load_table("missing") is None


def test_many_tables_are_read_together_as_each_alone(store: Store) -> None:
    store.migrate()
    rows = [new_table(store, f"t{i}", seed=f"seed-{i}") for i in range(3)]
    for i, row in enumerate(rows):
        store.append_actions(random_log(row, 10 + 7 * i, seed=i))
    store.claim_seat("t1", 2, "browser-b")
    store.claim_seat("t2", 0, "browser-c")
    found, holders = store.load_tables(["t2", "missing", "t0", "t1", "t2"])
    assert sorted(found) == ["t0", "t1", "t2"]
    for row in rows:
        assert found[row.id] == store.load_table(row.id)
        assert holders.get(row.id, {}) == store.seat_holders(row.id)
    assert holders == {"t1": {2: "browser-b"}, "t2": {0: "browser-c"}}
    assert [len(found[t].actions) for t in ("t0", "t1", "t2")] == [10, 17, 24]
    assert store.load_tables([]) == ({}, {})


def test_tables_loaded_at_once_are_read_in_one_read(store: Store) -> None:
    store.migrate()
    ids = [new_table(store, f"t{i}", seed=f"seed-{i}").id for i in range(5)]
    for i, t in enumerate(ids):
        store.append_actions(random_log(store.load_table(t).table, 3 * i + 1, seed=i))  # type: ignore[union-attr]
    reads: list[list[str]] = []
    whole = store.load_tables

    def counted(table_ids: Sequence[str]) -> tuple[dict[str, StoredTable], dict[str, dict[int, str]]]:
        reads.append(list(table_ids))
        return whole(table_ids)

    store.load_tables = counted  # type: ignore[method-assign]

    async def main() -> None:
        service = TableService(store, log=lambda _: None)
        tables = await asyncio.gather(*(service.get(t) for t in ids), service.get(ids[0]))
        assert [t.seq for t in tables] == [1, 4, 7, 10, 13, 1] and tables[0] is tables[-1]
        assert reads == [ids]  # the five tables in one read, the one asked for twice once
        with pytest.raises(ProtocolError) as refused:
            await asyncio.gather(service.get("missing"), service.get(ids[1]))
        assert refused.value.code == "unknown_table" and reads == [ids, ["missing"]]  # t1 was live already
        for t in tables:
            t.close()

    asyncio.run(main())


def counting_reads(store: Store, fails: type[Exception] | None = None) -> list[list[str]]:
    """Count the batched reads of ``store`` (the ids of each); with ``fails``, a read of several
    tables among which one named ``bad`` raises it (a table alone reads as usual)."""
    reads: list[list[str]] = []
    whole = store.load_tables

    def counted(table_ids: Sequence[str]) -> tuple[dict[str, StoredTable], dict[str, dict[int, str]]]:
        reads.append(list(table_ids))
        if fails is not None and "bad" in table_ids:
            raise fails("one table spoils the read")
        return whole(table_ids)

    store.load_tables = counted  # type: ignore[method-assign]
    return reads


def test_more_tables_than_a_read_batch_are_read_in_several_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.migrate()
    ids = [new_table(store, f"t{i}", seed=f"seed-{i}").id for i in range(5)]
    monkeypatch.setattr(tables_module, "READ_BATCH", 2)
    reads = counting_reads(store)

    async def main() -> None:
        service = TableService(store, log=lambda _: None)
        tables = await asyncio.gather(*(service.get(t) for t in ids))
        assert [t.id for t in tables] == ids
        assert reads == [ids[:2], ids[2:4], ids[4:]]
        await service.stop()

    asyncio.run(main())


def test_a_damaged_log_fails_its_table_alone(store: Store) -> None:
    store.migrate()
    ids = []
    for i in range(3):
        row = new_table(store, f"p{i}", seed=f"s{i}")
        store.append_actions(random_log(row, 5, seed=i))
        ids.append(row.id)
    with store.engine.begin() as conn:
        conn.execute(text("update actions set action='{bad' where table_id='p1' and seq=2"))
    with pytest.raises(StoreError) as damaged:  # the store's own error, not the JSON parser's
        store.load_table("p1")
    assert "action 2 of table p1 is damaged" in str(damaged.value) and damaged.value.refused
    reads = counting_reads(store)

    async def main() -> None:
        service = TableService(store, log=lambda _: None)
        got = await asyncio.gather(*(service.get(t) for t in ids), return_exceptions=True)
        assert [getattr(t, "seq", None) for t in got] == [5, None, 5]
        assert isinstance(got[1], ProtocolError) and got[1].code == "storage"
        assert reads == [ids, ["p0"], ["p1"], ["p2"]]  # the batch failed: each table again, alone
        await service.stop()

    asyncio.run(main())


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
def test_a_read_failing_for_one_table_leaves_the_others_fine_and_the_reader_goes_on(store: Store) -> None:
    store.migrate()
    for t in ("a", "b", "bad", "c"):
        new_table(store, t, seed=t)
    reads = counting_reads(store, fails=RuntimeError)

    async def main() -> None:
        service = TableService(store, log=lambda _: None)
        got = await asyncio.gather(*(service.get(t) for t in ("a", "bad", "b")), return_exceptions=True)
        assert [type(t).__name__ for t in got] == ["LiveTable", "RuntimeError", "LiveTable"]
        assert reads == [["a", "bad", "b"], ["a"], ["bad"], ["b"]]
        assert (await service.get("c")).id == "c"  # the reader answers what comes next
        await service.stop()

    asyncio.run(main())


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
def test_a_database_away_fails_the_whole_read_once(store: Store) -> None:
    store.migrate()
    for t in ("a", "b", "bad"):
        new_table(store, t, seed=t)

    class Away(StoreError):
        def __init__(self, message: str) -> None:
            super().__init__(message, refused=False)

    reads = counting_reads(store, fails=Away)

    async def main() -> None:
        service = TableService(store, log=lambda _: None)
        got = await asyncio.gather(*(service.get(t) for t in ("a", "bad", "b")), return_exceptions=True)
        assert [getattr(t, "code", None) for t in got] == ["storage"] * 3
        assert reads == [["a", "bad", "b"]]  # not read again table by table: the database is away
        await service.stop()

    asyncio.run(main())


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
def test_stopping_the_service_stops_its_reader(store: Store) -> None:
    store.migrate()
    new_table(store, "a", seed="a")
    whole = store.load_tables

    def slow(table_ids: Sequence[str]) -> tuple[dict[str, StoredTable], dict[str, dict[int, str]]]:
        time.sleep(0.3)
        return whole(table_ids)

    store.load_tables = slow  # type: ignore[method-assign]

    async def main() -> None:
        service = TableService(store, log=lambda _: None)
        loading = asyncio.ensure_future(service.get("a"))
        await asyncio.sleep(0.05)
        reader = service._reader
        assert reader is not None and not reader.done()
        await service.stop()
        assert reader.cancelled()
        with pytest.raises(asyncio.CancelledError):
            await loading

    asyncio.run(main())


def test_a_sequence_number_is_written_once(store: Store) -> None:
    store.migrate()
    row = new_table(store)
    log = random_log(row, 3)
    store.append_actions(log)
    with pytest.raises(Exception):  # noqa: B017 - the database's own integrity error
        store.append_actions([log[1]])
    assert len(store.load_table(row.id).actions) == 3  # type: ignore[union-attr]


def test_listing_joining_and_limits(store: Store) -> None:
    store.migrate()
    a = new_table(store, "a", creator="x")
    new_table(store, "b", creator="x")
    new_table(store, "c", creator="y")
    store.append_actions(random_log(a, 5))
    store.set_status("b", "finished", 99.0)
    store.seat_joined("a", 2, "Bo")
    listed = store.list_tables("open")
    assert [(t.id, n) for t, _, n in listed] == [("a", 5), ("c", 0)]
    seats = dict((t.id, s) for t, s, _ in listed)["a"]
    assert seats[2].joined and seats[2].name == "Bo"
    finished = store.list_tables("finished")
    assert [(t.id, t.finished) for t, _, _ in finished] == [("b", 99.0)]
    assert store.unfinished_tables_of("x") == 1 and store.unfinished_tables_of("y") == 1


def test_the_journal_commits_many_tables_together_and_isolates_a_bad_write(store: Store) -> None:
    store.migrate()
    rows = [new_table(store, f"t{i}", seed=f"s{i}") for i in range(6)]
    logs = [random_log(r, 30, seed=i) for i, r in enumerate(rows)]

    async def main() -> list[BaseException | None]:
        journal = Journal(store)
        journal.start()

        async def write_log(log: list[ActionRow]) -> None:
            for a in log:
                await journal.write([a])

        await asyncio.gather(*(write_log(log) for log in logs))
        bad = [journal.write([logs[0][0]]), journal.write([ActionRow("t1", 31, 0, {"type": "pass"})])]
        results = await asyncio.gather(*bad, return_exceptions=True)
        await journal.stop()
        assert journal.commits <= 6 * 30 + 3
        return list(results)

    duplicate, fine = asyncio.run(main())
    assert isinstance(duplicate, StoreError) and fine is None
    for r, log in zip(rows, logs, strict=True):
        stored = store.load_table(r.id)
        assert stored is not None
        expected = log + ([ActionRow("t1", 31, 0, {"type": "pass"})] if r.id == "t1" else [])
        assert stored.actions == expected


class _SlowStore:
    """A store whose commits take ``seconds``: records each commit's size and when it ended."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.commits: list[int] = []
        self.ended: list[float] = []

    def append_actions(self, rows: list[ActionRow], statuses: object = ()) -> None:
        time.sleep(self.seconds)
        self.commits.append(len(rows))
        self.ended.append(time.monotonic())


def _row(seq: int) -> ActionRow:
    return ActionRow("t", seq, 0, {"type": "pass"})


def test_the_journal_commits_the_writes_that_came_during_a_commit_together_and_answers_after_it() -> None:
    slow = _SlowStore(0.3)
    answered: list[tuple[int, float]] = []

    async def write(seq: int, after: float) -> None:
        await asyncio.sleep(after)
        await journal.write([_row(seq)])
        answered.append((seq, time.monotonic()))

    journal = Journal(slow)  # type: ignore[arg-type]

    async def main() -> None:
        journal.start()
        # one write alone, then ten while its commit runs: they wait for it and share the next one
        await asyncio.gather(write(1, 0), *(write(seq, 0.02 + 0.005 * seq) for seq in range(2, 12)))
        await journal.stop()

    asyncio.run(main())
    assert slow.commits == [1, 10] and journal.commits == 2 and journal.rows_written == 11
    for seq, when in answered:  # nobody is answered before the commit holding its write ended
        assert when >= slow.ended[0 if seq == 1 else 1]


def test_the_journal_gathers_the_writes_of_its_window_into_one_commit() -> None:
    slow = _SlowStore(0.0)
    journal = Journal(slow, gather=0.5)  # type: ignore[arg-type]

    async def main() -> float:
        journal.start()
        started = time.monotonic()

        async def write(seq: int) -> None:
            await asyncio.sleep(0.02 * seq)
            await journal.write([_row(seq)])

        await asyncio.gather(*(write(seq) for seq in range(5)))
        waited = time.monotonic() - started
        await journal.stop()
        return waited

    waited = asyncio.run(main())
    assert slow.commits == [5]  # the four later writes came within the first one's window
    assert waited >= 0.5  # the first write waited for its window before its commit
    with pytest.raises(ValueError, match="0 or more seconds"):
        Journal(slow, gather=-1)  # type: ignore[arg-type]


def test_a_stopping_journal_commits_what_waits_in_its_window() -> None:
    slow = _SlowStore(0.0)
    journal = Journal(slow, gather=30.0)  # type: ignore[arg-type]

    async def main() -> None:
        journal.start()
        write = asyncio.ensure_future(journal.write([_row(1)]))
        await asyncio.sleep(0.05)
        assert not write.done()
        await journal.stop()  # does not wait 30 s: the window ends with the journal
        assert write.done() and write.exception() is None

    asyncio.run(asyncio.wait_for(main(), 10))
    assert slow.commits == [1]


def test_database_urls() -> None:
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_an_unreachable_database_is_a_clear_error() -> None:
    store = Store("postgresql://nobody@127.0.0.1:1/none")
    with pytest.raises(Exception, match=r"(?i)connect"):
        store.migrate()
