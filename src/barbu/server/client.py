"""A seat's client in Python, and a server on a free loopback port: for tests, benchmarks, scripts.

:class:`SeatClient` speaks the table protocol over a real WebSocket: ``hello``, ``act``
(with client action ids), ``sync``; it keeps every frame it received, the last view (with
each patch merged in) and the last sequence number; it takes an action by sending one of
``view["legal_actions"]`` back as it was given. Given ``reconnect=True`` it comes back by
itself when its connection ends (trying its URLs in turn, as a page behind a proxy would):
``hello`` with the last sequence number it saw, then the actions still unanswered, again.
:class:`ServerThread` runs the app under uvicorn on a thread, on a free port.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import IO, Any

import websockets

_IDS = itertools.count(1)
_PASSING = ("storage", "taken_over", "rate_limited")
"""Refusals of a ``hello`` while coming back that pass (the table moving between processes, a
connection of this client from before not yet let go): the client tries again."""
RESUME_OPEN_TIMEOUT = 10.0
"""Seconds a reconnecting client waits for the opening handshake before it tries the next address.
A refused connection fails at once; a slow one is a process busy taking over the tables and
clients of one that died, where giving up and starting again doubles the work."""


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SeatClient:
    """One WebSocket connection to a table, as a seat (with its key) or as a watcher.

    It connects as a browser does: it answers the server's keep-alive pings and sends none of
    its own (a benchmark's thousands of clients would otherwise load the server with pings no
    page sends).
    """

    def __init__(
        self,
        url: str,
        keep_frames: bool = True,
        reconnect: bool = False,
        others: tuple[str, ...] = (),
        rng: random.Random | None = None,
    ) -> None:
        self.url = url
        self.urls = (url, *others)
        """Where to come back to, in turn, when the connection ends."""
        self.rng = rng if rng is not None else random.Random()
        """This client's own draws (the spread of its waits before coming back): a benchmark
        seeds it, so a run is repeated draw for draw whatever the other clients do."""
        self.keep_frames = keep_frames
        self.reconnect = reconnect
        self.reconnections = 0
        self.unanswered: dict[str, dict[str, Any]] = {}
        """Actions sent whose answer (a frame with their id as ``ack``, or an ``error``) has not
        arrived (sent again after a reconnection)."""
        self._hello: dict[str, Any] | None = None
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.seq: int | None = None
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None

    async def connect(self) -> SeatClient:
        """Open the connection."""
        self.ws = await websockets.connect(self.url, max_size=2**22, ping_interval=None)
        return self

    async def close(self) -> None:
        """Close the connection."""
        if self.ws is not None:
            await self.ws.close()

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict is sent as JSON, a string as it is)."""
        if isinstance(message, dict) and message.get("type") == "hello":
            self._hello = message
        elif isinstance(message, dict) and message.get("type") == "act" and isinstance(message.get("id"), str):
            self.unanswered[message["id"]] = message
        try:
            await self.ws.send(message if isinstance(message, str) else json.dumps(message))
        except websockets.ConnectionClosed:
            if not self.reconnect or self._hello is None:
                raise  # else the message waits in unanswered (an act) and the next read comes back

    async def resume(self, timeout: float = 60.0) -> None:
        """Connect again (each URL in turn, waiting a little more each round) and say ``hello``
        with the last sequence number seen; then send the unanswered actions again (same ids:
        one already carried out is answered ``duplicate``)."""
        assert self._hello is not None, "resume follows a hello"
        deadline = time.monotonic() + timeout
        attempt = 0
        while True:
            url = self.urls[attempt % len(self.urls)]
            attempt += 1
            try:
                self.ws = await websockets.connect(
                    url, max_size=2**22, open_timeout=RESUME_OPEN_TIMEOUT, ping_interval=None
                )
                hello = dict(self._hello)
                if self.seq is not None:
                    hello["last_seq"] = self.seq
                await self.ws.send(json.dumps(hello))
                while True:
                    frame = await self._read(max(1.0, deadline - time.monotonic()))
                    if frame["type"] == "welcome":
                        break
                    if frame["type"] == "error" and frame["code"] not in _PASSING:
                        raise RuntimeError(f"hello refused after reconnecting: {frame}")
                    if frame["type"] == "error":  # the table is moving between processes: again
                        raise ConnectionError(frame["message"])
                break
            except (OSError, TimeoutError, websockets.WebSocketException):
                with contextlib.suppress(Exception):  # never two connections of this client seated at once
                    await asyncio.wait_for(self.ws.close(), 2.0)
                if time.monotonic() > deadline:
                    raise
                if attempt % len(self.urls):  # another URL not tried yet this round: at once
                    continue
                # then a little longer each round, spread so that the clients of a process that died
                # do not all come back in the same instant
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * min(1.0, 0.05 * attempt))
        self.reconnections += 1
        for message in list(self.unanswered.values()):
            await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame (also remembered in :attr:`frames`, :attr:`view`, :attr:`seq`); with
        ``reconnect``, a connection that ended is opened again first (:meth:`resume`)."""
        while True:
            try:
                return await self._read(timeout)
            except websockets.ConnectionClosed:
                if not self.reconnect or self._hello is None:
                    raise
                await self.resume()

    async def _read(self, timeout: float) -> dict[str, Any]:
        """The next frame within ``timeout`` seconds (0: only one already received), remembered.

        ``asyncio.timeout`` rather than ``asyncio.wait_for``: on Python 3.11 the latter wraps
        every read in a task of its own (its cost is a benchmark's client bots' largest part)
        and, given 0, cancels that task before it ran, so a frame already received was never read.
        """
        async with asyncio.timeout(timeout):
            text = await self.ws.recv()
        frame: dict[str, Any] = json.loads(text)
        if self.keep_frames:
            self.frames.append(frame)
        kind = frame.get("type")
        answered = frame.get("ack") if kind in ("event", "ack") else frame.get("id") if kind == "error" else None
        if answered is not None:
            self.unanswered.pop(answered, None)
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
        """The frame answering action ``ref``: the ``event`` it made, whose ``ack`` is ``ref``
        (committed); an ``ack`` frame with ``"duplicate": true`` (committed before, under its
        ``seq``); or an ``error``. Once it is acknowledged, the view is up to it."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.01, deadline - time.monotonic()))
            kind = frame.get("type")
            if (kind in ("event", "ack") and frame.get("ack") == ref) or (kind == "error" and frame.get("id") == ref):
                while kind == "ack" and (self.seq or 0) < frame["seq"]:
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

        from barbu.server import WS_PING_INTERVAL
        from barbu.server.frames import DirectFrames

        self.port = port or free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws=DirectFrames,
            ws_max_size=65536,
            ws_per_message_deflate=False,
            ws_ping_interval=WS_PING_INTERVAL,
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

    def __init__(
        self, db: str, *options: str, port: int | None = None, profile: str | None = None, log: Path | None = None
    ) -> None:
        self.db = db
        self.options = options
        self.port = port or free_port()
        self.profile = profile
        """A file for the server's cProfile statistics (written when it stops politely), or None."""
        self.log = log
        """A file the server's standard error is copied to, or None."""
        self.process: subprocess.Popen[bytes] | None = None
        self._tail: deque[bytes] = deque(maxlen=200)
        self._reader: threading.Thread | None = None

    def _drain(self, stream: IO[bytes]) -> None:
        """Read the server's standard error as it comes (a full pipe would stop the server),
        keeping its last lines and copying it to :attr:`log`."""
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(self.log.open("ab")) if self.log is not None else None
            for line in stream:
                self._tail.append(line)
                if out is not None:
                    out.write(line)
                    out.flush()

    def tail(self) -> str:
        """The last lines the server wrote to its standard error."""
        return b"".join(self._tail).decode(errors="replace")

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
        assert self.process.stderr is not None
        self._tail.clear()
        self._reader = threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                self._reader.join(timeout=5)
                raise RuntimeError(f"the server exited with {self.process.returncode}: {self.tail()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if time.monotonic() > deadline:  # not left running behind the error
                    self.process.kill()
                    self.process.wait()
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
        if self._reader is not None:
            self._reader.join(timeout=5)  # the pipe ends with the process

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["SeatClient", "ServerProcess", "ServerThread", "free_port"]
