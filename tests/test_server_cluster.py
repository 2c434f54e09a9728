"""Two ``barbu serve`` processes over one PostgreSQL database and one Redis server.

Clients on both processes play one table (one process owns it, the other relays), every action
is acknowledged once and in order, and no frame shows a card another seat holds; the owner is
killed mid-game, the other process takes the table over from its log, every client comes back by
itself and the game finishes with nothing acknowledged lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
import redis.asyncio as aioredis
import websockets

from barbu.server import cluster as cluster_module
from barbu.server.client import SeatClient, ServerProcess, free_port
from barbu.server.club.quick import GONE, Entry, MemoryQueue, QueueStore
from barbu.server.club.shared import RedisQueue
from barbu.server.cluster import Cluster, ClusterSettings, Leases, Link, channel
from barbu.server.protocol import ProtocolError
from barbu.server.tables import TableService, replay
from barbu.storage import Store
from conftest import QUICK_COMMITS, postgres_schema
from test_server_game import CARD, hidden_by_seq, strings

REDIS = os.environ.get("BARBU_TEST_REDIS", "redis://127.0.0.1:6379/0")
FAST = ("--bot-delay", "0", "--actions-per-second", "10000", "--messages-per-second", "10000")


@pytest.fixture
def shared() -> Iterator[tuple[str, tuple[str, ...]]]:
    """A database schema and a Redis prefix of this test's own: (the database URL, the options)."""
    try:
        redis.Redis.from_url(REDIS, socket_timeout=5).ping()
    except redis.RedisError as e:
        raise AssertionError(
            f"Redis does not answer at {REDIS} ({e}): start it with "
            '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no` '
            "or point BARBU_TEST_REDIS at one"
        ) from None
    prefix = f"barbu-test-{secrets.token_hex(4)}"
    with postgres_schema() as url:
        yield url, ("--redis", REDIS, "--redis-prefix", prefix, "--lease-seconds", "3", *FAST)
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def new_table(server: ServerProcess, players: int = 4) -> tuple[str, list[str]]:
    r = httpx.post(server.http + "/api/tables", json={"variant": "king", "seats": [{"kind": "human"}] * players})
    assert r.status_code == 200, r.text
    made = r.json()
    return made["table"], [s["link"].split("key=")[1] for s in made["seats"]]


class Player:
    """A seat's client playing at random, with every answer it got."""

    def __init__(self, client: SeatClient, seed: int) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.acks: list[dict[str, Any]] = []
        self.sent: list[str] = []

    async def play(self, upto: int | None = None) -> None:
        """Play until the game is over (or the table reached sequence number ``upto``)."""
        c = self.client
        while c.view is None or not c.view["game_over"]:
            if upto is not None and (c.seq or 0) >= upto:
                return
            if c.my_turn():
                assert c.view is not None
                ref = await c.act(self.rng.choice(c.view["legal_actions"]))
                self.sent.append(ref)
                answer = await c.answer(ref, timeout=60)
                if "ack" in answer:
                    self.acks.append(answer)
                else:  # the table moved between the view and the action: look again
                    assert answer["code"] in ("stale", "not_your_turn", "storage"), answer
                    if answer["code"] == "stale":
                        await c.send({"type": "sync", "last_seq": c.seq})
            else:
                await c.recv(timeout=60)


def check_acks(players: list[Player], db: str, table: str, finished: bool = True) -> None:
    """Every acknowledged action is in the log once, under the sequence number its ack gave, in
    order (and the game is over, if ``finished``)."""
    stored = Store(db).load_table(table)
    assert stored is not None
    by_id = {a.action_id: a.seq for a in stored.actions if a.action_id is not None}
    assert [a.seq for a in stored.actions] == list(range(1, len(stored.actions) + 1))
    for p in players:
        acks = [f for f in p.client.frames if "ack" in f]  # the in-flight action's too
        assert len(acks) >= len(p.acks)
        refs = [a["ack"] for a in acks]
        assert len(refs) == len(set(refs)), "an action acknowledged twice"
        seqs = [a["seq"] for a in acks]
        assert seqs == sorted(seqs), "acknowledgements out of order"
        for a in acks:
            assert by_id.get(a["ack"]) == a["seq"], f"acknowledged {a} is not in the log"
    game = replay(stored.table, stored.actions)
    assert game.is_over or not finished


