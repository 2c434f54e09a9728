"""The journal: accepted actions written durably, many tables per committed transaction.

A table may acknowledge or broadcast an action only once the transaction holding it is
committed. Committing each action on its own costs one disk flush per action; the
journal instead gathers whatever actions are waiting (from every table) and commits
them together in one transaction, on a thread of its own, then wakes each waiting
table. One table never has more than one action in flight (its lock is held until the
commit), so the order within a table is the order of its sequence numbers.

>>> import asyncio
>>> from barbu.storage import ActionRow, SeatRow, Store, TableRow
>>> store = Store("sqlite://"); store.migrate()
>>> store.create_table(TableRow("t", "classic", {}, "s", 0, "me", 0.0), [SeatRow(i, "bot", "random") for i in range(4)])
>>> async def main() -> int:
...     journal = Journal(store)
...     journal.start()
...     await journal.write([ActionRow("t", 1, 0, {"type": "declare", "contract": "trumps"})])
...     await journal.stop()
...     return len(store.load_table("t").actions)
>>> asyncio.run(main())
1
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from barbu.storage import ActionRow, Store, StoreError

Status = tuple[str, str, float | None]
"""A table status change written with the actions: ``(table_id, status, finished)``."""


@dataclass
class _Entry:
    rows: Sequence[ActionRow]
    statuses: Sequence[Status]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


class Journal:
    """Group commit of actions on one writer thread; :meth:`write` returns once committed."""

    def __init__(self, store: Store, batch_limit: int = 512) -> None:
        self.store = store
        self.batch_limit = batch_limit
        self._queue: queue.SimpleQueue[_Entry | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.commits = 0
        """How many transactions were committed (for the benchmark's figures)."""
        self.rows_written = 0

    def start(self) -> None:
        """Start the writer thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="barbu-journal", daemon=True)
            self._thread.start()

    async def stop(self) -> None:
        """Write what is queued, then stop the writer thread."""
        if self._thread is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None

    async def write(self, rows: Sequence[ActionRow], statuses: Sequence[Status] = ()) -> None:
        """Write ``rows`` (and status changes) durably; raise :class:`StoreError` if the database refused."""
        if self._thread is None:
            raise StoreError("the journal is not running")
        loop = asyncio.get_running_loop()
        entry = _Entry(rows, statuses, loop, loop.create_future())
        self._queue.put(entry)
        await entry.done

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.batch_limit:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch.append(more)
            self._commit(batch)

    def _commit(self, batch: list[_Entry]) -> None:
        try:
            self.store.append_actions([r for e in batch for r in e.rows], [s for e in batch for s in e.statuses])
        except Exception as error:
            unusable = isinstance(error, StoreError) and not error.refused
            if len(batch) > 1 and not unusable:  # find the faulty entry: the others still deserve their commit
                for e in batch:
                    self._commit([e])
                return
            if not isinstance(error, StoreError):
                error = StoreError("the database refused the action, so it did not happen", refused=True)
            for e in batch:  # a database that cannot be used fails them all at once, without a retry each
                self._settle(e, error)
            return
        self.commits += 1
        self.rows_written += sum(len(e.rows) for e in batch)
        for e in batch:
            self._settle(e, None)

    @staticmethod
    def _settle(entry: _Entry, error: Exception | None) -> None:
        def settle() -> None:
            if entry.done.done():
                return
            if error is None:
                entry.done.set_result(None)
            else:
                entry.done.set_exception(error)

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            entry.loop.call_soon_threadsafe(settle)


__all__ = ["Journal", "Status"]
