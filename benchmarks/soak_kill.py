"""A kill -9 soak: the server dies mid-game again and again; no acknowledged action may be lost.

Starts ``barbu serve`` on a free loopback port (SQLite in a temporary folder by default,
PostgreSQL with ``--db postgresql://postgres@127.0.0.1:5432/test``), makes ``--tables``
tables of four people (the rule sets of ``--variants`` in turn), and plays every seat with
a client-side bot over its own WebSocket: when its view says it is to act it sends a random
legal action and waits for its acknowledgement (the event it made, with ``ack``), which the
server sends only once the action is committed. Every acknowledged action is written down
(table, sequence number, action id, seat, intent). Meanwhile the server is killed with SIGKILL
at random moments, ``--kills`` times, and started again on the same port and database; the
clients reconnect, take the state afresh and send their unanswered action again with the same
id (the server answers a resend it already committed with a ``duplicate`` ack and does not
apply it twice).

At the end (every game over, or ``--max-seconds`` passed) it checks, from the database:
every acknowledged action is in its table's log exactly once, at the sequence number of
its ack, with its id, seat and intent; no action id is in a log twice; every log replays
through the core; every game finished. It prints the figures and exits 1 on any fault.

    python benchmarks/soak_kill.py                                 # 20 kills, SQLite
    python benchmarks/soak_kill.py --kills 5 --tables 2 --variants king
    python benchmarks/soak_kill.py --db postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from barbu.rulesets import RULE_SETS
from barbu.server.client import SeatClient, ServerProcess
from barbu.server.tables import replay
from barbu.storage import Store


@dataclass
class Soak:
    """What the clients saw."""

    acked: list[tuple[str, int, str, int, dict[str, Any]]] = field(default_factory=list)
    """(table, seq, action id, seat, intent) of every ack."""
    duplicates: int = 0
    resends: int = 0
    reconnects: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    kills: int = 0
    kill_times: list[float] = field(default_factory=list)


async def seat_bot(
    server: ServerProcess, table: str, key: str, rng: random.Random, soak: Soak, deadline: float
) -> None:
    """One seat: act when it is this seat's turn, reconnect when the server is gone, resend what was unanswered."""
    pending: tuple[str, dict[str, Any]] | None = None
    seen: set[str] = set()
    while time.monotonic() < deadline:
        client = SeatClient(server.ws, keep_frames=False, rng=random.Random(rng.getrandbits(64)))
        try:
            await client.connect()
            hello = await client.hello(table, key)
            if hello["type"] == "error":
                raise ConnectionError(hello["message"])
            if pending is not None:
                ref, intent = pending
                soak.resends += 1
                await client.act(intent, ref=ref)
                pending = await answered(client, ref, intent, table, soak, seen, pending)
            while time.monotonic() < deadline:
                view = client.view
                if view is not None and view["game_over"]:
                    return
                if client.my_turn() and pending is None:
                    assert view is not None
                    intent = rng.choice(view["legal_actions"])
                    ref = f"{table}-{client.seat}-{rng.getrandbits(48):x}"
                    pending = (ref, intent)
                    await client.act(intent, ref=ref)
                    pending = await answered(client, ref, intent, table, soak, seen, pending)
                else:
                    try:
                        await client.recv(timeout=2.0)
                    except TimeoutError:
                        continue
        except (OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError) as e:
            del e
        except Exception as e:  # websockets' ConnectionClosed and its kin: the server died
            if "ConnectionClosed" not in type(e).__name__ and "InvalidMessage" not in type(e).__name__:
                raise
        finally:
            await close_quietly(client)
        soak.reconnects += 1
        await asyncio.sleep(0.1 + rng.random() * 0.3)


async def close_quietly(client: SeatClient) -> None:
    try:
        await asyncio.wait_for(client.close(), 2.0)
    except Exception:  # a connection to a dead server: nothing to close politely
        return


async def answered(
    client: SeatClient,
    ref: str,
    intent: dict[str, Any],
    table: str,
    soak: Soak,
    seen: set[str],
    pending: tuple[str, dict[str, Any]],
) -> tuple[str, dict[str, Any]] | None:
    """Wait for the answer to ``ref``; None once it is answered for good, else still pending."""
    frame = await client.answer(ref, timeout=10.0)
    if "ack" in frame:  # the event it made, or a duplicate's ack
        if frame.get("duplicate"):
            soak.duplicates += 1
        if ref not in seen:
            seen.add(ref)
            assert client.seat is not None
            soak.acked.append((table, frame["seq"], ref, client.seat, intent))
        return None
    code = frame.get("code", "?")
    soak.refusals[code] = soak.refusals.get(code, 0) + 1
    if code in ("stale", "not_your_turn", "bad_seq", "illegal", "game_over"):
        return None  # not applied: the view that follows says what to do
    return pending


