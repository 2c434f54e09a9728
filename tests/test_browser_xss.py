"""Hostile text in every text field of every page, in Debian's Chromium: nothing runs, all shows as typed.

Each payload marks its execution by setting ``window.__pwned`` or opening a dialog. After every
step the page is searched for what an injection leaves behind even when it does not run (an
``on…`` attribute, an inline ``<script>``, an ``<iframe>``, a ``javascript:`` link), and the
places that show the text are checked to show it literally. The same runs check that every page
is served with its Content-Security-Policy and logs no console error in normal use, so a policy
that breaks the app fails here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS
from test_browser_table import click_something, deals_done, my_turn, wait_for_change

PAYLOADS = [
    "<img src=x onerror=__pwned=1>",
    "<svg onload=__pwned=1>",
    '"><script>__pwned=1</script>',
    "'><img src=x onerror=alert(1)>",
    "</textarea><script>__pwned=1</script>",
    '" autofocus onfocus="__pwned=1" x="',
    "' onmouseover='__pwned=1' x='",
    "javascript:__pwned=1",
    "<a href=javascript:__pwned=1>go</a>",
    "${__pwned=1}{{__pwned=1}}",
    "<details open ontoggle=__pwned=1>",
    "\u202e<img src=x onerror=__pwned=1>\u202c",
    '<iframe srcdoc="<b>x</b>">',
    "\uff1cscript\uff1e__pwned=1\uff1c/script\uff1e",
    "<style>*{display:none}</style>",
    "<body onload=alert(1)>",
]
"""Names and other short fields (at most 40 characters, no run of spaces)."""

TITLES = [
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    "<img src=x onerror=alert(document.domain)>",
    '<a href="javascript:__pwned=1">click</a><svg/onload=__pwned=1>',
    "\u202e\u2066<script>__pwned=1</script>\u2069\u202c ${`${__pwned=1}`}",
]
"""Titles (up to 120 characters)."""

TRACES = """() => {
  const all = [...document.querySelectorAll('*')];
  const handlers = all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on')));
  const urls = ['href', 'src', 'action', 'formaction'];
  const links = all.filter((e) => urls.some((k) => /^\\s*javascript:/i.test(e.getAttribute(k) || '')));
  return {
    pwned: window.__pwned === undefined ? null : String(window.__pwned),
    handlers: handlers.map((e) => e.outerHTML.slice(0, 120)),
    scripts: [...document.querySelectorAll('script:not([src])')].map((e) => e.outerHTML.slice(0, 120)),
    frames: [...document.querySelectorAll('iframe, object, embed, base, svg, style, img')].map(
      (e) => e.outerHTML.slice(0, 120)),
    links: links.map((e) => e.outerHTML.slice(0, 120)),
  };
}"""


class Watched:
    """A page with everything it reports collected: dialogs, console errors, uncaught errors."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.dialogs: list[str] = []
        self.console: list[str] = []
        page.on("dialog", self._dialog)
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.console.append(f"uncaught: {e}"))
        self.csp: list[str] = []
        page.on("response", self._response)

    def _dialog(self, dialog: Any) -> None:
        if dialog.type == "confirm":  # the app's own questions ("Delete deal 3?")
            dialog.accept()
            return
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _response(self, response: Any) -> None:
        if response.request.resource_type == "document":
            self.csp.append(response.headers.get("content-security-policy", ""))

    def clean(self, where: str) -> None:
        """Nothing ran, nothing an injection leaves behind is in the page, no console error."""
        traces = self.page.evaluate(TRACES)
        assert traces == {"pwned": None, "handlers": [], "scripts": [], "frames": [], "links": []}, where
        assert self.dialogs == [], where
        assert self.console == [], where
        assert self.csp and all("script-src 'self'" in c for c in self.csp), f"{where}: no Content-Security-Policy"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = f"sqlite:///{tmp_path_factory.mktemp('xss') / 'barbu.db'}"
    with ServerProcess(db, *QUICK_COMMITS, "--bot-delay", "0.03", "--tables-per-client", "100") as s:
        yield s


def watched(browser: Browser, width: int = 1200, height: int = 850) -> Watched:
    return Watched(browser.new_context(viewport={"width": width, "height": height}).new_page())


def texts(page: Page, selector: str) -> str:
    return " | ".join(page.eval_on_selector_all(selector, "els => els.map((e) => e.textContent)"))


def create_table(w: Watched, server: ServerProcess, name: str) -> dict[str, str]:
    """A table made in the lobby by a person called `name` (seat 0), a friend's seat 1 and two bots."""
    page = w.page
    page.goto(server.http + "/")
    page.wait_for_selector("#seats .seat-choice")
    page.fill("#name", name)
    page.select_option(".seat-choice:nth-child(2) select.kind", "friend")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created:not(.hidden)")
    links = [page.input_value(f"#created-links label:nth-child({i}) input") for i in (1, 2)]
    watch = page.get_attribute("#go-watch", "href") or ""
    return {"mine": links[0], "friend": links[1], "watch": server.http + watch}