def test_two_processes_relay_one_table(shared: tuple[str, tuple[str, ...]]) -> None:
    db, options = shared
    with ServerProcess(db, *QUICK_COMMITS, *options) as one, ServerProcess(db, *QUICK_COMMITS, *options) as two:
        table, keys = new_table(one)
        urls = [one.ws, one.ws, two.ws, two.ws]  # seats 0 and 1 on the owner, 2 and 3 relayed

        async def main() -> tuple[list[Player], SeatClient]:
            clients = [SeatClient(u) for u in urls]
            for c, k in zip(clients, keys, strict=True):
                await c.connect()
                await c.hello(table, k)
            watcher = await SeatClient(two.ws).connect()
            await watcher.hello(table)
            players = [Player(c, i) for i, c in enumerate(clients)]
            # the first process serves the table; the second relays two seats and the watcher
            served = (await asyncio.to_thread(httpx.get, one.http + "/metrics")).text
            relayed = (await asyncio.to_thread(httpx.get, two.http + "/metrics")).text
            assert "barbu_leases_held 1.0" in served and "barbu_relayed_in 3.0" in served, served
            assert "barbu_leases_held 0.0" in relayed and "barbu_relayed_out 3.0" in relayed, relayed

            async def watch() -> None:
                while watcher.view is None or not watcher.view["game_over"]:
                    await watcher.recv(timeout=60)

            await asyncio.gather(watch(), *(p.play() for p in players))
            # each merged view is what a fresh connection to the other process gets
            for c, k, other in zip(clients, keys, [two.ws, two.ws, one.ws, one.ws], strict=True):
                await c.close()
                fresh = await SeatClient(other).connect()
                await fresh.hello(table, k)
                assert fresh.view == c.view and fresh.seq == c.seq
                await fresh.close()
            fresh = await SeatClient(one.ws).connect()
            await fresh.hello(table)
            assert fresh.view == watcher.view
            await fresh.close()
            await watcher.close()
            return players, watcher

        players, watcher = asyncio.run(main())
        check_acks(players, db, table)
        assert sum(len(p.acks) for p in players) == len(Store(db).load_table(table).actions)  # type: ignore[union-attr]
        # an HTTP route about the table answers the same on both processes
        for s in (one, two):
            record = httpx.get(f"{s.http}/api/tables/{table}/record")
            assert record.status_code == 200, record.text

    seed, hidden = hidden_by_seq(db, table)
    frames = 0
    for client in [*(p.client for p in players), watcher]:
        seat = client.seat
        for frame in client.frames:
            if frame["type"] not in ("state", "event"):
                continue
            body = frame.get("view", frame.get("patch")) or {}
            found = strings({k: v for k, v in body.items() if k not in ("history", "last_deal")}, [])
            assert seed not in found
            leaked = {s for s in found if CARD.match(s)} & hidden[frame["seq"]][4 if seat is None else seat]
            assert not leaked, f"seat {seat} saw {leaked} at seq {frame['seq']}"
            frames += 1
    assert frames > 4 * 400


def test_the_owner_killed_mid_game_another_process_takes_the_table_over(
    shared: tuple[str, tuple[str, ...]],
) -> None:
    db, options = shared
    owner = ServerProcess(db, *QUICK_COMMITS, *options).start()
    try:
        with ServerProcess(db, *QUICK_COMMITS, *options) as other:
            table, keys = new_table(owner)
            # seats 0 and 1 on the owner (they come back to the other process), 2 and 3 relayed
            urls = [(owner.ws, other.ws), (owner.ws, other.ws), (other.ws,), (other.ws,)]

            async def main() -> tuple[list[Player], float]:
                clients = [SeatClient(u[0], reconnect=True, others=u[1:]) for u in urls]
                for c, k in zip(clients, keys, strict=True):
                    await c.connect()
                    await c.hello(table, k)
                players = [Player(c, i) for i, c in enumerate(clients)]
                await asyncio.gather(*(p.play(upto=40) for p in players))  # the game is under way
                # one more action in flight when the owner dies
                actor = next((c for c in clients if c.my_turn()), None)
                if actor is not None:
                    assert actor.view is not None
                    await actor.act(actor.view["legal_actions"][0], ref="in-flight")
                owner.kill()
                killed = time.monotonic()
                await asyncio.gather(*(p.play() for p in players))
                return players, killed

            players, _killed = asyncio.run(main())
            assert all(p.client.reconnections >= 1 for p in players[:2])
            metrics = httpx.get(other.http + "/metrics").text
            assert "barbu_table_moves_total 1.0" in metrics, metrics
            check_acks(players, db, table)
            stored = Store(db).load_table(table)
            assert stored is not None and stored.table.status == "finished"
            in_flight = [a for a in stored.actions if a.action_id == "in-flight"]
            assert len(in_flight) <= 1
            # the process left serves the table and its HTTP routes
            assert httpx.get(f"{other.http}/api/tables/{table}/record").status_code == 200
    finally:
        owner.stop()


