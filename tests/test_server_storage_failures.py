"""A database that fails never changes a table: commit before apply, typed ``storage`` errors, no ghost joins.

PostgreSQL is cut mid-game by a proxy the test starts (every connection closed at once, new
ones refused); SQLite is locked by another connection holding ``BEGIN EXCLUSIVE``. Whoever
acts meanwhile gets ``storage`` and the table stays exactly as before; bots wait; play goes
on once the database is back, and the stored log always replays to the live table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy.engine import make_url

from barbu.replay import replay_json
from barbu.server.app import create_app
from barbu.server.client import SeatClient, ServerThread
from barbu.server.journal import Journal
from barbu.server.protocol import Limits
from barbu.server.tables import LiveTable, Settings, replay
from barbu.storage import ActionRow, Store, StoreError
from barbu.view import seat_view
from conftest import POSTGRES, QUICK_GATHER, postgres_schema
from db_proxy import DbProxy
from test_server_protocol import make_table

FAST = Limits(actions_per_second=1000, action_burst=1000, messages_per_second=1000, message_burst=1000)


def views(table: LiveTable) -> str:
    """Every seat's view and the watchers' of the live table, as one JSON text (to compare byte for byte)."""
    seats = [*range(len(table.seats)), None]
    return json.dumps([seat_view(table.game, s).as_json() for s in seats], sort_keys=True)


def matches_log(table: LiveTable, store: Store) -> bool:
    """Whether the live table is exactly the replay of its stored log."""
    stored = store.load_table(table.id)
    assert stored is not None
    game = replay(stored.table, stored.actions)
    return table.seq == len(stored.actions) and [m.action for m in game.history] == [
        m.action for m in table.game.history
    ]


async def until_my_turn_or_over(client: SeatClient, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not (client.my_turn() or (client.view is not None and client.view["game_over"])):
        await client.recv(max(0.01, deadline - time.monotonic()))


def test_postgresql_cut_mid_game_changes_nothing_and_play_resumes() -> None:
    target = make_url(POSTGRES)
    proxy = DbProxy(target.host or "127.0.0.1", target.port or 5432).start()
    try:
        with postgres_schema(proxy.port) as proxied:
            direct = Store(proxied.replace(f"127.0.0.1:{proxy.port}", f"{target.host}:{target.port or 5432}"))
            app = create_app(proxied, Settings(commit_gather=QUICK_GATHER, bot_delay=0.0, limits=FAST))
            with ServerThread(app) as server:
                table_id, keys = make_table(
                    server, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3, variant="king"
                )
                live_of = app.state.service.live
                outages = {"human": 0, "bots": 0}

                async def main() -> None:
                    me = await SeatClient(server.ws, keep_frames=False).connect()
                    await me.hello(table_id, keys[0])
                    watcher = await SeatClient(server.ws, keep_frames=False).connect()
                    await watcher.hello(table_id)
                    turn = 0
                    while True:
                        await until_my_turn_or_over(me)
                        assert me.view is not None
                        if me.view["game_over"]:
                            break
                        turn += 1
                        live = live_of[table_id]
                        assert matches_log(live, direct)
                        intent = me.view["legal_actions"][turn % len(me.view["legal_actions"])]
                        if turn % 40 == 5:  # cut while the person is to act: they get storage, nothing changes
                            before, seq = views(live), live.seq
                            proxy.cut()
                            for attempt in range(2):
                                ref = await me.act(intent)
                                answer = await me.answer(ref, timeout=20)
                                assert answer["type"] == "error" and answer["code"] == "storage", answer
                                assert "try again" in answer["message"]
                                assert views(live) == before and live.seq == seq, attempt
                            proxy.restore()
                            outages["human"] += 1
                        ref = await me.act(intent)
                        answer = await me.answer(ref, timeout=20)
                        assert "ack" in answer, answer
                        if turn % 40 == 25:  # cut while the bots are to act: they wait, nothing changes
                            proxy.cut()
                            # a bot's commit may have reached the database as the cut came, its answer
                            # lost: the table takes the log's state before its next change, so the live
                            # table is compared with its log once the person is to act again (above)
                            await asyncio.sleep(0.6)
                            frozen = views(live)
                            await asyncio.sleep(0.6)
                            assert views(live) == frozen
                            proxy.restore()
                            outages["bots"] += 1
                    assert me.view is not None and me.view["game_over"]
                    await me.close()
                    await watcher.close()

                asyncio.run(main())
                assert outages["human"] >= 3 and outages["bots"] >= 3, outages
                assert proxy.cuts == outages["human"] + outages["bots"]
                live = live_of[table_id]
                assert live.game.is_over and matches_log(live, direct)
                stored = direct.load_table(table_id)
                assert stored is not None and stored.table.status == "finished"
                record = httpx.get(f"{server.http}/api/tables/{table_id}/record").json()
                checked = replay_json(record)
                assert checked["valid"] and checked["complete"], checked
                assert checked["totals"] == list(live.game.totals)
            direct.dispose()
    finally:
        proxy.close()


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another connection holds the SQLite file's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_locked_sqlite_file_is_a_storage_error_and_changes_nothing(tmp_path: Path) -> None:
    """The refusal says nothing changed, in the language of the person (a French seat, a French
    lobby), and the action is accepted once the lock is gone."""
    path = tmp_path / "locked.db"
    app = create_app(f"sqlite:///{path}?timeout=0.2", Settings(commit_gather=QUICK_GATHER, bot_delay=0.0, limits=FAST))
    with ServerThread(app) as server:
        table_id, keys = make_table(server, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3)

        async def main() -> None:
            me = SeatClient(server.ws)
            me.ws = await websockets.connect(server.ws, additional_headers={"Accept-Language": "fr"})
            await me.hello(table_id, keys[0])
            await until_my_turn_or_over(me)
            await asyncio.sleep(0.1)
            live = app.state.service.live[table_id]
            assert me.view is not None
            intent = me.view["legal_actions"][0]
            before, seq = views(live), live.seq
            with locked(path):
                ref = await me.act(intent)
                answer = await me.answer(ref)
                assert answer["code"] == "storage", answer
                assert answer["message"].startswith("la base de données est verrouillée"), answer
                assert views(live) == before and live.seq == seq
                for lang, said in (("fr", "rien n'a changé : réessayez"), ("en", "nothing changed: try again")):
                    created = httpx.post(
                        server.http + "/api/tables", json={"variant": "classic"}, headers={"Accept-Language": lang}
                    )
                    assert created.status_code == 503 and created.json()["error"]["code"] == "storage"
                    assert said in created.json()["error"]["message"], created.text
            ref = await me.act(intent)
            assert (await me.answer(ref))["ack"] == ref
            deadline = time.monotonic() + 30  # until the bots wait for this seat again: the table is still
            while not (live.game.is_over or live.game.to_act == 0) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.05)
            assert matches_log(live, Store(f"sqlite:///{path}"))
            await me.close()

        asyncio.run(main())


def test_a_failed_join_leaves_no_ghost_and_a_retry_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "ghost.db"
    app = create_app(
        f"sqlite:///{path}?timeout=0.2",
        Settings(commit_gather=QUICK_GATHER, bot_delay=0.0, idle_unload_after=0.3, limits=FAST),
    )
    service = app.state.service
    with ServerThread(app) as server:
        table_id, keys = make_table(server, [{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2)

        async def main() -> None:
            watcher = await SeatClient(server.ws).connect()
            await watcher.hello(table_id)
            # a name the database cannot store: refused as a name, before anything is registered
            ghost = await SeatClient(server.ws).connect()
            refused = await ghost.hello(table_id, keys[0], name="x\ud800")
            assert refused["type"] == "error" and refused["code"] == "bad_name", refused
            assert "name" in refused["message"]
            # the database is locked: nothing is registered either
            with locked(path):
                other = await SeatClient(server.ws).connect()
                refused = await other.hello(table_id, keys[1], name="Bea")
                assert refused["type"] == "error" and refused["code"] == "storage", refused
                live = service.live[table_id]
                assert not live.seats[0].connections and not live.seats[1].connections
                assert not live.seats[0].joined and not live.seats[1].joined and live.status == "open"
                await other.close()
            await ghost.close()
            with contextlib.suppress(TimeoutError):
                while True:  # every table frame sent meanwhile
                    await watcher.recv(timeout=0.3)
            frame = watcher.table
            assert frame is not None and not any(s["online"] or s["joined"] for s in frame["seats"][:2]), frame
            await watcher.close()
            # nobody is connected: the table leaves memory, nothing holds it
            deadline = time.monotonic() + 5
            while table_id in service.live and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert table_id not in service.live
            # the retries succeed
            a = await SeatClient(server.ws).connect()
            assert (await a.hello(table_id, keys[0], name="Ann"))["type"] == "welcome"
            b = await SeatClient(server.ws).connect()
            assert (await b.hello(table_id, keys[1], name="Bea"))["type"] == "welcome"
            assert service.live[table_id].status == "playing"
            await a.close()
            await b.close()

        asyncio.run(main())
        stored = Store(f"sqlite:///{path}").load_table(table_id)
        assert stored is not None and [s.name for s in stored.seats[:2]] == ["Ann", "Bea"]


def test_a_commit_whose_answer_was_lost_is_taken_from_the_log(tmp_path: Path, monkeypatch: Any) -> None:
    """The database committed but the answer never came: the table reads its log before the next change."""
    app = create_app(
        f"sqlite:///{tmp_path / 'lost.db'}", Settings(commit_gather=QUICK_GATHER, bot_delay=0.0, limits=FAST)
    )
    journal = app.state.service.journal
    working = journal.write
    lost: list[int] = []

    async def answer_lost(rows: Any, statuses: Any = ()) -> None:
        await working(rows, statuses)
        if not lost:
            lost.append(rows[0].seq)
            raise StoreError("the database is not answering, so the action did not happen: try again in a moment")

    with ServerThread(app) as server:
        table_id, keys = make_table(server, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3)

        async def main() -> None:
            me = await SeatClient(server.ws).connect()
            await me.hello(table_id, keys[0])
            await until_my_turn_or_over(me)
            assert me.view is not None
            monkeypatch.setattr(journal, "write", answer_lost)
            intent = me.view["legal_actions"][0]
            ref = await me.act(intent)
            assert (await me.answer(ref))["code"] == "storage"
            await me.act(intent, ref=ref)  # the same action again: it was in fact recorded, so once only
            again = await me.answer(ref)
            assert "ack" in again and again["seq"] == lost[0], again
            await until_my_turn_or_over(me)  # and the bots play on
            assert me.seq is not None and me.seq > lost[0]
            await me.close()

        asyncio.run(main())
        assert matches_log(app.state.service.live[table_id], Store(f"sqlite:///{tmp_path / 'lost.db'}"))


def test_a_database_that_cannot_be_used_fails_a_whole_batch_at_once() -> None:
    """Writes waiting together all get ``storage`` after one attempt, not one connection timeout each."""
    calls: list[int] = []

    class Down:
        def append_actions(self, rows: Any, statuses: Any = ()) -> None:
            calls.append(len(list(rows)))
            time.sleep(0.05)  # meanwhile the other writes queue up
            raise StoreError("the database is not answering, so the action did not happen: try again in a moment")

    journal = Journal(Down())  # type: ignore[arg-type]

    async def main() -> list[Any]:
        journal.start()
        writes = [journal.write([ActionRow("t", seq, 0, {"type": "pass"})]) for seq in range(1, 21)]
        results = await asyncio.gather(*writes, return_exceptions=True)
        await journal.stop()
        return results

    results = asyncio.run(main())
    assert all(isinstance(r, StoreError) and "try again" in str(r) for r in results), results
    assert sum(calls) == 20 and len(calls) <= 3, calls
