"""The new variants in Debian's Chromium: the lobby offers their options from /api/rules, and a
person plays them against bots by clicking, with the core's contract titles."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.rulesets import rules
from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS
from test_browser_table import click_something, deals_done, view, wait_for_change


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0.01", "--tables-per-client", "100") as s:
        yield s


def open_table(server: ServerProcess, browser: Browser, variant: str, set_flag: Any) -> tuple[Page, list[str]]:
    """Create a table in the lobby: ``variant``, a flag set by ``set_flag(page)``, seat 0 for a
    person and random bots elsewhere."""
    page = browser.new_page(viewport={"width": 1200, "height": 850})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    page.select_option("#variant", variant)
    page.click("details.flags summary")
    set_flag(page)
    page.fill("#name", "Zoé")
    for i in range(1, rules(variant).players):
        page.select_option(f"#seats .seat-choice:nth-child({i + 1}) select.level", "random")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => window.barbu && window.barbu.view !== null && window.barbu.table !== null")
    return page, errors


def play_until(page: Page, done: Any, choose: str | None = None, limit: int = 6) -> None:
    """Click as a person does until ``done(view)``; in the contract phase prefer the button
    titled ``choose`` when it is offered."""
    while not done(view(page)):
        assert deals_done(page) < limit, "the deal looked for never came"
        page.wait_for_function(
            """() => { const s = window.barbu; if (!s) return false; const v = s.view;
            return v && (v.game_over || (v.to_act === s.seat && !s.pending)); }""",
            timeout=20000,
        )
        if done(view(page)):
            return
        seq = page.evaluate("window.barbu.seq")
        v = view(page)
        wanted = page.locator("#actions button", has_text=choose) if choose else None
        if v["phase"] == "contract" and wanted is not None and wanted.count():
            wanted.first.click()
        else:
            click_something(page)
        wait_for_change(page, seq)


def options_of(server: ServerProcess, page: Page) -> Any:
    table = page.url.rsplit("/t/", 1)[1].split("?")[0].split("#")[0]
    found = httpx.get(server.http + "/api/tables", params={"status": "playing"}).json()
    return next(t["options"] for t in found if t["id"] == table)


def test_french_with_a_chooser_in_the_browser(server: ServerProcess, browser: Browser) -> None:
    page, errors = open_table(
        server, browser, "french", lambda p: p.select_option("#flag-contract_choice", "chooser_doubled")
    )
    assert options_of(server, page) == {"player_count": 4, "contract_choice": "chooser_doubled"}
    play_until(page, lambda v: any(h["declarer"] == 0 for h in v["history"]))
    dealt = next(h for h in view(page)["history"] if h["declarer"] == 0)
    title = rules("french").contract(dealt["contract"]).title
    assert title in page.inner_text("#sheet")
    assert errors == []
    page.close()


def test_king_seventh_and_last_in_the_browser(server: ServerProcess, browser: Browser) -> None:
    page, errors = open_table(server, browser, "king", lambda p: p.check("#flag-seventh_and_last"))
    assert options_of(server, page) == {"seventh_and_last": True}
    title = rules("king", {"seventh_and_last": True}).contract("king-seventh-and-last").title
    play_until(page, lambda v: any(h["contract"] == "king-seventh-and-last" for h in v["history"]), choose=title)
    assert title in page.inner_text("#sheet")
    assert errors == []
    page.close()
