"""Frames written straight to the socket (:mod:`barbu.server.frames`): the same bytes as the
library's framing, the same frames in the same order as through ASGI, and the outbox still
taking over whenever the socket's buffer is full."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from websockets.frames import Frame, Opcode

from barbu.server.app import Connection, create_app
from barbu.server.client import SeatClient, ServerThread
from barbu.server.frames import DirectFrames, text_frame, writer
from barbu.server.limits import Guard, Limits
from barbu.server.tables import Settings
from conftest import QUICK_GATHER
from test_server_protocol import make_table, seated, step


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_a_text_frame_is_the_librarys_own_bytes(size: int) -> None:
    payload = ("é" * size).encode()[:size]
    expected = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert text_frame(payload) == expected


def test_a_scope_without_the_extension_has_no_writer() -> None:
    assert writer({"type": "websocket"}) is None
    assert writer({"type": "websocket", "extensions": {"barbu.write_text": {}}}) is None
    assert writer({"type": "websocket", "extensions": None}) is None


class FakeSocket:
    """Just what :class:`Connection` uses of starlette's WebSocket; frames sent through ASGI are kept."""

    def __init__(self, write: Callable[[bytes], bool] | None) -> None:
        extensions = {} if write is None else {"barbu.write_text": {"write": write}}
        self.scope: dict[str, Any] = {"type": "websocket", "extensions": extensions}
        self.cookies: dict[str, str] = {}
        self.through_asgi: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.through_asgi.append(text)


def test_frames_keep_their_order_when_the_socket_is_full_then_drained() -> None:
    written: list[str] = []
    full = False

    def write(payload: bytes) -> bool:
        if full:
            return False
        written.append(payload.decode())
        return True

    async def main() -> None:
        nonlocal full
        limits = Limits()
        socket = FakeSocket(write)
        conn = Connection(socket, limits, Guard(limits).connection())  # type: ignore[arg-type]
        conn.pump_task = asyncio.create_task(conn.pump())
        conn.send("1")
        assert written == ["1"] and not conn.outbox  # written at once, nothing queued, no task woken
        full = True
        socket.gate.clear()  # ASGI's send waits too, as uvicorn's does while the buffer is over its mark
        conn.send("2")
        await asyncio.sleep(0)
        full = False  # the buffer drains: the pump's frame still waits, so what follows queues behind it
        conn.send("3")
        assert list(conn.outbox) == ["2", "3"] and written == ["1"]
        socket.gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert socket.through_asgi == ["2", "3"] and not conn.outbox and conn.queued_bytes == 0
        conn.send("4")  # the outbox is empty again: straight to the socket
        assert written == ["1", "4"]
        conn.pump_task.cancel()

    asyncio.run(main())


def test_without_the_extension_every_frame_goes_through_asgi() -> None:
    async def main() -> None:
        limits = Limits()
        socket = FakeSocket(None)
        conn = Connection(socket, limits, Guard(limits).connection())  # type: ignore[arg-type]
        conn.pump_task = asyncio.create_task(conn.pump())
        for text in ("a", "b", "c"):
            conn.send(text)
        for _ in range(10):
            await asyncio.sleep(0)
        assert socket.through_asgi == ["a", "b", "c"]
        conn.pump_task.cancel()

    asyncio.run(main())


def test_a_game_served_by_direct_frames_reads_as_before(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every frame of a table's play goes out through the writer; each client reads them all, in order."""
    written: list[bytes] = []
    original = DirectFrames.write_text

    def counting(self: DirectFrames, payload: bytes) -> bool:
        done = original(self, payload)
        if done:
            written.append(payload)
        return done

    monkeypatch.setattr(DirectFrames, "write_text", counting)
    settings = Settings(
        commit_gather=QUICK_GATHER, bot_delay=0.0, takeover_after=600.0, limits=Limits(tables_per_client=100)
    )
    with ServerThread(create_app(f"sqlite:///{tmp_path / 'frames.db'}", settings)) as server:
        table, keys = make_table(server, [{"kind": "human"}] * 4)

        async def main() -> None:
            clients = await seated(server, table, keys)
            start = clients[0].seq or 0
            for _ in range(12):
                await step(clients)
            for c in clients:
                assert c.seq == start + 12 and c.view is not None
            seqs = [json.loads(p).get("seq") for p in written]
            assert len(written) >= 4 * 12 and None not in seqs[-4 * 12 :]
            for c in clients:
                await c.close()
            watcher = SeatClient(server.ws)
            await watcher.connect()
            await watcher.hello(table)
            assert watcher.seq == start + 12  # a newcomer's state frame too
            await watcher.close()

        asyncio.run(main())
