"""Two people in two browsers: one leaves and takes the seat back, a proposal to abandon is refused,
another is agreed, and the creator deletes the abandoned table from "My games"."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from barbu.language import catalogue
from barbu.server.client import ServerProcess
from barbu.storage import Store
from conftest import QUICK_COMMITS
from test_browser_axe import serious


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('abandon') / 'barbu.db'}"
    with ServerProcess(
        db, *QUICK_COMMITS, "--bot-delay", "0.3", "--takeover-after", "600", "--abandon-after", "300"
    ) as s:
        yield s


CREATE = """async () => {
  const res = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({variant: "classic", seats: [{kind: "human", name: "Ann"}, {kind: "human", name: "Bob"},
      {kind: "bot", level: "random"}, {kind: "bot", level: "random"}]})});
  return await res.json();
}"""


def seated(page: Page, seat: int | None, status: str = "playing") -> None:
    page.wait_for_function(
        f"""() => window.barbu && window.barbu.view !== null && window.barbu.table !== null
        && window.barbu.seat === {"null" if seat is None else seat} && window.barbu.table.status === "{status}" """
    )


def shoot(page: Page, name: str) -> None:
    """A screenshot in ``$BARBU_SCREENSHOTS`` when it is set."""
    folder = os.environ.get("BARBU_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def settings(page: Page) -> None:
    """Open the side panel's settings, where "This table" is (the drawer first, on a phone)."""
    if not page.locator("#tab-options").is_visible():
        page.click("#btn-panel")
    page.click("#tab-options")


def fr(text: str) -> str:
    found = catalogue("fr").as_json()["messages"][text]
    assert isinstance(found, str) and found
    return found


def test_leave_take_back_refuse_agree_and_delete(server: ServerProcess, browser: Browser) -> None:
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", bypass_csp=True)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors: list[str] = []
    for p in (ann, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    ann.goto(server.http + "/")
    made = ann.evaluate(CREATE)  # Ann's browser creates the table: it is its owner
    table = made["table"]
    ann.goto(server.http + made["seats"][0]["link"])
    bob.goto(server.http + made["seats"][1]["link"])
    seated(ann, 0)
    seated(bob, 1)

    # Bob leaves: he watches, a bot plays his seat at once, and he takes it back
    settings(bob)
    bob.click("#table-life [data-focus=leave]")
    seated(bob, None)
    assert fr("You left seat {n}: a bot plays it until you come back.").replace("{n}", "1") in bob.inner_text("#notice")
    ann.wait_for_function("() => window.barbu.table.seats[1].left && window.barbu.table.seats[1].bot_playing")
    assert "left the table" in ann.inner_text(".seat[data-seat='1']")
    bob.click("#notice [data-focus=take-back]")
    seated(bob, 1)
    ann.wait_for_function("() => !window.barbu.table.seats[1].left && window.barbu.table.seats[1].online")
    assert bob.locator("#notice").is_hidden()

    # Ann proposes to abandon; Bob is asked on his page, and refuses
    settings(ann)
    ann.click("#table-life [data-focus=abandon]")
    bob.wait_for_selector("#notice [data-focus=consent-yes]")
    asked = bob.inner_text("#notice")
    assert "Ann" in asked and fr("Agree to abandon") in asked and fr("Keep playing") in asked
    assert "300" in asked or "299" in asked or "298" in asked  # the time left is stated
    assert serious(bob) == [], "the consent notice"  # axe-core: no serious violation
    shoot(bob, "fr-phone-abandon-asked")
    shoot(ann, "en-desktop-abandon-waiting")
    assert "Bob" in ann.inner_text("#notice")  # Ann sees whose answer the table waits for
    assert ann.locator("#notice [data-focus=consent-yes]").count() == 0  # its author is not asked
    bob.click("#notice [data-focus=consent-no]")
    ann.wait_for_function("() => window.barbu.table.abandon === null")
    ann.wait_for_selector("#toast:not(.hidden)")
    assert "Bob" in ann.inner_text("#toast") and "keep playing" in ann.inner_text("#toast")
    assert ann.evaluate("window.barbu.table.status") == "playing"

    # Bob proposes in turn; Ann agrees: the table is abandoned for both
    settings(bob)
    bob.click("#table-life [data-focus=abandon]")
    ann.wait_for_selector("#notice [data-focus=consent-yes]")
    ann.click("#notice [data-focus=consent-yes]")
    seated(ann, 0, "abandoned")
    seated(bob, 1, "abandoned")
    assert "abandoned" in ann.inner_text("#notice")
    assert fr("This table was abandoned: nothing more is played at it, and it is unrated.") in bob.inner_text("#notice")
    assert Store(server.db).load_table(table).table.status == "abandoned"  # type: ignore[union-attr]

    # In the lobby, Ann's "My games" marks it abandoned, and its owner deletes it
    ann.goto(server.http + "/")
    row = ann.locator("#my-games li", has_text=table)
    row.wait_for()
    assert "abandoned" in row.inner_text()
    row.locator("button").click()
    row.wait_for(state="detached")
    assert Store(server.db).load_table(table) is None
    assert errors == []
    ann_ctx.close()
    bob_ctx.close()