def test_a_killed_owner_s_tables_are_taken_over_together_and_each_seat_gets_what_it_missed(
    shared: tuple[str, tuple[str, ...]],
) -> None:
    db, options = shared
    owner = ServerProcess(db, *QUICK_COMMITS, *options).start()
    try:
        with ServerProcess(db, *QUICK_COMMITS, *options) as other:
            tables = [new_table(owner) for _ in range(5)]

            async def same_as_fresh(table: str, key: str, seen: SeatClient) -> None:
                """A new connection to the process left sees what the seat's client has seen."""
                c = await SeatClient(other.ws).connect()
                await c.hello(table, key)
                while (c.seq or 0) < (seen.seq or 0):
                    await c.recv(timeout=10)
                while (seen.seq or 0) < (c.seq or 0):
                    await seen.recv(timeout=10)
                assert c.view == seen.view and c.seq == seen.seq
                await c.close()

            async def main() -> list[list[Player]]:
                games = []
                for n, (table, keys) in enumerate(tables):
                    # seats 0 and 1 on the owner (they come back to the other process), 2 and 3 relayed
                    clients = [SeatClient(owner.ws, reconnect=True, others=(other.ws,)) for _ in range(2)]
                    clients += [SeatClient(other.ws) for _ in range(2)]  # no reconnection: they must follow
                    for c, k in zip(clients, keys, strict=True):
                        await c.connect()
                        await c.hello(table, k)
                    games.append([Player(c, 10 * n + i) for i, c in enumerate(clients)])
                served = (await asyncio.to_thread(httpx.get, owner.http + "/metrics")).text
                assert "barbu_leases_held 5.0" in served, served
                await asyncio.gather(*(p.play(upto=12) for g in games for p in g))
                owner.kill()
                # the relayed seats saw no connection end: each is seated again at the new owner
                # with what it saw, and gets every event it missed in order (a gap fails its view)
                await asyncio.gather(*(p.play(upto=60) for g in games for p in g))
                for (table, keys), players in zip(tables, games, strict=True):
                    for key, p in zip(keys, players, strict=True):
                        await same_as_fresh(table, key, p.client)
                        await p.client.close()
                return games

            games = asyncio.run(main())
            metrics = httpx.get(other.http + "/metrics").text
            assert "barbu_table_moves_total 5.0" in metrics and "barbu_leases_held 5.0" in metrics, metrics
            assert "is gone; taking over its 5 tables" in other.tail()  # one look, one call for the five
            for (table, _keys), players in zip(tables, games, strict=True):
                assert all(p.client.reconnections == 0 for p in players[2:])
                assert all(p.client.reconnections >= 1 for p in players[:2])
                assert max(p.client.seq or 0 for p in players) >= 60
                check_acks(players, db, table, finished=False)
    finally:
        owner.stop()


def test_a_killed_owner_s_tables_nobody_relays_are_taken_over_before_any_client_asks(
    shared: tuple[str, tuple[str, ...]],
) -> None:
    db, options = shared
    owner = ServerProcess(db, *QUICK_COMMITS, *options).start()
    try:
        with ServerProcess(db, *QUICK_COMMITS, *options) as other:
            tables = [new_table(owner) for _ in range(3)]
            r = redis.Redis.from_url(REDIS, decode_responses=True)
            prefix = options[options.index("--redis-prefix") + 1]
            leases = Leases(prefix)

            async def main() -> None:
                for table, keys in tables:  # seated on the owner only: the other process relays nothing
                    clients = [await SeatClient(owner.ws).connect() for _ in keys]
                    for c, k in reversed(list(zip(clients, keys, strict=True))):  # seat 0, to play first, last
                        await c.hello(table, k)
                    await asyncio.gather(*(Player(c, i).play(upto=4) for i, c in enumerate(clients)))
                    for c in clients:
                        await c.close()

            asyncio.run(main())
            dead = r.get(leases.key(tables[0][0]))
            assert dead is not None and all(r.get(leases.key(t)) == dead for t, _ in tables)
            assert r.sismember(leases.processes, dead)
            assert r.smembers(leases.owns(dead)) == {leases.key(t) for t, _ in tables}
            assert "barbu_leases_held 0.0" in httpx.get(other.http + "/metrics").text
            owner.kill()
            killed = time.monotonic()
            held = until(lambda: {r.get(leases.key(t)) for t, _ in tables} - {None, dead} or None, timeout=30)
            took = time.monotonic() - killed
            # taken once the dead owner's heartbeat (1 s) expired, before its leases (3 s) would,
            # with no client asking: the leases are the other's (about 1.0-1.2 s here)
            assert len(held) == 1 and took < 3.0, (held, took)
            assert not r.exists(leases.alive(dead))
            assert until(lambda: "barbu_leases_held 3.0" in httpx.get(other.http + "/metrics").text)
            assert "is gone; taking over its 3 tables" in other.tail()
            assert not r.sismember(leases.processes, dead) and not r.exists(leases.owns(dead))

            async def back() -> None:  # a client coming back finds the table where it was left
                for table, keys in tables:
                    c = await SeatClient(other.ws).connect()
                    await c.hello(table, keys[0])
                    assert (c.seq or 0) >= 4
                    await c.close()

            asyncio.run(back())
            check_acks([], db, tables[0][0], finished=False)
    finally:
        owner.stop()


