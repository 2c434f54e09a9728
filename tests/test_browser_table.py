"""The pages in Debian's Chromium, driven by Playwright: playing by clicking, with friends, after a reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.rulesets import rules
from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0.03", "--tables-per-client", "100") as s:
        yield s


def view(page: Page) -> Any:
    return page.evaluate("window.barbu.view")


def my_turn(page: Page) -> bool:
    return bool(
        page.evaluate("""() => { const s = window.barbu; if (!s) return false; const v = s.view;
        return !!v && !v.game_over && s.seat !== null && v.to_act === s.seat && !s.pending && s.welcomed; }""")
    )


def deals_done(page: Page) -> int:
    return int(page.evaluate("window.barbu.view ? window.barbu.view.history.length : 0"))


def click_something(page: Page) -> None:
    """Do what a person does: press an offered button, or click a highlighted card."""
    v = view(page)
    if v["phase"] == "play":
        cards = page.locator("#hand button.card.legal")
        playable = [a["card"] for a in v["legal_actions"] if a["type"] == "play"]
        assert cards.count() == len(playable)  # highlighted: exactly the server's legal cards
        assert page.locator("#hand button.card.dim").count() == len(v["hand"]) - len(playable)
        if playable:
            cards.first.click()
            return
    page.locator("#actions button:not([disabled])").first.click()


RECORD_ACTS = """(() => {
  window.sentActs = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const message = JSON.parse(data);
    if (message.type === "act") {
      const v = window.barbu.view;
      window.sentActs.push({ action: message.action, phase: v.phase, offered: v.legal_actions });
    }
    return send.call(this, data);
  };
})();"""
"""Keeps every action the page sends, beside the legal actions its view offered at that moment."""


def assert_sent_as_offered(page: Page) -> None:
    """Every action the page sent is one of the view's ``legal_actions``, exactly as given."""
    acts = page.evaluate("window.sentActs")
    assert acts
    for act in acts:
        if act["phase"] != "arrange":  # any split of the hand is an arrangement: the page builds it
            assert act["action"] in act["offered"], act


def wait_for_change(page: Page, seq: int) -> None:
    page.wait_for_function(
        f"() => window.barbu && (window.barbu.seq > {seq} || (window.barbu.view && window.barbu.view.game_over))",
        timeout=15000,
    )


