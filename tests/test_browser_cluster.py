"""The table page in Chromium over two server processes, when a process or Redis goes away.

A person plays from a page on the first process (which serves the table); a watcher's page is on
the second (relayed). The first process is killed with SIGKILL and started again on its port:
the second takes the table over, the watcher's page goes on without noticing, and the player's
page reconnects by itself and plays on, with nothing it was acknowledged lost.

Redis stops under a French page relayed by the second process: the page is told in French, offers
nothing while its hellos are refused, keeps trying, and plays on by itself once Redis is back.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import httpx
import pytest
import redis
from playwright.sync_api import Browser, Page

from barbu.server.client import ServerProcess
from barbu.storage import Store
from conftest import QUICK_COMMITS, postgres_schema
from test_browser_table import click_something, my_turn
from test_server_cluster_outage import RedisServer, running_redis

REDIS = os.environ.get("BARBU_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture
def options() -> Iterator[tuple[str, tuple[str, ...]]]:
    """A database schema and a Redis prefix of this test's own: (the database URL, the serve options)."""
    redis.Redis.from_url(REDIS, socket_timeout=5).ping()  # Redis must answer: see .ci/run
    prefix = f"barbu-test-{secrets.token_hex(4)}"
    with postgres_schema() as url:
        yield url, ("--redis", REDIS, "--redis-prefix", prefix, "--lease-seconds", "3", "--bot-delay", "0.05")
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def seq(page: Page) -> int:
    return int(page.evaluate("window.barbu.seq ?? 0"))


def play_until(page: Page, target: int) -> None:
    """Click what the page offers whenever it is the person's turn, until the table reaches ``target``."""
    while seq(page) < target:
        page.wait_for_function(
            f"""() => {{ const s = window.barbu; if (!s || !s.view) return false;
            return s.seq >= {target} || (s.view.to_act === s.seat && !s.pending && s.welcomed
            && !s.view.game_over); }}""",
            timeout=30000,
        )
        if my_turn(page):
            before = seq(page)
            click_something(page)
            # generous: across a takeover the page reconnects with a back-off and resends the action
            page.wait_for_function(f"() => window.barbu && window.barbu.seq > {before}", timeout=90000)


def test_the_page_plays_on_when_the_process_serving_its_table_is_killed(
    options: tuple[str, tuple[str, ...]], browser: Browser
) -> None:
    db, serve = options
    one = ServerProcess(db, *QUICK_COMMITS, *serve).start()
    two = ServerProcess(db, *QUICK_COMMITS, *serve).start()
    try:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        made = httpx.post(one.http + "/api/tables", json={"variant": "king", "seats": seats}).json()
        table = made["table"]
        errors: list[str] = []
        player = browser.new_page(viewport={"width": 1200, "height": 850})
        player.on("pageerror", lambda e: errors.append(str(e)))
        player.goto(one.http + made["seats"][0]["link"])  # the first process serves the table from now on
        player.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.seat === 0")
        watcher = browser.new_page(viewport={"width": 900, "height": 800})
        watcher.on("pageerror", lambda e: errors.append(str(e)))
        watcher.goto(f"{two.http}/t/{table}")  # relayed by the second process
        watcher.wait_for_function("() => window.barbu && window.barbu.view !== null")
        watcher.evaluate("() => { window.firstSocket = window.barbu.ws; }")
        play_until(player, 12)

        one.kill()
        killed_at = seq(player)
        one = ServerProcess(db, *QUICK_COMMITS, *serve, port=one.port).start()  # started again where the page knows it
        play_until(player, killed_at + 12)  # the page came back by itself and plays on
        watcher.wait_for_function(f"() => window.barbu && window.barbu.seq >= {killed_at + 12}", timeout=30000)
        assert watcher.evaluate("() => window.barbu.ws === window.firstSocket")  # the watcher never reconnected
        assert "barbu_table_moves_total 1.0" in httpx.get(two.http + "/metrics").text
        shown = seq(player)  # read first: the bots play on while the log is read
        stored = Store(db).load_table(table)
        assert stored is not None and len(stored.actions) >= shown
        assert errors == []
    finally:
        one.stop()
        two.stop()


own_redis = pytest.fixture(running_redis, name="own_redis")


def test_the_page_tries_again_while_redis_is_away_and_plays_on_when_it_is_back(
    own_redis: RedisServer, browser: Browser
) -> None:
    serve = ("--redis", own_redis.url, "--redis-prefix", "page-outage", "--lease-seconds", "3", "--bot-delay", "0.05")
    with (
        postgres_schema() as db,
        ServerProcess(db, *QUICK_COMMITS, *serve) as one,
        ServerProcess(db, *QUICK_COMMITS, *serve) as two,
    ):
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        made = httpx.post(one.http + "/api/tables", json={"variant": "king", "seats": seats}).json()
        errors: list[str] = []
        watcher = browser.new_page(viewport={"width": 900, "height": 800})
        watcher.goto(f"{one.http}/t/{made['table']}")  # the first process serves the table from now on
        watcher.wait_for_function("() => window.barbu && window.barbu.view !== null")
        context = browser.new_context(viewport={"width": 1200, "height": 850}, locale="fr-FR")
        player = context.new_page()
        player.on("pageerror", lambda e: errors.append(str(e)))
        # every toast the page shows, kept: each one goes away after a few seconds
        player.add_init_script(
            """window.toasts = []; document.addEventListener("DOMContentLoaded", () => {
            const el = document.getElementById("toast");
            new MutationObserver(() => window.toasts.push(el.textContent)).observe(el, { childList: true });
            });"""
        )
        player.goto(two.http + made["seats"][0]["link"])  # relayed by the second process
        player.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.seat === 0")
        play_until(player, 8)
        player.wait_for_function("() => { const s = window.barbu; return s.view.to_act === s.seat && s.welcomed; }")
        before = seq(player)

        own_redis.kill()
        # told in the page's language, then refused again and again while Redis is away
        player.wait_for_function("() => window.toasts.some((t) => t.includes('perdu le contact'))", timeout=60000)
        player.wait_for_function(
            "() => window.toasts.some((t) => t.includes('reprennent contact')) && window.barbu.retry >= 2",
            timeout=60000,
        )
        # meanwhile nothing is offered: no card to play, no button to press, and the dot says why
        assert player.evaluate("() => window.barbu.welcomed") is False
        assert player.locator("#hand button.card.legal").count() == 0
        assert player.locator("#actions button:not([disabled])").count() == 0
        assert "Connexion perdue : votre tour attend son retour." in player.inner_text("#center")
        assert seq(player) == before  # the table waited for its person: nothing was played for them

        own_redis.start()  # back, empty: the page comes back by itself and plays on
        player.wait_for_function("() => window.barbu.welcomed", timeout=60000)
        play_until(player, before + 8)
        assert errors == []
        context.close()
        watcher.close()
