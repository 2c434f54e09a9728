"""A whole game at the table in Chromium: the layout holds at every deal, in English and French.

One person plays against three bots that move at once. A small player inside the page presses
what a person would press (the first highlighted card, Pass or Call, the domino pass), so the
test waits only for the deals; at each deal it checks, at 1280x720, 1920x1080 and 390x844, that
the hand, the trick area and the acting seat are inside the viewport and the page does not
scroll, and that the deal just played can be reviewed (its last trick, every hand face up and the
settlement pair by pair). Halfway the page switches to French; the end screen follows, checked
in French then in English at 1280x720 and 390x844 (drawer open too): nothing clips.

Screenshots go to ``$BARBU_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS

SIZES = {"desktop": (1280, 720), "large": (1920, 1080), "phone": (390, 844)}
SHOTS = os.environ.get("BARBU_SCREENSHOTS")

AUTOPLAY = """(() => {
  const pick = () => {
    const s = window.barbu;
    if (!s || !s.view || s.autoplay === false || s.pending || s.seat === null) return;
    if (s.view.to_act !== s.seat || s.view.game_over) return;
    const q = (sel) => document.querySelector(sel);
    const phase = s.view.phase;
    let b = null;
    if (phase === "play") b = q("#hand button.card.legal") || q('[data-focus="domino-pass"]');
    else if (phase === "call") b = q('[data-focus="call-send"]:not([disabled])') || q('[data-focus="call-pass"]');
    else if (phase === "arrange") b = q('[data-focus="arrange-send"]:not([disabled])') || q("#hand button.card");
    else b = q("#actions button:not([disabled])");
    if (b) b.click();
  };
  setInterval(pick, 25);
})();"""
"""Presses, inside the page, what a person would press when it is their turn."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('game') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0", "--tables-per-client", "100") as s:
        yield s


LAYOUT = """() => {
  const out = [];
  const d = document.documentElement;
  if (d.scrollHeight > innerHeight + 1 || d.scrollWidth > innerWidth + 1) {
    out.push(`page scrolls ${d.scrollWidth}x${d.scrollHeight}`);
  }
  const inside = (sel) => {
    const e = document.querySelector(sel);
    if (!e) return false;
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  };
  const v = window.barbu.view;
  const want = ["header.bar #info", "#center", "#me"];
  if (v.to_act !== null) want.push(".seat.to-act");
  if (v.hand.length) want.push("#hand");
  for (const sel of want) if (!inside(sel)) out.push(`${sel} off screen`);
  return out;
}"""
"""What does not fit: the page scrolls, or the header, trick area, own seat, hand or acting seat is off screen."""


END_FITS = """() => {
  const out = [];
  const inside = (e, box) => {
    const r = e.getBoundingClientRect();
    return r.top >= box.top - 0.5 && r.left >= box.left - 0.5
      && r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5;
  };
  const screen = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
  const visible = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden";
  for (const e of document.querySelectorAll("header.bar *, aside.side .side-head *")) {
    if (visible(e) && !e.closest(".visually-hidden, .conn-text") && !inside(e, screen)) {
      out.push(`${e.tagName} ${e.textContent.slice(0, 20)} off screen`);
    }
  }
  const head = document.querySelector("header.bar").getBoundingClientRect();
  const tools = document.querySelector("header.bar .tools").getBoundingClientRect();
  const sw = document.querySelector(".lang-switch").getBoundingClientRect();
  if (sw.top < tools.top - 0.5 || sw.top >= tools.top + tools.height / 2) {
    out.push("the language switch wraps below the tools");
  }
  if (head.height > innerHeight / 8) out.push(`the header takes ${head.height}px`);
  const center = document.querySelector("#center").getBoundingClientRect();
  const parts = "#final h2, #final .ranking li, #final svg.curves, #final .swings li, #final .form-row > *";
  for (const e of document.querySelectorAll(parts)) {
    if (!inside(e, center)) out.push(`end screen: ${e.tagName} ${e.textContent.slice(0, 20)} clipped`);
  }
  for (const e of document.querySelectorAll("aside.side td, aside.side th")) {
    if (visible(e) && e.scrollWidth > e.clientWidth + 1) out.push(`sheet cell ${e.textContent} cut`);
  }
  return out;
}"""
"""What the end screen clips: the header's tools or the language switch off screen or wrapped
below, the ranking, curves, swings or buttons outside the visible trick area, a sheet cell cut."""


