"""The club in Chromium: two people sign up, find each other in a rated quick game filled with
bots, play it to its end at the table page, and find themselves on the ladder and their profiles."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from barbu.server.client import ServerProcess

AUTOPLAY = """() => {
  // the person's hand, quick: when the seat is to act, send the first of the actions the view offers
  window.autoplay = setInterval(() => {
    const s = window.barbu, v = s.view;
    if (!v || v.game_over || s.seat === null || v.to_act !== s.seat || s.pending) return;
    if (!s.ws || s.ws.readyState !== 1) return;
    const action = v.legal_actions[0];
    s.pending = { id: `auto${s.seq}`, seq: s.seq, action };
    s.ws.send(JSON.stringify({ type: "act", ...s.pending }));
  }, 5);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('club') / 'barbu.db'}"
    with ServerProcess(db, "--bot-delay", "0") as s:
        yield s


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
        page.select_option("#quick-variant", "king")
        page.select_option("#quick-wait", "5")
        assert page.is_checked("#quick-rated")
        page.click("#quick-find")
        pages.append(page)
    pages[0].wait_for_selector("#quick-status >> text=Waiting")
    for page in pages:
        page.wait_for_selector("#quick-go", timeout=20000)
    links = [p.get_attribute("#quick-go", "href") or "" for p in pages]
    assert links[0].split("#")[0] == links[1].split("#")[0] and links[0] != links[1]
    for page in pages:
        page.click("#quick-go")
        page.wait_for_url("**/t/**")
        page.wait_for_function("() => window.barbu.view !== null && window.barbu.seat !== null")
    # the first cards by hand, as a person plays them, then quicker
    for page in pages:
        page.wait_for_function(
            "() => { const s = window.barbu, v = s.view; return v && v.to_act === s.seat && !s.pending; }",
            timeout=20000,
        )
        seq = page.evaluate("window.barbu.seq")
        v = page.evaluate("window.barbu.view")
        if v["phase"] == "play" and page.locator("#hand button.card.legal").count():
            page.locator("#hand button.card.legal").first.click()
        else:
            page.locator("#actions button:not([disabled])").first.click()
        page.wait_for_function(f"() => window.barbu.seq > {seq}", timeout=20000)
        page.evaluate(AUTOPLAY)
    for page in pages:
        page.wait_for_function("() => window.barbu.view && window.barbu.view.game_over", timeout=120000)
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
