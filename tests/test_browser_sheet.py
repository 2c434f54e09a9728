"""The score sheet pages in Debian's Chromium, driven by Playwright on a phone-sized page.

A whole classic game (28 deals, with doubles, redoubles and skipped deals) is entered by
clicking and typing in the page's own controls, one deal by keyboard only; then deal 3 is
edited, and the totals the page shows are checked against ``barbu replay`` of the record
the page exports.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.replay import replay_json
from barbu.server.client import ServerProcess
from barbu.sheet import DealEntry, Double, Sheet, SheetError, fill_all
from barbu.sheet.rows import DealRow
from barbu.sheet.store import SheetStore
from barbu.tally_keys import tally_table
from conftest import QUICK_COMMITS
from test_sheet_model import played_record, tallied

PHONE = {"width": 390, "height": 844}
COUNT_KEYS = ("tricks", "hearts", "queens", "jacks_and_kings")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('sheets') / 'barbu.db'}"


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[ServerProcess]:
    with ServerProcess(db, *QUICK_COMMITS) as s:
        yield s


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def settle(page: Page) -> None:
    """Wait until the page has no request or preview under way."""
    page.wait_for_function("() => window.barbuSheet.pending === 0")


def saved(page: Page, before: int) -> None:
    """Wait until the sheet moved to the next version; a refusal shown instead fails with its message."""
    page.wait_for_function(
        f"() => document.body.dataset.version === '{before + 1}' || "
        "(window.barbuSheet.pending === 0 && document.getElementById('entry-error').textContent !== '')",
        timeout=10000,
    )
    assert page.inner_text("#entry-error") == "" and version(page) == before + 1


def shown_totals(page: Page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all("#totals .pts", "els => els.map(e => e.dataset.total)")]


def enter_tally(page: Page, tally: dict[str, object]) -> None:
    for key, value in tally.items():
        if key in COUNT_KEYS:
            assert isinstance(value, list)
            for seat, v in enumerate(value):
                page.fill(f"#tally input[data-key='{key}'][data-seat='{seat}']", str(v))
        elif key == "order":
            assert isinstance(value, list)
            for pos, seat in enumerate(value):
                page.select_option(f"#tally select[data-pos='{pos}']", str(seat))
        elif key == "suits":
            assert isinstance(value, list)
            for seat, counts in enumerate(value):
                for suit, v in enumerate(counts):
                    page.fill(f"#tally input[data-key='suits'][data-seat='{seat}'][data-suit='{suit}']", str(v))
        elif key == "arrangements":
            assert isinstance(value, list)
            for seat, cards in enumerate(value):
                for row, (a, b) in enumerate(((0, 5), (5, 10), (10, 13))):
                    text = " ".join(cards[a:b]).lower() if seat % 2 else " ".join(cards[a:b])  # any case is fine
                    page.fill(f"#tally input[data-key='arrangements'][data-seat='{seat}'][data-row='{row}']", text)
        else:
            page.check(f"#tally input[data-key='{key}'][value='{value}']")


def enter_deal(page: Page, row: DealRow, sheet: Sheet) -> None:
    """One deal through the page's controls: contract, trump or rank, the doubles grid, the tally."""
    before = version(page)
    page.check(f"#contracts input[value='{row.contract}']")
    if row.trump:
        page.check(f"#trumps input[value='{row.trump}']")
    if row.rank:
        page.check(f"#ranks input[value='{row.rank}']")
    if row.doubles and row.doubles == fill_all((), "maximum", sheet.rules, row.declarer, row.contract):
        page.click("#f-doubles button[data-word='maximum']")  # the shorthand, expanded by the server
        page.wait_for_selector("#grid button.cell.s2")
    else:
        for d in row.doubles:
            for _ in range(2 if d.redoubled else 1):
                page.click(f"#grid button.cell[data-a='{d.doubler}'][data-b='{d.doubled}']")
    if row.tally is not None:
        enter_tally(page, row.tally)
        table = tally_table(sheet.rules.deck, sheet.rules.cards_each)
        for key in row.tally:  # each key asked in the core's words
            shown = page.inner_text(f"#tally .tally-key[data-key='{key}'] .key-label")
            assert shown.lower().startswith(table[key]["label"].lower()), (key, shown)
    page.click("#save")
    saved(page, before)


