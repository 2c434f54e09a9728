"""The table protocol over real WebSockets: every error case, reconnect and resend, bots and takeover."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import websockets

from barbu.server.app import create_app
from barbu.server.client import SeatClient, ServerProcess, ServerThread
from barbu.server.tables import CATCH_UP_LIMIT, LiveTable, Settings
from barbu.storage import Store
from conftest import QUICK_COMMITS, QUICK_GATHER


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = f"sqlite:///{tmp_path_factory.mktemp('protocol') / 'barbu.db'}"
    options = (
        "--bot-delay",
        "0.02",
        "--takeover-after",
        "0.8",
        "--actions-per-second",
        "1000",
        "--messages-per-second",
        "1000",
        "--tables-per-client",
        "1000",
    )
    with ServerProcess(db, *QUICK_COMMITS, *options) as s:
        yield s


def make_table(server: Any, seats: list[dict[str, Any]], variant: str = "classic") -> tuple[str, list[str]]:
    r = httpx.post(server.http + "/api/tables", json={"variant": variant, "seats": seats})
    assert r.status_code == 200, r.text
    body = r.json()
    keys = {s["seat"]: s["link"].split("key=")[1] for s in body["seats"]}
    return body["table"], [keys.get(i, "") for i in range(len(seats))]


def stored_actions(server: ServerProcess, table: str) -> int:
    stored = Store(server.db).load_table(table)
    assert stored is not None
    return len(stored.actions)


def run(coro: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coro())


async def seated(server: Any, table: str, keys: list[str]) -> list[SeatClient]:
    clients = []
    for k in keys:
        c = await SeatClient(server.ws).connect()
        await c.hello(table, k)
        clients.append(c)
    return clients


async def settle(clients: list[SeatClient], seq: int) -> None:
    """Read until every client has seen ``seq``."""
    for c in clients:
        while (c.seq or 0) < seq:
            await c.recv()


async def step(clients: list[SeatClient], choice: int = 0) -> dict[str, Any]:
    """The seat to act plays its ``choice``-th legal action; everyone reads up to it."""
    actor = next(c for c in clients if c.my_turn())
    assert actor.view is not None
    ref = await actor.act(actor.view["legal_actions"][choice % len(actor.view["legal_actions"])])
    ack = await actor.answer(ref)
    assert ack["type"] == "event" and ack["ack"] == ref, ack  # the event it made answers it
    await settle(clients, ack["seq"])
    return ack


# -- errors ---------------------------------------------------------------------------


def test_every_bad_message_gets_a_typed_error_and_changes_nothing(server: ServerProcess) -> None:
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        await step(clients)  # one action, so that "stale" has something to be stale against
        before = stored_actions(server, table)
        actor = next(c for c in clients if c.my_turn())
        other = next(c for c in clients if not c.my_turn())
        assert actor.view is not None
        good = actor.view["legal_actions"][0]

        async def error(client: SeatClient, message: dict[str, Any] | str) -> dict[str, Any]:
            await client.send(message)
            return await client.until("error")

        fresh = await SeatClient(server.ws).connect()
        cases: list[tuple[SeatClient, dict[str, Any] | str, str]] = [
            (actor, "this is not json", "malformed"),
            (actor, "[1, 2]", "malformed"),
            (actor, {"no": "type"}, "unknown_type"),
            (actor, {"type": "fly"}, "unknown_type"),
            (actor, {"type": "act", "seq": actor.seq, "action": good}, "malformed"),  # no id
            (actor, {"type": "act", "id": "x1", "seq": "three", "action": good}, "malformed"),
            (actor, {"type": "act", "id": "x2", "seq": actor.seq, "action": "QS"}, "malformed"),
            (actor, {"type": "act", "id": "x3", "seq": actor.seq, "action": {"type": "jump"}}, "bad_action"),
            (
                actor,
                {"type": "act", "id": "x4", "seq": actor.seq, "action": {"type": "play", "card": "ZZ"}},
                "bad_action",
            ),
            (
                actor,
                {"type": "act", "id": "x4b", "seq": actor.seq, "action": {"type": "call", "word": "maximum"}},
                "bad_action",
            ),
            (actor, {"type": "act", "id": "x5", "seq": (actor.seq or 0) - 1, "action": good}, "stale"),
            (actor, {"type": "act", "id": "x6", "seq": (actor.seq or 0) + 5, "action": good}, "bad_seq"),
            (other, {"type": "act", "id": "x7", "seq": other.seq, "action": good}, "not_your_turn"),
            (actor, {"type": "act", "id": "x8", "seq": actor.seq, "action": {"type": "play", "card": "2C"}}, "illegal"),
            (actor, {"type": "hello", "table": table}, "already_joined"),
            (actor, "x" * 9000, "too_large"),
            (fresh, {"type": "act", "id": "x9", "seq": 0, "action": good}, "not_joined"),
            (fresh, {"type": "sync", "last_seq": 0}, "not_joined"),
            (fresh, {"type": "hello", "table": "no-such-table"}, "unknown_table"),
            (fresh, {"type": "hello", "table": table, "key": "not-a-key"}, "bad_credential"),
            (fresh, {"type": "hello"}, "malformed"),
        ]
        for client, message, code in cases:
            frame = await error(client, message)
            assert frame["code"] == code, (message, frame)
            assert frame["message"]
        trump = {"type": "trump", "suit": "S"}
        illegal = await error(actor, {"type": "act", "id": "x10", "seq": actor.seq, "action": trump})
        assert illegal["code"] == "illegal" and illegal["kind"] == "call" and illegal["id"] == "x10"

        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        frame = await error(watcher, {"type": "act", "id": "w1", "seq": watcher.seq, "action": good})
        assert frame["code"] == "no_credential"

        assert stored_actions(server, table) == before
        # and the table still works: the refused action, sent properly, is accepted
        ref = await actor.act(good)
        assert (await actor.answer(ref))["ack"] == ref
        assert stored_actions(server, table) == before + 1
        for c in [*clients, fresh, watcher]:
            await c.close()

    run(main)


def test_a_table_waits_for_its_people(server: ServerProcess) -> None:
    table, keys = make_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])

    async def main() -> None:
        first = await SeatClient(server.ws).connect()
        welcome = await first.hello(table, keys[0])
        assert welcome["status"] == "open"
        ref = await first.act({"type": "declare", "contract": "trumps"})
        answer = await first.answer(ref)
        assert answer["code"] == "not_started" and "1" in answer["message"]
        second = await SeatClient(server.ws).connect()
        assert (await second.hello(table, keys[1]))["status"] == "playing"
        await first.close()
        await second.close()

    run(main)


def test_bad_table_settings_are_refused_with_what_is_allowed(server: ServerProcess) -> None:
    cases = [
        ({"variant": "poker"}, "unknown variant"),
        ({"variant": "classic", "options": {"colour": "red"}}, "unknown flag"),
        ({"variant": "classic", "seats": [{"kind": "human"}]}, "4 seats"),
        ({"variant": "classic", "seats": [{"kind": "bot", "level": "genius"}] * 4}, "unknown bot level"),
        ({"variant": "classic", "seats": [{"kind": "bot", "level": ["x"]}] * 4}, "unknown bot level"),
        ({"variant": "classic", "seats": [{"kind": "alien"}] * 4}, "kind must be"),
    ]
    for spec, words in cases:
        r = httpx.post(server.http + "/api/tables", json=spec)
        assert r.status_code == 400, spec
        error = r.json()["error"]
        assert error["code"] == "bad_request" and words in error["message"], error
    r = httpx.post(server.http + "/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.json()["error"]["code"] == "bad_request"
    assert httpx.get(server.http + "/api/tables?status=lost").status_code == 400


def test_a_frame_past_the_websocket_limit_closes_that_connection_only(server: ServerProcess) -> None:
    async def main() -> None:
        big = await SeatClient(server.ws).connect()
        await big.send("x" * 70_000)
        with pytest.raises(websockets.ConnectionClosed):
            await big.recv()
        other = await SeatClient(server.ws).connect()
        await other.send({"type": "ping"})
        assert (await other.recv())["type"] == "pong"
        await other.close()

    run(main)


def test_limits_per_connection_and_per_client(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 'limits.db'}"
    options = (
        "--actions-per-second",
        "1",
        "--messages-per-second",
        "1000",
        "--tables-per-client",
        "2",
        "--connections-per-client",
        "4",
    )
    with ServerProcess(db, *QUICK_COMMITS, *options) as server:
        table, keys = make_table(server, [{"kind": "human"}] * 4)
        make_table(server, [{"kind": "human"}] * 4)
        r = httpx.post(server.http + "/api/tables", json={"variant": "classic"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "table_limit"

        async def main() -> None:
            clients = await seated(server, table, keys)
            actor = next(c for c in clients if c.my_turn())
            assert actor.view is not None
            bad = {"type": "play", "card": "2C"}
            codes = []
            for i in range(12):  # a burst of 12 actions: the bucket holds 10
                ref = await actor.act(bad, ref=f"burst{i}")
                codes.append((await actor.answer(ref))["code"])
            assert codes[:10] == ["illegal"] * 10 and codes[10:] == ["rate_limited"] * 2
            extra = await SeatClient(server.ws).connect()
            frame = await extra.recv()
            assert frame["code"] == "table_limit"
            for c in clients:
                await c.close()

        run(main)
        assert stored_actions(server, table) == 0


# -- reconnect and resend ---------------------------------------------------------------


def test_reconnect_with_the_last_seq_gets_exactly_what_was_missed(server: ServerProcess) -> None:
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        away = next(c for c in clients if c.my_turn())  # the declarer: the three others call next
        await step(clients)
        seen = away.seq
        assert seen is not None
        idx = clients.index(away)
        await away.close()
        others = [c for c in clients if c is not away]
        played = 0
        while played < 3:
            actor = next((c for c in others if c.my_turn()), None)
            if actor is None:
                break
            await step(others)
            played += 1
        back = await SeatClient(server.ws).connect()
        await back.send({"type": "hello", "table": table, "key": keys[idx], "last_seq": seen})
        welcome = await back.until("welcome")
        assert welcome["seq"] == seen + played and welcome["seat"] == away.seat
        events = [await back.until("event") for _ in range(played)]
        assert [e["seq"] for e in events] == list(range(seen + 1, seen + played + 1))
        assert played == 3
        # sync asks again for what came after a number
        await back.send({"type": "sync", "last_seq": seen})
        again = [await back.until("event") for _ in range(played)]
        assert [e["view"] for e in again] == [e["view"] for e in events]
        # a new connection of the seat sees the same view, and the seat's earlier one is let go
        fresh = await SeatClient(server.ws).connect()
        await fresh.hello(table, keys[idx])
        assert fresh.view == events[-1]["view"]
        told = await back.until("error")
        assert told["code"] == "taken_over"
        back = fresh
        # too far behind: the current state, once, instead of a long list of events
        while (back.seq or 0) <= CATCH_UP_LIMIT:
            await step([*others, back])
        await back.send({"type": "sync", "last_seq": 0})
        frame = await back.recv()
        assert frame["type"] == "state" and frame["seq"] == back.seq
        # ahead of the table: refused, then the current state
        await back.send({"type": "sync", "last_seq": (back.seq or 0) + 3})
        assert (await back.recv())["code"] == "bad_seq"
        assert (await back.recv())["type"] == "state"
        for c in [*others, back, fresh]:
            await c.close()

    run(main)


def test_an_action_is_answered_to_its_sender_by_the_event_it_made(server: ServerProcess) -> None:
    """One frame answers the actor (its event, with ``ack``); the others' events and the watcher's carry none."""
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        everyone = [*clients, watcher]
        for _ in range(6):
            actor = next(c for c in clients if c.my_turn())
            assert actor.view is not None
            seq = actor.seq or 0
            ref = await actor.act(actor.view["legal_actions"][0])
            for c in everyone:
                del c.frames[:]
            await settle(everyone, seq + 1)
            mine = [f for f in actor.frames if f.get("seq") == seq + 1 or "ack" in f or f.get("id") == ref]
            assert [(f["type"], f["ack"]) for f in mine] == [("event", ref)], actor.frames
            for c in everyone:
                if c is not actor:
                    assert [f for f in c.frames if "ack" in f] == [], c.frames
                    assert any(f["type"] == "event" and f["seq"] == seq + 1 for f in c.frames), c.frames
        for c in everyone:
            await c.close()

    run(main)


def test_a_read_without_waiting_returns_a_frame_already_received(server: ServerProcess) -> None:
    """``recv(timeout=0)`` reads a frame that has arrived, and says TimeoutError only when none has."""
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        watcher = await SeatClient(server.ws).connect()
        with pytest.raises(TimeoutError):  # nothing comes before its hello
            await watcher.recv(timeout=0)
        await watcher.hello(table)
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        seq = actor.seq or 0
        ref = await actor.act(actor.view["legal_actions"][0])
        await actor.answer(ref)  # the event went out to the watcher in the same broadcast
        frame = None
        for _ in range(500):  # until the watcher's socket has the event; never waiting inside recv
            try:
                frame = await watcher.recv(timeout=0)
            except TimeoutError:
                await asyncio.sleep(0.02)
                continue
            if frame.get("type") == "event" and frame.get("seq") == seq + 1:
                break
        assert frame is not None and frame["type"] == "event" and frame["seq"] == seq + 1, frame
        assert watcher.seq == seq + 1
        for c in [*clients, watcher]:
            await c.close()

    run(main)


def test_a_resent_action_is_harmless(server: ServerProcess) -> None:
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        actor = next(c for c in clients if c.my_turn())
        idx = clients.index(actor)
        assert actor.view is not None
        intent = actor.view["legal_actions"][0]
        seq = actor.seq
        await actor.act(intent, ref="only-once")
        await actor.close()  # gone before reading its acknowledgement
        deadline = time.monotonic() + 5
        while stored_actions(server, table) == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        back = await SeatClient(server.ws).connect()
        await back.send({"type": "hello", "table": table, "key": keys[idx], "last_seq": seq})
        assert (await back.until("welcome"))["seq"] == (seq or 0) + 1
        await back.until("event", seq=(seq or 0) + 1)
        for _ in range(2):
            await back.act(intent, seq=seq, ref="only-once")
            ack = await back.answer("only-once")
            assert ack == {"type": "ack", "ack": "only-once", "seq": (seq or 0) + 1, "duplicate": True}
        assert stored_actions(server, table) == 1
        for c in [*clients, back]:
            await c.close()

    run(main)


# -- bots and takeover -------------------------------------------------------------------


def test_bots_move_on_their_own_and_stand_in_for_an_absent_person(server: ServerProcess) -> None:
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "level": "random"},
        {"kind": "human"},
        {"kind": "bot", "level": "random"},
    ]
    table, keys = make_table(server, seats)

    async def main() -> None:
        people = await seated(server, table, [keys[0], keys[2]])
        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        await watcher.until("table")
        # bots act by themselves; the people act when their turn comes
        for _ in range(12):
            deadline = time.monotonic() + 10
            while not any(c.my_turn() for c in people):  # read whoever has something to read
                assert time.monotonic() < deadline, "the bots stopped"
                for c in people:
                    with contextlib.suppress(TimeoutError):
                        await c.recv(timeout=0.05)
            await step(people)
        assert watcher.table is not None and watcher.table["seats"][0]["name"] == "Ana"
        # seat 2 leaves: once its turn comes and the takeover time has passed, a bot plays it
        gone = people[1]
        await gone.close()
        start = watcher.seq or 0
        stand_in_seen = False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            frame = await watcher.recv(timeout=20)
            if frame["type"] == "table" and frame["seats"][2]["bot_playing"]:
                stand_in_seen = True
            if people[0].my_turn():
                await step([people[0]])
            while True:
                try:
                    await people[0].recv(timeout=0.01)
                except TimeoutError:
                    break
            if stand_in_seen and (watcher.seq or 0) > start + 8:
                break
        assert stand_in_seen
        stored = Store(server.db).load_table(table)
        assert stored is not None
        assert any(a.seat == 2 and a.actor == "bot" for a in stored.actions)
        # the person comes back: the bot steps aside
        back = await SeatClient(server.ws).connect()
        await back.hello(table, keys[2])
        frame = await back.until("table")
        assert not frame["seats"][2]["bot_playing"] and frame["seats"][2]["online"]
        for c in [people[0], back, watcher]:
            await c.close()

    run(main)


def test_takeover_waits_for_a_person_who_is_here(server: ServerProcess) -> None:
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        seq = clients[0].seq
        await asyncio.sleep(1.2)  # past takeover_after, but everyone is connected
        for c in clients:
            await c.send({"type": "sync", "last_seq": seq})
        await asyncio.sleep(0.2)
        assert stored_actions(server, table) == 0
        for c in clients:
            await c.close()

    run(main)


def test_listing_shows_open_playing_and_finished_tables(server: ServerProcess) -> None:
    table, _ = make_table(server, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}])
    listed = httpx.get(server.http + "/api/tables?status=open").json()
    mine = next(t for t in listed if t["id"] == table)
    assert mine["variant"] == "classic" and mine["deals"] == 28
    assert [s["kind"] for s in mine["seats"]] == ["human", "bot", "bot", "bot"]
    assert "seed" not in json.dumps(listed) and "credential" not in json.dumps(listed)


def test_an_unexpected_failure_reloads_the_table_from_its_log(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'bug.db'}", Settings(commit_gather=QUICK_GATHER, bot_delay=0.0))
    with ServerThread(app) as server:
        table, keys = make_table(server, [{"kind": "human"}] * 4)
        working = LiveTable._commit

        async def buggy(self: LiveTable, seat: int, action: Any, *rest: Any) -> None:
            self.game.apply(action, seat)  # the game changes in memory...
            raise RuntimeError("a bug")  # ...and the action is never written

        async def main() -> None:
            clients = await seated(server, table, keys)
            actor = next(c for c in clients if c.my_turn())
            before = actor.view
            assert before is not None
            intent = before["legal_actions"][0]
            monkeypatch.setattr(LiveTable, "_commit", buggy)
            ref = await actor.act(intent)
            assert (await actor.until("error"))["code"] == "internal"
            state = await actor.until("state")
            assert state["seq"] == 0 and state["view"] == before  # what the log says, not what memory had
            monkeypatch.setattr(LiveTable, "_commit", working)
            ref = await actor.act(intent)
            assert (await actor.answer(ref))["seq"] == 1
            for c in clients:
                await c.close()

        run(main)


def test_quick_messages_are_fixed_phrases_from_seats_one_every_few_seconds(server: ServerProcess) -> None:
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = await seated(server, table, keys)
        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        await clients[1].send({"type": "say", "phrase": "well_played"})
        for c in [*clients, watcher]:
            said = await c.until("said")
            assert said == {"type": "said", "seat": 1, "phrase": "well_played"}
        await clients[1].send({"type": "say", "phrase": "thanks"})
        assert (await clients[1].until("error"))["code"] == "rate_limited"
        await clients[2].send({"type": "say", "phrase": "<b>free text</b>"})
        assert (await clients[2].until("error"))["code"] == "malformed"
        await watcher.send({"type": "say", "phrase": "hello"})
        assert (await watcher.until("error"))["code"] == "no_credential"
        for c in [*clients, watcher]:
            await c.close()

    run(main)
    assert stored_actions(server, table) == 0


def test_refusals_reach_a_french_browser_in_french(server: ServerProcess) -> None:
    """The protocol's refusals and the core's illegal-action reasons are in the language the
    connection asked for (``Accept-Language``); an English connection reads the English as before."""
    table, keys = make_table(server, [{"kind": "human"}] * 4)

    async def main() -> None:
        clients = []
        for lang, key in zip(("fr", "en", "en", "en"), keys, strict=True):
            c = SeatClient(server.ws)
            c.ws = await websockets.connect(server.ws, additional_headers={"Accept-Language": lang})
            await c.hello(table, key)
            clients.append(c)
        for _ in range(8):  # to the first trick, where a card may be refused for not following
            if clients[0].my_turn() and clients[0].view is not None and clients[0].view["phase"] == "play":
                break
            await step(clients)
        while not clients[0].my_turn():
            await step(clients)
        french = clients[0]
        assert french.view is not None and french.view["phase"] in ("play", "call", "contract", "trump", "rank")
        await french.send("not json")
        malformed = await french.until("error")
        assert malformed["code"] == "malformed" and "un objet comme" in malformed["message"]
        await french.send({"type": "act", "id": "old", "seq": (french.seq or 1) - 1, "action": {"type": "pass"}})
        stale = await french.until("error")
        assert stale["code"] == "stale" and stale["message"].startswith("la partie a avancé")
        other = clients[1]
        await other.send({"type": "act", "id": "turn", "seq": other.seq, "action": {"type": "play", "card": "2C"}})
        english = await other.until("error")
        assert english["code"] == "not_your_turn" and english["message"].startswith("seat 1 cannot act now")
        hand = set(french.view["hand"])
        legal = {a.get("card") for a in french.view["legal_actions"]}
        if french.view["phase"] == "play" and hand - legal:  # a card of the hand the rules refuse now
            card = sorted(hand - legal)[0]
            ref = await french.act({"type": "play", "card": card})
            refused = await french.answer(ref)
            assert refused["code"] == "illegal"
            assert refused["message"].startswith(f"{card} n'est pas permise : la place 0 "), refused
        for c in clients:
            await c.close()

    run(main)


def test_a_table_id_no_table_can_have_is_refused_where_it_comes_in(server: ServerProcess) -> None:
    """An id with a NUL, a lone surrogate or a character the server never puts in one names no
    table: ``unknown_table`` in the reader's language, over the WebSocket and over HTTP, before the
    store sees it (where it would fail as a storage error)."""
    table, _keys = make_table(server, [{"kind": "bot", "level": "random"}] * 4)
    bad = ["x\ud800", "x\x00", "a b", "x" * 65]

    async def main() -> None:
        for table_id in bad:
            c = SeatClient(server.ws)
            c.ws = await websockets.connect(server.ws, additional_headers={"Accept-Language": "fr"})
            await c.send({"type": "hello", "table": table_id})
            refused = await c.until("error")
            assert refused["code"] == "unknown_table", refused
            assert refused["message"].startswith("il n'y a pas de table"), refused
            await c.close()
        c = await SeatClient(server.ws).connect()
        await c.hello(table)  # a good id still seats a watcher
        await c.close()

    run(main)
    for path in ("/api/tables/x%00/record", "/api/tables/x%ED%A0%80/review", "/api/tables/a%20b/invitations"):
        r = httpx.get(server.http + path, headers={"Accept-Language": "fr"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_table", (path, r.text)
        assert r.json()["error"]["message"].startswith("il n'y a pas de table"), r.text
    r = httpx.post(server.http + "/api/tables/x%00/rematch")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_table", r.text
