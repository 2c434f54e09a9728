"""French with two decks in Debian's Chromium: the lobby offers 6 to 8 seats and the tarot king
from /api/rules, and the table page seats eight players around the felt while a person plays."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS
from test_browser_table import view


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0.01", "--tables-per-client", "100") as s:
        yield s


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_eight_players_with_two_decks(server: ServerProcess, browser: Browser, width: int, height: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    page.select_option("#variant", "french-two-decks")
    page.select_option("#player-count", "8")
    assert page.locator("#seats .seat-choice").count() == 8
    page.click("details.flags summary")
    page.check("#flag-tarot_king")
    page.fill("#name", "Zoé")
    for i in range(1, 8):
        page.select_option(f"#seats .seat-choice:nth-child({i + 1}) select.level", "random")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.table !== null")
    for _ in range(4):  # four cards of the person's, each when its turn comes
        page.wait_for_function(
            "() => { const s = window.barbu; if (!s) return false; const v = s.view;"
            " return v && v.to_act === s.seat && !s.pending; }",
            timeout=20000,
        )
        seq = page.evaluate("window.barbu.seq")
        page.locator("#hand button.card.legal").first.click()
        page.wait_for_function(f"() => window.barbu && window.barbu.seq > {seq}", timeout=20000)
    v = view(page)
    assert v["players"] == 8 and len(v["hand"]) == 12 - 4
    for place in ("me", "bl", "left", "tl", "top", "tr", "right", "br"):
        assert page.locator(f".felt .pos-{place}").count() == 1, place
    assert not errors
