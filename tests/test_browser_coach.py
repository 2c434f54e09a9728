"""The coach in Chromium: a short game uploaded to the analysis board, stepped through with the
keyboard in English and in French, its annotations and summary checked, the cards named in the
page's language, screenshots at a desk's and a phone's size; the hint button at a table against
bots, and at a table of two people once both agreed."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, FilePayload, Page, ViewportSize

from barbu import Game, seat_view
from barbu.bots import make_bot
from barbu.record import game_to_record
from barbu.server.client import ServerProcess
from barbu.server.protocol import HINTS_INTERVAL
from conftest import QUICK_COMMITS

SIZES: dict[str, ViewportSize] = {"wide": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('coach') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0.03", "--tables-per-client", "100") as s:
        yield s


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """Two deals of a classic game played by bots (the second may be a contract only)."""
    game = Game.new("classic", seed=11)
    bot = make_bot("heuristic", seed=11)
    while len(game.deals) < 2:
        game.apply(bot.act(seat_view(game, game.to_act)), game.to_act)
    return game_to_record(game)


def shots(tmp_path: Path) -> Path:
    where = Path(os.environ.get("BARBU_SCREENSHOTS", tmp_path))
    where.mkdir(parents=True, exist_ok=True)
    return where


def upload(page: Page, doc: Any, name: str = "game.json") -> None:
    payload = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    file: FilePayload = {"name": name, "mimeType": "application/json", "buffer": payload}
    page.set_input_files("#record-file", files=[file])


def where(page: Page) -> str:
    return page.inner_text("#where")


def pos(page: Page) -> int:
    return int(page.evaluate("window.barbuAnalysis.pos"))


@pytest.mark.parametrize(("lang", "size"), [("en", "wide"), ("fr", "phone")])
def test_the_analysis_board_steps_through_an_uploaded_game(
    browser: Browser, server: ServerProcess, record: dict[str, Any], tmp_path: Path, lang: str, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size], locale="fr-FR" if lang == "fr" else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/analysis")
    page.wait_for_function("() => window.barbuLanguage && window.barbuLanguage.ready")
    assert page.evaluate("document.documentElement.lang") == lang
    # a file that is not JSON, then a record that does not replay: said in the page, nothing shown
    upload(page, b"{nope")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('JSON')")
    broken = json.loads(json.dumps(record))
    broken["deals"][0]["play"][1] = broken["deals"][0]["play"][0]
    upload(page, broken)
    where_said = {"en": "deal 1", "fr": "donne 1"}[lang]  # a refused record is read in the page's language
    page.wait_for_function(f"() => document.getElementById('status').textContent.includes('{where_said}')")
    assert page.is_hidden("#board")
    upload(page, record)
    page.wait_for_selector("#board:not([hidden])", timeout=60_000)
    words = {
        "en": ("Deal 1", "decision 1 of", "Loss:", "Summary", "Seat 0"),
        "fr": ("Donne 1", "décision 1 sur", "Perte :", "Bilan", "Place 0"),
    }[lang]
    assert words[0] in where(page) and words[1] in where(page)
    assert page.locator(".seat-box").count() == 4 and page.locator(".seat-box .card").count() == 52
    # a screen reader hears the cards in the page's language
    names = {"en": ("queen of spades", "ten of hearts"), "fr": ("dame de pique", "dix de cœur")}[lang]
    assert page.get_attribute(".seat-box .card[data-card='QS']", "aria-label") == names[0]
    assert page.get_attribute(".seat-box .card[data-card='TH']", "aria-label") == names[1]
    # the keyboard: → steps on, ← back, ↓ the next deal, End the last decision, M a marked one
    page.focus("#position")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert pos(page) == 2
    page.keyboard.press("ArrowLeft")
    assert pos(page) == 1
    total = int(page.evaluate("window.barbuAnalysis.flat.length"))
    page.keyboard.press("End")
    assert pos(page) == total - 1
    page.keyboard.press("Home")
    # M goes to the next marked decision after the one shown (the first one, shown now, may be marked)
    marked = page.evaluate("window.barbuAnalysis.flat.findIndex((x, i) => i > 0 && x.decision && x.decision.mark)")
    page.keyboard.press("m")
    if marked >= 0:
        assert pos(page) == marked
        assert page.locator("#verdict .mark").count() >= 1
    # a decision with a choice: its value, the best choice and the loss
    chosen = page.evaluate(
        "window.barbuAnalysis.flat.findIndex((x) => x.decision && !x.decision.forced && x.step.kind === 'play')"
    )
    assert chosen > 0
    page.keyboard.press("Home")
    for _ in range(chosen):
        page.keyboard.press("ArrowRight")
    assert pos(page) == chosen
    verdict = page.inner_text("#verdict")
    assert words[2] in verdict, verdict
    assert page.locator("#verdict table tr").count() >= 2
    assert page.locator(".seat-box.acting").count() == 1
    summary = page.inner_text("#summary")
    assert words[3] in page.inner_text("#board") and words[4] in summary and "%" in summary
    assert page.locator("#summary-table tbody tr").count() == 4
    assert page.get_attribute("#next", "aria-label")
    page.screenshot(path=str(shots(tmp_path) / f"analysis-{lang}-{size}.png"), full_page=size == "phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"] + 2
    assert not errors, errors
    context.close()


def test_a_finished_game_of_the_server_opens_on_the_board(browser: Browser, server: ServerProcess) -> None:
    """A whole King game stored as the server would have, analysed from its link."""
    import random
    import time

    from barbu.actions import action_to_json
    from barbu.storage import ActionRow, SeatRow, Store, TableRow

    store = Store(server.db)
    game = Game.new("king", {}, "seed", 1)
    rng = random.Random(5)
    rows = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        rows.append(ActionRow("kingdone", len(rows) + 1, seat, action_to_json(action), None, "bot"))
    now = time.time()
    row = TableRow("kingdone", "king", {}, "seed", 1, "me", now, "finished", now)
    store.create_table(row, [SeatRow(s, "bot", "random") for s in range(4)])
    store.append_actions(rows)
    store.dispose()
    listed = httpx.get(server.http + "/api/tables?status=finished").json()
    assert [t["id"] for t in listed] == ["kingdone"], listed
    context = browser.new_context(viewport=SIZES["wide"], locale="en-GB")
    page = context.new_page()
    page.goto(server.http + "/")  # the lobby's finished games link to their analysis
    link = page.wait_for_selector("#list-finished a[href='/analysis?table=kingdone']")
    assert link is not None
    link.click()
    page.wait_for_selector("#board:not([hidden])", timeout=60_000)
    assert page.locator("#deal-pick option").count() == len(game.deals)
    page.focus("#position")
    page.keyboard.press("ArrowDown")
    assert "Deal 2" in where(page)
    context.close()


def test_the_hint_button_at_a_table_against_bots(browser: Browser, server: ServerProcess, tmp_path: Path) -> None:
    spec = {"variant": "classic", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3}
    made = httpx.post(server.http + "/api/tables", json=spec, headers={"Origin": server.http}).json()
    context = browser.new_context(viewport=SIZES["wide"], locale="en-GB")
    page = context.new_page()
    page.goto(server.http + made["seats"][0]["link"])
    page.wait_for_selector("#hint:not([hidden])", timeout=20_000)
    page.wait_for_function("() => !document.getElementById('hint').disabled", timeout=20_000)
    page.click("#hint")
    page.wait_for_selector("#hint-answer table tr", timeout=30_000)
    assert page.locator("#hint-answer tr").count() >= 2
    page.screenshot(path=str(shots(tmp_path) / "hint-en-wide.png"))
    context.close()


def test_hints_at_a_table_of_two_people_once_both_agree(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    spec = {"variant": "classic", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2}
    made = httpx.post(server.http + "/api/tables", json=spec, headers={"Origin": server.http}).json()
    pages = []
    for seat, locale in ((0, "en-GB"), (1, "fr-FR")):
        context = browser.new_context(viewport=SIZES["wide"], locale=locale)
        page = context.new_page()
        page.goto(server.http + made["seats"][seat]["link"])
        pages.append(page)
    first, second = pages
    first.wait_for_selector("#hints-yes", timeout=20_000)
    assert "Hints are off" in first.inner_text("#hints-state") and first.is_hidden("#hint")
    # the French page names its cards in French
    second.wait_for_selector("#hints-yes", timeout=20_000)
    label = second.get_attribute(".card[data-card]", "aria-label") or ""
    assert " de " in label and " of " not in label, label
    first.click("#hints-yes")
    second.wait_for_function(
        "() => document.getElementById('hints-state').textContent.includes('accept')", timeout=20_000
    )
    assert "Accepter" in second.inner_text("#hints-vote") and second.is_hidden("#hint")
    second.click("#hints-yes")
    for page, words in ((first, "every person agreed"), (second, "chaque personne a accepté")):
        page.wait_for_function(
            f"() => document.getElementById('hints-state').textContent.includes({json.dumps(words)})", timeout=20_000
        )
        page.wait_for_selector("#hint:not([hidden])", timeout=20_000)
    second.screenshot(path=str(shots(tmp_path) / "hints-agreed-fr-wide.png"))
    first.wait_for_timeout(HINTS_INTERVAL * 1000 + 100)  # a seat answers once every few seconds
    first.click("#hints-no")  # one no closes them for both
    for page in pages:
        page.wait_for_selector("#hint", state="hidden", timeout=20_000)
        page.wait_for_selector("#hints-yes", timeout=20_000)
    for page in pages:
        page.context.close()
