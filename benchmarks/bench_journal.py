"""The journal at a steady flow of actions: its CPU per action and the wait it adds, per gather window.

Makes a SQLite file (WAL, full synchronous commits, as ``barbu serve``) with ``--tables``
tables, then for each gather window in ``--gather`` (milliseconds; 0 first, the reference)
writes actions for ``--seconds`` at ``--rate`` a second, arriving at random moments (a
Poisson flow, the same for every window: seeded), each from a table with no action in
flight (a live table holds its lock until the commit), each awaited as a table awaits it.
It prints, per window, the process's CPU per action (the event loop's part and the writer
thread's, the flush's system calls included) and as a ratio of the reference, the actions a
commit, and the p50/p99 time from a write to its answer. No WebSocket, no view, no client:
what is measured is the journal alone, so the figures hold on a busy machine better than the
whole server's.

    python benchmarks/bench_journal.py [--rate 500] [--seconds 10] [--gather 0,2,5,10] [--tables 500]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time

from barbu.server.journal import Journal
from barbu.storage import ActionRow, SeatRow, Store, TableRow


async def flow(store: Store, seq: dict[str, int], rate: float, seconds: float, gather: float, seed: int) -> str:
    """Write a seeded Poisson flow of actions through a journal with ``gather``; one line of figures.

    ``seq``: each table's last sequence number written, advanced by the flow."""
    rng = random.Random(seed)
    journal = Journal(store, gather=gather)
    journal.start()
    tables = list(seq)
    busy: set[str] = set()
    waits: list[float] = []
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()

    async def act(table: str) -> None:
        busy.add(table)
        seq[table] += 1
        start = time.perf_counter()
        await journal.write([ActionRow(table, seq[table], 0, {"type": "play", "card": "AS"}, f"a{seq[table]}")])
        waits.append(time.perf_counter() - start)
        busy.discard(table)

    cpu = time.process_time()
    begin = loop.time()
    due = begin
    while due < begin + seconds:
        due += rng.expovariate(rate)
        table = rng.choice(tables)
        wait = due - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        if table not in busy:
            tasks.append(asyncio.create_task(act(table)))
    await asyncio.gather(*tasks)
    await journal.stop()
    used = time.process_time() - cpu
    ordered = sorted(waits)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{gather * 1000:9.1f}  {len(waits) / seconds:9.1f}  {used * 1e6 / len(waits):13.0f}  "
        f"{journal.rows_written / max(journal.commits, 1):14.2f}  "
        f"{statistics.median(waits) * 1000:6.2f}  {p99 * 1000:6.2f}"
    )


async def main(rate: float, seconds: float, windows: list[float], count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/journal.db")
        store.migrate()
        tables = [f"t{i}" for i in range(count)]
        for t in tables:
            store.create_table(TableRow(t, "classic", {}, "s", 0, "me", 0.0), [SeatRow(i, "human") for i in range(4)])
        seq = dict.fromkeys(tables, 0)
        print(f"{rate:.0f} actions a second offered, {seconds:.0f} s a window, {count} tables")
        print("gather ms  actions/s  µs CPU/action  actions/commit  p50 ms  p99 ms")
        reference: float | None = None
        for gather in windows:
            line = await flow(store, seq, rate, seconds, gather / 1000, seed=1)
            per_action = float(line.split()[2])
            reference = reference or per_action
            print(f"{line}  ({per_action / reference:.2f} of the first)", flush=True)
        store.dispose()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=float, default=500.0, help="actions a second offered")
    p.add_argument("--seconds", type=float, default=10.0, help="length of each window's flow")
    p.add_argument("--gather", default="0,2,5,10", help="gather windows in milliseconds, the first the reference")
    p.add_argument("--tables", type=int, default=500, help="tables the actions come from")
    args = p.parse_args()
    asyncio.run(main(args.rate, args.seconds, [float(g) for g in args.gather.split(",")], args.tables))