def enter_deal_by_keyboard(page: Page, row: DealRow, sheet: Sheet) -> None:
    """The same with keys only: arrows in the choices, Space on the grid's boxes, digits, Enter."""
    before = version(page)
    nxt = sheet.next
    assert nxt is not None and row.tally is not None and not row.trump and not row.rank
    page.focus("#contracts input")
    page.keyboard.press("Space")
    for _ in range([c.id for c in nxt.contracts].index(row.contract)):
        page.keyboard.press("ArrowRight")
    for d in row.doubles:
        page.focus(f"#grid button.cell[data-a='{d.doubler}'][data-b='{d.doubled}']")
        for _ in range(2 if d.redoubled else 1):
            page.keyboard.press("Space")  # the box keeps the focus as it changes
    for key, value in row.tally.items():
        assert key in COUNT_KEYS and isinstance(value, list)
        for seat, v in enumerate(value):
            page.focus(f"#tally input[data-key='{key}'][data-seat='{seat}']")
            page.keyboard.type(str(v))
    page.keyboard.press("Enter")
    saved(page, before)


def with_shortcuts(source: Sheet) -> Sheet:
    """The same game with its first positive deal doubled by everyone's "maximum", and the first
    negative deal that may go undoubled left undoubled (so not played)."""
    number, row = next((i, r) for i, r in enumerate(source.rows, 1) if r.contract in ("trumps", "domino"))
    grid = fill_all((), "maximum", source.rules, row.declarer, row.contract)
    sheet = source.edit(number, DealEntry(row.contract, row.trump, row.rank, grid, row.tally))
    for number, row in enumerate(sheet.rows, 1):
        if sheet.rules.contract(row.contract).doubling_class != "negative":
            continue
        try:
            return sheet.edit(number, DealEntry(row.contract, row.trump, row.rank))
        except SheetError:  # a compulsory double, then or later: try another deal
            continue
    raise AssertionError("no deal of this game can be left undoubled")


def test_a_whole_classic_game_on_a_phone_then_an_early_deal_edited(
    server: ServerProcess, browser: Browser, db: str
) -> None:
    source = with_shortcuts(Sheet.from_record(tallied(played_record("classic"))))
    assert any(d.redoubled for r in source.rows for d in r.doubles)
    assert sum(r.status == "skipped" for r in source.rows) == 1
    assert source.complete
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    page.click("a[href='/sheets']")  # the lobby links the sheets page
    page.wait_for_selector("body[data-ready='1']")
    for seat, name in enumerate(source.players):
        page.fill(f"#names input[aria-label='Name of seat {seat}']", name)
    page.select_option("#first", str(source.first_declarer))
    page.fill("#title", "Phone game")
    page.click("#new-sheet button[type=submit]")
    page.wait_for_url(lambda url: "/sheets/phone-game" in url)
    page.wait_for_selector("body[data-ready='1']")
    owner_link = page.input_value("#owner-link input")  # shown once to its creator …
    assert page.url == server.http + "/sheets/phone-game" and "#key=" in owner_link  # … and gone from the address
    assert page.evaluate("document.cookie") == ""  # the key is in an HttpOnly cookie no script reads
    page.click("#owner-link button:text('I kept it')")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing sticks out
    sheet = Sheet.new("classic", players=source.players, first_declarer=source.first_declarer)
    simple = next(
        i for i, r in enumerate(source.rows) if r.tally and not r.trump and not r.rank and set(r.tally) == {"tricks"}
    )
    for i, row in enumerate(source.rows):
        assert page.inner_text("#entry-h").startswith(f"Deal {row.number} of 28 · {source.players[row.declarer]}")
        if i == simple:
            enter_deal_by_keyboard(page, row, sheet)
        else:
            enter_deal(page, row, sheet)
        sheet = sheet.add(row.entry)
        assert shown_totals(page) == sheet.totals
    assert shown_totals(page) == replay_json(source.record())["totals"]
    assert page.is_visible("#game-over") and "win" in page.inner_text("#game-over")
    assert page.locator("li.deal.skipped").count() == sum(1 for r in source.rows if r.status == "skipped")
    # Deal 3, long after: its tally is changed from the page, and every later deal is recomputed.
    row = source.rows[2]
    assert row.tally is not None
    key, value = next(iter(row.tally.items()))
    moved = value[1:] + value[:1] if isinstance(value, list) else (value + 1) % 4
    expected = source.edit(3, DealEntry(row.contract, row.trump, row.rank, row.doubles, {**row.tally, key: moved}))
    assert expected.totals != source.totals
    page.click("li.deal[data-deal='3'] summary")
    page.click("button[data-edit='3']")
    page.wait_for_function("() => document.getElementById('entry-h').textContent.startsWith('Edit deal 3')")
    before = version(page)
    enter_tally(page, {key: moved})
    page.click("#save")
    saved(page, before)
    assert shown_totals(page) == expected.totals
    assert httpx.get(server.http + page.get_attribute("#x-record", "href")).status_code == 404  # type: ignore[operator]
    record = page.request.get(server.http + page.get_attribute("#x-record", "href")).json()  # type: ignore[operator]
    assert replay_json(record)["totals"] == shown_totals(page)
    assert Sheet.from_record(record) == expected
    store = SheetStore(db)
    assert store.open("phone-game").history.sheet == expected  # the app's store holds it
    store.dispose()
    page.click("#undo")
    page.wait_for_function(f"() => document.body.dataset.version === '{before + 2}'")
    assert shown_totals(page) == source.totals
    assert errors == []
    page.close()