def test_a_person_plays_a_whole_deal_against_three_bots_by_clicking(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 850})
    page.add_init_script(RECORD_ACTS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    page.fill("#name", "Zoé")
    for i in (1, 2, 3):
        page.select_option(f"#seats .seat-choice:nth-child({i + 1}) select.level", "random")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.table !== null")
    assert "Zoé (you)" in page.inner_text(".seat.mine")
    used_keyboard = False
    while deals_done(page) < 1:
        page.wait_for_function(
            """() => { const s = window.barbu; if (!s) return false; const v = s.view;
            return v && (v.history.length > 0 || (v.to_act === s.seat && !s.pending)); }""",
            timeout=15000,
        )
        if deals_done(page) >= 1:
            break
        seq = page.evaluate("window.barbu.seq")
        v = view(page)
        if v["phase"] == "play" and not used_keyboard and any(a["type"] == "play" for a in v["legal_actions"]):
            page.locator("#hand button.card.legal").first.focus()
            page.keyboard.press("Enter")  # playable with the keyboard too
            used_keyboard = True
        else:
            click_something(page)
        wait_for_change(page, seq)
    assert used_keyboard
    assert page.locator("#sheet table.sheet tbody tr").count() == 1
    page.wait_for_selector("#center .settle")  # the settlement of the deal just played
    v = view(page)
    title = rules(v["variant"]).contract(v["history"][0]["contract"]).title  # the core's words, via /api/rules
    assert f"Deal 1: {title}" in page.inner_text("#center .settle")
    assert_sent_as_offered(page)
    assert {a["action"]["type"] for a in page.evaluate("window.sentActs")} >= {"call", "play"}
    assert errors == []
    page.close()


def test_four_browsers_play_a_deal_together(server: ServerProcess, browser: Browser) -> None:
    made = httpx.post(server.http + "/api/tables", json={"variant": "classic", "seats": [{"kind": "human"}] * 4}).json()
    contexts = [browser.new_context(viewport={"width": 900, "height": 800}) for _ in range(4)]
    pages = []
    for ctx, seat in zip(contexts, made["seats"], strict=True):
        page = ctx.new_page()
        page.goto(server.http + seat["link"])
        pages.append(page)
    for page in pages:
        page.wait_for_function(
            "() => window.barbu && window.barbu.view !== null && window.barbu.table"
            " && window.barbu.table.status === 'playing'"
        )
        page.evaluate(RECORD_ACTS)
    while deals_done(pages[0]) < 1:
        actor = next((p for p in pages if my_turn(p)), None)
        if actor is None:
            pages[0].wait_for_timeout(30)
            continue
        seq = actor.evaluate("window.barbu.seq")
        click_something(actor)
        for p in pages:
            wait_for_change(p, seq)
    # everyone sees the same public state, and only their own hand
    views = [view(p) for p in pages]
    assert len({str(v["totals"]) for v in views}) == 1
    assert len({" ".join(v["hand"]) for v in views}) == 4
    for p in pages:
        assert_sent_as_offered(p)  # every seat called and played by sending back what it was offered
    for ctx in contexts:
        ctx.close()


def test_a_reload_mid_trick_resumes_the_table(server: ServerProcess, browser: Browser) -> None:
    made = httpx.post(
        server.http + "/api/tables",
        json={"variant": "classic", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3},
    ).json()
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(server.http + made["seats"][0]["link"])
    page.wait_for_function("() => window.barbu && window.barbu.view !== null")
    while True:  # play until a trick is under way and it is our turn again
        page.wait_for_function(
            "() => { const s = window.barbu; return s.view.to_act === s.seat && !s.pending; }", timeout=15000
        )
        v = view(page)
        if v["phase"] == "play" and v["current_trick"] and len(v["tricks"]) >= 1:
            break
        seq = page.evaluate("window.barbu.seq")
        click_something(page)
        wait_for_change(page, seq)
    before = view(page)
    trick_cards = page.locator("#center .trick .card").count()
    assert trick_cards == len(before["current_trick"]["cards"]) > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 392  # no sideways scrolling on a phone
    page.reload()
    page.wait_for_function("() => window.barbu && window.barbu.view !== null")
    after = view(page)
    assert after == before
    assert page.locator("#center .trick .card").count() == trick_cards
    assert page.locator("#hand button.card").count() == len(before["hand"])
    seq = page.evaluate("window.barbu.seq")
    click_something(page)
    wait_for_change(page, seq)
    assert view(page)["plays"][: len(before["plays"])] == before["plays"]
    page.close()


def test_the_page_offers_no_action_while_its_connection_is_down(server: ServerProcess, browser: Browser) -> None:
    """A card pressed while the page reconnects would go nowhere: nothing is offered until it is back."""
    made = httpx.post(
        server.http + "/api/tables",
        json={"variant": "classic", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3},
    ).json()
    page = browser.new_page(viewport={"width": 1200, "height": 850})
    page.goto(server.http + made["seats"][0]["link"])
    while True:  # our turn with a card to play
        page.wait_for_function(
            "() => { const s = window.barbu; return s && s.view && s.view.to_act === s.seat && !s.pending"
            " && s.welcomed; }",
            timeout=15000,
        )
        if view(page)["phase"] == "play":
            break
        seq = page.evaluate("window.barbu.seq")
        click_something(page)
        wait_for_change(page, seq)
    assert page.locator("#hand button.card.legal").count() > 0
    # the connection drops, and the next ones never open (a server out of reach)
    page.evaluate("""() => {
      window.sentWhileDown = [];
      window.WebSocket = class { constructor() { this.readyState = 0; }
        send(data) { window.sentWhileDown.push(data); } close() {} };
      window.barbu.ws.close();
    }""")
    page.wait_for_function("() => !window.barbu.welcomed", timeout=5000)
    page.wait_for_timeout(700)  # past the first retry: a new socket that never opens
    assert page.inner_text("#conn-text") in ("reconnecting…", "connecting…")
    assert page.locator("#actions button:not([disabled])").count() == 0
    assert page.locator("#hand button.card.legal").count() == 0  # no card looks playable
    assert "Connection lost: your turn waits until it is back." in page.inner_text("#center")
    assert page.locator('#hand button.card[aria-disabled="true"]').count() == len(view(page)["hand"])
    page.locator("#hand button.card").first.click(force=True)  # pressed all the same: nothing is sent
    assert page.evaluate("window.barbu.pending") is None
    assert page.evaluate("window.sentWhileDown") == []
    page.close()


def test_the_lobby_fits_a_phone(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    page.select_option("#variant", "chinese-poker")  # the longest rule set name
    page.click("details.flags summary")  # every house rule shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 362
    page.close()
