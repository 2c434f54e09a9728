"""Redis stops under two ``barbu serve`` processes mid-game, then comes back empty.

The test runs a Redis server of its own on a free port (the shared one is never touched). While
Redis is away, the table keeps playing for the connections its owner accepted, the other
process's relayed connections are told why and closed, and both processes say they are not
ready; once Redis is back (empty, as a restarted server without persistence is), the owner takes
its lease back, the relayed clients come back by themselves, and the game finishes with every
acknowledged action in the log once.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
import websockets

from barbu.server.client import SeatClient, ServerProcess, free_port
from barbu.storage import Store
from conftest import QUICK_COMMITS, postgres_schema
from test_server_cluster import FAST, Player, check_acks, new_table, sign_up, until

FRENCH = {"Accept-Language": "fr"}


class RedisServer:
    """``redis-server`` on a port of its own, without persistence: stopped, it comes back empty."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed (Debian: apt-get install redis-server)"
        self.binary = binary
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_timeout=2)
        until(lambda: _answers(client), 30)
        return self

    def kill(self) -> None:
        """SIGKILL: gone at once, with everything it held."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


def running_redis() -> Iterator[RedisServer]:
    """A Redis server of the test's own, killed at its end: stopping it touches no other test."""
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.kill()


own_redis = pytest.fixture(running_redis, name="own_redis")


def ready(server: ServerProcess) -> tuple[int, Any]:
    r = httpx.get(f"{server.http}/readyz", timeout=30)
    return r.status_code, r.json()


def leases_held(server: ServerProcess) -> float:
    found = re.search(r"^barbu_leases_held (\S+)$", httpx.get(f"{server.http}/metrics", timeout=30).text, re.M)
    assert found is not None
    return float(found.group(1))


def test_redis_down_mid_game_then_back_loses_no_acknowledged_action(own_redis: RedisServer) -> None:
    options = ("--redis", own_redis.url, "--redis-prefix", "outage", "--lease-seconds", "3", *FAST)
    with (
        postgres_schema() as db,
        ServerProcess(db, *QUICK_COMMITS, *options) as one,
        ServerProcess(db, *QUICK_COMMITS, *options) as two,
    ):
        table, keys = new_table(one)

        async def main() -> tuple[list[Player], dict[str, Any]]:
            # seats 0 and 1 on the first process, which serves the table; 2 and 3 relayed by the second
            clients = [SeatClient(u, reconnect=True) for u in (one.ws, one.ws, two.ws, two.ws)]
            for c, k in zip(clients, keys, strict=True):
                await c.connect()
                await c.hello(table, k)
            players = [Player(c, i) for i, c in enumerate(clients)]
            # a French watcher relayed by the second process, and a French account there
            watcher = await websockets.connect(two.ws, additional_headers=FRENCH)
            await watcher.send(json.dumps({"type": "hello", "table": table}))
            assert json.loads(await watcher.recv())["type"] == "welcome"
            anne = await asyncio.to_thread(sign_up, two.http, "Anne")
            upto = 20
            while True:  # play on until one of the owner's own connections has the turn
                await asyncio.gather(*(p.play(upto=upto) for p in players))
                actor = next((c for c in clients[:2] if c.my_turn()), None)
                if actor is not None:
                    break
                upto += 1

            own_redis.kill()
            for server in (one, two):  # neither process is ready: a proxy stops sending it new connections
                _status, body = await asyncio.to_thread(until, lambda s=server: (r := ready(s))[0] == 503 and r)
                assert body["status"] == "redis", body
            # the relayed connections are told, in words, and closed
            for c in clients[2:]:
                c.reconnect = False
                said = []
                with pytest.raises(websockets.ConnectionClosed):  # closed by the server
                    while True:
                        said.append(await c.recv(timeout=60))
                c.reconnect = True
                told = [f for f in said if f["type"] == "error" and f["code"] == "storage"]
                assert told and "lost touch" in told[-1]["message"], said
            told_fr = []
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    told_fr.append(json.loads(await asyncio.wait_for(watcher.recv(), 60)))
            assert told_fr[-1]["code"] == "storage" and "perdu le contact" in told_fr[-1]["message"], told_fr
            # a new connection to a table served elsewhere is refused, in words, until Redis is back
            late = await websockets.connect(two.ws, additional_headers=FRENCH)
            await late.send(json.dumps({"type": "hello", "table": table}))
            refused = json.loads(await asyncio.wait_for(late.recv(), 60))
            assert refused["code"] == "storage" and "reprennent contact" in refused["message"], refused
            await late.close()
            # the quick-game queue lives in Redis: its routes say so
            queued = await asyncio.to_thread(
                anne.post, "/api/club/quick", json={"variant": "king", "wait": 5}, headers=FRENCH
            )
            assert queued.status_code == 503 and "file des parties rapides" in queued.json()["error"]["message"]
            # the owner's own connections keep playing: an action is acknowledged while Redis is away
            assert actor.view is not None
            ref = await actor.act(actor.view["legal_actions"][0], ref="during-outage")
            answer = await actor.answer(ref, timeout=60)
            assert "ack" in answer, answer
            # the lobby still answers (without the marks of the tables served elsewhere)
            listed = await asyncio.to_thread(httpx.get, f"{two.http}/api/tables?status=open", timeout=30)
            assert listed.status_code == 200

            own_redis.start()  # back, empty
            await asyncio.gather(*(p.play() for p in players))  # the relayed clients come back by themselves
            return players, answer

        players, during = asyncio.run(main())
        check_acks(players, db, table)
        stored = Store(db).load_table(table)
        assert stored is not None and stored.table.status == "finished"
        assert [a.seq for a in stored.actions if a.action_id == "during-outage"] == [during["seq"]]
        assert all(p.client.reconnections >= 1 for p in players[2:])
        for server in (one, two):
            until(lambda s=server: ready(s)[0] == 200)
        # one owner: the first process took its lease back, the second never took it
        assert leases_held(one) == 1.0 and leases_held(two) == 0.0
        holder = redis.Redis.from_url(own_redis.url, decode_responses=True).get(f"outage:lease:{table}")
        assert holder is not None
