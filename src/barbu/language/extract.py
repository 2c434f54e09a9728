"""Babel extractors of our own: the pages' HTML and the core's rule data.

Babel extracts the Python modules and the page scripts itself (``babel.cfg``); these two add

- :func:`extract_html`: every element of a page marked ``data-i18n`` gives its text as a
  message, and every attribute named in ``data-i18n-attrs`` (``placeholder aria-label title``)
  its value; the page's script (``i18n.js``) replaces them by the catalogue's text;
- :func:`extract_core`: the facts the core writes in English (rule-set titles and blurbs,
  contract titles, tally labels, flags' meanings, suits), each with its context, read from
  the core's data rather than from its source (it is applied to ``src/barbu/rulesets.py``).

>>> import io
>>> page = io.BytesIO(b'<h2 data-i18n>New table</h2><input placeholder="optional" data-i18n-attrs="placeholder">')
>>> [m[2] for m in extract_html(page, {}, [], {})]
['New table', 'optional']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any, cast

from babel.messages.extract import extract_python

Extracted = tuple[int, str, str | tuple[str, ...], list[str]]
"""One message as Babel wants it: line, function name, message(s), comments."""

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def normalise(text: str) -> str:
    """White space of a page's text as one space, ends trimmed: the message id of an element.

    >>> normalise("  Create\\n   table ")
    'Create table'
    """
    return " ".join(text.split())


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.open: list[tuple[str, bool, int, list[str]]] = []  # tag, marked, line, text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attrs") or "").split():
            if values.get(name):
                self.found.append((line, normalise(values[name] or "")))
        if tag not in VOID:
            self.open.append((tag, "data-i18n" in values, line, []))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            name, marked, line, text = self.open.pop()
            if marked and normalise("".join(text)):
                self.found.append((line, normalise("".join(text))))
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1][3].append(data)


def extract_html(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """The messages of one page (see the module docstring)."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, text in parser.found:
        yield line, "_", text, []


def core_messages() -> list[tuple[str, str]]:
    """Every fact the core writes in English for people, as (context, English text).

    >>> ("contract", "No king of hearts") in core_messages()
    True
    """
    from barbu.actions import CALL_WORDS
    from barbu.cards import RANK_NAMES, SUIT_NAMES
    from barbu.poker import CATEGORIES, ROWS
    from barbu.rulesets import CHOICE_HELP, FLAG_HELP, RULE_SETS
    from barbu.tally_keys import TALLY_KEYS

    out: list[tuple[str, str]] = []
    for rs in RULE_SETS.values():
        out += [("variant", rs.title), ("variant", rs.blurb)]
        for n in rs.player_counts:
            out += [("contract", c.title) for c in rs.all_contracts(n)]
    for key in TALLY_KEYS.values():
        out.append(("tally", key.label))
        if key.counted:
            out.append(("tally", key.counted))
    out += [("flag", text) for text in FLAG_HELP.values()]
    out += [("flag", text) for text in CHOICE_HELP.values()]
    out += [("suit", name) for name in SUIT_NAMES]
    out += [("rank", name) for name in RANK_NAMES]
    out += [("call", word) for word in CALL_WORDS]
    out += [("row", name) for name in ROWS]
    out += [("poker", name) for name in CATEGORIES]
    return list(dict.fromkeys(out))


def extract_core(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """The core's facts (see the module docstring), then the file's own texts marked ``N_(...)``
    (the refusals of rule sets and options), read as Babel's Python extractor reads them."""
    for context, text in core_messages():
        yield 0, "pgettext", (context, text), []
    found: Iterable[Any] = extract_python(fileobj, keywords, comment_tags, cast(Any, options))
    yield from found


__all__ = ["core_messages", "extract_core", "extract_html", "normalise"]