def test_names_at_table_creation_show_as_typed_in_the_lobby_and_at_the_table(
    server: ServerProcess, browser: Browser
) -> None:
    w = watched(browser)
    page = w.page
    for name in PAYLOADS:
        links = create_table(w, server, name)
        w.clean(f"lobby after creating a table for {name!r}")
        page.wait_for_function(
            "name => [...document.querySelectorAll('#list-open td')].some((td) => td.textContent.includes(name))",
            arg=name,
        )
        w.clean(f"lobby list with {name!r}")
        page.fill("#join-link", name)  # the join field too: not a table link, refused as text
        page.click("#join button")
        w.clean(f"join field with {name!r}")
        page.goto(links["mine"])
        page.wait_for_function("() => window.barbu && window.barbu.table && window.barbu.view")
        assert f"{name} (you)" in texts(page, ".seat .who")
        w.clean(f"table page of {name!r}")
    page.context.close()


def test_two_named_players_and_a_spectator_play_a_deal_and_nothing_runs(
    server: ServerProcess, browser: Browser
) -> None:
    first, second = PAYLOADS[0], PAYLOADS[1]
    host = watched(browser)
    links = create_table(host, server, first)
    friend = watched(browser)
    friend.page.goto(server.http + "/")
    friend.page.evaluate("name => localStorage.setItem('barbu.name', name)", second)  # as the lobby keeps it
    friend.page.goto(links["friend"])
    host.page.goto(links["mine"])
    spectator = watched(browser, 390, 844)
    spectator.page.goto(links["watch"])
    players = [host, friend]
    for w in (*players, spectator):
        w.page.wait_for_function("() => window.barbu && window.barbu.table && window.barbu.table.seats[1].online")
    shown = texts(spectator.page, ".seat .who")
    assert first in shown and second in shown
    for _ in range(400):
        if deals_done(host.page) >= 1:
            break
        acted = False
        for w in players:
            if my_turn(w.page):
                seq = w.page.evaluate("window.barbu.seq")
                click_something(w.page)
                wait_for_change(w.page, seq)
                acted = True
                w.clean("a player's page during play")
        if not acted:
            host.page.wait_for_timeout(40)
    assert deals_done(host.page) >= 1
    for w in (*players, spectator):
        w.page.wait_for_function("() => window.barbu && window.barbu.view.history.length >= 1")
        sheet = texts(w.page, "#sheet")
        # the score sheet shows the first 10 characters of each name (a player's own column says "you")
        assert (w is host or first[:10] in sheet) and (w is friend or second[:10] in sheet)
        w.clean("after the first deal")
    assert first in texts(spectator.page, "#center .settle") + texts(spectator.page, "#center")
    for w in (*players, spectator):
        w.page.context.close()


def add_deals(server: ServerProcess, sheet_id: str, key: str) -> None:
    """Deals with doubles, redoubles and tallies, and a last one waiting for its tally."""
    api = f"{server.http}/api/sheets/{sheet_id}"
    auth = {"Authorization": f"Bearer {key}"}
    version = httpx.get(api, headers=auth).json()["version"]
    entries = [
        {"contract": "trumps", "trump": "C", "doubles": [[1, 0, 1]], "tally": {"tricks": [4, 3, 3, 3]}},
        {"contract": "no-king", "doubles": [[3, 1, 2]], "tally": {"king_of_hearts": 1}},
        {"contract": "no-queens", "doubles": [[2, 0, 1]]},
    ]
    for entry in entries:
        res = httpx.post(f"{api}/changes", json={"change": "add", "entry": entry, "version": version}, headers=auth)
        assert res.status_code == 200, res.text
        version = res.json()["version"]


def open_sheet_page(w: Watched, url: str) -> None:
    w.page.goto(url)
    w.page.wait_for_selector("body[data-ready]")
    w.page.wait_for_function("() => window.barbuSheet.pending === 0")