def test_table_routes_on_any_process_and_a_stopped_process_hands_its_tables_over(
    shared: tuple[str, tuple[str, ...]],
) -> None:
    db, options = shared
    slow = (*options, "--lease-seconds", "60")  # a lease that would take a minute to expire
    one = ServerProcess(db, *QUICK_COMMITS, *slow).start()
    try:
        with ServerProcess(db, *QUICK_COMMITS, *slow) as two:
            table, keys = new_table(one)

            async def main() -> None:
                watcher = await SeatClient(one.ws).connect()
                await watcher.hello(table)  # the first process serves the table from now on
                # a browser claims seat 0 through the second process (relayed to the owner), then sits there
                first = httpx.Client(base_url=two.http)
                claimed = await asyncio.to_thread(first.post, f"/api/tables/{table}/claim", json={"key": keys[0]})
                assert claimed.status_code == 200, claimed.text
                cookie = "barbu_browser=" + first.cookies["barbu_browser"]
                ws = await websockets.connect(two.ws, additional_headers={"Cookie": cookie})
                await ws.send(json.dumps({"type": "hello", "table": table, "seat": 0}))
                assert json.loads(await ws.recv())["seat"] == 0
                # another browser may not take it without saying so; saying so, the first is told and let go
                second = httpx.Client(base_url=one.http)
                refused = await asyncio.to_thread(second.post, f"/api/tables/{table}/claim", json={"key": keys[0]})
                assert refused.status_code == 409 and refused.json()["error"]["code"] == "seat_held"
                taken = await asyncio.to_thread(
                    second.post, f"/api/tables/{table}/claim", json={"key": keys[0], "takeover": True}
                )
                assert taken.status_code == 200 and taken.json()["taken_over"] is True
                codes = []
                with contextlib.suppress(websockets.ConnectionClosed):
                    while True:
                        codes.append(json.loads(await asyncio.wait_for(ws.recv(), 30)).get("code"))
                assert "taken_over" in codes
                # a cross-site claim is refused by the process that accepts it, before any relay
                hostile = await asyncio.to_thread(
                    httpx.post,
                    f"{two.http}/api/tables/{table}/claim",
                    json={"key": keys[1]},
                    headers={"Origin": "https://evil.example"},
                )
                assert hostile.status_code == 403
                # the other seats play from the second process, relayed
                clients = [SeatClient(two.ws, reconnect=True) for _ in keys[1:]]
                for c, k in zip(clients, keys[1:], strict=True):
                    await c.connect()
                    await c.hello(table, k)
                seat0 = SeatClient(two.ws, reconnect=True)
                seat0_cookie = "barbu_browser=" + second.cookies["barbu_browser"]
                seat0.ws = await websockets.connect(two.ws, additional_headers={"Cookie": seat0_cookie})
                await seat0.send({"type": "hello", "table": table, "seat": 0})
                await seat0.until("state")
                players = [Player(c, i) for i, c in enumerate([seat0, *clients])]
                await asyncio.gather(*(p.play(upto=20) for p in players))
                # stopped the polite way, the first process gives its tables back at once
                stopped = time.monotonic()
                await asyncio.to_thread(one.stop)
                await asyncio.gather(*(p.play(upto=40) for p in players))
                assert time.monotonic() - stopped < 30  # the lease would have lasted 60 s
                for c in [seat0, *clients]:
                    c.reconnect = False
                    await c.close()

            asyncio.run(main())
            metrics = httpx.get(two.http + "/metrics").text
            assert "barbu_leases_held 1.0" in metrics and "barbu_table_moves_total 1.0" in metrics, metrics
    finally:
        one.stop()


def test_a_lease_is_taken_once_renewed_and_released_only_by_its_holder() -> None:
    prefix = f"barbu-test-{secrets.token_hex(4)}"
    leases = Leases(prefix)

    async def main() -> None:
        r = aioredis.from_url(REDIS, decode_responses=True)
        try:
            assert await leases.take(r, ["t"], "a", 5000) == ["a"]
            assert await leases.take(r, ["t"], "a", 5000) == ["a"]  # its holder asking again
            assert await leases.take(r, ["t", "v"], "b", 5000) == ["a", "b"]  # in one call: t is a's, v free
            # t is extended; u, held by nobody (a Redis that restarted empty), is taken back
            assert await leases.renew(r, ["t", "u"], "a", 60000) == []
            assert await r.pttl(leases.key("t")) > 5000 and await r.get(leases.key("u")) == "a"
            assert await leases.renew(r, ["t", "u"], "b", 1) == ["t", "u"]  # b never touches a's leases
            assert await r.pttl(leases.key("t")) > 5000
            assert await leases.release(r, ["t", "v"], "b") == ["v"]  # only its own
            assert await r.get(leases.key("t")) == "a" and await r.get(leases.key("v")) is None
            assert await leases.release(r, ["t", "u"], "a") == ["t", "u"]
            # each holder's list of lease keys follows its takes, renewals and releases
            assert await r.smembers(leases.owns("a")) == set() and await r.smembers(leases.processes) == {"a", "b"}
            assert await leases.take(r, ["t", "u"], "a", 5000) == ["a", "a"]
            assert await r.smembers(leases.owns("a")) == {leases.key("t"), leases.key("u")}
            # a process whose heartbeat lives is not claimed, whatever its channel says: nothing deleted
            await r.set(leases.alive("a"), "1", px=60000)
            assert await leases.claim(r, "a") is None
            assert await r.get(leases.key("t")) == "a" and await r.smembers(leases.processes) == {"a", "b"}
            assert await r.smembers(leases.owns("a")) == {leases.key("t"), leases.key("u")}
            await r.delete(leases.alive("a"))
            # a dead process's tables are claimed once: its leases deleted, its list and name gone
            assert sorted(await leases.claim(r, "a")) == ["t", "u"] and await leases.claim(r, "a") == []
            assert await r.get(leases.key("t")) is None and await r.smembers(leases.processes) == {"b"}
            assert await leases.take(r, ["t"], "b", 200) == ["b"]
            await asyncio.sleep(0.4)  # expired: free for anyone
            assert await leases.take(r, ["t"], "a", 5000) == ["a"]
        finally:
            await r.delete(leases.key("t"), leases.key("u"), leases.key("v"), leases.processes)
            await r.delete(leases.owns("a"), leases.owns("b"), leases.alive("a"))
            await r.aclose()

    asyncio.run(main())


