"""Limits: floods of sync, hello and join from one client are refused while other tables play on.

Honest players connect from 127.0.0.2, hostile clients from other loopback addresses, so
that each test sees its own address budgets (the server counts per client address).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import websockets

from barbu.game import Game
from barbu.server import tables as tables_module
from barbu.server.app import create_app
from barbu.server.bodies import MAX_DEPTH
from barbu.server.client import SeatClient, ServerThread
from barbu.server.limits import Limits
from barbu.server.tables import Settings
from conftest import QUICK_GATHER
from test_server_protocol import make_table

HONEST = "127.0.0.2"


def run(coro: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coro())


def server_with(tmp_path: Any, **limits: Any) -> ServerThread:
    settings = Settings(
        commit_gather=QUICK_GATHER, bot_delay=0.0, takeover_after=600.0, limits=Limits(tables_per_client=100, **limits)
    )
    return ServerThread(create_app(f"sqlite:///{tmp_path / 'limits.db'}", settings))


async def connect(server: ServerThread, source: str) -> SeatClient:
    """A client whose connection comes from the loopback address ``source``."""
    c = SeatClient(server.ws, keep_frames=False)
    c.ws = await websockets.connect(server.ws, max_size=2**22, local_addr=(source, 0))
    return c


async def seated(server: ServerThread, table: str, keys: list[str], source: str = HONEST) -> list[SeatClient]:
    clients = []
    for k in keys:
        c = await connect(server, source)
        await c.hello(table, k)
        clients.append(c)
    return clients


async def step(clients: list[SeatClient]) -> None:
    """The seat to act plays its first legal action; everyone reads up to it."""
    actor = next(c for c in clients if c.my_turn())
    assert actor.view is not None
    intent = actor.view["legal_actions"][0]
    ack = await actor.answer(await actor.act(intent), timeout=30)
    while ack.get("code") == "rate_limited":  # faster than a person: wait as told
        await asyncio.sleep(ack.get("retry_after", 0.5))
        ack = await actor.answer(await actor.act(intent), timeout=30)
    assert "ack" in ack, ack
    for c in clients:
        while (c.seq or 0) < ack["seq"]:
            await c.recv(timeout=30)


async def long_table(server: ServerThread, actions: int) -> tuple[str, SeatClient]:
    """A table where ``actions`` actions were played (its players then leave), and a watcher who stays."""
    table, keys = make_table(server, [{"kind": "human"}] * 4)
    clients = await seated(server, table, keys, "127.0.0.3")
    watcher = await connect(server, "127.0.0.3")
    await watcher.hello(table)
    for _ in range(actions):
        await step([*clients, watcher])
    await close_all(clients)
    return table, watcher


@contextlib.asynccontextmanager
async def honest_table(server: ServerThread, actions: int) -> AsyncIterator[tuple[str, Callable[[], Awaitable[int]]]]:
    """Four players at a table of their own; the context gives its id and a function that plays ``actions``."""
    table, keys = make_table(server, [{"kind": "human"}] * 4)
    clients = await seated(server, table, keys)

    async def play() -> int:
        done = 0
        for _ in range(actions):
            await step(clients)
            done += 1
        return done

    yield table, play
    await close_all(clients)


async def drain(client: SeatClient, quiet: float = 0.5) -> list[dict[str, Any]]:
    """Every frame until none comes for ``quiet`` seconds (or the connection ends)."""
    frames = []
    with contextlib.suppress(TimeoutError, websockets.ConnectionClosed):
        while True:
            frames.append(await client.recv(timeout=quiet))
    return frames


async def close_all(clients: list[SeatClient]) -> None:
    """Close every client at once (a client that stopped reading waits for its close handshake)."""
    await asyncio.gather(*(c.close() for c in clients))


def refusals(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [f for f in frames if f.get("type") == "error"]
    for f in out:
        assert f["code"] == "rate_limited", f
        assert isinstance(f["retry_after"], float | int) and f["retry_after"] > 0, f
        assert f["message"] and "Traceback" not in f["message"]
    return out


# -- floods -------------------------------------------------------------------------------------


def test_a_sync_flood_is_refused_by_cost_while_another_table_plays(tmp_path: Any) -> None:
    with server_with(tmp_path) as server:

        async def main() -> None:
            table, watcher = await long_table(server, 100)
            async with honest_table(server, 30) as (_, play):
                # one connection: a catch-up of 64 events costs 65 units, its budget holds 80
                one = await connect(server, "127.0.0.1")
                await one.hello(table)
                start = time.monotonic()
                for _ in range(10):
                    await one.send({"type": "sync", "last_seq": 100 - 64})
                # eight connections of one address, each asking for the same 64 events
                eight = [await connect(server, "127.0.0.4") for _ in range(8)]
                for c in eight:
                    await c.hello(table)

                async def flood(c: SeatClient) -> list[dict[str, Any]]:
                    for _ in range(10):
                        await c.send({"type": "sync", "last_seq": 100 - 64})
                    return await drain(c)

                progress, mine, *theirs = await asyncio.gather(play(), drain(one), *(flood(c) for c in eight))
                elapsed = time.monotonic() - start
            assert progress == 30  # the honest table played on
            limits = Limits()
            catch_up = 65  # a sync of 64 events costs one unit plus one per event
            # one catch-up at once, then only what the connection's rate refills while the flood lasts
            # (on a quiet machine: one catch-up, then a refusal, after which the server reads nothing
            # from that connection for the ~2 s it said to wait)
            served = sum(f["type"] == "event" for f in mine) // 64
            assert served >= 1 and catch_up * served <= limits.message_burst + limits.messages_per_second * elapsed
            assert len(refusals(mine)) >= 1 and served < 10
            events = sum(f["type"] == "event" for frames in theirs for f in frames)
            refused = sum(len(refusals(frames)) for frames in theirs)
            # the address and the table's watchers share one budget: more connections buy nothing
            allowed = limits.address_burst + limits.address_per_second * elapsed
            assert catch_up * (events // 64) <= allowed and refused >= 4, (events, refused, elapsed)
            await close_all([one, *eight, watcher])

        run(main)


def test_hello_and_join_floods_are_refused_while_another_table_plays(tmp_path: Any) -> None:
    with server_with(tmp_path) as server:

        async def main() -> None:
            async with honest_table(server, 20) as (table, play):
                task = asyncio.ensure_future(play())
                # a join flood: 60 connections of one address join the honest table as watchers
                joiners = [await connect(server, "127.0.0.5") for _ in range(60)]
                answers = await asyncio.gather(*(c.hello(table) for c in joiners))
                joined = [a for a in answers if a["type"] == "welcome"]
                refused = [a for a in answers if a["type"] == "error"]
                assert refused and len(joined) + len(refused) == 60
                refusals(refused)
                # a hello flood: hellos to tables that do not exist (each one a database lookup)
                flooder = await connect(server, "127.0.0.6")
                for i in range(60):
                    await flooder.send({"type": "hello", "table": f"nope-{i}"})
                frames = await drain(flooder, quiet=2.0)
                codes = [f["code"] for f in frames]
                assert codes.count("unknown_table") <= 48 and codes.count("rate_limited") >= 12, codes
                assert await task == 20
                await close_all([*joiners, flooder])

        run(main)


def test_sustained_abuse_closes_the_connection_with_a_reason(tmp_path: Any) -> None:
    with server_with(tmp_path) as server:

        async def main() -> None:
            c = await connect(server, "127.0.0.7")
            for _ in range(200):
                await c.send({"type": "ping"})
            frames = await drain(c, quiet=2.0)
            assert sum(f["type"] == "pong" for f in frames) < 200
            assert refusals(frames)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await c.recv(timeout=2)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert "refused" in closed.value.rcvd.reason

        run(main)


# -- connections and outboxes ---------------------------------------------------------------------


def test_the_connection_limit_counts_every_connection_of_an_address(tmp_path: Any) -> None:
    with server_with(tmp_path, connections_per_client=4) as server:

        async def main() -> None:
            clients = await asyncio.gather(*(connect(server, "127.0.0.8") for _ in range(10)))
            for c in clients:
                with contextlib.suppress(websockets.ConnectionClosed):  # refused ones may be closed already
                    await c.send({"type": "ping"})
            first = []
            for c in clients:
                try:
                    first.append((await c.recv(timeout=5)).get("code", "pong"))
                except websockets.ConnectionClosed:
                    first.append("closed")
            assert first.count("pong") == 4 and first.count("table_limit") == 6, first
            other = await connect(server, HONEST)  # another address is not affected
            await other.send({"type": "ping"})
            assert (await other.recv())["type"] == "pong"
            await close_all([*clients, other])

        run(main)


async def slow_reader(server: ServerThread) -> Any:
    """A WebSocket client that reads (almost) nothing: a tiny receive buffer, never read."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind(("127.0.0.9", 0))
    sock.connect(("127.0.0.1", server.port))
    sock.setblocking(False)
    return await websockets.connect(server.ws, sock=sock, max_size=2**22, max_queue=1)


