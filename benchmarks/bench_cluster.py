"""Two server processes over PostgreSQL and Redis, one of them killed with SIGKILL again and again.

Starts two ``barbu serve --redis`` processes on one PostgreSQL database (a schema of its own) and
one Redis server (a key prefix of its own), makes ``--tables`` tables of four people, and plays
every seat with a client bot over its own WebSocket, as ``bench_server.py`` does: it thinks
``--think`` seconds (± 50 %), sends a random legal action and waits for its ``ack``. Seats 0 and 1
of each table connect to the first process, seats 2 and 3 to the second, and the tables are
first opened on either process in turn, so every table is served by one process and relayed by
the other. Every ``--every`` seconds (± 25 %) one of the two processes, chosen at random, is
killed with SIGKILL and started again on its port; the clients reconnect by themselves
(:class:`~barbu.server.client.SeatClient` with ``reconnect=True``, trying the other process
too) and send their unanswered action again with the same id.

It measures, from the clients and then from the database: acknowledged actions missing from
the logs (must be 0), actions acknowledged twice or out of order (0), logs that do not replay
(0), and for each table the killed process served, the time from the kill to its next ``ack``
(the table resumed on the other process; the kill's time is when SIGKILL is sent): median, p90 and
maximum.

    nice python benchmarks/bench_cluster.py --kills 20 --tables 8
    python benchmarks/bench_cluster.py --db postgresql://postgres@127.0.0.1:5432/test --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import signal
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
import redis

from barbu.server.client import SeatClient, ServerProcess
from barbu.server.tables import replay
from barbu.storage import Store


@dataclass
class Run:
    """What the clients saw."""

    acks: list[tuple[str, int, str, int, bool, float]] = field(default_factory=list)
    """(table, seat, action id, seq, duplicate, when received) of every ack."""
    refusals: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    kills: list[tuple[float, str, list[str]]] = field(default_factory=list)
    """(when, the killed process's id, the tables it served) of every kill."""
    reconnections: int = 0
    failures: list[str] = field(default_factory=list)
    """Client bots that gave up (a hello refused for good, no answer in two minutes)."""
    stopping: bool = False


def schema_url(db: str) -> tuple[str, str]:
    """A schema of its own on the PostgreSQL server: (the URL that uses it, the schema)."""
    schema = f"barbu_bench_{secrets.token_hex(4)}"
    with psycopg.connect(db.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in db else "?"
    return f"{db}{sep}options=-csearch_path%3D{schema}", schema


def drop_schema(db: str, schema: str) -> None:
    with psycopg.connect(db.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as admin:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


async def seat_bot(run: Run, urls: tuple[str, ...], table: str, key: str, think: float, rng: random.Random) -> None:
    """One seat (a failure is written down, not raised)."""
    try:
        await play_seat(run, urls, table, key, think, rng)
    except Exception as e:
        run.failures.append(f"table {table}: {type(e).__name__}: {e}")


async def play_seat(run: Run, urls: tuple[str, ...], table: str, key: str, think: float, rng: random.Random) -> None:
    """One seat: think, act, wait for the answer; every ack written down."""
    c = SeatClient(urls[0], reconnect=True, others=urls[1:], rng=random.Random(rng.getrandbits(64)))
    await c.connect()
    await c.hello(table, key)
    n = 0
    while not run.stopping:
        view = c.view
        if view is not None and view["game_over"]:
            break
        if c.my_turn():
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            view = c.view
            if run.stopping or not c.my_turn() or view is None:
                continue
            n += 1
            ref = f"{table}-{c.seat}-{n}"
            await c.act(rng.choice(view["legal_actions"]), ref=ref)
            frame = await c.answer(ref, timeout=120)
            if frame["type"] == "error":
                run.refusals[frame["code"]] += 1
                if frame["code"] == "stale":
                    await c.send({"type": "sync", "last_seq": c.seq})
        else:
            with contextlib.suppress(TimeoutError):
                await c.recv(timeout=1.0)
        now = time.monotonic()
        for f in c.frames:
            if "ack" in f:  # an event acknowledging an action, or a duplicate's ack
                run.acks.append((table, c.seat or 0, f["ack"], f["seq"], bool(f.get("duplicate")), now))
        c.frames.clear()
    run.reconnections += c.reconnections
    c.reconnect = False
    try:
        await asyncio.wait_for(c.close(), 2.0)
    except Exception:  # a connection to a process that died: nothing to close politely
        return


async def killer(
    run: Run, servers: list[ServerProcess], client: redis.Redis, prefix: str, tables: list[str], args: Any
) -> None:
    """Kill a process at random, note the tables it served, start it again; ``--kills`` times."""
    rng = random.Random(args.seed)
    for _ in range(args.kills):
        await asyncio.sleep(args.every * rng.uniform(0.75, 1.25))
        before = set(client.pubsub_channels(f"{prefix}:proc:*"))
        owners = client.mget([f"{prefix}:lease:{t}" for t in tables])
        victim = rng.choice(servers)
        assert victim.process is not None
        victim.process.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()  # when it dies, not when it is reaped (a large process takes a while)
        await asyncio.to_thread(victim.process.wait)
        gone: set[str] = set()
        for _ in range(50):  # Redis sees the killed process's connection close at once
            gone = {c.split(":")[-1] for c in before - set(client.pubsub_channels(f"{prefix}:proc:*"))}
            if gone:
                break
            await asyncio.sleep(0.02)
        served = [t for t, o in zip(tables, owners, strict=True) if o is not None and o in gone]
        run.kills.append((killed_at, ",".join(sorted(gone)), served))
        await asyncio.sleep(0.2)
        await asyncio.to_thread(victim.start)


def resume_times(run: Run) -> list[float]:
    """For each kill and each table the killed process served: seconds from the kill to the table's next ack."""
    out = []
    by_table: dict[str, list[float]] = defaultdict(list)
    for table, _seat, _ref, _seq, _dup, when in run.acks:
        by_table[table].append(when)
    for t in by_table.values():
        t.sort()
    for i, (when, _victim, served) in enumerate(run.kills):
        until = run.kills[i + 1][0] if i + 1 < len(run.kills) else float("inf")
        for table in served:
            after = [w for w in by_table[table] if when < w < until]
            out.append(after[0] - when if after else float("nan"))
    return out


def check(db: str, tables: list[str], run: Run) -> dict[str, Any]:
    """Every acknowledged action in its log once, at its ack's place; acks once and in order; logs replay."""
    store = Store(db)
    lost = twice = disorder = unreplayable = stored = 0
    try:
        logs = {t: store.load_table(t) for t in tables}
    finally:
        store.dispose()
    seen: dict[str, int] = defaultdict(int)
    for _table, _seat, ref, _seq, _dup, _when in run.acks:
        seen[ref] += 1
    twice = sum(1 for n in seen.values() if n > 1)
    per_seat: dict[tuple[str, int], list[int]] = defaultdict(list)
    for table, seat, _ref, seq, _dup, _when in run.acks:
        per_seat[(table, seat)].append(seq)
    disorder = sum(1 for seqs in per_seat.values() if seqs != sorted(seqs) or len(set(seqs)) != len(seqs))
    for t, s in logs.items():
        if s is None:
            unreplayable += 1
            continue
        stored += len(s.actions)
        try:
            replay(s.table, s.actions)
        except Exception:
            unreplayable += 1
        if [a.seq for a in s.actions] != list(range(1, len(s.actions) + 1)):
            unreplayable += 1
        by_id: dict[str | None, list[int]] = defaultdict(list)
        for a in s.actions:
            by_id[a.action_id].append(a.seq)
        for table, _seat, ref, seq, _dup, _when in run.acks:
            if table == t and by_id.get(ref) != [seq]:
                lost += 1
    return {
        "stored_actions": stored,
        "acknowledged_lost": lost,
        "acknowledged_twice": twice,
        "out_of_order_seats": disorder,
        "logs_not_replaying": unreplayable,
    }


async def bench(args: argparse.Namespace, db: str) -> dict[str, Any]:
    prefix = f"barbu-bench-{secrets.token_hex(4)}"
    options = (
        *("--redis", args.redis, "--redis-prefix", prefix, "--lease-seconds", str(args.lease)),
        *("--bot-delay", "0.05", "--takeover-after", "3600"),
        # every client bot comes from 127.0.0.1: the per-address limits are the harness's, not the test's
        *("--actions-per-second", "100", "--messages-per-second", "100000", "--connections-per-client", "100000"),
        *("--tables-per-client", "100000"),
    )
    servers = [ServerProcess(db, *options).start(), ServerProcess(db, *options).start()]
    client = redis.Redis.from_url(args.redis, decode_responses=True)
    run = Run()
    started = time.monotonic()
    try:
        tables: list[tuple[str, list[str]]] = []
        async with httpx.AsyncClient(timeout=30) as http:
            for _ in range(args.tables):
                r = await http.post(
                    servers[0].http + "/api/tables", json={"variant": args.variant, "seats": [{"kind": "human"}] * 4}
                )
                r.raise_for_status()
                made = r.json()
                tables.append((made["table"], [s["link"].split("key=")[1] for s in made["seats"]]))
        bots = []
        for n, (table, keys) in enumerate(tables):
            first, second = (servers[0], servers[1]) if n % 2 == 0 else (servers[1], servers[0])
            for seat, key in enumerate(keys):
                near, far = (first, second) if seat < 2 else (second, first)
                rng = random.Random(f"{args.seed}/{table}/{seat}")
                bots.append(asyncio.create_task(seat_bot(run, (near.ws, far.ws), table, key, args.think, rng)))
                await asyncio.sleep(0.01)
        ids = [t for t, _ in tables]
        await killer(run, servers, client, prefix, ids, args)
        await asyncio.sleep(args.every)  # the last kill's tables resume
        run.stopping = True
        await asyncio.wait_for(asyncio.gather(*bots), 180)
    finally:
        for s in servers:
            s.stop()
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
    seconds = time.monotonic() - started
    resumed = resume_times(run)
    done = [r for r in resumed if r == r]
    out = {
        "tables": args.tables,
        "think": args.think,
        "kills": len(run.kills),
        "kills_of_an_owner": sum(1 for _, _, served in run.kills if served),
        "tables_moved": len(resumed),
        "not_resumed_before_next_kill": len(resumed) - len(done),
        "resume_median_s": round(statistics.median(done), 2) if done else None,
        "resume_p90_s": round(sorted(done)[int(0.9 * (len(done) - 1))], 2) if done else None,
        "resume_max_s": round(max(done), 2) if done else None,
        "acknowledged": len(run.acks),
        "duplicate_acks": sum(1 for a in run.acks if a[4]),
        "reconnections": run.reconnections,
        "client_failures": run.failures,
        "refusals": dict(run.refusals),
        "seconds": round(seconds, 1),
        "actions_per_second": round(len(run.acks) / seconds, 1),
        **check(db, ids, run),
    }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test", help="PostgreSQL URL")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis URL")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--variant", default="king")
    parser.add_argument("--think", type=float, default=0.3, help="seconds a client bot thinks (± 50 %%)")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--every", type=float, default=6.0, help="seconds between kills (± 25 %%)")
    parser.add_argument("--lease", type=float, default=4.0, help="the processes' --lease-seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    url, schema = schema_url(args.db)
    try:
        out = asyncio.run(bench(args, url))
    finally:
        drop_schema(args.db, schema)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    faults = ("acknowledged_lost", "acknowledged_twice", "out_of_order_seats", "logs_not_replaying")
    return 1 if any(out[f] for f in faults) else 0


if __name__ == "__main__":
    raise SystemExit(main())
