"""The pages in French and in English in Chromium (docs/i18n.md): the language follows the
browser, the switch changes it and is remembered, and a page shown in French holds no English
text of the catalogues, at 1280×720 and 390×844."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from barbu.language import catalogue
from barbu.server.client import ServerProcess
from conftest import QUICK_COMMITS

SIZES = {"wide": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('language') / 'barbu.db'}", *QUICK_COMMITS) as s:
        yield s


@pytest.fixture(scope="module")
def sheet_link(server: ServerProcess) -> str:
    """A sheet with two deals entered, opened by its owner's link."""
    with httpx.Client(base_url=server.http, headers={"Origin": server.http}) as client:
        made = client.post(
            "/api/sheets", json={"variant": "classic", "players": ["Ann", "Bob", "Cat", "Dan"], "title": "Club"}
        ).json()
        key = made["owner"]["link"].split("#key=")[1]
        auth = {"Authorization": f"Bearer {key}"}
        api = f"/api/sheets/{made['id']}/changes"
        entry = {"contract": "no-queens", "doubles": [{"doubler": 1, "doubled": 0}], "tally": {"queens": [1, 1, 1, 1]}}
        assert client.post(api, json={"change": "add", "entry": entry, "version": 1}, headers=auth).is_success
        entry = {"contract": "trumps", "trump": "H", "doubles": [], "tally": {"tricks": [4, 3, 3, 3]}}
        assert client.post(api, json={"change": "add", "entry": entry, "version": 2}, headers=auth).is_success
    return str(made["owner"]["link"])


def english_only() -> list[str]:
    """English texts of the catalogue that a French page must not show: several words, no
    placeholder, and a French text of their own."""
    en, fr = catalogue("en").messages, catalogue("fr").messages
    out = []
    for key, text in en.items():
        if isinstance(text, tuple) or "{" in text or len(text.split()) < 2 or fr.get(key) == text:
            continue
        out.append(text)
    return out


def shown_text(page: Page) -> str:
    """The page's visible text and the words of its attributes a person meets (labels, placeholders, titles)."""
    return str(
        page.evaluate(
            """() => [document.body.innerText, document.title,
                ...[...document.querySelectorAll('[placeholder],[aria-label],[title]')].flatMap(
                  (e) => ['placeholder', 'aria-label', 'title'].map((a) => e.getAttribute(a) || ''))].join('\\n')"""
        )
    )


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => window.barbuLanguage && window.barbuLanguage.ready")
    page.wait_for_function("() => document.body.dataset.ready === '1' || !!document.querySelector('#variant option')")


@pytest.mark.parametrize("size", list(SIZES))
def test_pages_in_french_show_no_english_of_the_catalogue(
    browser: Browser, server: ServerProcess, sheet_link: str, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size], locale="fr-FR")
    page = context.new_page()
    english = english_only()
    seen = {}
    for path in ("/", "/rules", "/rules/classic", "/rules/french", "/sheets", sheet_link):
        open_page(page, server.http + path)
        if path == "/":
            page.click("details.flags summary")
        if path == sheet_link:
            page.wait_for_function("() => document.body.dataset.version !== undefined")
            for details in page.query_selector_all("#deals details, #stats-box"):
                details.evaluate("d => d.open = true")
            page.wait_for_function("() => !document.querySelector('#stats p.muted')")
        text = shown_text(page)
        assert page.evaluate("document.documentElement.lang") == "fr", path
        seen[path] = [e for e in english if e in text]
    context.close()
    assert not any(seen.values()), f"English shown on French pages: {seen}"
    assert "Pas de dames" in text and "Atout" in text  # the sheet's contracts, in French players' words


def test_the_switch_changes_the_language_and_is_remembered(browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport=SIZES["wide"], locale="fr-FR")
    page = context.new_page()
    open_page(page, server.http + "/")
    assert page.inner_text("#create button.primary") == "Créer la table"
    with page.expect_navigation():
        page.select_option("header .lang-switch", "en")
    page.wait_for_function("() => window.barbuLanguage && window.barbuLanguage.ready")
    page.wait_for_function("() => !!document.querySelector('#variant option')")
    assert page.inner_text("#create button.primary") == "Create table"
    assert page.evaluate("document.documentElement.lang") == "en"
    open_page(page, server.http + "/rules/classic")  # remembered on every page, and by the server
    page.wait_for_selector("#no-queens h3")
    assert page.inner_text("#no-queens h3") == "No queens"
    assert any(c["name"] == "barbu_lang" and c["value"] == "en" for c in context.cookies())
    context.close()


def test_the_table_page_loads_the_language_layer(browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport=SIZES["phone"], locale="fr-FR")
    page = context.new_page()
    page.goto(server.http + "/t/nosuchtable")
    page.wait_for_function("() => window.barbuLanguage && window.barbuLanguage.ready")
    page.wait_for_selector("header .lang-switch")
    assert page.inner_text("header a.rules-link") == "Règles"
    context.close()


def test_the_server_answers_people_in_their_language(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.http) as client:
        fr = client.get("/api/rulebook/nope", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json()
        rules = client.get("/api/rules", headers={"Accept-Language": "fr"}).json()
    with httpx.Client(base_url=server.http, cookies={"barbu_lang": "en"}) as chosen:
        en = chosen.get("/api/rulebook/nope", headers={"Accept-Language": "fr"}).json()
    assert fr["error"]["message"].startswith("variante inconnue nope")
    assert en["error"]["message"].startswith("unknown rule set nope")
    flags = {f["name"]: f for f in rules[0]["flags"]}
    assert re.search("contrer", flags["compulsory_doubles"]["help"])
    assert flags["negative_targets"]["choice_help"]["declarer_only"] == "le déclarant seulement"