def settle(page: Page) -> None:
    """Wait until the side panel's slide (or any transition) after a change of size has ended."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def check_end_screen(page: Page, lang: str) -> None:
    """The end screen at 1280x720 and 390x844, with the drawer open on the phone: nothing clips."""
    for name, (w, h) in (("desktop", SIZES["desktop"]), ("phone", SIZES["phone"])):
        page.set_viewport_size({"width": w, "height": h})
        settle(page)
        shoot(page, f"{lang}-{name}-end")
        problems = page.evaluate(END_FITS)
        assert not problems, f"{lang} end screen at {name}: {problems}"
    page.click("#btn-panel")  # the drawer on the phone
    page.wait_for_function("() => document.body.classList.contains('side-open')")
    settle(page)
    shoot(page, f"{lang}-phone-end-drawer")
    problems = page.evaluate(END_FITS)
    assert not problems, f"{lang} end screen drawer at phone: {problems}"
    page.click("#btn-close")
    page.set_viewport_size({"width": 1280, "height": 720})


def check_layout(page: Page, where: str) -> None:
    problems = page.evaluate(LAYOUT)
    assert not problems, f"{where}: {problems}"


def shoot(page: Page, name: str) -> None:
    if SHOTS:
        settle(page)
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def deal_of(page: Page) -> Any:
    return page.evaluate("[window.barbu.view.deal, window.barbu.view.game_over, window.barbu.view.history.length]")


def wait_quiet(page: Page) -> None:
    """Until the bots have nothing left to do: the person is to act (or the game is over)."""
    page.wait_for_function(
        """() => { const s = window.barbu; if (!s) return false; const v = s.view;
        return v && !s.pending && (v.game_over || v.to_act === s.seat); }""",
        timeout=30000,
    )


CARD_WORDS = {
    "en": r"\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)\b",
    "fr": r"\b(deux|trois|quatre|cinq|six|sept|huit|neuf|dix|valet|dame|roi|as) de (pique|cœur|carreau|trèfle)\b",
}
"""A card's screen-reader name in each language (the core's words, cards.js's cardLabel)."""


