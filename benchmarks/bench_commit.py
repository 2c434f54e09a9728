"""The journal's CPU per commit: ``Store.append_actions`` on a SQLite file, as the journal calls it.

Makes a database in a temporary directory (WAL, full synchronous commits, as ``barbu serve``),
50 tables, then commits ``--commits`` transactions of 1, 4 and 8 actions each (the journal
gathers whatever is waiting: about one an action at a few tables, several under load) and
prints the CPU time of this thread per commit (its part in the kernel, the disk flush's system
calls, included), best of ``--rounds``. Run it on two versions of the code one after the other,
in turn, to compare them.

    python benchmarks/bench_commit.py [--commits 400] [--rounds 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time

from barbu.storage import ActionRow, SeatRow, Store, TableRow


def main(commits: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/commit.db")
        store.migrate()
        tables = [f"t{i}" for i in range(50)]
        for t in tables:
            store.create_table(TableRow(t, "classic", {}, "s", 0, "me", 0.0), [SeatRow(i, "human") for i in range(4)])
        seq = dict.fromkeys(tables, 0)

        def batch(size: int) -> list[ActionRow]:
            rows = []
            for i in range(size):
                t = tables[i % len(tables)]
                seq[t] += 1
                rows.append(ActionRow(t, seq[t], 0, {"type": "play", "card": "AS"}, f"a{seq[t]}", "human"))
            return rows

        for size in (1, 4, 8):
            best = float("inf")
            for _ in range(rounds):
                batches = [batch(size) for _ in range(commits)]
                start = time.thread_time()
                for rows in batches:
                    store.append_actions(rows)
                best = min(best, (time.thread_time() - start) / commits)
            print(f"{size} actions a commit: {best * 1e6:6.0f} µs of CPU per commit (best of {rounds} × {commits})")
        store.dispose()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--commits", type=int, default=400, help="commits per round and batch size")
    p.add_argument("--rounds", type=int, default=3, help="rounds; the best is kept")
    args = p.parse_args()
    main(args.commits, args.rounds)
