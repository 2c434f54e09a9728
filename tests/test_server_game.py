"""A whole game over real WebSockets: four clients, every frame recorded and checked for secrets."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from barbu.actions import action_from_json
from barbu.bots import offered_levels
from barbu.cards import card_name, cards_of
from barbu.record import game_from_record
from barbu.rulesets import rules
from barbu.server.client import SeatClient, ServerProcess
from barbu.server.tables import replay
from barbu.storage import Store
from conftest import QUICK_COMMITS

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
HISTORY_KEYS = {
    "deal",
    "declarer",
    "contract",
    "trump",
    "rank",
    "raw",
    "adjustments",
    "final",
    "pairs",
    "played",
    "arrangements",
}
FAST = ("--bot-delay", "0", "--actions-per-second", "10000", "--messages-per-second", "10000")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = f"sqlite:///{tmp_path_factory.mktemp('game') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, *FAST) as s:
        yield s


def make_table(server: Any, spec: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(server.http + "/api/tables", json=spec)
    assert r.status_code == 200, r.text
    return dict(r.json())


def key_of(link: str) -> str:
    return link.split("key=")[1]


def strings(value: Any, out: list[str]) -> list[str]:
    """Every string inside a JSON value, keys included."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        out.extend(value)
        for v in value.values():
            strings(v, out)
    elif isinstance(value, list):
        for v in value:
            strings(v, out)
    return out


async def play_seat(client: SeatClient, rng: random.Random) -> None:
    """Play whatever is legal (chosen at random) until the game is over."""
    while client.view is None or not client.view["game_over"]:
        if client.my_turn():
            view = client.view
            assert view is not None
            if view["phase"] == "arrange":  # any split of the hand is an arrangement (a foul too)
                intent = {"type": "arrange", "cards": rng.sample(view["hand"], len(view["hand"]))}
            else:
                intent = rng.choice(view["legal_actions"])
            ref = await client.act(intent)
            answer = await client.answer(ref)
            assert "ack" in answer, answer
        else:
            await client.recv(timeout=30)


def hidden_by_seq(db: str, table_id: str) -> tuple[str, list[list[set[str]]]]:
    """The table's seed, and after each sequence number the unplayed cards of the OTHER seats of each seat.

    ``hidden[seq][seat]`` holds what ``seat`` must not see; index ``players`` is a watcher's.
    """
    stored = Store(db).load_table(table_id)
    assert stored is not None
    game = replay(stored.table, [])
    out = []

    def hands() -> list[set[str]]:
        n = game.rules.players
        deal = game.current
        held = [{card_name(c) for c in cards_of(deal.hand(s))} if deal else set() for s in range(n)]
        every = set().union(*held)
        return [every - held[s] for s in range(n)] + [every]

    out.append(hands())
    for row in stored.actions:
        game.apply(action_from_json(row.intent), row.seat)
        out.append(hands())
    return stored.table.seed, out