def test_a_slow_reader_is_dropped_and_its_outbox_stays_bounded(tmp_path: Any) -> None:
    bound = 256 * 1024
    budgets = {"messages_per_second": 1000, "message_burst": 1000, "table_per_second": 1000, "table_burst": 1000}
    with server_with(tmp_path, outbox_bytes=bound, address_per_second=1000, address_burst=1000, **budgets) as server:
        service = server.server.config.app.state.service

        async def main() -> None:
            table, watcher = await long_table(server, 70)
            async with honest_table(server, 20) as (_, play):
                task = asyncio.ensure_future(play())
                slow = await slow_reader(server)
                await slow.send(json.dumps({"type": "hello", "table": table}))
                peak = 0
                dropped = False
                for i in range(400):
                    if i < 200:  # catch-ups of 5 events (its budget is lifted: only the outbox is tested)
                        with contextlib.suppress(websockets.ConnectionClosed):
                            for _ in range(5):
                                await slow.send('{"type": "sync", "last_seq": 65}')
                    live = service.live[table]
                    queued = [c.queued_bytes for c in live.spectators]
                    peak = max([peak, *queued])
                    if len(live.spectators) == 1 and i > 10:  # the watcher who reads is left
                        dropped = True
                        break
                    await asyncio.sleep(0.05)
                assert dropped, ("the slow reader is still connected", peak)
                assert peak <= bound
                assert await task == 20
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(slow.recv(), 10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
                assert "unread" in closed.value.rcvd.reason
                await watcher.close()

        run(main)


# -- frames and bodies -----------------------------------------------------------------------------


def test_deeply_nested_json_is_a_typed_refusal(tmp_path: Any) -> None:
    with server_with(tmp_path) as server:

        async def main() -> None:
            c = await connect(server, "127.0.0.10")
            nested = "[" * 40 + "]" * 40
            for message in [
                "[" * 4000 + "]" * 4000,
                '{"type": "ping", "x": ' + nested + "}",
                '{"type": "act", "id": "a", "seq": 0, "action": {"type": "play", "card": ' + nested + "}}",
            ]:
                await c.send(message)
                frame = await c.recv()
                assert frame["type"] == "error" and frame["code"] == "malformed", frame
                assert f"{MAX_DEPTH} levels" in frame["message"]
            await c.send({"type": "ping"})  # and the connection still works
            assert (await c.recv())["type"] == "pong"
            await c.close()

        run(main)


def test_http_bodies_are_refused_while_they_stream(tmp_path: Any) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'bodies.db'}")
    chunk = 64 * 1024
    total = 50 * 1024 * 1024

    async def post(path: str, declare: bool) -> tuple[int, int, dict[str, Any]]:
        read = 0
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            nonlocal read
            if read >= total:
                return {"type": "http.disconnect"}
            read += chunk
            return {"type": "http.request", "body": b" " * chunk, "more_body": read < total}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        headers = [(b"content-type", b"application/json")]
        if declare:
            headers.append((b"content-length", str(total).encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", 1234),
            "server": ("127.0.0.1", 80),
        }
        await app(scope, receive, send)
        start = next(m for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return start["status"], read, json.loads(body)

    async def main() -> None:
        for path, limit in [("/api/tables", 64 * 1024), ("/api/sheets", 64 * 1024), ("/api/sheets/import", 4 << 20)]:
            status, read, body = await post(path, declare=True)
            assert status == 413 and read == 0 and body["error"]["code"] == "too_large", (path, status, read)
            status, read, body = await post(path, declare=False)
            assert status == 413 and read <= limit + chunk, (path, status, read)
            assert body["error"]["code"] == "too_large"

    run(main)


# -- sync is cheap ------------------------------------------------------------------------------------


def test_a_catch_up_builds_no_view_and_replays_nothing(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with server_with(tmp_path) as server:

        async def main() -> None:
            table, keys = make_table(server, [{"kind": "human"}] * 4)
            clients = await seated(server, table, keys)
            for _ in range(70):
                await step(clients)
            away = next(c for c in clients if not c.my_turn())  # so that the others can play on
            seen = away.seq or 0
            await away.close()
            others = [c for c in clients if c is not away]
            for _ in range(3):
                if not any(c.my_turn() for c in others):
                    break
                await step(others)
            now = others[0].seq or 0
            views = replays = 0
            counted_view = tables_module.seat_view
            counted_apply = Game.apply_unchecked

            def view(*args: Any) -> Any:
                nonlocal views
                views += 1
                return counted_view(*args)

            def apply(self: Game, *args: Any) -> Any:
                nonlocal replays
                replays += 1
                return counted_apply(self, *args)

            monkeypatch.setattr(tables_module, "seat_view", view)
            monkeypatch.setattr(Game, "apply_unchecked", apply)
            back = await connect(server, HONEST)
            assert now > seen
            await back.send({"type": "hello", "table": table, "key": keys[clients.index(away)], "last_seq": seen})
            missed = [await back.until("event") for _ in range(now - seen)]
            await back.send({"type": "sync", "last_seq": now - 64})
            again = [await back.until("event") for _ in range(64)]
            assert [e["seq"] for e in missed] == list(range(seen + 1, now + 1))
            assert [e["seq"] for e in again] == list(range(now - 63, now + 1))
            assert again[-1]["view"] == missed[-1]["view"]
            assert (views, replays) == (0, 0)
            monkeypatch.undo()
            await close_all([*others, back])

        run(main)


def test_a_rate_limited_refusal_is_in_the_language_of_the_connection(tmp_path: Any) -> None:
    """The same flood from a French and an English connection: each reads why in its language."""
    with server_with(tmp_path, messages_per_second=1, message_burst=4) as server:
        table, _ = make_table(server, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3)

        async def flooded(lang: str) -> dict[str, Any]:
            c = SeatClient(server.ws, keep_frames=False)
            c.ws = await websockets.connect(server.ws, additional_headers={"Accept-Language": lang})
            await c.hello(table)
            for _ in range(8):
                await c.send({"type": "sync", "last_seq": 0})
            frames = refusals(await drain(c))
            await c.close()
            assert frames, lang
            return frames[0]

        async def main() -> None:
            french, english = await flooded("fr"), await flooded("en")
            # a sync costs one unit plus one per event sent (the bots may have played before the seat)
            assert french["message"].startswith("cette connexion peut dépenser 1 unité de coût par seconde ; ce")
            assert english["message"].startswith("this connection may spend 1 cost unit a second; this message costs")

        run(main)
