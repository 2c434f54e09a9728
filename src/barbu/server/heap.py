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

It is done once in the life of a process (a second server started in the same process,
as tests do, finds it done):

>>> first = set_aside_startup_objects()
>>> first > 0, set_aside_startup_objects() == first
(True, True)
"""

from __future__ import annotations

import gc

_frozen: int | None = None


def set_aside_startup_objects() -> int:
    """Collect, then freeze everything alive into the permanent generation; how many objects it set aside.

    Called when the server has imported and built everything it needs to serve and before
    it serves anything; only the first call in a process does anything.
    """
    global _frozen
    if _frozen is None:
        gc.collect()
        gc.freeze()
        _frozen = gc.get_freeze_count()
    return _frozen


__all__ = ["set_aside_startup_objects"]
