"""Who may delete a table: the browser that created it (its HttpOnly cookie), while the game is
not over and no other person's game would be cut short. Everyone connected is told, then
disconnected with the reason."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import websockets

from barbu.server.app import create_app
from barbu.server.client import SeatClient, ServerThread
from barbu.server.tables import Settings
from barbu.storage import Store
from conftest import QUICK_GATHER

SLOW = Settings(commit_gather=QUICK_GATHER, bot_delay=30.0)
"""Bots that wait: nothing moves unless a test makes it."""


def make(browser: httpx.Client, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A table created by ``browser`` (a client keeping its cookies, as a browser does)."""
    res = browser.post("/api/tables", json={"variant": "classic", "seats": seats})
    assert res.status_code == 200, res.text
    assert "owner" not in res.json()  # the creator is known by its browser's cookie, no other key
    return dict(res.json())


def key_of(made: dict[str, Any], seat: int) -> str:
    return str(next(s["link"] for s in made["seats"] if s["seat"] == seat).split("key=")[1])


def listed(server: ServerThread) -> set[str]:
    return {
        t["id"] for status in ("open", "playing") for t in httpx.get(f"{server.http}/api/tables?status={status}").json()
    }


def refused(browser: httpx.Client, table: str, code: str, status: int) -> str:
    res = browser.delete(f"/api/tables/{table}")
    assert res.status_code == status, res.text
    error = res.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "random"}


def test_only_the_creators_browser_deletes_and_everyone_at_the_table_is_told(store: Store) -> None:
    with ServerThread(create_app(store.url, Settings(commit_gather=QUICK_GATHER, bot_delay=0.01))) as server:
        creator = httpx.Client(base_url=server.http)
        other_creator = httpx.Client(base_url=server.http)
        program = httpx.Client(base_url=server.http)  # no cookie at all
        made = make(creator, [HUMAN, BOT, BOT, BOT])
        cookie = creator.cookies.jar
        assert any(c.name == "barbu_browser" and c.has_nonstandard_attr("HttpOnly") for c in cookie)
        other = make(other_creator, [HUMAN, BOT, BOT, BOT])
        table = made["table"]

        async def scene() -> None:
            seat = await SeatClient(server.ws).connect()
            watcher = await SeatClient(server.ws).connect()
            assert (await seat.hello(table, key_of(made, 0), name="Ann"))["type"] == "welcome"
            assert (await watcher.hello(table))["type"] == "welcome"
            while (seat.seq or 0) < 3:  # the game is under way
                if seat.my_turn():
                    assert seat.view is not None
                    ref = await seat.act(seat.view["legal_actions"][0])
                    assert (await seat.answer(ref))["ack"] == ref
                else:
                    await seat.recv()
            for stranger in (program, other_creator):
                message = await asyncio.to_thread(refused, stranger, table, "not_creator", 403)
                assert "owner" in message
            bearer = await asyncio.to_thread(
                program.delete, f"/api/tables/{table}", headers={"Authorization": f"Bearer {key_of(made, 0)}"}
            )
            assert bearer.status_code == 403  # a seat's key is no right to delete
            assert table in await asyncio.to_thread(listed, server)
            done = await asyncio.to_thread(creator.delete, f"/api/tables/{table}")
            assert done.status_code == 200 and done.json() == {"deleted": table}, done.text
            for client in (seat, watcher):
                closed = await client.until("closed")
                assert "deleted" in closed["reason"]
                with pytest.raises(websockets.exceptions.ConnectionClosed):
                    while True:
                        await client.recv(timeout=5)
                assert "deleted" in client.ws.close_reason
            again = await SeatClient(server.ws).connect()
            answer = await again.hello(table, key_of(made, 0))
            assert answer["type"] == "error" and answer["code"] == "unknown_table"
            await again.close()

        asyncio.run(scene())
        assert table not in listed(server) and other["table"] in listed(server)
        assert httpx.get(f"{server.http}/api/tables/{table}/record").status_code == 404
        refused(creator, table, "unknown_table", 404)
        for c in (creator, other_creator, program):
            c.close()


