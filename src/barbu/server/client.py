"""A seat's client in Python, and a server on a free loopback port: for tests, benchmarks, scripts.

:class:`SeatClient` speaks the table protocol over a real WebSocket: ``hello``, ``act``
(with client action ids), ``sync``; it keeps every frame it received, the last view (with
each patch merged in) and the last sequence number; it takes an action by sending one of
``view["legal_actions"]`` back as it was given. :class:`ServerThread` runs the app under
uvicorn on a thread, on a free port.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import websockets

_IDS = itertools.count(1)


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SeatClient:
    """One WebSocket connection to a table, as a seat (with its key) or as a watcher."""

    def __init__(self, url: str, keep_frames: bool = True) -> None:
        self.url = url
        self.keep_frames = keep_frames
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.seq: int | None = None
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None

    async def connect(self) -> SeatClient:
        """Open the connection."""
        self.ws = await websockets.connect(self.url, max_size=2**22)
        return self

    async def close(self) -> None:
        """Close the connection."""
        if self.ws is not None:
            await self.ws.close()

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict is sent as JSON, a string as it is)."""
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame (also remembered in :attr:`frames`, :attr:`view`, :attr:`seq`)."""
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if self.keep_frames:
            self.frames.append(frame)
        kind = frame.get("type")
        if kind in ("state", "event"):
            if "patch" in frame:
                if self.view is None or self.seq != frame["seq"] - 1:
                    raise AssertionError(f"a patch for {frame['seq']} arrived on the view of {self.seq}")
                self.view = {**self.view, **frame["patch"]}
            else:
                self.view = frame["view"]
            self.seq = frame["seq"]
        elif kind == "welcome":
            self.seat = frame["seat"]
            if self.seq is None:
                self.seq = frame["seq"]
        elif kind == "table":
            self.table = frame
        return frame

    async def until(self, kind: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """Read frames until one of type ``kind`` (with the given fields) arrives."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.01, deadline - time.monotonic()))
            if frame.get("type") == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def hello(
        self, table: str, key: str | None = None, last_seq: int | None = None, name: str | None = None
    ) -> dict[str, Any]:
        """Say hello and read until the state (or the error) arrives."""
        msg: dict[str, Any] = {"type": "hello", "table": table}
        if key is not None:
            msg["key"] = key
        if last_seq is not None:
            msg["last_seq"] = last_seq
        if name is not None:
            msg["name"] = name
        await self.send(msg)
        first = await self.recv()
        if first["type"] == "error":
            return first
        assert first["type"] == "welcome", first
        if last_seq is None or last_seq != first["seq"]:
            await self.until("state" if last_seq is None else "event", seq=first["seq"])
        return first

    async def act(self, intent: dict[str, Any], seq: int | None = None, ref: str | None = None) -> str:
        """Send an intent on the state ``seq`` (the last seen by default); returns its action id."""
        ref = ref or f"a{next(_IDS)}"
        await self.send({"type": "act", "id": ref, "seq": self.seq if seq is None else seq, "action": intent})
        return ref

    async def answer(self, ref: str, timeout: float = 10.0) -> dict[str, Any]:
        """The ``ack`` or ``error`` frame answering action ``ref`` (after an ack, the view is up to it)."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.01, deadline - time.monotonic()))
            if frame.get("type") in ("ack", "error") and frame.get("id") == ref:
                while frame["type"] == "ack" and (self.seq or 0) < frame["seq"]:
                    await self.recv(max(0.01, deadline - time.monotonic()))
                return frame

    def my_turn(self) -> bool:
        """Whether the last view says this seat is to act."""
        v = self.view
        return v is not None and not v["game_over"] and v["to_act"] == self.seat and v["seat"] is not None


class ServerThread:
    """The app served by uvicorn on a thread, on a free loopback port (``with`` starts and stops it)."""

    def __init__(self, app: Any, port: int | None = None) -> None:
        import uvicorn

        self.port = port or free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=65536,
            ws_per_message_deflate=False,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="barbu-server", daemon=True)

    @property
    def http(self) -> str:
        """The base HTTP URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """The WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class ServerProcess:
    """``barbu serve`` (run as ``python -m barbu serve``) in a subprocess on a free port.

    ``with`` starts it, then stops it.

    :meth:`kill` sends SIGKILL (nothing is flushed, nothing is closed), as a crash would.
    """

    def __init__(self, db: str, *options: str, port: int | None = None, profile: str | None = None) -> None:
        self.db = db
        self.options = options
        self.port = port or free_port()
        self.profile = profile
        """A file for the server's cProfile statistics (written when it stops politely), or None."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        """The base HTTP URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """The WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProcess:
        """Start the server and wait until it answers."""
        profiler = ["-m", "cProfile", "-o", self.profile] if self.profile else []
        command = [
            sys.executable,
            *profiler,
            "-m",
            "barbu",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            *self.options,
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server exited with {self.process.returncode}: {err[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start in 30 s") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-whatever."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        """Stop the server the polite way."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["SeatClient", "ServerProcess", "ServerThread", "free_port"]
