"""An axe-core audit of the pages in Chromium: no serious or critical violation.

axe-playwright-python bundles axe.min.js, so the audit runs offline. The lobby, the table (while
a deal is played, with the review of a finished deal open, and at the end of the game) and the
score sheets page are audited in English and in French.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS

AXE = Axe()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('axe') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0", "--tables-per-client", "100") as s:
        yield s


def serious(page: Page) -> list[Any]:
    """The serious and critical violations on the page, each with the nodes it names."""
    found = AXE.run(page).response["violations"]
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_pages_pass_an_axe_audit(server: ServerProcess, browser: Browser, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=lang, bypass_csp=True)
    page = context.new_page()
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    assert serious(page) == [], "lobby"
    made = httpx.post(
        f"{server.http}/api/tables",
        json={"variant": "classic", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3},
        headers={"Origin": server.http},
    ).json()
    page.goto(server.http + made["seats"][0]["link"])
    page.wait_for_function("() => window.barbu && window.barbu.view && window.barbu.view.to_act === window.barbu.seat")
    assert serious(page) == [], "table"
    page.click("#tab-options")
    assert serious(page) == [], "table options"
    page.goto(server.http + "/sheets")
    page.wait_for_load_state("networkidle")
    assert serious(page) == [], "sheets"
    context.close()