def sign_up(base: str, name: str) -> httpx.Client:
    """A browser (cookies kept) with a new account, logged in, on the process at ``base``."""
    browser = httpx.Client(base_url=base, timeout=30)
    res = browser.post("/api/club/signup", json={"name": name, "password": "correct horse"})
    assert res.status_code == 201, res.text
    return browser


def until(check: Any, timeout: float = 60.0) -> Any:
    """Look again (every 0.2 s) until ``check()`` gives something true; that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_players_on_two_processes_meet_in_one_quick_game_and_see_who_is_online(
    shared: tuple[str, tuple[str, ...]],
) -> None:
    db, options = shared
    prefix = options[options.index("--redis-prefix") + 1]
    with ServerProcess(db, *QUICK_COMMITS, *options) as one, ServerProcess(db, *QUICK_COMMITS, *options) as two:
        anne, bert = sign_up(one.http, "Anne"), sign_up(two.http, "Bert")
        cleo, dan = sign_up(one.http, "Cleo"), sign_up(two.http, "Dan")
        # Anne waits two minutes on the first process, Bert one second on the second: Bert's wait
        # makes the table, with Anne, and bots fill the rest
        for browser, wait in ((anne, 120), (bert, 1)):
            res = browser.post("/api/club/quick", json={"variant": "king", "rated": True, "wait": wait})
            assert res.status_code == 200 and res.json()["status"] == "waiting", res.text
        entry = redis.Redis.from_url(REDIS, decode_responses=True)
        account_keys = [k for k in entry.scan_iter(f"{prefix}:quick:e:*")]
        assert len(account_keys) == 2  # a waiting entry ends by itself if nobody looks at it (a player gone)
        assert all(0 < entry.pttl(k) <= 15000 for k in account_keys)

        # the matchers run without anyone looking: the table appears in the lobby
        def made() -> bool:
            tables = httpx.get(f"{one.http}/api/tables?status=open&limit=200").json()
            return any({"Anne", "Bert"} <= {s["name"] for s in t["seats"]} for t in tables)

        until(made)
        first = until(lambda: (s := anne.get("/api/club/quick").json())["status"] == "matched" and s)
        second = until(lambda: (s := bert.get("/api/club/quick").json())["status"] == "matched" and s)
        assert second["table"] == first["table"] and first["link"] != second["link"]
        listed = {t["id"]: t for t in httpx.get(f"{two.http}/api/tables?status=open").json()}
        seats = listed[first["table"]]["seats"]
        assert sorted(s["name"] for s in seats if s["kind"] == "human") == ["Anne", "Bert"]
        assert [s["kind"] for s in seats].count("bot") == 2
        # four people, two on each process, all waiting long: one table, each of them seated once,
        # although both processes match
        for browser in (anne, bert, cleo, dan):
            res = browser.post("/api/club/quick", json={"variant": "king", "rated": False, "wait": 120})
            assert res.status_code == 200, res.text
        found = [
            until(lambda b=b: (s := b.get("/api/club/quick").json())["status"] == "matched" and s)
            for b in (anne, bert, cleo, dan)
        ]
        assert len({f["table"] for f in found}) == 1 and len({f["link"] for f in found}) == 4
        quick = found[0]["table"]
        everyone = httpx.get(f"{one.http}/api/tables?status=open&limit=200").json()
        with_anne = [t for t in everyone if any(s["name"] == "Anne" for s in t["seats"])]
        assert len(with_anne) == 2  # the first table and this one: nobody was seated twice
        assert sorted(s["name"] for s in next(t for t in everyone if t["id"] == quick)["seats"]) == [
            "Anne",
            "Bert",
            "Cleo",
            "Dan",
        ]

        # Anne sits down on the first process: both lobbies show her online, the others not
        link = found[0]["link"]
        seat, key = int(link.split("seat=")[1].split("&")[0]), link.split("key=")[1]

        def online_on(server: ServerProcess) -> dict[str, bool]:
            tables = httpx.get(f"{server.http}/api/tables?status=open&limit=200").json()
            return {s["name"]: s["online"] for s in next(t for t in tables if t["id"] == quick)["seats"]}

        async def sit() -> None:
            client = await SeatClient(one.ws).connect()
            await client.hello(quick, key)
            assert client.seat == seat
            for server in (one, two):
                marks = await asyncio.to_thread(until, lambda s=server: (m := online_on(s))["Anne"] and m)
                assert marks == {"Anne": True, "Bert": False, "Cleo": False, "Dan": False}
            await client.close()
            for server in (one, two):  # gone: offline everywhere once the owner says so again
                await asyncio.to_thread(until, lambda s=server: not online_on(s)["Anne"])

        asyncio.run(sit())


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_a_queue_claim_is_all_or_nothing_and_a_player_who_stops_looking_leaves(kind: str) -> None:
    clock = [100.0]
    prefix = f"barbu-test-{secrets.token_hex(4)}"

    async def main() -> None:
        r = aioredis.from_url(REDIS, decode_responses=True)
        store: QueueStore = MemoryQueue(lambda: clock[0]) if kind == "memory" else RedisQueue(r, prefix)
        try:
            now = await store.now()
            anne = Entry("a", "Anne", "king", True, 30.0, 25.0, now, "ta", seen=now)
            bert = Entry("b", "Bert", "king", True, 30.0, 25.0, now, "tb", seen=now)
            for e in (anne, bert):
                await store.put(e)
            assert sorted(e.account for e in await store.entries(now)) == ["a", "b"]
            # Anne joins again (a new token): a claim read before that fails, and changes nothing
            again = Entry("a", "Anne", "king", True, 60.0, 25.0, now, "ta2", seen=now)
            await store.put(again)
            assert not await store.swap("waiting", [anne.moved("seating"), bert.moved("seating")])
            assert {e.account: e.state for e in await store.entries(now)} == {"a": "waiting", "b": "waiting"}
            # one claim wins; the same claim a second time (another matcher) loses
            assert await store.swap("waiting", [again.moved("seating"), bert.moved("seating")])
            assert not await store.swap("waiting", [again.moved("seating"), bert.moved("seating")])
            matched = again.moved("matched", table="t", link="/t/t#seat=0")
            assert await store.swap("seating", [matched])
            looked = await store.look("a", now)
            assert looked is not None and looked.as_json(now)["link"] == "/t/t#seat=0"
            removed = await store.remove("b")
            assert removed is not None and removed.state == "seating"
            assert await store.look("b", now) is None
            if isinstance(store, MemoryQueue):  # Redis: the key's expiry (the test above)
                cleo = Entry("c", "Cleo", "king", True, 30.0, 25.0, now, "tc", seen=now)
                dan = Entry("d", "Dan", "king", True, 30.0, 25.0, now, "td", seen=now)
                await store.put(cleo)
                await store.put(dan)
                clock[0] += GONE * 0.8
                assert await store.look("c", clock[0]) is not None  # Cleo looks; Dan does not
                clock[0] += GONE * 0.8
                assert sorted(e.account for e in await store.entries(clock[0])) == ["a", "c"]
        finally:
            for key in [k async for k in r.scan_iter(f"{prefix}:*")]:
                await r.delete(key)
            await r.aclose()

    asyncio.run(main())


@contextlib.asynccontextmanager
async def one_cluster() -> Any:
    """A :class:`Cluster` in this process (not started: no listener, no renewals) over an in-memory
    store and a Redis prefix of its own; its keys are deleted after."""
    store = Store("sqlite://")
    store.migrate()
    service = TableService(store, log=lambda _: None)
    cluster = Cluster(ClusterSettings(REDIS, prefix=f"barbu-test-{secrets.token_hex(4)}"), service)
    try:
        yield cluster
    finally:
        keys = [k async for k in cluster.redis.scan_iter(f"{cluster.settings.prefix}:*")]
        if keys:
            await cluster.redis.delete(*keys)
        await cluster.redis.aclose()
        await service.stop()


@contextlib.asynccontextmanager
async def two_clusters() -> Any:
    """Two started clusters in this process, each over an in-memory store, sharing a Redis
    prefix of their own; each hands over and their keys are deleted after."""
    prefix = f"barbu-test-{secrets.token_hex(4)}"
    made: list[tuple[Cluster, TableService]] = []
    for _ in range(2):
        store = Store("sqlite://")
        store.migrate()
        service = TableService(store, log=lambda _: None)
        made.append((Cluster(ClusterSettings(REDIS, prefix=prefix), service), service))
    try:
        for c, _s in made:
            await c.start()
        yield made[0][0], made[1][0]
    finally:
        r = aioredis.from_url(REDIS, decode_responses=True)
        for c, service in made:
            await c.stop()
            await service.stop()
            await c.hand_over()
        keys = [k async for k in r.scan_iter(f"{prefix}:*")]
        if keys:
            await r.delete(*keys)
        await r.aclose()


def test_a_live_process_whose_listener_drops_keeps_its_tables_and_listens_again() -> None:
    """A reset of the channel's listener alone (Redis dropping a slow subscriber, a NAT reset) is
    no death: the heartbeat keeps the process's tables its own, and it subscribes again at once."""

    async def main() -> None:
        async with two_clusters() as (p, q):
            assert await p.hold("t1") == p.me and await p.hold("t2") == p.me
            await asyncio.sleep(p.settings.renew_every + 0.2)  # renewed: p is among the processes
            assert await p.redis.sismember(p.leases.processes, p.me)
            await p._pubsub.connection.disconnect()  # the listener's socket alone
            for _ in range(10):  # listening again within a round trip or two, not half a second later
                await asyncio.sleep(0.02)
                if dict(await q.redis.pubsub_numsub(channel(p.settings.prefix, p.me))).get(
                    channel(p.settings.prefix, p.me)
                ):
                    break
            else:
                raise AssertionError("the listener did not subscribe again at once")
            # many of q's looks and more than a heartbeat's life later, nothing moved
            await asyncio.sleep(2 * p.settings.alive_seconds + 4 * q.settings.watch_every)
            assert not p.down and sorted(p.owned) == ["t1", "t2"]
            for t in ("t1", "t2"):
                assert await q.redis.get(q.leases.key(t)) == p.me
            assert await q.redis.smembers(q.leases.owns(p.me)) == {p.leases.key("t1"), p.leases.key("t2")}
            assert await q.hold("t1") == p.me and not q.owned
            # and requests reach it again on its channel
            # no application here: a relayed request is answered "moved", which only a listener can do
            answer = await q.call(p.me, {"k": "http", "t": "t1", "scope": {}, "body": ""}, 2.0)
            assert answer == {"moved": True}

    asyncio.run(main())


