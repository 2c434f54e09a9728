"""The journal: accepted actions written durably, many tables per committed transaction.

A table may acknowledge or broadcast an action only once the transaction holding it is
committed. Committing each action on its own costs one disk flush per action, and a
commit's CPU (about 0.2-0.5 ms on SQLite, the flush's system calls included) hardly depends
on how many actions it holds; the journal instead commits whatever waits, from every
table, in one transaction, on a thread of its own, and answers each waiting table.

The event loop gathers the batch and the writer thread is woken once per commit, not once
per action: :meth:`Journal.write` adds its entry to the batch forming on the loop; while a
commit runs, the next batch forms, and is handed over as soon as the commit's answer
arrives (one callback on the loop for the whole batch); when the writer is idle, the first
entry hands the batch over ``gather`` seconds later (at the end of the loop's iteration
with 0), so the writes of that moment share its commit. One table never has more than one
action in flight (its lock is held until the commit), so the order within a table is the
order of its sequence numbers.

>>> import asyncio
>>> from barbu.storage import ActionRow, SeatRow, Store, TableRow
>>> store = Store("sqlite://"); store.migrate()
>>> store.create_table(TableRow("t", "classic", {}, "s", 0, "me", 0.0), [SeatRow(i, "bot", "random") for i in range(4)])
>>> async def main() -> tuple[int, int]:
...     journal = Journal(store)
...     journal.start()
...     await asyncio.gather(*(journal.write([ActionRow("t", seq, 0, {"type": "pass"})]) for seq in (1, 2, 3)))
...     await journal.stop()
...     return len(store.load_table("t").actions), journal.commits
>>> asyncio.run(main())  # three writes of one moment, one commit
(3, 1)
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
    done: asyncio.Future[None]


class Journal:
    """Group commit of actions on one writer thread; :meth:`write` returns once committed.

    ``gather``: seconds an idle journal waits after a write before committing, so that the
    writes of the next moments share the commit (each of them waits up to that much longer
    for its acknowledgement; the server's tables use ``Settings.commit_gather``, 5 ms).
    ``batch_limit``: the most writes one commit holds.
    """

    def __init__(self, store: Store, batch_limit: int = 512, gather: float = 0.0) -> None:
        if gather < 0:
            raise ValueError(f"gather must be 0 or more seconds, not {gather}")
        self.store = store
        self.batch_limit = batch_limit
        self.gather = gather
        self._queue: queue.SimpleQueue[list[_Entry] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._forming: list[_Entry] = []
        """The next batch, gathered on the loop."""
        self._since = 0.0
        """When the first entry of the forming batch arrived (the loop's clock)."""
        self._handing: asyncio.TimerHandle | asyncio.Handle | None = None
        self._committing = False
        """A batch is with the writer thread (the next one waits for its answer)."""
        self._idle: asyncio.Future[None] | None = None
        self.commits = 0
        """How many transactions were committed (for the benchmark's figures)."""
        self.rows_written = 0

    def start(self) -> None:
        """Start the writer thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="barbu-journal", daemon=True)
            self._thread.start()

    async def stop(self) -> None:
        """Write what is waiting, then stop the writer thread."""
        if self._thread is None:
            return
        if self._committing or self._forming:
            self._idle = asyncio.get_running_loop().create_future()
            self._hand_over()
            await self._idle
            self._idle = None
        self._queue.put(None)
        await asyncio.to_thread(self._thread.join)
        self._thread = None
        self._loop = None

    async def write(self, rows: Sequence[ActionRow], statuses: Sequence[Status] = ()) -> None:
        """Write ``rows`` (and status changes) durably; raise :class:`StoreError` if the database refused."""
        if self._thread is None:
            raise StoreError("the journal is not running")
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._committing or self._forming:
                raise RuntimeError("a journal serves one event loop at a time")
            self._loop = loop
        entry = _Entry(rows, statuses, loop.create_future())
        if not self._forming:
            self._since = loop.time()
        self._forming.append(entry)
        self._schedule()
        await entry.done

    def _schedule(self) -> None:
        """Arrange the hand-over of the forming batch, unless a commit runs (its answer hands it over)."""
        if self._handing is not None or self._committing or not self._forming:
            return
        assert self._loop is not None
        wait = self._since + self.gather - self._loop.time()
        if wait > 0 and len(self._forming) < self.batch_limit:
            self._handing = self._loop.call_later(wait, self._hand_over)
        else:
            self._handing = self._loop.call_soon(self._hand_over)

    def _hand_over(self) -> None:
        """Give the forming batch to the writer thread (on the loop)."""
        if self._handing is not None:
            self._handing.cancel()
            self._handing = None
        if self._committing or not self._forming:
            return
        batch, self._forming = self._forming[: self.batch_limit], self._forming[self.batch_limit :]
        if self._forming:
            assert self._loop is not None
            self._since = self._loop.time()
        self._committing = True
        self._queue.put(batch)

    def _answered(self, batch: list[_Entry], errors: list[Exception | None]) -> None:
        """The writer's answer to a batch (on the loop): settle its writes, hand over the next batch."""
        self._committing = False
        for entry, error in zip(batch, errors, strict=True):
            if entry.done.done():
                continue
            if error is None:
                entry.done.set_result(None)
            else:
                entry.done.set_exception(error)
        if self._forming:
            if self._idle is not None:  # stopping: no more gathering
                self._hand_over()
            else:
                self._schedule()
        elif self._idle is not None and not self._idle.done():
            self._idle.set_result(None)

    def _run(self) -> None:
        while (batch := self._queue.get()) is not None:
            errors = self._commit(batch)
            assert self._loop is not None
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                self._loop.call_soon_threadsafe(self._answered, batch, errors)

    def _commit(self, batch: list[_Entry]) -> list[Exception | None]:
        """Commit ``batch`` in one transaction; each entry's error, None for those committed."""
        try:
            self.store.append_actions([r for e in batch for r in e.rows], [s for e in batch for s in e.statuses])
        except Exception as error:
            unusable = isinstance(error, StoreError) and not error.refused
            if len(batch) > 1 and not unusable:  # find the faulty entry: the others still deserve their commit
                return [self._commit([e])[0] for e in batch]
            if not isinstance(error, StoreError):
                error = StoreError("the database refused the action, so it did not happen", refused=True)
            return [error] * len(batch)  # a database that cannot be used fails them all at once, without a retry each
        self.commits += 1
        self.rows_written += sum(len(e.rows) for e in batch)
        return [None] * len(batch)


__all__ = ["Journal", "Status"]
