"""Killed with SIGKILL mid-deal, the server loses no acknowledged action and resumes exactly."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from barbu.server.client import SeatClient, ServerProcess
from barbu.server.tables import replay
from barbu.storage import Store
from conftest import QUICK_COMMITS

FAST = ("--bot-delay", "0", "--actions-per-second", "1000", "--messages-per-second", "1000")


def test_sigkill_mid_deal_loses_no_acknowledged_action(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    first = ServerProcess(db, *QUICK_COMMITS, *FAST).start()
    made = httpx.post(first.http + "/api/tables", json={"variant": "classic", "seats": [{"kind": "human"}] * 4}).json()
    table = made["table"]
    keys = [s["link"].split("key=")[1] for s in made["seats"]]

    async def before_crash() -> tuple[int, dict[str, Any], dict[str, Any], int | None]:
        clients = []
        for k in keys:
            c = await SeatClient(first.ws).connect()
            await c.hello(table, k)
            clients.append(c)
        acked = 0
        for i in range(40):  # the contract, the calls and a few tricks
            actor = next(c for c in clients if c.my_turn())
            assert actor.view is not None
            ref = await actor.act(actor.view["legal_actions"][i % len(actor.view["legal_actions"])])
            ack = await actor.answer(ref)
            assert ack["ack"] == ref
            acked = ack["seq"]
            for c in clients:
                while (c.seq or 0) < acked:
                    await c.recv()
        views = {c.seat: c.view for c in clients}
        # one more action sent, and the server killed before its answer is read
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        last_intent = actor.view["legal_actions"][0]
        await actor.act(last_intent, ref="in-flight")
        first.kill()
        return acked, views, last_intent, actor.seat

    acked, views, last_intent, in_flight_seat = asyncio.run(before_crash())
    assert acked == 40
    stored = Store(db).load_table(table)
    assert stored is not None and len(stored.actions) in (acked, acked + 1)

    with ServerProcess(db, *QUICK_COMMITS, *FAST) as second:

        async def after_restart() -> None:
            for seat, k in enumerate(keys):
                # a new page of the seat (one connection plays a seat: it is let go before the next)
                fresh = await SeatClient(second.ws).connect()
                await fresh.hello(table, k)
                if fresh.seq == acked:
                    assert fresh.view == views[seat]  # exactly where it was
                await fresh.close()
                c = await SeatClient(second.ws).connect()
                c.view, c.seq = views[seat], acked  # the same client, back with what it knew
                await c.send({"type": "hello", "table": table, "key": k, "last_seq": acked})
                welcome = await c.until("welcome")
                assert welcome["seq"] in (acked, acked + 1)
                if seat == in_flight_seat:
                    # resending the in-flight action: applied exactly once, whatever the crash did
                    await c.act(last_intent, seq=acked, ref="in-flight")
                    answer = await c.answer("in-flight")
                    assert "ack" in answer and answer["seq"] == acked + 1
                await c.close()

        asyncio.run(after_restart())
        stored = Store(db).load_table(table)
        assert stored is not None and len(stored.actions) == acked + 1
        game = replay(stored.table, stored.actions)
        assert game.phase == "play" and len(game.history) == acked + 1
