"""Database outages under live tables: nothing acknowledged is lost, every log replays, every game finishes.

Starts ``barbu serve`` in a subprocess on PostgreSQL reached through a TCP proxy on
127.0.0.1 (``tests/db_proxy.py``), in a schema of its own (dropped at the end). Each of
``--tables`` tables has one person's seat, played by a client here that picks a legal
action at random, and bots (``--level``) in the other seats; a table whose game ends is
replaced by a new one until the outages are over. Meanwhile the proxy cuts every database
connection ``--outages`` times, each outage lasting between ``--min-outage`` and
``--max-outage`` seconds, with ``--min-gap``..``--max-gap`` seconds of service between two.
A client whose action is answered ``storage`` sends it again (same action id) a little later.

Then every game is played to its end and checked against the log read straight from
PostgreSQL: every acknowledged action is in the log under its sequence number and action
id, every log replays through the core to a finished game, and a watcher who joins now
sees exactly the replay's view. It prints the figures and exits 1 if any check failed.

    python benchmarks/soak_outage.py [--outages 20] [--tables 4] [--variant classic] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy.engine import make_url

from barbu.server.client import SeatClient, ServerProcess
from barbu.server.tables import replay
from barbu.storage import Store
from barbu.view import seat_view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from db_proxy import DbProxy


@dataclass
class Played:
    """One table's game as its person's client saw it."""

    table: str
    acks: dict[int, str] = field(default_factory=dict)
    """Sequence number -> action id of every acknowledged action."""
    storage_errors: int = 0
    finished: bool = False


@dataclass
class Figures:
    outages: int = 0
    outage_seconds: float = 0.0
    storage_errors: int = 0
    games: list[Played] = field(default_factory=list)


async def play_table(server: ServerProcess, args: argparse.Namespace, rng: random.Random, figures: Figures) -> Played:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": args.level}] * 3
    async with httpx.AsyncClient() as http:
        while True:  # the database may be down at this moment: try again
            r = await http.post(server.http + "/api/tables", json={"variant": args.variant, "seats": seats})
            if r.status_code == 200:
                break
            assert r.json()["error"]["code"] == "storage", r.text
            await asyncio.sleep(0.2)
    made = r.json()
    played = Played(made["table"])
    figures.games.append(played)
    key = made["seats"][0]["link"].split("key=")[1]
    me = SeatClient(server.ws, keep_frames=False)
    await me.connect()
    while (await me.hello(played.table, key))["type"] == "error":
        await asyncio.sleep(0.2)
    while True:
        while not me.my_turn() and not (me.view is not None and me.view["game_over"]):
            await me.recv(timeout=120)
        assert me.view is not None
        if me.view["game_over"]:
            break
        await asyncio.sleep(rng.uniform(0, args.think))
        intent = rng.choice(me.view["legal_actions"])
        ref = f"{played.table}-{secrets.token_hex(4)}"
        while True:
            await me.act(intent, ref=ref)
            answer = await me.answer(ref, timeout=120)
            if "ack" in answer:
                played.acks[answer["seq"]] = ref
                break
            assert answer["code"] == "storage", answer
            played.storage_errors += 1
            figures.storage_errors += 1
            await asyncio.sleep(0.2)
    played.finished = True
    await me.close()
    return played


async def table_loop(
    server: ServerProcess, args: argparse.Namespace, seed: int, stop: asyncio.Event, f: Figures
) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        await play_table(server, args, rng, f)


async def outages(proxy: DbProxy, args: argparse.Namespace, rng: random.Random, f: Figures) -> None:
    for n in range(args.outages):
        await asyncio.sleep(rng.uniform(args.min_gap, args.max_gap))
        length = rng.uniform(args.min_outage, args.max_outage)
        proxy.cut()
        await asyncio.sleep(length)
        proxy.restore()
        f.outages += 1
        f.outage_seconds += length
        print(f"  outage {n + 1}/{args.outages}: {length:.2f} s, storage answers so far {f.storage_errors}", flush=True)


async def watcher_view(server: ServerProcess, table: str) -> dict[str, Any]:
    c = SeatClient(server.ws, keep_frames=False)
    await c.connect()
    await c.hello(table)
    await c.close()
    assert c.view is not None
    return c.view


def check(server: ServerProcess, store: Store, f: Figures) -> list[str]:
    """Every acknowledged action in the log, every log replayed to a finished game that a watcher sees."""
    problems: list[str] = []
    actions = 0
    for p in f.games:
        stored = store.load_table(p.table)
        if stored is None:
            problems.append(f"table {p.table} is not in the database")
            continue
        actions += len(stored.actions)
        by_seq = {a.seq: a.action_id for a in stored.actions}
        lost = [seq for seq, ref in p.acks.items() if by_seq.get(seq) != ref]
        if lost:
            problems.append(f"table {p.table}: acknowledged actions missing from the log at seq {lost[:5]}")
        try:
            game = replay(stored.table, stored.actions)
        except Exception as e:
            problems.append(f"table {p.table}: the log does not replay ({e.__class__.__name__}: {e})")
            continue
        if not game.is_over or stored.table.status != "finished" or not p.finished:
            problems.append(f"table {p.table}: the game did not finish")
        seen = asyncio.run(watcher_view(server, p.table))
        if seen != json.loads(json.dumps(seat_view(game, None).as_json())):
            problems.append(f"table {p.table}: a watcher's view differs from the log's replay")
    print(f"  actions in the logs: {actions}")
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--outages", type=int, default=20, help="database outages (default 20)")
    p.add_argument("--min-outage", type=float, default=0.2, help="shortest outage in seconds (default 0.2)")
    p.add_argument("--max-outage", type=float, default=4.0, help="longest outage in seconds (default 4)")
    p.add_argument("--min-gap", type=float, default=0.5, help="shortest service between outages (default 0.5)")
    p.add_argument("--max-gap", type=float, default=3.0, help="longest service between outages (default 3)")
    p.add_argument("--tables", type=int, default=4, help="tables playing at once (default 4)")
    p.add_argument("--variant", default="classic", help="rule set of the tables (default classic)")
    p.add_argument("--level", default="random", help="bot level of the bot seats (default random)")
    p.add_argument("--bot-delay", type=float, default=0.01, help="server's bot delay in seconds (default 0.01)")
    p.add_argument("--think", type=float, default=0.01, help="longest pause of the person's client (default 0.01)")
    p.add_argument("--seed", type=int, default=1, help="seed of the outages and the clients' choices (default 1)")
    p.add_argument(
        "--postgres",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="a PostgreSQL database to make a schema in (default postgresql://postgres@127.0.0.1:5432/test)",
    )
    args = p.parse_args(argv)
    if args.outages < 1 or args.tables < 1 or not 0 < args.min_outage <= args.max_outage:
        p.error("--outages and --tables are 1 or more; 0 < --min-outage <= --max-outage")
    target = make_url(args.postgres)
    schema = f"barbu_soak_{secrets.token_hex(4)}"
    admin = psycopg.connect(args.postgres, autocommit=True)
    admin.execute(f'CREATE SCHEMA "{schema}"')
    proxy = DbProxy(target.host or "127.0.0.1", target.port or 5432).start()
    through = target.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    direct = Store(f"{args.postgres}?options=-csearch_path%3D{schema}")
    options = ("--bot-delay", str(args.bot_delay), "--actions-per-second", "1000", "--messages-per-second", "1000")
    options += ("--tables-per-client", "100000")
    figures = Figures()
    start = time.monotonic()
    try:
        log = Path(tempfile.mkdtemp()) / "server.log"
        with ServerProcess(f"{through}?options=-csearch_path%3D{schema}", *options, log=log) as server:
            print(
                f"soak: server log in {log}; {args.tables} tables of {args.variant} on PostgreSQL through a proxy, "
                f"{args.outages} outages of {args.min_outage}-{args.max_outage} s",
                flush=True,
            )

            async def run() -> None:
                stop = asyncio.Event()
                loops = [
                    asyncio.create_task(table_loop(server, args, args.seed * 1000 + t, stop, figures))
                    for t in range(args.tables)
                ]
                await outages(proxy, args, random.Random(args.seed), figures)
                stop.set()  # the games in progress play to their end
                await asyncio.gather(*loops)

            asyncio.run(run())
            elapsed = time.monotonic() - start
            problems = check(server, direct, figures)
    finally:
        proxy.close()
        direct.dispose()
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()
    acks = sum(len(g.acks) for g in figures.games)
    finished = sum(1 for g in figures.games if g.finished)
    print(f"  outages: {figures.outages}, {figures.outage_seconds:.1f} s in all, over {elapsed:.0f} s")
    print(f"  games: {len(figures.games)}, finished {finished}")
    print(f"  acknowledged actions of the person's seats: {acks}; answered storage: {figures.storage_errors}")
    lost = sum(1 for x in problems if "missing" in x)
    bad = sum(1 for x in problems if "replay" in x)
    print(f"  tables with lost acknowledged actions: {lost}; logs that do not replay: {bad}; problems: {len(problems)}")
    for x in problems[:20]:
        print(f"  PROBLEM {x}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