def test_the_page_shows_the_shortcut_and_the_servers_refusals(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    made = httpx.post(server.http + "/api/sheets", json={"players": ["Ann", "Bob", "Cat", "Dan"], "title": "refusals"})
    page = browser.new_page(viewport=PHONE)
    page.goto(server.http + made.json()["owner"]["link"])
    page.wait_for_selector("body[data-ready='1']")
    page.check("#contracts input[value='no-queens']")
    settle(page)
    assert "Not played" in page.inner_text("#shortcut") and page.is_hidden("#f-tally")  # nobody doubled
    page.click("#grid button.cell[data-a='1'][data-b='0']")
    settle(page)
    assert page.is_hidden("#shortcut") and page.is_visible("#f-tally")
    enter_tally(page, {"queens": [1, 1, 1, 0]})
    page.click("#save")
    settle(page)
    assert "queens must add up to 4" in page.inner_text("#entry-error")
    assert version(page) == 1 and page.locator("li.deal").count() == 0  # nothing changed
    page.fill("#tally input[data-key='queens'][data-seat='3']", "1")
    page.click("#save")
    saved(page, 1)
    assert page.locator("#contracts input[value='no-queens']").count() == 0  # used: no longer offered
    # one player's shorthand: Bob says maximum (he doubles Ann), then Ann says maximum (she redoubles)
    page.check("#contracts input[value='trumps']")
    page.select_option("#grid select[data-seat='1']", "maximum")
    page.wait_for_selector("#grid button.cell.s1[data-a='1'][data-b='0']")
    page.select_option("#grid select[data-seat='0']", "maximum")
    page.wait_for_selector("#grid button.cell.s2[data-a='1'][data-b='0']")
    assert page.locator("#grid button.cell.s1, #grid button.cell.s2").count() == 1
    assert page.is_disabled("#grid button.cell[data-a='2'][data-b='1']")  # positive: only Ann may be doubled
    page.check("#trumps input[value='S']")
    enter_tally(page, {"tricks": [6, 3, 2, 2]})
    page.click("#save")
    saved(page, 2)
    assert page.inner_text("li.deal[data-deal='2'] summary").split()[-4:] == ["+60", "-15", "+10", "+10"]
    # the exported record imports back, from the sheets page, as a sheet of its own
    record = tmp_path / "refusals.barbu.json"
    record.write_text(page.request.get(server.http + page.get_attribute("#x-record", "href")).text())  # type: ignore[operator]
    totals = shown_totals(page)
    page.goto(server.http + "/sheets")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#import-file", str(record))
    page.click("#import button[type=submit]")
    page.wait_for_url(lambda url: "/sheets/refusals-2" in url)
    page.wait_for_selector("body[data-ready='1']")
    assert shown_totals(page) == totals and page.locator("li.deal").count() == 2
    page.close()


@pytest.mark.parametrize(
    ("variant", "contract"),
    [("ravage-city", "ravage-city"), ("chinese-poker", "chinese-poker"), ("french", None), ("king", "king-trumps")],
)
def test_a_deal_of_each_kind_of_tally_through_the_page(
    server: ServerProcess, browser: Browser, variant: str, contract: str | None
) -> None:
    """Cards per suit, Chinese-poker arrangements, a contract the schedule fixes, a rule set without doubling."""
    source = Sheet.from_record(tallied(played_record(variant)))
    row = next(r for r in source.rows if contract is None or r.contract == contract)
    start = Sheet.new(variant, source.options, source.players, row.declarer if contract else source.first_declarer)
    declarer = row.declarer if contract else start.first_declarer
    grid = (Double((declarer + 1) % len(source.players), declarer),) if start.rules.doubling else ()
    entry = DealEntry(row.contract, row.trump, row.rank, grid, row.tally)
    expected = start.add(entry)
    made = httpx.post(
        server.http + "/api/sheets",
        json={
            "variant": variant,
            "options": start.options,
            "players": list(start.players),
            "first_declarer": start.first_declarer,
            "title": f"one {variant}",
        },
    ).json()
    page = browser.new_page(viewport=PHONE)
    page.goto(server.http + made["owner"]["link"])
    page.wait_for_selector("body[data-ready='1']")
    if contract is None:
        assert page.is_checked(f"#contracts input[value='{row.contract}']")  # fixed by the schedule
        assert page.is_disabled(f"#contracts input[value='{row.contract}']") and page.is_hidden("#tally-later")
    if not start.rules.doubling:
        page.check(f"#contracts input[value='{row.contract}']")
        assert page.is_hidden("#f-doubles")
    row = expected.rows[0]
    if contract is not None:
        enter_deal(page, row, start)
    else:
        assert row.tally is not None
        enter_tally(page, row.tally)
        page.click("#save")
        saved(page, 1)
    assert shown_totals(page) == expected.totals == replay_json(expected.record())["totals"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()


def test_a_view_link_an_editor_invitation_and_a_stranger(server: ServerProcess, browser: Browser) -> None:
    """The owner shares from the page; each holder is offered only what their link allows; a revoked
    invitation opens nothing; a stranger sees no sheet at all."""
    made = httpx.post(server.http + "/api/sheets", json={"players": ["Ann", "Bob", "Cat", "Dan"], "title": "shared"})
    sheet = made.json()["id"]
    owner = browser.new_context().new_page()
    owner.goto(server.http + made.json()["owner"]["link"])
    owner.wait_for_selector("body[data-ready='1'][data-role='owner']")
    owner.click("#share-box summary")
    links = {}
    for role in ("viewer", "editor"):
        owner.click(f"#share-{role}")
        owner.wait_for_function(f"() => document.getElementById('share-link').dataset.role === '{role}'")
        links[role] = owner.input_value("#share-link")
        assert links[role].startswith(f"{server.http}/sheets/{sheet}#key=")
    owner.wait_for_function("() => document.querySelectorAll('#share-links li').length === 3")

    viewer = browser.new_context().new_page()
    viewer.goto(links["viewer"])
    viewer.wait_for_selector("body[data-ready='1'][data-role='viewer']")
    assert viewer.inner_text("#sheet-title") == "shared"
    for hidden in ("#entry", "#undo", "#settings-box", "#remove", "#share-box"):
        assert viewer.is_hidden(hidden), hidden
    assert viewer.request.get(server.http + f"/api/sheets/{sheet}/export/csv").ok  # reads and exports

    editor = browser.new_context().new_page()
    editor.goto(links["editor"])
    editor.wait_for_selector("body[data-ready='1'][data-role='editor']")
    assert editor.is_visible("#entry") and editor.is_visible("#undo")
    editor.click("#settings-box summary")
    assert editor.is_visible("#title-form") and editor.is_hidden("#remove") and editor.is_hidden("#share-box")
    editor.check("#contracts input[value='no-king']")
    settle(editor)
    editor.click("#save")
    saved(editor, 1)

    stranger = browser.new_context().new_page()
    stranger.goto(server.http + f"/sheets/{sheet}")
    stranger.wait_for_selector("#deals .error-box")
    assert "no sheet" in stranger.inner_text("#deals .error-box")
    stranger.goto(server.http + "/sheets")
    stranger.wait_for_selector("body[data-ready='1']")
    assert "No sheet opened in this browser" in stranger.inner_text("#sheet-list")

    owner.click("#share-links li:has-text('Editor invitation') button")
    owner.wait_for_function("() => document.querySelectorAll('#share-links li').length === 2")
    editor.reload()
    editor.wait_for_selector("#deals .error-box")
    assert "no sheet" in editor.inner_text("#deals .error-box")
    for p in (owner, viewer, editor, stranger):
        p.context.close()
