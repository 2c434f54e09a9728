"""The club in Chromium: two people sign up, find each other in a rated quick game filled with
bots, play it to its end at the table page, and find themselves on the ladder and their profiles."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import websockets
from playwright.sync_api import Browser, Page

from barbu.server.client import SeatClient, ServerProcess
from conftest import QUICK_COMMITS

MY_TURN = (
    "() => { const s = window.barbu, v = s.view; return !!v && !v.game_over && v.to_act === s.seat && !s.pending; }"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('club') / 'barbu.db'}"
    with ServerProcess(
        db, *QUICK_COMMITS, "--bot-delay", "0", "--actions-per-second", "1000", "--messages-per-second", "1000"
    ) as s:
        yield s


async def play_seat(server: ServerProcess, table: str, seat: int, cookie: str) -> None:
    """Play the seat this browser holds (its cookie proves it) until the game ends: the first legal action."""
    client = SeatClient(server.ws)
    client.ws = await websockets.connect(server.ws, additional_headers={"Cookie": f"barbu_browser={cookie}"})
    await client.send({"type": "hello", "table": table, "seat": seat})
    assert (await client.recv())["type"] == "welcome"
    while client.view is None or not client.view["game_over"]:
        if client.my_turn():
            answer = await client.answer(await client.act(client.view["legal_actions"][0]), timeout=30)
            assert "ack" in answer, answer
        else:
            await client.recv(timeout=60)
    await client.close()


def sign_up(page: Page, server: ServerProcess, name: str) -> None:
    page.goto(server.http + "/account")
    page.wait_for_selector("#signup")
    page.fill("#signup input[name=name]", name)
    page.fill("#signup input[name=password]", "a long password")
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#me")
    assert page.inner_text("#me") == name


def test_two_accounts_play_a_rated_quick_game_and_reach_the_ladder(server: ServerProcess, browser: Browser) -> None:
    pages = []
    errors: list[str] = []
    for name in ("Anne", "Bert"):
        page = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB").new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        sign_up(page, server, name)
        pages.append(page)
    for page in pages:  # both join within the first one's wait
        page.select_option("#quick-variant", "king")
        page.select_option("#quick-wait", "120" if page is pages[0] else "5")  # the second's wait ends it
        assert page.is_checked("#quick-rated")
        page.click("#quick-find")
    pages[0].wait_for_selector("#quick-status >> text=Waiting")
    for page in pages:
        page.wait_for_selector("#quick-go", timeout=20000)
    links = [p.get_attribute("#quick-go", "href") or "" for p in pages]
    assert links[0].split("#")[0] == links[1].split("#")[0] and links[0] != links[1]
    for page in pages:
        page.click("#quick-go")
        page.wait_for_url("**/t/**")
        page.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.seat !== null")
    # by hand, as a person plays, until each has acted
    by_hand: set[int] = set()
    deadline = time.monotonic() + 30
    while len(by_hand) < len(pages) and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if not page.evaluate(MY_TURN):
                continue
            seq = page.evaluate("window.barbu.seq")
            v = page.evaluate("window.barbu.view")
            if v["phase"] == "play" and page.locator("#hand button.card.legal").count():
                page.locator("#hand button.card.legal").first.click()
            else:
                page.locator("#actions button:not([disabled])").first.click()
            page.wait_for_function(f"() => window.barbu && window.barbu.seq > {seq}", timeout=20000)
            by_hand.add(i)
        pages[0].wait_for_timeout(20)
    assert len(by_hand) == len(pages)
    # the rest of the game from the same browsers' cookies, by a program as quick as the bots
    # (a whole game clicked in two pages takes minutes on a busy machine)
    table = links[0].split("#")[0].rsplit("/", 1)[1]
    seats = [int(link.split("seat=")[1].split("&")[0]) for link in links]
    cookies = [next(c["value"] for c in p.context.cookies() if c["name"] == "barbu_browser") for p in pages]
    for page in pages:
        page.goto(server.http + "/ladder?variant=king")

    async def finish() -> None:
        await asyncio.gather(
            *(play_seat(server, table, seat, cookie) for seat, cookie in zip(seats, cookies, strict=True))
        )

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        pool.submit(asyncio.run, finish()).result(timeout=300)
    ladder = pages[0]
    ladder.goto(server.http + "/ladder?variant=king")
    ladder.wait_for_function("() => document.querySelectorAll('#ladder tbody tr').length >= 3", timeout=20000)
    names = ladder.locator("#ladder tbody tr td:nth-child(2) a").all_inner_texts()
    assert {"Anne", "Bert"} <= set(names), names
    assert ladder.locator("#ladder .badge", has_text="provisional").count() == len(names)
    ladder.click("#ladder a:text-is('Bert')")
    ladder.wait_for_selector("#player-name")
    assert ladder.inner_text("#player-games") == "1"
    assert ladder.locator("#results tbody tr").count() == 1 and ladder.locator("svg.spark").count() == 1
    mine = pages[1]
    mine.goto(server.http + "/account")
    mine.wait_for_selector("#my-games")
    assert "finished" in mine.inner_text("#my-games")
    assert errors == []


def test_the_club_pages_speak_french_and_fit_a_phone(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    page.goto(server.http + "/account")
    page.wait_for_selector("#login")
    assert "Se connecter" in page.inner_text("#login") and page.evaluate("document.documentElement.lang") == "fr"
    page.fill("#login input[name=name]", "Personne")
    page.fill("#login input[name=password]", "wrong password")
    page.click("#login button[type=submit]")
    page.wait_for_function("() => document.getElementById('login-error').textContent.length > 0")
    page.goto(server.http + "/ladder")
    page.wait_for_selector("#policy")
    assert "provisoire" in page.inner_text("#policy")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