async def killer(server: ServerProcess, kills: int, rng: random.Random, soak: Soak, start: float) -> None:
    """Kill the server with SIGKILL at random moments, and start it again."""
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(0.5, 3.0))
        await asyncio.to_thread(server.kill)
        soak.kills += 1
        soak.kill_times.append(round(time.monotonic() - start, 1))
        await asyncio.sleep(rng.uniform(0.05, 0.5))
        await asyncio.to_thread(server.start)


def make_tables(server: ServerProcess, variants: list[str], count: int) -> list[tuple[str, list[str]]]:
    out = []
    for n in range(count):
        variant = variants[n % len(variants)]
        players = 5 if variant == "five-player" else 4
        r = httpx.post(
            server.http + "/api/tables", json={"variant": variant, "seats": [{"kind": "human"}] * players}, timeout=30
        )
        r.raise_for_status()
        body = r.json()
        out.append((body["table"], [s["link"].split("key=")[1] for s in body["seats"]]))
    return out


def check(db: str, tables: list[str], soak: Soak) -> dict[str, Any]:
    """Every acknowledged action once in its log, at its place; every log replays; every game over."""
    store = Store(db)
    faults: list[str] = []
    stored_actions = 0
    finished = 0
    try:
        logs = {}
        for t in tables:
            stored = store.load_table(t)
            if stored is None:
                faults.append(f"table {t} is not in the database")
                continue
            logs[t] = stored
            stored_actions += len(stored.actions)
            ids = [a.action_id for a in stored.actions if a.action_id is not None]
            if len(ids) != len(set(ids)):
                faults.append(f"table {t}: an action id is in the log twice")
            if [a.seq for a in stored.actions] != list(range(1, len(stored.actions) + 1)):
                faults.append(f"table {t}: the log's sequence numbers have a gap")
            try:
                game = replay(stored.table, stored.actions)
            except Exception as e:
                faults.append(f"table {t}: the log does not replay: {e}")
                continue
            if game.is_over and stored.table.status == "finished":
                finished += 1
            else:
                status = stored.table.status
                faults.append(f"table {t}: the game did not finish ({len(stored.actions)} actions, {status})")
        for table, seq, ref, seat, intent in soak.acked:
            stored = logs.get(table)
            if stored is None:
                continue
            matches = [a for a in stored.actions if a.action_id == ref]
            if len(matches) != 1:
                faults.append(f"table {table}: acknowledged action {ref} is in the log {len(matches)} times")
                continue
            row = matches[0]
            if (row.seq, row.seat, row.intent) != (seq, seat, intent):
                faults.append(f"table {table}: action {ref} acknowledged as {seq} is stored as {row.seq}")
        for table in logs:
            acked = sorted((seq, ref) for t, seq, ref, _, _ in soak.acked if t == table)
            stored_order = [(a.seq, a.action_id) for a in logs[table].actions if a.action_id in {r for _, r in acked}]
            if acked != stored_order:
                faults.append(f"table {table}: the acknowledged actions are not in the log in their order")
    finally:
        store.dispose()
    return {"stored_actions": stored_actions, "finished_games": finished, "faults": faults}


async def soak_run(args: argparse.Namespace, db: str) -> dict[str, Any]:
    rng = random.Random(args.seed)
    options = ("--bot-delay", "0.05", "--takeover-after", "3600", "--actions-per-second", "100")
    server = ServerProcess(db, *options)
    server.start()
    start = time.monotonic()
    soak = Soak()
    try:
        tables = make_tables(server, args.variants, args.tables)
        deadline = start + args.max_seconds
        bots = [
            asyncio.create_task(seat_bot(server, t, key, random.Random(f"{args.seed}/{t}/{i}"), soak, deadline))
            for t, keys in tables
            for i, key in enumerate(keys)
        ]
        await killer(server, args.kills, rng, soak, start)
        await asyncio.gather(*bots)
    finally:
        server.stop()
    seconds = time.monotonic() - start
    out = check(db, [t for t, _ in tables], soak)
    return {
        "db": db.split("://")[0],
        "tables": len(tables),
        "variants": args.variants,
        "kills": soak.kills,
        "acknowledged": len(soak.acked),
        "duplicate_acks": soak.duplicates,
        "resends": soak.resends,
        "reconnects": soak.reconnects,
        "refusals": soak.refusals,
        "seconds": round(seconds, 1),
        **out,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--variants", default="king,thirty-two,salad,classic", help="rule sets, comma-separated")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--max-seconds", type=float, default=900.0, help="stop waiting for the games after this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    args.variants = [v for v in args.variants.split(",") if v]
    unknown = [v for v in args.variants if v not in RULE_SETS]
    if unknown or args.kills < 0 or args.tables < 1 or args.max_seconds <= 0:
        parser.error(f"--variants must name rule sets ({', '.join(RULE_SETS)}); --tables ≥ 1, --kills ≥ 0")
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{Path(folder) / 'soak.db'}"
        out = asyncio.run(soak_run(args, db))
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 1 if out["faults"] else 0


if __name__ == "__main__":
    sys.exit(main())
