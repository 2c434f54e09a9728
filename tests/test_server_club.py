"""The club: accounts and sessions (fixation, CSRF, log-in limits), ratings of a finished rated
game, the anti-farming policy, the quick-game queue, and the operations routes; on SQLite and
PostgreSQL where the database matters."""

from __future__ import annotations

import asyncio
import gc
import random
import time
from typing import Any

import httpx
import pytest
import websockets
from argon2 import PasswordHasher

from barbu.language import speaking
from barbu.server.app import create_app
from barbu.server.client import SeatClient, ServerThread
from barbu.server.club.ratings import REPEATS_PER_DAY, rate_game, reason_text, settle_table, verdict
from barbu.server.limits import Limits
from barbu.server.tables import Settings
from barbu.storage import Store
from barbu.storage.club import ClubStore
from conftest import QUICK_GATHER

FAST = Settings(
    commit_gather=QUICK_GATHER,
    bot_delay=0.0,
    limits=Limits(actions_per_second=1000, action_burst=1000, messages_per_second=1000, message_burst=1000),
)
EVIL = {"Origin": "http://evil.example"}


CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2 at its cheapest, for tests that make many accounts (the server's default costs 64 MiB)."""


def serve(db: str) -> ServerThread:
    """The app on ``db``, with cheap password hashes."""
    app = create_app(db, FAST)
    app.state.club.accounts.hasher = CHEAP
    return ServerThread(app)


def sign_up(server: ServerThread, name: str, password: str = "correct horse") -> httpx.Client:
    """A browser (cookies kept) with a new account, logged in."""
    browser = httpx.Client(base_url=server.http)
    res = browser.post("/api/club/signup", json={"name": name, "password": password})
    assert res.status_code == 201, res.text
    return browser


def me(browser: httpx.Client) -> Any:
    return browser.get("/api/club/me").json()["account"]


def session_of(browser: httpx.Client) -> str:
    return str(browser.cookies.get("barbu_session"))


def planted(server: ServerThread, value: str) -> httpx.Client:
    """A browser holding a session cookie it was given by someone else."""
    browser = httpx.Client(base_url=server.http)
    browser.cookies.set("barbu_session", value, domain="127.0.0.1", path="/")
    return browser


def test_sign_up_log_in_log_out_and_password(store: Store) -> None:
    with serve(store.url) as server:
        anne = sign_up(server, "Anne")
        cookie = next(c for c in anne.cookies.jar if c.name == "barbu_session")
        assert cookie.has_nonstandard_attr("HttpOnly") and cookie.get_nonstandard_attr("SameSite") == "strict"
        assert me(anne)["name"] == "Anne"
        taken = httpx.post(f"{server.http}/api/club/signup", json={"name": "ANNE", "password": "whatever1"})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
        short = httpx.post(f"{server.http}/api/club/signup", json={"name": "Bo", "password": "short"})
        assert short.status_code == 400 and "8 to 256" in short.json()["error"]["message"]
        assert anne.post("/api/club/logout").status_code == 200
        assert me(anne) is None
        wrong = anne.post("/api/club/login", json={"name": "anne", "password": "wrong password"})
        assert wrong.status_code == 401 and me(anne) is None
        assert anne.post("/api/club/login", json={"name": "anne", "password": "correct horse"}).status_code == 200
        assert me(anne)["name"] == "Anne"
        # a second device; changing the password ends every other session, not this one
        phone = httpx.Client(base_url=server.http)
        assert phone.post("/api/club/login", json={"name": "Anne", "password": "correct horse"}).status_code == 200
        bad = anne.post("/api/club/password", json={"old": "nope nope", "new": "battery staple"})
        assert bad.status_code == 401
        assert (
            anne.post("/api/club/password", json={"old": "correct horse", "new": "battery staple"}).status_code == 200
        )
        assert me(anne)["name"] == "Anne" and me(phone) is None
        assert phone.post("/api/club/login", json={"name": "Anne", "password": "correct horse"}).status_code == 401
        assert phone.post("/api/club/login", json={"name": "Anne", "password": "battery staple"}).status_code == 200
        # preferences follow the account to the other device
        assert anne.put("/api/club/prefs", json={"language": "en", "cards": "large"}).status_code == 200
        assert me(phone)["prefs"] == {"language": "en", "cards": "large"}
        refused = anne.put("/api/club/prefs", json={"language": "de"})
        assert refused.status_code == 400 and "fr, en" in refused.json()["error"]["message"]


def test_log_in_makes_a_new_session_so_a_planted_cookie_never_logs_in() -> None:
    with serve("sqlite://") as server:
        sign_up(server, "Victim")
        attacker = sign_up(server, "Mallory")
        known = session_of(attacker)  # a cookie the attacker knows, planted in the victim's browser
        victim = planted(server, known)
        assert me(victim)["name"] == "Mallory"
        assert victim.post("/api/club/login", json={"name": "Victim", "password": "correct horse"}).status_code == 200
        fresh = session_of(victim)
        assert fresh != known
        assert me(victim)["name"] == "Victim"
        assert me(planted(server, known)) is None  # the planted session ended at log-in
        made_up = planted(server, "x" * 43)
        assert me(made_up) is None
        assert made_up.post("/api/club/login", json={"name": "Victim", "password": "correct horse"}).status_code == 200
        assert session_of(made_up) != "x" * 43


def test_every_state_changing_club_route_refuses_other_sites() -> None:
    app = create_app("sqlite://", FAST)
    app.state.club.accounts.hasher = CHEAP
    with ServerThread(app) as server:
        anne = sign_up(server, "Anne")
        before = session_of(anne)
        changes: list[tuple[str, str, dict[str, Any]]] = [
            ("POST", "/api/club/signup", {"name": "Eve", "password": "long enough"}),
            ("POST", "/api/club/login", {"name": "Anne", "password": "correct horse"}),
            ("POST", "/api/club/logout", {}),
            ("POST", "/api/club/password", {"old": "correct horse", "new": "owned by eve"}),
            ("PUT", "/api/club/prefs", {"language": "en"}),
            ("POST", "/api/club/tables", {"variant": "classic", "rated": True}),
            ("POST", "/api/club/quick", {"variant": "classic", "rated": True, "wait": 5}),
            ("DELETE", "/api/club/quick", {}),
        ]
        club_routes = {
            (m, str(getattr(r, "path", "")))
            for r in app.routes
            if getattr(r, "path", "").startswith("/api/club")
            for m in getattr(r, "methods", ())
            if m not in ("GET", "HEAD")
        }
        assert club_routes == {(m, p) for m, p, _ in changes}
        for method, path, body in changes:
            for headers in (EVIL, {"Sec-Fetch-Site": "cross-site"}):
                res = anne.request(method, path, json=body, headers=headers)
                assert res.status_code == 403 and res.json()["error"]["code"] == "cross_origin", (path, res.text)
            form = anne.request(method, path, content=b"name=Eve", headers={"Content-Type": "text/plain"})
            assert form.status_code == 415, (path, form.text)
        assert session_of(anne) == before and me(anne) == {"name": "Anne", "prefs": {}}
        assert anne.post("/api/club/login", json={"name": "Eve", "password": "long enough"}).status_code == 401
        same = anne.put("/api/club/prefs", json={"language": "en"}, headers={"Origin": server.http})
        assert same.status_code == 200


def test_log_in_attempts_are_limited_per_name() -> None:
    with serve("sqlite://") as server:
        sign_up(server, "Anne")
        guesser = httpx.Client(base_url=server.http)
        french = guesser.post(
            "/api/club/login", json={"name": "Anne", "password": "guess 1234"}, headers={"Accept-Language": "fr"}
        )
        assert french.json()["error"]["message"] == "aucun compte n’a ce nom et ce mot de passe"
        for _ in range(4):
            assert guesser.post("/api/club/login", json={"name": "Anne", "password": "guess 1234"}).status_code == 401
        limited = guesser.post("/api/club/login", json={"name": "anne", "password": "correct horse"})
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
        assert "wait" in limited.json()["error"]["message"] and me(guesser) is None


async def play_seat(client: SeatClient, rng: random.Random) -> None:
    """Play whatever is legal until the game is over."""
    while client.view is None or not client.view["game_over"]:
        if client.my_turn():
            view = client.view
            assert view is not None
            if view["phase"] == "arrange":
                intent = {"type": "arrange", "cards": rng.sample(view["hand"], len(view["hand"]))}
            else:
                intent = rng.choice(view["legal_actions"])
            answer = await client.answer(await client.act(intent))
            while answer.get("code") == "rate_limited":  # faster than a person: wait as told
                await asyncio.sleep(answer.get("retry_after", 0.5))
                answer = await client.answer(await client.act(intent))
            assert "ack" in answer, answer
        else:
            await client.recv(timeout=30)


def server_club(server: ServerThread) -> ClubStore:
    """The club store of the app ``server`` runs."""
    return ClubStore(server.server.config.app.state.store)


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_finished_rated_game_updates_its_players_and_the_ladder() -> None:
    with serve("sqlite://") as server:
        anne = sign_up(server, "Anne")
        res = anne.post(
            "/api/club/tables",
            json={
                "variant": "king",
                "rated": True,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            },
        )
        assert res.status_code == 200, res.text
        made = res.json()
        key = made["seats"][0]["link"].split("key=")[1]
        assert anne.post(f"/api/tables/{made['table']}/claim", json={"seat": 0, "key": key}).status_code == 200
        games = anne.get("/api/club/games").json()["games"]
        assert games[0]["table"] == made["table"] and games[0]["link"].endswith(key)  # the seat follows the account

        async def play() -> None:
            client = SeatClient(server.ws)  # the browser that claimed the seat: its cookie proves it
            cookie = f"barbu_browser={anne.cookies.get('barbu_browser')}"
            client.ws = await websockets.connect(server.ws, additional_headers={"Cookie": cookie}, max_size=2**22)
            await client.send({"type": "hello", "table": made["table"], "seat": 0})
            assert (await client.recv())["type"] == "welcome"
            await play_seat(client, random.Random(1))
            await client.close()

        asyncio.run(play())
        ladder = wait_for(lambda: httpx.get(f"{server.http}/api/club/ladder?variant=king").json()["players"])
        assert {p["name"] for p in ladder} == {"Anne", "random"}
        assert all(p["games"] == 1 and p["provisional"] for p in ladder)
        assert [p["place"] for p in ladder] == [1, 2]
        profile = httpx.get(f"{server.http}/api/club/players/anne").json()
        assert profile["name"] == "Anne" and profile["games"] == 1 and len(profile["history"]) == 1
        assert profile["results"][0]["variant"] == "king" and profile["results"][0]["rated"] == 1
        assert httpx.get(f"{server.http}/api/club/ladder?variant=king&period=30d").json()["players"]
        assert httpx.get(f"{server.http}/api/club/players/bot:random").json()["ratings"][0]["games"] == 1
        assert httpx.get(f"{server.http}/api/club/ladder?variant=nope").status_code == 400
        assert httpx.get(f"{server.http}/api/club/players/nobody").status_code == 404
        # rated once only, however often the end is settled again
        club = server_club(server)
        assert settle_table(club, made["table"], "king", ["human", "bot", "bot", "bot"], [1, 2, 3, 4]) == "-"
        assert httpx.get(f"{server.http}/api/club/players/anne").json()["ratings"][0]["games"] == 1


def test_the_anti_farming_policy(store: Store) -> None:
    store.migrate()
    club = ClubStore(store)
    from barbu.storage import SeatRow, TableRow

    for name in ("a", "b"):
        club.create_account(name, name, name, "hash")
    outcomes = []
    for n in range(REPEATS_PER_DAY + 1):
        table = f"t{n}"
        seats = [SeatRow(0, "human"), SeatRow(1, "human"), SeatRow(2, "bot", "random"), SeatRow(3, "bot", "random")]
        store.create_table(TableRow(table, "classic", {}, "s", 0, "me", 0.0), seats)
        club.mark_table(table, True, False, {0: ("a", None), 1: ("b", None)})
        outcomes.append(settle_table(club, table, "classic", ["human", "human", "bot", "bot"], [1, 2, 3, 4]))
    assert outcomes[:REPEATS_PER_DAY] == ["rated"] * REPEATS_PER_DAY
    assert outcomes[-1].startswith("unrated: these players already played")
    kept = club.table_outcome(f"t{REPEATS_PER_DAY}")
    assert kept is not None and kept[:2] == (True, "unrated")
    assert reason_text(kept[2]) == outcomes[-1][len("unrated: ") :]
    with speaking("fr"):  # the reason is kept as a message, read in the reader's language
        assert (
            reason_text(kept[2])
            == "ces joueurs ont déjà joué 3 parties classées ensemble en 24 heures (au plus 3 comptent)"
        )
    assert str(verdict({0: "a", 1: "a"}, [0, 1], {}, 0)) == "one account sat at two seats"
    assert verdict({0: "a"}, [0], {0: (5, 5)}, 0) is not None
    # the winner gains, the last loses; a bot level at two seats is one player
    changes = {c.player: c for c in rate_game({}, ["a:x", "bot:random", "bot:random", "a:y"], [1, 2, 3, 4])}
    assert changes["a:x"].mu > 25 > changes["a:y"].mu and len(changes) == 3


def test_the_quick_game_seats_two_accounts_together_and_fills_with_bots() -> None:
    with serve("sqlite://") as server:
        anne, bert = sign_up(server, "Anne"), sign_up(server, "Bert")
        guest = httpx.post(f"{server.http}/api/club/quick", json={"variant": "classic", "rated": True, "wait": 5})
        assert guest.status_code == 401 and guest.json()["error"]["code"] == "not_logged_in"
        for body, word in (({"wait": 999}, "wait"), ({"variant": "poker"}, "rule set"), ({"rated": "yes"}, "rated")):
            res = anne.post("/api/club/quick", json={"variant": "classic", "rated": True, "wait": 1} | body)
            assert res.status_code == 400 and word in res.json()["error"]["message"], res.text
        assert (
            anne.post("/api/club/quick", json={"variant": "king", "rated": True, "wait": 1}).json()["status"]
            == "waiting"
        )
        assert anne.delete("/api/club/quick").json()["status"] == "none"
        assert anne.get("/api/club/quick").json()["status"] == "none"
        for browser, wait in ((anne, 120), (bert, 1)):  # bert's short wait makes the table, with anne
            res = browser.post("/api/club/quick", json={"variant": "king", "rated": True, "wait": wait})
            assert res.status_code == 200 and res.json()["status"] == "waiting"
        first = wait_for(lambda: (s := anne.get("/api/club/quick").json())["status"] == "matched" and s, 10)
        second = bert.get("/api/club/quick").json()
        assert second["status"] == "matched" and second["table"] == first["table"]
        assert first["link"] != second["link"]
        table = next(t for t in httpx.get(f"{server.http}/api/tables?status=open").json() if t["id"] == first["table"])
        kinds = [s["kind"] for s in table["seats"]]
        assert kinds.count("human") == 2 and kinds.count("bot") == 2
        assert {s["name"] for s in table["seats"] if s["kind"] == "human"} == {"Anne", "Bert"}
        assert anne.get("/api/club/games").json()["games"][0]["rated"] is True


def test_health_readiness_and_metrics() -> None:
    callbacks = len(gc.callbacks)
    with serve("sqlite://") as server:
        assert httpx.get(f"{server.http}/healthz").json() == {"status": "ok"}
        assert httpx.get(f"{server.http}/readyz").json()["status"] == "ready"
        anne = sign_up(server, "Anne")
        anne.post("/api/club/login", json={"name": "Anne", "password": "correct horse"})
        text = httpx.get(f"{server.http}/metrics").text
        for name in (
            "barbu_tables_live",
            "barbu_connections",
            "barbu_action_seconds_bucket",
            "barbu_bot_think_seconds_count",
        ):
            assert name in text
        assert 'barbu_logins_total{result="ok"} 1.0' in text
        assert "barbu_journal_commits_total 0.0" in text and "barbu_journal_actions_total 0.0" in text  # nothing played

        def lag_looks() -> float:
            lines = httpx.get(f"{server.http}/metrics").text.splitlines()
            return float(next(x for x in lines if x.startswith("barbu_loop_lag_seconds_count")).split()[1])

        assert wait_for(lambda: lag_looks() >= 2, 10)  # the loop's lag is looked at while the server runs

        def full_passes() -> float:
            lines = httpx.get(f"{server.http}/metrics").text.splitlines()
            found = [x for x in lines if x.startswith('barbu_gc_pause_seconds_count{generation="2"}')]
            return float(found[0].split()[1]) if found else 0.0

        before = full_passes()
        gc.collect()  # the server runs in this process: its collector's passes are this one's
        assert full_passes() == before + 1
    assert len(gc.callbacks) == callbacks  # a stopped server no longer times them


@pytest.mark.parametrize("page", ["account", "ladder", "player"])
def test_the_club_pages_are_served(page: str) -> None:
    with serve("sqlite://") as server:
        res = httpx.get(f"{server.http}/{page}")
        assert res.status_code == 200 and "<script" in res.text and "Content-Security-Policy" in res.headers


def test_a_score_sheet_made_by_an_account_follows_it_and_stays_closed_to_others(store: Store) -> None:
    with serve(store.url) as server:
        anne = sign_up(server, "Anne")
        made = anne.post("/api/sheets", json={"variant": "classic", "title": "Mardi"})
        assert made.status_code == 200, made.text
        sheet = made.json()["id"]
        guest = httpx.Client(base_url=server.http)
        assert guest.post("/api/sheets", json={"variant": "classic", "title": "guest"}).status_code == 200
        phone = httpx.Client(base_url=server.http)
        assert phone.post("/api/club/login", json={"name": "Anne", "password": "correct horse"}).status_code == 200
        mine = phone.get("/api/club/sheets").json()["sheets"]
        assert [s["title"] for s in mine] == ["Mardi"]  # only the account's own sheet
        key = mine[0]["link"].split("key=")[1]
        owner = phone.get(f"/api/sheets/{sheet}", headers={"Authorization": f"Bearer {key}"})
        assert owner.status_code == 200 and owner.json()["role"] == "owner"
        bert = sign_up(server, "Bert")
        assert bert.get("/api/club/sheets").json()["sheets"] == []
        assert bert.get(f"/api/sheets/{sheet}").status_code == 404  # no key: the sheet is not even seen
        viewer = anne.post(f"/api/sheets/{sheet}/links", json={"role": "viewer"}).json()["key"]
        seen = bert.get(f"/api/sheets/{sheet}", headers={"Authorization": f"Bearer {viewer}"})
        assert seen.status_code == 200 and seen.json()["role"] == "viewer"
        edit = bert.patch(
            f"/api/sheets/{sheet}", json={"title": "mine now"}, headers={"Authorization": f"Bearer {viewer}"}
        )
        assert edit.status_code == 403  # viewing by link, editing only when invited
        assert guest.get("/api/club/sheets").status_code == 401