def test_a_silent_process_with_no_heartbeat_is_taken_over_in_about_a_second() -> None:
    """Killed in effect (no listener, no heartbeat): the other process claims its tables once its
    heartbeat key has expired, long before its leases would, with nobody asking."""

    async def main() -> None:
        async with two_clusters() as (p, q):
            assert await p.hold("t1") == p.me
            await asyncio.sleep(p.settings.renew_every + 0.2)
            for task in [*p._tasks, p._beating]:  # frozen as a killed process: nothing renews or beats
                assert task is not None
                task.cancel()
            await asyncio.gather(*p._tasks, p._beating, return_exceptions=True)
            await p._pubsub.aclose()
            p._pubsub = None
            dead = time.monotonic()
            while await q.redis.get(q.leases.key("t1")) == p.me:
                assert time.monotonic() - dead < p.settings.lease_seconds, "taken over only when the lease expired"
                await asyncio.sleep(0.02)
            took = time.monotonic() - dead
            assert took >= p.settings.alive_seconds - 0.3, took  # not before the heartbeat expired
            assert took < p.settings.alive_seconds + 1.0, took
            p.owned.clear()  # gone for good: it hands nothing over

    asyncio.run(main())


def test_a_stopping_process_is_not_taken_over_while_its_journal_writes_and_hands_over_after() -> None:
    """The lifespan's order: the cluster stops listening, the journal writes (slowly here), then the
    leases are handed over. Nobody claims the tables in between."""

    async def main() -> None:
        async with two_clusters() as (p, q):
            assert await p.hold("t1") == p.me
            await asyncio.sleep(p.settings.renew_every + 0.2)
            assert await p.redis.sismember(p.leases.processes, p.me)
            await p.stop()  # no listener from now on
            assert not await p.redis.sismember(p.leases.processes, p.me)
            await asyncio.sleep(2 * p.settings.alive_seconds + 4 * q.settings.watch_every)  # a slow flush
            assert await q.redis.get(q.leases.key("t1")) == p.me and not q.owned
            await p.hand_over()
            assert await q.redis.get(q.leases.key("t1")) is None
            assert not await q.redis.exists(q.leases.alive(p.me))
            assert await q.hold("t1") == q.me  # handed over: the other takes it at once

    asyncio.run(main())


