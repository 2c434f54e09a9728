"""Leaving a seat and abandoning a table over real WebSockets: who may ask, consent, refusal, silence."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from barbu.server.client import SeatClient, ServerProcess
from barbu.storage import Store
from conftest import QUICK_COMMITS

ABANDON_AFTER = 4.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = f"sqlite:///{tmp_path_factory.mktemp('abandon') / 'barbu.db'}"
    options = ("--bot-delay", "0.02", "--takeover-after", "600", "--abandon-after", str(ABANDON_AFTER))
    with ServerProcess(
        db, *QUICK_COMMITS, *options, "--messages-per-second", "1000", "--tables-per-client", "1000"
    ) as s:
        yield s


def make_table(server: ServerProcess, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    r = httpx.post(server.http + "/api/tables", json={"variant": "classic", "seats": seats})
    assert r.status_code == 200, r.text
    body = r.json()
    keys = {s["seat"]: s["link"].split("key=")[1] for s in body["seats"]}
    return body["table"], [keys.get(i, "") for i in range(len(seats))]


def status(server: ServerProcess, table: str) -> str:
    stored = Store(server.db).load_table(table)
    assert stored is not None
    return stored.table.status


def run(coro: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coro())


async def seated(server: ServerProcess, table: str, keys: list[str]) -> list[SeatClient]:
    out = []
    for k in keys:
        c = await SeatClient(server.ws).connect()
        assert (await c.hello(table, k))["type"] == "welcome"
        out.append(c)
    return out


async def table_frame(c: SeatClient, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read until a table frame for which ``check`` holds."""
    deadline = time.monotonic() + 10
    while True:
        frame = await c.until("table", timeout=max(0.01, deadline - time.monotonic()))
        if check(frame):
            return frame


async def refused(c: SeatClient, message: dict[str, Any]) -> str:
    await c.send(message)
    return str((await c.until("error"))["code"])


HUMAN, BOT = {"kind": "human"}, {"kind": "bot", "level": "random"}


def test_a_player_leaves_a_bot_stands_in_and_the_seat_can_be_taken_back(server: ServerProcess) -> None:
    table, keys = make_table(server, [HUMAN, HUMAN, BOT, BOT])

    async def main() -> None:
        a, b = await seated(server, table, keys[:2])
        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        assert await refused(watcher, {"type": "leave"}) == "no_credential"
        await a.send({"type": "leave"})
        assert (await a.until("left")) == {"type": "left", "seat": 0}
        frame = await table_frame(b, lambda f: f["seats"][0]["left"])
        assert frame["seats"][0]["bot_playing"] and frame["seats"][0]["takeover_in"] is None
        # the connection that left now watches: it may no longer act for the seat
        assert await refused(a, {"type": "act", "id": "x", "seq": 0, "action": {"type": "pass"}}) == "no_credential"
        # a bot plays seat 0 at once (takeover_after is 600 s); seat 1 plays when its turn comes
        deadline = time.monotonic() + 20
        while True:
            assert time.monotonic() < deadline, "no bot played the seat that was left"
            stored = Store(server.db).load_table(table)
            assert stored is not None
            if any(x.seat == 0 and x.actor == "bot" for x in stored.actions):
                break
            if b.my_turn() and b.view is not None:
                await b.act(b.view["legal_actions"][0])
            with contextlib.suppress(TimeoutError):
                await b.recv(timeout=0.2)
        # the person comes back with the seat's key: the bot stands aside
        back = await SeatClient(server.ws).connect()
        assert (await back.hello(table, keys[0]))["seat"] == 0
        frame = await table_frame(back, lambda f: not f["seats"][0]["left"])
        assert not frame["seats"][0]["bot_playing"] and frame["seats"][0]["online"]
        for c in (a, b, watcher, back):
            await c.close()

    run(main)
    assert status(server, table) == "playing"