@pytest.mark.parametrize(
    "variant",
    [
        "king",  # 20 deals, anticlockwise, no doubling
        "chinese-poker",  # 36 deals: doubling, skipped deals, domino, arrangements hidden until all have set
        "five-player",  # 35 deals, five seats, domino with removed cards
    ],
)
def test_people_play_a_whole_game_and_no_frame_shows_a_hidden_card(server: Any, variant: str) -> None:
    n = rules(variant).players
    made = make_table(server, {"variant": variant, "seats": [{"kind": "human"}] * n})
    table = made["table"]
    keys = [key_of(s["link"]) for s in made["seats"]]

    async def main() -> tuple[list[SeatClient], SeatClient]:
        seats = [await SeatClient(server.ws).connect() for _ in range(n)]
        watcher = await SeatClient(server.ws).connect()
        await watcher.hello(table)
        for c, k in zip(seats, keys, strict=True):
            await c.hello(table, k)

        async def watch() -> None:
            while watcher.view is None or not watcher.view["game_over"]:
                await watcher.recv(timeout=30)

        await asyncio.gather(watch(), *(play_seat(c, random.Random(i)) for i, c in enumerate(seats)))
        assert sum("patch" in f for f in seats[0].frames) > 100
        # a finished game refuses every action, and the refusal changes nothing
        ref = await seats[0].act({"type": "play", "card": "2C"})
        assert (await seats[0].answer(ref))["code"] == "game_over"
        # every view merged from patches is the view a fresh connection gets (which then plays the seat)
        for c, k in zip(seats, keys, strict=True):
            fresh = await SeatClient(server.ws).connect()
            await fresh.hello(table, k)
            assert fresh.view == c.view and fresh.seq == c.seq
            await fresh.close()
        for c in [*seats, watcher]:
            await c.close()
        return seats, watcher

    seats, watcher = asyncio.run(main())
    final = seats[0].view
    assert final is not None and final["game_over"] and len(final["history"]) == rules(variant).deal_count

    # The stored log replays to the same game; the record download is that game.
    stored = Store(server.db).load_table(table)
    assert stored is not None and stored.table.status == "finished"
    game = replay(stored.table, stored.actions)
    assert game.is_over and list(final["totals"]) == game.totals
    assert [a.seq for a in stored.actions] == list(range(1, len(stored.actions) + 1))
    record = httpx.get(f"{server.http}/api/tables/{table}/record")
    assert record.status_code == 200
    assert game_from_record(record.json()).totals == game.totals

    # Every frame any seat received: no card another seat still held, never the seed.
    seed, hidden = hidden_by_seq(server.db, table)
    checked = 0
    public_rows = [  # finished deals' rows are public (Chinese poker, RULES.md 4.3); nothing else is
        None
        if d.contract is None or d.contract.play != "arrange"
        else [[card_name(c) for c in a or ()] for a in d.arrangements_by_seat()]
        for d in game.deals
    ]
    played = [  # the cards a finished deal showed: its plays, and its rows once all had set
        {card_name(c) for c in d.plays if c is not None} | {c for row in public_rows[i] or [] for c in row}
        for i, d in enumerate(game.deals)
    ]
    for client in [*seats, watcher]:
        for frame in client.frames:
            body = frame.get("view", frame.get("patch")) or {}
            for past in body.get("history", []):
                assert set(past) == HISTORY_KEYS and past["arrangements"] == public_rows[past["deal"] - 1], past
            review = body.get("last_deal")
            if review is not None:  # the review of the deal just finished shows only what it showed
                assert {s for s in strings(review, []) if CARD.match(s)} <= played[review["deal"] - 1], review
            found = strings({k: v for k, v in frame.items() if k not in ("view", "patch")}, [])
            strings({k: v for k, v in body.items() if k not in ("history", "last_deal")}, found)
            assert "seed" not in found and seed not in found
            cards = {s for s in found if CARD.match(s)}
            if frame["type"] not in ("state", "event"):
                assert not cards, frame
                continue
            if client.seat is None:
                assert frame.get("view", frame.get("patch")).get("hand", []) == []
            leaked = cards & hidden[frame["seq"]][n if client.seat is None else client.seat]
            assert not leaked, f"seat {client.seat} saw {leaked} at seq {frame['seq']}"
            checked += 1
    assert checked > n * len(stored.actions)


def test_the_record_is_refused_until_the_game_is_over(server: Any) -> None:
    made = make_table(server, {"variant": "classic", "seats": [{"kind": "human"}] * 4})
    r = httpx.get(f"{server.http}/api/tables/{made['table']}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert httpx.get(f"{server.http}/api/tables/nope/record").json()["error"]["code"] == "unknown_table"


def test_pages_and_api_are_served(server: Any) -> None:
    assert "<title data-i18n>Barbu" in httpx.get(server.http + "/").text
    assert 'src="/static/table.js"' in httpx.get(server.http + "/t/anything").text
    for asset in ("table.js", "lobby.js", "cards.js", "style.css"):
        assert httpx.get(f"{server.http}/static/{asset}").status_code == 200
    rule_sets = httpx.get(server.http + "/api/rules").json()
    assert {r["name"] for r in rule_sets} >= {"classic", "king", "french"}
    assert "random" in httpx.get(server.http + "/api/bots").json()
    levels = httpx.get(server.http + "/api/bots/levels").json()
    assert [row["name"] for row in levels] == list(offered_levels())  # the offered levels of the one table
    assert all(row["help"].lower().startswith(row["name"]) for row in levels)
    assert "stale" in httpx.get(server.http + "/api/errors").json()


def test_static_pages_hold_no_rule_logic() -> None:
    """The browser shows the legal actions the server sent; it has no rule of its own."""
    static = Path(__file__).parents[1] / "src" / "barbu" / "server" / "static"
    code = (static / "table.js").read_text()
    assert "v.legal" in code
    for rule_word in ("follow", "must_trump", "heart_lead", "overtrump"):
        assert rule_word not in code