def test_redis_back_says_how_many_leases_were_kept_once_the_lost_ones_are_let_go(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        async with one_cluster() as c:
            c.settings = ClusterSettings(REDIS, prefix=c.settings.prefix, lease_seconds=0.4)
            now = time.monotonic()
            c.owned = {"kept": now, "taken": now}
            await c.redis.set(c.leases.key("taken"), "another", px=60000)  # taken over while Redis was away here
            c.down = True
            renewing = asyncio.ensure_future(c._renew())
            try:
                async with asyncio.timeout(5):
                    while c.down or "taken" in c.owned:
                        await asyncio.sleep(0.02)
            finally:
                renewing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await renewing
            assert sorted(c.owned) == ["kept"]

    with caplog.at_level("WARNING", logger="barbu.server.cluster"):
        asyncio.run(main())
    said = [r.getMessage() for r in caplog.records if "Redis answers again" in r.getMessage()]
    assert said == ["Redis answers again; 1 tables served here kept their lease, 1 were taken over elsewhere"]
    lost = "table taken: lease lost; the table leaves this process"
    assert caplog.messages.index(said[0]) > caplog.messages.index(lost)  # said once the lost ones are gone


def test_a_lease_that_cannot_be_asked_for_fails_alone_and_the_next_are_taken() -> None:
    async def main() -> None:
        async with one_cluster() as c:
            # in one batch: the surrogate fails Redis's encoding of the call, for that table only
            got = await asyncio.gather(c.hold("good"), c.hold("x\ud800"), c.hold("fine"), return_exceptions=True)
            assert got[0] == c.me and got[2] == c.me and isinstance(got[1], UnicodeEncodeError)
            assert sorted(c.owned) == ["fine", "good"]
            assert await c.redis.get(c.leases.key("good")) == c.me
            assert await asyncio.wait_for(c.hold("later"), 5) == c.me  # the taker still answers

    asyncio.run(main())


def test_no_lease_is_taken_while_the_processes_get_back_in_touch() -> None:
    async def main() -> None:
        async with one_cluster() as c:
            c._recovering_until = time.monotonic() + 60
            with pytest.raises(ProtocolError) as refused:
                await c.hold("a")
            assert refused.value.code == "storage" and "getting back in touch" in refused.value.message
            c._recovering_until = 0.0
            asking = asyncio.ensure_future(c.hold("b"))
            await asyncio.sleep(0)  # asked for: waiting for the next batch
            c._recovering_until = time.monotonic() + 60  # Redis came back meanwhile: the batch takes nothing
            with pytest.raises(ProtocolError) as refused:
                await asking
            assert refused.value.code == "storage"
            assert "b" not in c.owned and await c.redis.get(c.leases.key("b")) is None

    asyncio.run(main())


def test_a_lease_let_go_is_taken_again_only_after_its_release() -> None:
    async def main() -> None:
        async with one_cluster() as c:
            assert await c.hold("a") == c.me
            release = c.leases.release

            async def slow_release(r: aioredis.Redis, table_ids: list[str], holder: str) -> list[str]:
                await asyncio.sleep(0.2)  # a take asked for meanwhile would land first
                return await release(r, table_ids, holder)

            c.leases.release = slow_release  # type: ignore[method-assign]
            letting_go = asyncio.ensure_future(c.let_go("a"))
            await asyncio.sleep(0)
            assert await c.hold("a") == c.me
            await letting_go
            assert "a" in c.owned and await c.redis.get(c.leases.key("a")) == c.me  # held, as it says

    asyncio.run(main())


class Conn:
    """A connection of this process as a table sees it: what it was sent, why it was closed."""

    seat: int | None = None
    holder: str | None = None

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: str | None = None

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, reason: str) -> None:
        self.closed = reason