def test_sheet_titles_names_and_renames_show_as_typed(server: ServerProcess, browser: Browser) -> None:
    w = watched(browser, 390, 844)
    page = w.page
    groups = [PAYLOADS[i : i + 4] for i in range(0, len(PAYLOADS), 4)]
    for n, (names, title) in enumerate(zip(groups, TITLES, strict=True)):
        page.goto(server.http + "/sheets")
        page.wait_for_selector("body[data-ready]")
        for seat, name in enumerate(names):
            page.fill(f"#names label:nth-child({seat + 1}) input", name)
        page.fill("#title", title)
        w.clean(f"new sheet form with {names}")
        page.click("#new-sheet button[type=submit]")
        page.wait_for_url("**/sheets/*")
        page.wait_for_selector("body[data-ready]")
        sheet_url = page.url
        sheet_id = sheet_url.rsplit("/", 1)[1]
        key = page.input_value("#owner-link input").split("#key=", 1)[1]  # the owner's link, shown once
        assert page.text_content("#sheet-title") == title
        assert texts(page, "#totals .who") == " | ".join(names)
        assert names[0] in page.text_content("#entry-note")  # "…'s contract 1 of 7."
        w.clean(f"new sheet of {names}")
        page.click("#contracts label:first-child")  # the doubles grid names every player
        page.wait_for_function("() => window.barbuSheet.pending === 0")
        assert all(name in texts(page, "#grid th") for name in names)
        w.clean(f"doubles grid of {names}")

        add_deals(server, sheet_id, key)
        open_sheet_page(w, sheet_url)
        assert names[0] in page.text_content("#entry-note")  # "… declared No queens; enter what each player took."
        assert names[3] in texts(page, "#tally label")
        for d in page.query_selector_all("#deals details"):
            d.click()
        page.click("#stats-box summary")
        page.wait_for_selector("#stats table")
        assert all(name in texts(page, "#deals .deal-head span") for name in names)
        assert names[1] in texts(page, "#deals .pairs li")
        assert names[0] in texts(page, "#stats th")
        w.clean(f"deals of {names}")

        renamed = [*groups[(n + 1) % len(groups)]]
        page.click("#settings-box summary")
        for seat, name in enumerate(renamed):
            page.fill(f"#names-inputs label:nth-child({seat + 1}) input", name)
        page.click("#names-form button[type=submit]")
        page.wait_for_function(
            "names => [...document.querySelectorAll('#totals .who')].map((e) => e.textContent).join('|')"
            " === names.join('|')",
            arg=renamed,
        )
        page.wait_for_function("() => window.barbuSheet.pending === 0")
        retitled = TITLES[(n + 1) % len(TITLES)]
        page.fill("#title-input", retitled)
        page.click("#title-form button[type=submit]")
        page.wait_for_function("t => document.getElementById('sheet-title').textContent === t", arg=retitled)
        assert renamed[0] in page.text_content("#entry-note")
        assert all(name in texts(page, "#deals .deal-head span") for name in renamed)
        w.clean(f"sheet renamed to {renamed}")

        record = httpx.get(
            f"{server.http}/api/sheets/{sheet_id}/export/record", headers={"Authorization": f"Bearer {key}"}
        ).content
        page.goto(server.http + "/sheets")
        page.wait_for_selector("body[data-ready]")
        page.set_input_files("#import-file", {"name": "game.json", "mimeType": "application/json", "buffer": record})
        page.fill("#import-title", title[:100] + " copy")
        page.click("#import button[type=submit]")
        page.wait_for_url(lambda url: url != server.http + "/sheets")
        page.wait_for_selector("body[data-ready]")
        assert page.text_content("#sheet-title") == title[:100] + " copy"
        w.clean(f"imported copy of {title!r}")

    page.goto(server.http + "/sheets")
    page.wait_for_selector("body[data-ready]")
    page.click("#all-stats summary")
    page.wait_for_selector("#all-stats-body table")
    listed = texts(page, "#sheet-list")
    assert all(title in listed for title in TITLES)
    assert all(name in listed for name in PAYLOADS)
    assert PAYLOADS[0] in texts(page, "#all-stats-body th")
    w.clean("the list of sheets")
    page.context.close()


def test_every_page_and_response_carries_the_policy(server: ServerProcess, browser: Browser) -> None:
    made = httpx.post(f"{server.http}/api/sheets", json={"players": ["Ann", "Bob", "Cid", "Dan"]}).json()
    sheet, key = made["id"], made["owner"]["key"]
    for path in ("/", "/sheets", f"/sheets/{sheet}", "/t/nosuchtable", "/static/table.js", "/api/rules", "/nowhere"):
        headers = httpx.get(server.http + path).headers
        policy = headers.get("content-security-policy", "")
        assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy, path
        assert headers.get("x-content-type-options") == "nosniff", path
        assert headers.get("referrer-policy") == "no-referrer", path
    w = watched(browser)
    w.page.set_extra_http_headers({"Authorization": f"Bearer {key}"})
    w.page.goto(f"{server.http}/api/sheets/{sheet}/export/html")  # the printable sheet keeps its look, runs no script
    assert "script-src 'none'" in w.csp[0] or "default-src 'none'" in w.csp[0]
    assert w.console == [] and w.page.evaluate("document.styleSheets.length") == 1
    w.page.context.close()