def test_a_whole_game_holds_on_screen_and_every_deal_can_be_reviewed(server: ServerProcess, browser: Browser) -> None:
    made = httpx.post(
        f"{server.http}/api/tables",
        json={
            "variant": "classic",
            "seats": [{"kind": "human", "name": "Zoé"}] + [{"kind": "bot", "level": "random"}] * 3,
        },
        headers={"Origin": server.http},
    )
    assert made.status_code == 200, made.text
    link = made.json()["seats"][0]["link"]
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(AUTOPLAY)
    page.goto(server.http + link)
    page.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.table !== null")
    shoot(page, "en-desktop-deal1")
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "en-phone-deal1")
    page.set_viewport_size({"width": 1280, "height": 720})
    seen = 0
    french = False
    reviews = 0
    while True:
        page.wait_for_function(
            f"""() => window.barbu && window.barbu.view
            && (window.barbu.view.history.length > {seen} || window.barbu.view.game_over)""",
            timeout=60000,
        )
        page.evaluate("window.barbu.autoplay = false")  # the deal waits while it is looked at
        wait_quiet(page)
        deal, over, done = deal_of(page)
        seen = done
        for name, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            check_layout(page, f"deal {deal} at {name}")
        page.set_viewport_size({"width": 1280, "height": 720})
        if over:
            break
        # the deal just played: its review, opened by itself, with the numbers of the core
        review = page.evaluate("window.barbu.view.last_deal")
        assert review["deal"] == done
        if review["tricks"] and page.locator("#center .review-card").count():
            reviews += 1
            card = page.locator("#center .review-card").first
            assert card.locator(".review-trick .slot").count() == len(review["tricks"][-1]["cards"])
            assert card.locator(".hands-up .card").count() == sum(len(t["cards"]) for t in review["tricks"])
            assert card.locator(".pairs li").count() == len(review["settlement"])
            heard = card.locator(".hands-up .cards").first.get_attribute("aria-label") or ""  # cards in words
            assert re.search(CARD_WORDS["fr" if french else "en"], heard) and "♠" not in heard, heard
            if SHOTS and done in (1, 16):
                lang = "fr" if french else "en"
                shoot(page, f"{lang}-desktop-end-of-deal{done}")
                page.set_viewport_size({"width": 390, "height": 844})
                shoot(page, f"{lang}-phone-end-of-deal{done}")
                page.set_viewport_size({"width": 1280, "height": 720})
        if done == 14 and not french:  # the switch: the page reloads in French and resumes the table
            page.select_option(".lang-switch", "fr")
            page.wait_for_function(
                "() => document.documentElement.lang === 'fr' && window.barbu && window.barbu.view !== null",
                timeout=30000,
            )
            french = True
        if deal == 15 and SHOTS:
            shoot(page, "fr-desktop-deal15")
            page.set_viewport_size({"width": 390, "height": 844})
            shoot(page, "fr-phone-deal15")
            page.set_viewport_size({"width": 1280, "height": 720})
        page.evaluate("window.barbu.autoplay = true")
    assert reviews >= 10
    assert french and "Classement final" in page.inner_text("#center")
    page.wait_for_function("() => window.barbu && window.barbu.gameReview && window.barbu.gameReview.length === 28")
    assert page.locator("svg.curves polyline").count() == 4
    assert page.locator(".swings li").count() == 3
    check_end_screen(page, "fr")
    page.click("#tab-game")
    page.locator("#game-list button, .game-list button").nth(3).click()
    assert "4" in page.inner_text("#center .review-card h2")
    shoot(page, "fr-desktop-end-review")
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "fr-phone-end-review")
    page.set_viewport_size({"width": 1280, "height": 720})
    # back in English: the same end screen fits as well
    page.select_option(".lang-switch", "en")
    page.wait_for_function(
        "() => document.documentElement.lang === 'en' && window.barbu && window.barbu.view !== null"
        " && window.barbu.gameReview && window.barbu.gameReview.length === 28",
        timeout=30000,
    )
    assert "Final ranking" in page.inner_text("#center")
    check_end_screen(page, "en")
    # a rematch: the same rule set and seats at a new table, this browser already at its seat
    old = page.evaluate("location.pathname")
    page.click("[data-focus='rematch']")
    page.wait_for_function(
        f"() => location.pathname !== '{old}' && window.barbu && window.barbu.seat === 0 && window.barbu.view !== null"
    )
    assert page.evaluate("window.barbu.view.deal") == 1
    assert errors == []
    context.close()


def test_an_illegal_card_is_answered_with_the_rule_and_a_second_tab_takes_the_seat_over(
    server: ServerProcess, browser: Browser
) -> None:
    made = httpx.post(
        f"{server.http}/api/tables",
        json={"variant": "classic", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3},
        headers={"Origin": server.http},
    ).json()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    first = context.new_page()
    first.add_init_script(AUTOPLAY)
    first.goto(server.http + made["seats"][0]["link"])
    # play on until a card of the hand is not playable (a suit to follow)
    first.wait_for_function(
        """() => { const s = window.barbu; const v = s && s.view;
        if (!v || v.to_act !== s.seat || s.pending || v.phase !== "play" || !v.current_trick) return false;
        if (document.querySelector("#hand button.card.dim")) { s.autoplay = false; return true; }
        return false; }""",
        timeout=60000,
    )
    first.locator("#hand button.card.dim").first.click()
    first.wait_for_selector("#toast:not(.hidden)")
    assert "not legal" in first.inner_text("#toast")  # the core's reason, not the page's
    assert first.evaluate("window.barbu.pending") is None
    first.keyboard.press("l")  # the last trick on demand (of this deal, or of the last one)
    assert first.locator("#center .last-shown").count() == 1
    first.keyboard.press("Escape")
    assert first.locator("#center .last-shown").count() == 0
    second = context.new_page()  # the same browser: its cookie holds the seat
    second.goto(f"{server.http}/t/{made['table']}#seat=0")
    second.wait_for_function("() => window.barbu && window.barbu.seat === 0")
    first.wait_for_function("() => window.barbu && window.barbu.seat === null")
    assert "elsewhere" in first.inner_text("#conn-text")
    # the lobby's "my games" brings this browser back to its own seat
    first.goto(server.http + "/")
    first.wait_for_selector("#my-games li a")
    first.click(f"#my-games a[href='/t/{made['table']}#seat=0']")
    first.wait_for_function("() => window.barbu && window.barbu.seat === 0")
    context.close()