def test_a_table_that_cannot_be_located_after_a_move_closes_its_connections() -> None:
    async def main() -> None:
        async with one_cluster() as c:
            table = c.table("t")
            conn = Conn()
            link = table.links[conn] = Link(conn, "c1", None, None, None)

            async def broken() -> None:
                raise RuntimeError("not a protocol error")

            table.locate = broken  # type: ignore[method-assign]
            await asyncio.wait_for(table.move(), 5)
            assert link.ready.is_set() and conn.closed is not None
            assert json.loads(conn.sent[-1])["code"] == "internal"

    asyncio.run(main())


def test_a_lease_call_that_never_answers_is_a_refusal_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "HOLD_TIMEOUT", 0.2)

    async def main() -> None:
        async with one_cluster() as c:

            async def hung(r: aioredis.Redis, table_ids: list[str], me: str, ms: int) -> list[str]:
                await asyncio.sleep(60)
                return []

            c.leases.take = hung  # type: ignore[method-assign]
            with pytest.raises(ProtocolError) as refused:
                await asyncio.wait_for(c.hold("a"), 5)
            assert refused.value.code == "storage" and "a" not in c.owned

    asyncio.run(main())


def test_a_process_is_void_after_two_silent_looks_running_not_two_in_all() -> None:
    """A process heard between two silent looks starts its count again: its leases stay its own."""

    async def main() -> None:
        async with one_cluster() as c:
            c.settings = ClusterSettings(REDIS, prefix=c.settings.prefix, watch_every=0.02)
            await c.redis.set(c.leases.key("t"), "ghost")
            await c.redis.sadd(c.leases.processes, "ghost")  # a process with no listener on its channel
            await c.redis.sadd(c.leases.owns("ghost"), c.leases.key("t"))
            listener = c.redis.pubsub()
            looks: list[int] = []
            first_look = c._silent_owner

            async def look(owner: str) -> None:
                await first_look(owner)
                looks.append(c._silent.get(owner, 0))
                if len(looks) == 1:  # heard before the second look: the count starts again
                    await listener.subscribe(channel(c.settings.prefix, "ghost"))

            c._silent_owner = look  # type: ignore[method-assign]
            watching = asyncio.ensure_future(c._watch())
            try:
                while not looks:
                    await asyncio.sleep(0.01)
                await asyncio.sleep(0.1)  # looks that hear it
                assert looks == [1] and "ghost" not in c._silent
                await listener.unsubscribe()  # silent again: a first look, not a second
                while len(looks) < 2:
                    await asyncio.sleep(0.01)
                assert looks == [1, 1] and await c.redis.get(c.leases.key("t")) == "ghost"
            finally:
                watching.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watching
                await listener.aclose()

    asyncio.run(main())


def test_a_reconnecting_client_spreads_its_waits_with_its_own_draws() -> None:
    """Two clients seeded alike wait alike when nobody answers, whatever else draws from ``random``."""

    class Draws(random.Random):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.drawn: list[float] = []

        def uniform(self, a: float, b: float) -> float:
            self.drawn.append(super().uniform(a, b))
            return self.drawn[-1]

    async def waits() -> list[float]:
        closed = f"ws://127.0.0.1:{free_port()}/ws"  # nothing listens: every attempt is refused at once
        c = SeatClient(closed, reconnect=True, others=(closed,), rng=Draws(7))
        c._hello = {"type": "hello", "table": "t"}
        with pytest.raises(OSError):
            await c.resume(timeout=0.3)
        random.random()  # the module's draws are not the client's
        assert isinstance(c.rng, Draws)
        return c.rng.drawn

    first, second = asyncio.run(waits()), asyncio.run(waits())
    assert len(first) >= 2 and first[: len(second)] == second[: len(first)]
