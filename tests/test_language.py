"""French and English everywhere a person reads text (docs/i18n.md).

The catalogues are up to date with the sources (Babel's extraction of the Python modules, the
page scripts, the pages and the core's facts), every message exists in both languages with
the same placeholders, and no page text or page script writes a sentence outside them.
"""

from __future__ import annotations

import re
import string
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest

from barbu.language import LANGUAGES, _n, catalogue, core_words, from_environment, negotiate, speaking
from barbu.language.catalogues import main as catalogues_main
from barbu.language.catalogues import template
from barbu.language.extract import core_messages

STATIC = Path(__file__).resolve().parent.parent / "src" / "barbu" / "server" / "static"
OWN_PAGES = ("index.html", "rules.html", "sheet.html", "sheets.html")
"""The pages whose every text is translated here (the table page wraps its own, docs/i18n.md)."""
OWN_SCRIPTS = sorted(p.name for p in STATIC.glob("*.js") if p.name != "table.js")

SAME_IN_FRENCH = {
    "Ravage City",
    "King (Rıfkı)",
    "maximum",
    "table",
    "total",
    "six",
    "score",
    "options",
    "Barbu — {title}",
    "total {n}",
    "{name} ×{m}",
    "{row} ({n})",
}
"""Messages whose French is the English word (names, and words French shares)."""


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.fixture(scope="module")
def pot() -> list[tuple[str | None, str, str | None]]:
    """Every message of the sources: (context, id, plural id)."""
    out = []
    for m in template():
        if not m.id:
            continue
        msgid, plural = (m.id[0], m.id[1]) if isinstance(m.id, (tuple, list)) else (m.id, None)
        out.append((m.context, msgid, plural))
    return out