def test_a_table_another_person_plays_at_stays(store: Store) -> None:
    with ServerThread(create_app(store.url, SLOW)) as server, httpx.Client(base_url=server.http) as creator:
        made = make(creator, [HUMAN, HUMAN, HUMAN, HUMAN])
        table = made["table"]

        async def scene() -> None:
            people = [await SeatClient(server.ws).connect() for _ in range(4)]
            for seat, (client, name) in enumerate(zip(people, ["Ann", "Bob", "Cat", "Dan"], strict=True)):
                await client.hello(table, key_of(made, seat), name=name)
            for client in people:  # everyone has the view of the table that plays now
                await client.until("table", status="playing")
            mover = next(c for c in people if c.my_turn())
            assert mover.view is not None
            ref = await mover.act(mover.view["legal_actions"][0])
            assert (await mover.answer(ref))["ack"] == ref
            message = await asyncio.to_thread(refused, creator, table, "in_play", 409)
            assert "Bob" in message and "before its first action" in message
            for client in people:
                while client.seq != mover.seq:
                    await client.recv()
            nxt = next(c for c in people if c.my_turn())  # the game goes on as before
            assert nxt.view is not None
            assert "ack" in await nxt.answer(await nxt.act(nxt.view["legal_actions"][0]))
            for client in people:
                await client.close()

        asyncio.run(scene())
        assert table in listed(server)


def test_a_table_nobody_played_at_may_go_even_with_people_seated(store: Store) -> None:
    with ServerThread(create_app(store.url, SLOW)) as server, httpx.Client(base_url=server.http) as creator:
        made = make(creator, [HUMAN, HUMAN, HUMAN, BOT])
        table = made["table"]
        with httpx.Client(base_url=server.http) as bob_browser:  # Bob's browser claims his seat
            claimed = bob_browser.post(f"/api/tables/{table}/claim", json={"seat": 1, "key": key_of(made, 1)})
            assert claimed.status_code == 200, claimed.text
            refused(bob_browser, table, "not_creator", 403)  # a seat is no right to delete the table

        async def scene() -> None:
            bob = await SeatClient(server.ws).connect()
            await bob.hello(table, key_of(made, 2), name="Cat")
            done = await asyncio.to_thread(creator.delete, f"/api/tables/{table}")
            assert done.status_code == 200, done.text
            closed = await bob.until("closed")
            assert "deleted" in closed["reason"]

        asyncio.run(scene())
        assert table not in listed(server)


def test_the_lobby_offers_its_creator_to_delete_the_table(store: Store, browser: Any) -> None:
    with ServerThread(create_app(store.url, SLOW)) as server:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.http + "/")
        page.wait_for_selector("#seats .seat-choice")
        page.select_option("#seats .seat-choice:nth-child(2) select.kind", "friend")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#created:not(.hidden)")
        table = page.get_attribute("#delete-table", "data-table")
        assert table in listed(server)
        page.once("dialog", lambda d: d.accept())
        page.click("#delete-table")
        page.wait_for_selector("#created.hidden", state="attached")
        assert table not in listed(server) and errors == []
        page.close()


def test_a_finished_table_stays_with_its_record(store: Store) -> None:
    """A whole game's log is stored as the server would have; its creator may not delete it."""
    import random
    import time

    from barbu.actions import action_to_json
    from barbu.game import Game
    from barbu.server.credentials import holder_of
    from barbu.storage import ActionRow, SeatRow, TableRow

    store.migrate()
    first = 1
    game = Game.new("king", {}, "seed", first)  # as the server replays it
    rng = random.Random(3)
    rows = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        rows.append(ActionRow("done", len(rows) + 1, seat, action_to_json(action), None, "bot"))
    secret = "s" * 43
    table = TableRow("done", "king", {}, "seed", first, "me", time.time(), "finished", time.time())
    store.create_table(table, [SeatRow(s, "bot", "random") for s in range(4)], creator_browser=holder_of(secret))
    store.append_actions(rows)
    with ServerThread(create_app(store.url, SLOW)) as server, httpx.Client(base_url=server.http) as creator:
        creator.cookies.set("barbu_browser", secret)
        assert "over" in refused(creator, "done", "in_play", 409)
        assert creator.get("/api/tables/done/record").status_code == 200
