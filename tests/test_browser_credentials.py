"""Seat credentials in Chromium: nothing a script can read holds a seat's key, and a link opened in
a second browser does not quietly get the seat's hand: that browser is asked, the first one is told."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS

READABLE = """() => JSON.stringify({
  local: Object.entries(localStorage),
  session: Object.entries(sessionStorage),
  cookie: document.cookie,
  url: location.href,
  history: history.state,
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('credentials') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0.03", "--tables-per-client", "100") as s:
        yield s


def keys_of(links: list[str]) -> list[str]:
    return [link.split("key=")[1] for link in links]


def test_after_joining_no_seat_key_is_readable_by_a_script(server: ServerProcess, browser: Browser) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    page.fill("#name", "Zoé")
    page.select_option("#seats .seat-choice:nth-child(2) select.kind", "friend")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created-links input")
    links = [page.locator("#created-links input").nth(i).input_value() for i in range(2)]
    keys = keys_of(links)
    assert all(len(k) >= 20 for k in keys)
    page.click("#go-seat")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => window.barbu && window.barbu.seat === 0 && window.barbu.view !== null")
    assert page.evaluate("window.barbu.view.hand.length") == 13
    # the creator still sees the friend's invitation while the table waits for them
    page.wait_for_selector("#invite:not(.hidden) #invite-links input")
    assert page.locator("#invite-links input").first.input_value() == links[1]
    readable = page.evaluate(READABLE)
    for key in keys:
        assert key not in readable, readable
    assert "barbu.name" in readable  # the name is kept: it is no secret
    # a reload keeps the seat, from what the browser holds and no script can read
    page.reload()
    page.wait_for_function("() => window.barbu && window.barbu.seat === 0 && window.barbu.view !== null")
    assert page.evaluate("window.barbu.view.hand.length") == 13
    for key in keys:
        assert key not in page.evaluate(READABLE)
    # the friend joins in a browser of their own: their key disappears from their page too
    friend = browser.new_context().new_page()
    friend.goto(links[1])
    friend.wait_for_function("() => window.barbu && window.barbu.seat === 1 && window.barbu.view !== null")
    assert keys[1] not in friend.evaluate(READABLE)
    page.wait_for_selector("#invite.hidden", state="attached")  # no invitation left to send
    ctx.close()
    friend.context.close()


def told(page: Page) -> str:
    return page.inner_text("#conn-text") + " " + page.inner_text("#toast")


def test_a_link_replayed_in_another_browser_does_not_silently_get_the_hand(
    server: ServerProcess, browser: Browser
) -> None:
    made = httpx.post(
        server.http + "/api/tables",
        json={"variant": "classic", "seats": [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot"}] * 2},
    ).json()
    link = server.http + made["seats"][0]["link"]
    first = browser.new_context().new_page()
    first.goto(link)
    first.wait_for_function("() => window.barbu && window.barbu.seat === 0 && window.barbu.view !== null")
    hand = first.evaluate("window.barbu.view.hand")
    assert len(hand) == 13

    second = browser.new_context().new_page()  # another browser: the leaked link, replayed
    second.goto(link)
    second.wait_for_function(
        """() => { const t = document.getElementById('takeover');
        return (window.barbu !== undefined && window.barbu.seat === 0)
            || (t !== null && !t.classList.contains('hidden')); }"""
    )
    assert second.evaluate("window.barbu.seat") is None
    assert "another browser" in second.inner_text("#takeover")
    second.wait_for_timeout(500)
    assert second.evaluate("window.barbu.seat") is None
    seen = second.evaluate("window.barbu.view ? window.barbu.view.hand : []")
    assert not set(seen) & set(hand)
    assert first.evaluate("window.barbu.seat") == 0  # the first browser keeps its seat meanwhile
    assert "taken over" not in told(first)

    # only an explicit choice moves the seat, and the first browser is told at once
    second.click("#takeover button.primary")
    second.wait_for_function(
        "() => window.barbu && window.barbu.seat === 0 && window.barbu.view !== null && window.barbu.view.hand.length"
    )
    assert second.evaluate("window.barbu.view.hand") == hand
    first.wait_for_function("() => document.getElementById('conn-text').textContent.includes('taken over')")
    assert "another browser" in told(first)
    assert first.evaluate("window.barbu.seat") is None
    first.wait_for_timeout(800)  # it does not quietly reconnect and take the seat back
    assert second.evaluate("window.barbu.seat") == 0
    assert "taken over" in told(first)
    first.context.close()
    second.context.close()