def test_the_catalogues_are_up_to_date_with_the_sources(capsys: pytest.CaptureFixture[str]) -> None:
    assert catalogues_main(["--check"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_exists_in_both_languages_with_its_placeholders(
    lang: str, pot: list[tuple[str | None, str, str | None]]
) -> None:
    messages = catalogue(lang).messages
    gaps, wrong = [], []
    for context, msgid, plural in pot:
        key = f"{context}\x04{msgid}" if context else msgid
        text = messages.get(key)
        if not text:
            gaps.append(key)
            continue
        forms = text if isinstance(text, tuple) else (text,)
        wanted = placeholders(msgid) | placeholders(plural or "")
        for form in forms:
            if not form:
                gaps.append(key)
            elif not placeholders(form) <= wanted or (plural is None and placeholders(form) != wanted):
                wrong.append((key, form))
    assert not gaps, f"{lang}: messages without text: {gaps[:10]}"
    assert not wrong, f"{lang}: placeholders differ from the English: {wrong[:10]}"


def test_french_is_not_english_left_in_place(pot: list[tuple[str | None, str, str | None]]) -> None:
    fr = catalogue("fr").messages
    same = []
    for context, msgid, _plural in pot:
        text = fr.get(f"{context}\x04{msgid}" if context else msgid)
        first = text[0] if isinstance(text, tuple) else text
        if first == msgid and msgid not in SAME_IN_FRENCH and re.search(r"[a-z]{3}", msgid):
            same.append(msgid)
    assert not same, f"French texts equal to their English: {same[:10]}"


def test_english_is_the_message_ids(pot: list[tuple[str | None, str, str | None]]) -> None:
    """``_``, ``_p`` and ``_n`` answer English from the ids without reading the English catalogue:
    that catalogue must say exactly its ids."""
    en = catalogue("en").messages
    differ = []
    for context, msgid, plural in pot:
        text = en.get(f"{context}\x04{msgid}" if context else msgid)
        if text != ((msgid, plural) if plural else msgid):
            differ.append((context, msgid, text))
    assert differ == []
    with speaking("en"):
        assert _n("{n} deal", "{n} deals", 2, n=2) == catalogue("en").ngettext("{n} deal", "{n} deals", 2, n=2)


def test_the_core_facts_have_their_french_names() -> None:
    fr = catalogue("fr")
    assert ("contract", "No tricks") in core_messages()
    names = {title: fr.pgettext("contract", title) for title in ("No tricks", "No hearts", "No queens", "Trumps")}
    assert names == {
        "No tricks": "Pas de plis",
        "No hearts": "Pas de cœurs",
        "No queens": "Pas de dames",
        "Trumps": "Atout",
    }
    assert fr.pgettext("contract", "Domino") == "Réussite"
    assert "Barbu" in fr.pgettext("contract", "No king of hearts")
    assert fr.pgettext("contract", "No last two") == "Les deux derniers"
    with speaking("fr"):
        words = core_words()
    assert words["calls"]["pass"] == "passe" and words["suits"]["S"] == "pique"


def test_the_language_follows_the_browser_the_switch_and_the_environment() -> None:
    assert negotiate("fr-CA,fr;q=0.9,en;q=0.8") == "fr"
    assert negotiate("en-GB,fr;q=0.5") == "en"
    assert negotiate("fr", chosen="en") == "en"  # the switch wins over the browser
    assert negotiate("de-DE") == "en"
    assert from_environment({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}) == "fr"
    assert from_environment({}) == "en"


class _Texts(HTMLParser):
    """The text of a page outside any element marked ``data-i18n``, and its untranslated attributes."""

    VOID: ClassVar[set[str]] = {"meta", "link", "input", "br", "img", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.loose: list[str] = []
        self.attrs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        marked = set((values.get("data-i18n-attrs") or "").split())
        for name in ("placeholder", "aria-label", "title", "alt"):
            if values.get(name) and name not in marked:
                self.attrs.append(f"<{tag} {name}={values[name]!r}>")
        if tag not in self.VOID:
            inside = any(m for _, m in self.stack)
            self.stack.append((tag, inside or "data-i18n" in values or tag in ("script", "style", "code")))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        inside = any(m for _, m in self.stack)
        text = data.strip()
        if text and not inside and re.search(r"[A-Za-z]{2}", text) and text not in ("♠ Barbu", "Barbu"):
            self.loose.append(text)


@pytest.mark.parametrize("page", OWN_PAGES)
def test_no_page_text_outside_the_catalogues(page: str) -> None:
    parser = _Texts()
    parser.feed((STATIC / page).read_text())
    assert not parser.loose, f"{page}: text not marked data-i18n: {parser.loose}"
    assert not parser.attrs, f"{page}: attributes not listed in data-i18n-attrs: {parser.attrs}"


LITERAL = re.compile(r"""(?P<q>["'`])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
TRANSLATED = re.compile(r"\b(?:t|tp|tn)\((?:[^()]*,\s*)?$")
NOT_TEXT = re.compile(r"(?:class:|querySelector(?:All)?\(|getElementById\(|localStorage\.\w+\(|fetch\(|call\()\s*$")
NOT_SHOWN = {("i18n.js", "English"), ("sheetkit.js", "Bearer ${key}")}
"""Literals of the scripts that look like words but are no text for a person (a fallback name, a header)."""


def sentence_like(text: str) -> bool:
    """Whether a script's literal reads as text for a person (words with a capital or a full stop)."""
    text = re.sub(r"\$\{.*?\}", " ", text)
    if re.search(r"[#\[\]=/]|^\.|\.[a-z]", text):  # selectors, paths, properties
        return False
    has_words = re.search(r"[A-Za-z]{2,}[ ,:;…'’]+[A-Za-z]{2,}", text)
    sentence = re.search(r"[A-Z][a-z]+|[a-z][.:?!]( |$)", text)
    return bool(has_words and sentence) or bool(re.fullmatch(r"[A-Z][a-z]+[.…]?", text.strip()))


def literal_texts(source: str) -> list[tuple[int, str]]:
    """The literals of a script that read as text and are not passed to ``t``, ``tp`` or ``tn``."""
    out = []
    for n, line in enumerate(source.split("\n"), 1):
        if line.strip().startswith(("//", "*", "/*", "import ")):
            continue
        for m in LITERAL.finditer(line):
            before = line[: m.start()]
            if TRANSLATED.search(before) or NOT_TEXT.search(before) or not sentence_like(m.group("body")):
                continue
            out.append((n, m.group("body")))
    return out


def test_the_script_scan_finds_an_english_sentence() -> None:
    script = 'box.append(el("p", {}, "Could not load the list."));\nbox.append(el("p", {}, t("Seat {n}", { n })));'
    found = literal_texts(script)
    assert found == [(1, "Could not load the list.")]


@pytest.mark.parametrize("script", OWN_SCRIPTS)
def test_no_script_writes_text_outside_the_catalogues(script: str) -> None:
    found = [(n, text) for n, text in literal_texts((STATIC / script).read_text()) if (script, text) not in NOT_SHOWN]
    assert not found, f"{script}: literal text not passed to t(): {found}"
