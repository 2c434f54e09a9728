"""Who may delete a table: its creator's owner key, while the game is not over and no other
person's game would be cut short. Everyone connected is told, then disconnected with the reason."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import websockets

from barbu.server.app import create_app
from barbu.server.client import SeatClient, ServerThread, intent_for
from barbu.server.store import Store
from barbu.server.tables import Settings

SLOW = Settings(bot_delay=30.0)
"""Bots that wait: nothing moves unless a test makes it."""


def make(server: ServerThread, seats: list[dict[str, Any]]) -> dict[str, Any]:
    res = httpx.post(server.http + "/api/tables", json={"variant": "classic", "seats": seats})
    assert res.status_code == 200, res.text
    made = dict(res.json())
    assert len(made["owner"]["key"]) >= 22  # at least 128 bits
    return made


def key_of(made: dict[str, Any], seat: int) -> str:
    return str(next(s["link"] for s in made["seats"] if s["seat"] == seat).split("key=")[1])


def delete(server: ServerThread, table: str, key: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"} if key is not None else {}
    return httpx.delete(f"{server.http}/api/tables/{table}", headers=headers)


def listed(server: ServerThread) -> set[str]:
    return {
        t["id"] for status in ("open", "playing") for t in httpx.get(f"{server.http}/api/tables?status={status}").json()
    }


HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "random"}


def test_only_the_owner_deletes_and_everyone_at_the_table_is_told(store: Store) -> None:
    with ServerThread(create_app(store.url, Settings(bot_delay=0.01))) as server:
        made = make(server, [HUMAN, BOT, BOT, BOT])
        other = make(server, [HUMAN, BOT, BOT, BOT])
        table = made["table"]

        async def scene() -> None:
            seat = await SeatClient(server.ws).connect()
            watcher = await SeatClient(server.ws).connect()
            assert (await seat.hello(table, key_of(made, 0), name="Ann"))["type"] == "welcome"
            assert (await watcher.hello(table))["type"] == "welcome"
            while (seat.seq or 0) < 3:  # the game is under way
                if seat.my_turn():
                    assert seat.view is not None
                    assert (await seat.answer(await seat.act(intent_for(seat.view, seat.view["legal"][0]))))[
                        "type"
                    ] == "ack"
                else:
                    await seat.recv()
            for key in (None, "x" * 24, key_of(made, 0), other["owner"]["key"]):
                refused = await asyncio.to_thread(delete, server, table, key)
                assert refused.status_code == 403, refused.text
                error = refused.json()["error"]
                assert error["code"] == "forbidden" and "owner" in error["message"], error
            assert table in await asyncio.to_thread(listed, server)
            done = await asyncio.to_thread(delete, server, table, made["owner"]["key"])
            assert done.status_code == 200 and done.json() == {"deleted": table}, done.text
            for client in (seat, watcher):
                closed = await client.until("closed")
                assert "deleted" in closed["reason"]
                with pytest.raises(websockets.exceptions.ConnectionClosed):
                    while True:
                        await client.recv(timeout=5)
                assert client.ws.close_code == 4000 and "deleted" in client.ws.close_reason
            again = await SeatClient(server.ws).connect()
            answer = await again.hello(table, key_of(made, 0))
            assert answer["type"] == "error" and answer["code"] == "unknown_table"
            await again.close()

        asyncio.run(scene())
        assert table not in listed(server) and other["table"] in listed(server)
        assert httpx.get(f"{server.http}/api/tables/{table}/record").status_code == 404
        again = delete(server, table, made["owner"]["key"])
        assert again.status_code == 404 and again.json()["error"]["code"] == "unknown_table"


def test_a_table_another_person_plays_at_stays(store: Store) -> None:
    with ServerThread(create_app(store.url, SLOW)) as server:
        made = make(server, [HUMAN, HUMAN, HUMAN, HUMAN])
        table = made["table"]

        async def scene() -> None:
            people = [await SeatClient(server.ws).connect() for _ in range(4)]
            for seat, (client, name) in enumerate(zip(people, ["Ann", "Bob", "Cat", "Dan"], strict=True)):
                await client.hello(table, key_of(made, seat), name=name)
            for client in people:  # everyone has the view of the table that plays now
                await client.until("table", status="playing")
            mover = next(c for c in people if c.my_turn())
            assert mover.view is not None
            ref = await mover.act(intent_for(mover.view, mover.view["legal"][0]))
            assert (await mover.answer(ref))["type"] == "ack"
            refused = await asyncio.to_thread(delete, server, table, made["owner"]["key"])
            assert refused.status_code == 409, refused.text
            error = refused.json()["error"]
            assert error["code"] == "in_play" and "Bob" in error["message"], error
            for client in people:
                while client.seq != mover.seq:
                    await client.recv()
            nxt = next(c for c in people if c.my_turn())  # the game goes on as before
            assert nxt.view is not None
            assert (await nxt.answer(await nxt.act(intent_for(nxt.view, nxt.view["legal"][0]))))["type"] == "ack"
            for client in people:
                await client.close()

        asyncio.run(scene())
        assert table in listed(server)


def test_a_table_nobody_played_at_may_go_even_with_people_seated(store: Store) -> None:
    with ServerThread(create_app(store.url, SLOW)) as server:
        made = make(server, [HUMAN, HUMAN, HUMAN, BOT])
        table = made["table"]

        async def scene() -> None:
            bob = await SeatClient(server.ws).connect()
            await bob.hello(table, key_of(made, 1), name="Bob")
            done = await asyncio.to_thread(delete, server, table, made["owner"]["key"])
            assert done.status_code == 200, done.text
            closed = await bob.until("closed")
            assert "before" in closed["reason"] or "deleted" in closed["reason"]

        asyncio.run(scene())
        assert table not in listed(server)


def test_the_creators_browser_holds_the_owner_key_in_a_cookie(store: Store) -> None:
    with ServerThread(create_app(store.url, SLOW)) as server:
        with httpx.Client(base_url=server.http) as creator, httpx.Client(base_url=server.http) as other:
            made = creator.post("/api/tables", json={"variant": "classic", "seats": [HUMAN, BOT, BOT, BOT]})
            cookie = made.headers["set-cookie"]
            table = made.json()["table"]
            for part in ("HttpOnly", "SameSite=strict", f"Path=/api/tables/{table}"):
                assert part.casefold() in cookie.casefold(), cookie
            assert other.delete(f"/api/tables/{table}").status_code == 403  # no cookie, no key
            assert creator.delete(f"/api/tables/{table}").json() == {"deleted": table}
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
    """A whole game's log is stored as the server would have; its owner may not delete it."""
    import random
    import time

    from barbu.game import Game
    from barbu.server.intents import action_to_intent
    from barbu.server.store import ActionRow, SeatRow, TableRow
    from barbu.server.tables import credential_hash

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
        rows.append(ActionRow("done", len(rows) + 1, seat, action_to_intent(action), None, "bot"))
    key = "k" * 32
    table = TableRow(
        "done",
        "king",
        {},
        "seed",
        first,
        "me",
        time.time(),
        "finished",
        time.time(),
        credential_hash(key),
    )
    store.create_table(table, [SeatRow(s, "bot", "random") for s in range(4)])
    store.append_actions(rows)
    with ServerThread(create_app(store.url, SLOW)) as server:
        refused = delete(server, "done", key)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "in_play", refused.text
        assert "over" in refused.json()["error"]["message"]
        assert httpx.get(f"{server.http}/api/tables/done/record").status_code == 200
