"""The server's CPU per frame sent: through ASGI and the pump task, or written straight to the socket.

One process, no network: uvicorn's WebSocket protocol (:class:`barbu.server.frames.DirectFrames`)
is given a transport that only counts the bytes written, the handshake of a real client, and
the app's own connection object (:class:`barbu.server.app.Connection`) around starlette's
WebSocket, as ``barbu serve`` builds it, ``--connections`` of them. Each round sends ``--frames``
frames of ``--size`` characters, four at a time (one action's events to the four seats of one
table, the tables in turn), and lets the event loop run until those four are out, in two ways:

- ``asgi``: the connection's frame writer is taken away, so every frame waits in the outbox
  and the pump task, once woken, sends it through starlette's ``send_text``, uvicorn's ``send``
  and the ``websockets`` library's framing (the way every frame went before);
- ``direct``: the frame writer of :class:`~barbu.server.frames.DirectFrames` writes it at once.

It prints the CPU time per frame of each way (best of ``--rounds``, the two ways alternated
within each round), their ratio, and checks that both wrote the same bytes. The socket's
system call is left out (the transport only counts), so this is the Python part of a frame.

    python benchmarks/bench_frames.py [--frames 20000] [--size 600] [--rounds 5] [--connections 400]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import time
from typing import Any

import uvicorn
from starlette.websockets import WebSocket
from uvicorn.server import ServerState

from barbu.server.app import Connection
from barbu.server.frames import DirectFrames
from barbu.server.limits import Guard, Limits


class CountingTransport(asyncio.Transport):
    """A transport that keeps the bytes written (the frames' header and payload) and nothing else."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0
        self.sample = bytearray()
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += len(data)
        if len(self.sample) < 4096:
            self.sample += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


async def open_connections(count: int) -> tuple[list[tuple[Connection, CountingTransport]], list[asyncio.Event]]:
    """``count`` accepted WebSocket connections of the app's kind, each with its pump task running,
    and the events that end each connection's app."""
    made: list[tuple[Connection, CountingTransport]] = []
    ends: list[asyncio.Event] = []
    limits = Limits()
    guard = Guard(limits)
    ready: asyncio.Queue[tuple[Connection, asyncio.Event]] = asyncio.Queue()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        websocket = WebSocket(scope, receive, send)
        await websocket.accept()
        conn = Connection(websocket, limits, guard.connection())
        conn.pump_task = asyncio.create_task(conn.pump())
        done = asyncio.Event()
        await ready.put((conn, done))
        await done.wait()

    config = uvicorn.Config(
        app, ws=DirectFrames, ws_per_message_deflate=False, ws_ping_interval=None, log_level="error"
    )
    config.load()
    for _ in range(count):
        protocol = DirectFrames(config, ServerState(), {}, asyncio.get_running_loop())
        transport = CountingTransport()
        protocol.connection_made(transport)
        key = base64.b64encode(os.urandom(16)).decode()
        protocol.data_received(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        conn, done = await ready.get()
        made.append((conn, transport))
        ends.append(done)
    return made, ends


async def one_round(
    conns: list[tuple[Connection, CountingTransport]], frames: int, text: str, direct: bool
) -> tuple[float, int]:
    """CPU seconds to send ``frames`` frames, four at a time, each four run out before the next; bytes written."""
    writers = [c.write_now for c, _ in conns]
    if not direct:
        for c, _ in conns:
            c.write_now = None
    before = sum(t.written for _, t in conns)
    start = time.process_time()
    groups = [conns[i : i + 4] for i in range(0, len(conns), 4)]
    for n in range(frames // 4):
        group = groups[n % len(groups)]
        for c, _ in group:
            c.send(text)
        while any(c.outbox for c, _ in group):
            await asyncio.sleep(0)
    spent = time.process_time() - start
    for (c, _), w in zip(conns, writers, strict=True):
        c.write_now = w
    return spent, sum(t.written for _, t in conns) - before


async def main(frames: int, size: int, rounds: int, connections: int) -> None:
    conns, ends = await open_connections(connections)
    assert all(c.write_now is not None for c, _ in conns), "DirectFrames offers its writer"
    text = '{"type":"event","seq":1,"patch":{"x":"' + "a" * max(0, size - 40) + '"}}'
    best = {"asgi": float("inf"), "direct": float("inf")}
    sizes = {}
    samples = {}
    for r in range(rounds):
        for way in ("asgi", "direct") if r % 2 == 0 else ("direct", "asgi"):
            for _, t in conns:
                t.sample.clear()
            spent, written = await one_round(conns, frames, text, way == "direct")
            best[way] = min(best[way], spent)
            sizes[way] = written
            samples[way] = bytes(conns[0][1].sample)
    assert sizes["asgi"] == sizes["direct"] and samples["asgi"] == samples["direct"], "the same bytes either way"
    print(f"{frames} frames of {len(text)} characters, {connections} connections, best of {rounds} rounds")
    for way in ("asgi", "direct"):
        print(f"{way:>7}: {best[way] * 1e6 / frames:6.2f} µs of CPU per frame")
    print(f"  ratio direct / asgi: {best['direct'] / best['asgi']:.2f}")
    for (c, _), done in zip(conns, ends, strict=True):
        assert c.pump_task is not None
        c.pump_task.cancel()
        done.set()
    await asyncio.sleep(0.01)  # the apps return


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=20000, help="frames per way and round")
    p.add_argument("--size", type=int, default=600, help="characters per frame")
    p.add_argument("--rounds", type=int, default=5, help="rounds; the best of each way is kept")
    p.add_argument("--connections", type=int, default=400, help="connections, sent to four at a time in turn")
    args = p.parse_args()
    if args.connections < 4 or args.connections % 4:
        p.error(f"--connections must be a multiple of 4 (four seats a table), not {args.connections}")
    asyncio.run(main(args.frames, args.size, args.rounds, args.connections))
