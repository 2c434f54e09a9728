"""Where a round trip waits inside ``barbu serve``: loaded by the flood soak's ``--probe`` only.

``benchmarks/soak_flood.py --probe`` starts the server with this folder on ``PYTHONPATH``
and ``BARBU_FLOOD_PROBE`` naming a file; Python imports this module at start-up, and in the
server process (no other) it records, with wall-clock times:

- ``gc``: every garbage-collector pass on any thread, its generation and duration
  (a pass holds the interpreter, so every table waits for it);
- ``commit``: each transaction of the journal's writer thread (the database's share of
  an action's round trip);
- ``write``: each action's wait for its commit, from the table's side (the commit, plus
  the batch before it, plus the wake-up on the event loop);
- ``act``: each seat's ``act`` from the lock to the broadcast;
- ``lag``: how late a callback scheduled from another thread every 10 ms runs on the
  event loop (its blocking, the interpreter lock, and the machine's scheduler).

Every two seconds it rewrites the file as lines ``kind wall_time milliseconds [detail]``.
The soak reads the file and splits it by phase. Nothing of the server is changed but
the timing wrappers.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import time
from typing import Any

_OUT = os.environ.get("BARBU_FLOOD_PROBE")
_rows: list[tuple[str, float, float, str]] = []
_loops: list[asyncio.AbstractEventLoop] = []
_gc_start: list[float] = [0.0]


def _gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_start[0] = time.perf_counter()
    else:
        _rows.append(("gc", time.time(), time.perf_counter() - _gc_start[0], f"gen{info.get('generation')}"))


def _timed_async(kind: str, fn: Any) -> Any:
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        finally:
            _rows.append((kind, time.time(), time.perf_counter() - t, ""))

    return wrapper


def _timed(kind: str, fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            _rows.append((kind, time.time(), time.perf_counter() - t, ""))

    return wrapper


def _patch() -> None:
    while "barbu.server.tables" not in sys.modules or "barbu.server.journal" not in sys.modules:
        time.sleep(0.05)
    time.sleep(0.5)  # the modules finished importing
    tables, journal = sys.modules["barbu.server.tables"], sys.modules["barbu.server.journal"]
    tables.LiveTable.act = _timed_async("act", tables.LiveTable.act)
    journal.Journal.write = _timed_async("write", journal.Journal.write)
    journal.Journal._commit = _timed("commit", journal.Journal._commit)


def _lag() -> None:
    while not _loops:
        time.sleep(0.1)
    loop = _loops[0]
    while True:
        due = time.perf_counter() + 0.01
        time.sleep(0.01)
        ran = threading.Event()

        def mark(due: float = due, ran: threading.Event = ran) -> None:
            _rows.append(("lag", time.time(), time.perf_counter() - due, ""))
            ran.set()

        try:
            loop.call_soon_threadsafe(mark)
        except RuntimeError:  # the loop is closed
            return
        ran.wait(5)


def _dump(path: str) -> None:
    while True:
        time.sleep(2)
        lines = [f"{k} {t:.3f} {d * 1000:.2f} {x}\n" for k, t, d, x in list(_rows)]
        with open(path + ".part", "w") as f:
            f.writelines(lines)
        os.replace(path + ".part", path)


def _start(path: str) -> None:
    import uvloop

    make = uvloop.new_event_loop

    def new_event_loop() -> asyncio.AbstractEventLoop:
        loop = make()
        _loops.append(loop)
        return loop

    uvloop.new_event_loop = new_event_loop
    gc.callbacks.append(_gc)
    for target in (_patch, _lag):
        threading.Thread(target=target, daemon=True).start()
    threading.Thread(target=_dump, args=(path,), daemon=True).start()


if _OUT and "serve" in sys.argv[1:]:  # only the server (python -m barbu serve ...)
    _start(_OUT)