def test_a_table_is_abandoned_when_every_other_person_agrees(server: ServerProcess) -> None:
    table, keys = make_table(server, [HUMAN, HUMAN, HUMAN, BOT])
    before = Store(server.db).unfinished_tables_of("127.0.0.1")

    async def main() -> None:
        a, b, c = await seated(server, table, keys[:3])
        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        assert await refused(watcher, {"type": "abandon"}) == "no_credential"
        assert await refused(b, {"type": "consent", "agree": True}) == "no_proposal"  # nothing proposed yet
        assert await refused(b, {"type": "consent"}) == "malformed"
        await a.send({"type": "abandon"})
        frame = await table_frame(watcher, lambda f: f["abandon"] is not None)
        assert frame["abandon"]["by"] == 0 and frame["abandon"]["waiting"] == [1, 2]
        assert 0 < frame["abandon"]["ends_in"] <= ABANDON_AFTER
        assert await refused(b, {"type": "abandon"}) == "proposed"
        assert await refused(a, {"type": "consent", "agree": True}) == "no_proposal"  # its author is not asked
        assert await refused(watcher, {"type": "consent", "agree": True}) == "no_credential"
        await b.send({"type": "consent", "agree": True})
        frame = await table_frame(c, lambda f: f["abandon"] is not None and f["abandon"]["waiting"] == [2])
        assert frame["abandon"]["agreed"] == [0, 1] and frame["status"] == "playing"
        await c.send({"type": "consent", "agree": True})
        frame = await table_frame(watcher, lambda f: f["status"] == "abandoned")
        assert frame["abandon"] is None
        assert status(server, table) == "abandoned"
        # nothing more happens at an abandoned table
        act = {"type": "act", "id": "late", "seq": a.seq, "action": {"type": "play", "card": "2C"}}
        assert await refused(a, act) == "abandoned"
        assert await refused(a, {"type": "abandon"}) == "abandoned"
        assert await refused(b, {"type": "leave"}) == "abandoned"
        for x in (a, b, c, watcher):
            await x.close()

    run(main)
    # it no longer counts against its creator's unfinished tables, and is listed as abandoned
    assert Store(server.db).unfinished_tables_of("127.0.0.1") == before - 1
    listed = httpx.get(server.http + "/api/tables?status=abandoned").json()
    assert table in [t["id"] for t in listed]
    assert table not in [t["id"] for t in httpx.get(server.http + "/api/tables?status=playing").json()]


def test_a_refusal_ends_the_proposal_and_its_author_waits_before_asking_again(server: ServerProcess) -> None:
    table, keys = make_table(server, [HUMAN, HUMAN, BOT, BOT])

    async def main() -> None:
        a, b = await seated(server, table, keys[:2])
        await a.send({"type": "abandon"})
        await table_frame(b, lambda f: f["abandon"] is not None)
        await b.send({"type": "consent", "agree": False})
        assert (await a.until("abandon_refused")) == {"type": "abandon_refused", "seat": 1}
        await table_frame(a, lambda f: f["abandon"] is None)
        await a.send({"type": "abandon"})
        error = await a.until("error")
        assert error["code"] == "rate_limited" and error["retry_after"] > 0
        await asyncio.sleep(ABANDON_AFTER + 0.5)  # the refused proposal does not come back by its timeout
        for x in (a, b):
            await x.close()

    run(main)
    assert status(server, table) == "playing"


def test_silence_within_the_stated_time_abandons_the_table(server: ServerProcess) -> None:
    table, keys = make_table(server, [HUMAN, HUMAN, BOT, BOT])

    async def main() -> None:
        a, b = await seated(server, table, keys[:2])
        started = time.monotonic()
        await a.send({"type": "abandon"})
        await table_frame(b, lambda f: f["status"] == "abandoned")
        assert time.monotonic() - started >= ABANDON_AFTER * 0.9  # not before the stated time
        for x in (a, b):
            await x.close()

    run(main)
    assert status(server, table) == "abandoned"


def test_alone_with_bots_a_player_abandons_at_once(server: ServerProcess) -> None:
    table, keys = make_table(server, [HUMAN, BOT, BOT, BOT])

    async def main() -> None:
        (a,) = await seated(server, table, keys[:1])
        await a.send({"type": "abandon"})
        await table_frame(a, lambda f: f["status"] == "abandoned")
        await a.close()

    run(main)
    assert status(server, table) == "abandoned"
