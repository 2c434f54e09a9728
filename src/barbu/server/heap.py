"""The garbage collector's share of a round trip: what the server holds from its start is set aside.

CPython's full (oldest-generation) collection walks every container object alive, and it
runs on the event loop, in the middle of whatever message is being served: every table
waits. Most of those objects are the server's own code, made once at start (modules,
classes, FastAPI's routes, SQLAlchemy's tables and compiled statements): about 75,000 of
them, some 20 ms of a full pass on a busy machine. A flood of connections makes the
server allocate fast enough to run full passes several times a minute, so those
milliseconds landed on the honest tables' round trips (the flood soak,
``benchmarks/soak_flood.py --probe``, measured full passes of 40 to 90 ms under attack,
none in the quiet phase).

:func:`set_aside_startup_objects` collects once, then moves every object alive into the
collector's permanent generation (:func:`gc.freeze`), which later passes do not walk.
Nothing is lost: those objects live as long as the server anyway, and what is made later
(tables, connections) is collected as before.

The tables themselves are the other large set: at 500 live tables the server holds a few
million container objects, and a full pass over them takes 200 to 480 ms (measured with
``gc.callbacks`` during ``benchmarks/bench_server.py --steps 1,500``). CPython runs a full
pass whenever the objects that reached the oldest generation since the last one pass a
quarter of those already there. With the default young threshold (700 allocations) the
objects of an action still in flight (its message, its patch, its journal entry) are
promoted before they die, so the oldest generation kept growing and full passes came every
few seconds: they were the whole 99th percentile of the round trip at 500 tables (p99
about 420 ms, p50 2 ms). The young threshold is raised to :data:`YOUNG_THRESHOLD`
allocations, so such objects die young, and full passes become rare (none during a
30-second step at 500 tables: p99 103 ms and 161 ms in two runs, against 390 to 444 ms
before, and 0.65 ms of server CPU per action against 0.70 to 0.84). The cost is a few
megabytes of garbage cycles waiting a little longer for their pass.

It is done once in the life of a process (a second server started in the same process,
as tests do, finds it done):

>>> first = set_aside_startup_objects()
>>> first > 0, set_aside_startup_objects() == first
(True, True)
>>> gc.get_threshold()[0] == YOUNG_THRESHOLD
True
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

_frozen: int | None = None

YOUNG_THRESHOLD = 20_000
"""Allocations between two passes over the youngest generation (CPython's default is 700)."""


def set_aside_startup_objects(collect: bool = True) -> int:
    """Collect, then freeze everything alive into the permanent generation, and let young
    objects die young (:data:`YOUNG_THRESHOLD`); how many objects it set aside.

    Called when the server has imported and built everything it needs to serve and before
    it serves anything; only the first call in a process does anything. A short command
    (``barbu simulate``) passes ``collect=False``: the imports leave a few hundred objects
    of garbage, which cost it less kept than a full pass over everything (about 6 ms).
    """
    global _frozen
    if _frozen is None:
        if collect:
            gc.collect()
        gc.freeze()
        _frozen = gc.get_freeze_count()
        gc.set_threshold(YOUNG_THRESHOLD, 20, 20)
    return _frozen


class CollectorPauses:
    """Times each pass of the collector while started: ``report(generation, seconds)`` after each.

    A pass runs in whichever thread allocated last, and everything else in the process waits
    for it (the interpreter's lock is held throughout): the server reports them as
    ``barbu_gc_pause_seconds``, and ``benchmarks/bench_server.py`` its client bots' own.

    >>> seen = []
    >>> with CollectorPauses(lambda generation, seconds: seen.append((generation, seconds >= 0))):
    ...     _ = gc.collect(1)
    >>> seen
    [(1, True)]
    >>> _ = gc.collect(1)  # stopped: no longer reported
    >>> len(seen)
    1
    """

    def __init__(self, report: Callable[[int, float], None]) -> None:
        self.report = report
        self._began = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.report(int(info["generation"]), time.perf_counter() - self._began)

    def start(self) -> None:
        """Report every pass from now on."""
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        """Report no more passes."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def __enter__(self) -> CollectorPauses:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


__all__ = ["YOUNG_THRESHOLD", "CollectorPauses", "set_aside_startup_objects"]
