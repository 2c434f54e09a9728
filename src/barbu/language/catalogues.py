"""Keeping the catalogues up to date: extract every message with Babel, merge it into each language.

``python -m barbu.language.catalogues`` extracts the messages of the Python modules (``_``,
``_p``, ``_n``, ``N_``, ``Phrase``), of the page scripts (``t``, ``tp``, ``tn``), of the pages
(``data-i18n``) and of the core's facts, then updates ``en`` (a new message's English is its
id) and ``fr`` (a new message waits, empty, for its French), and says which are missing;
``--check`` changes nothing and fails if a catalogue is behind or a French text is missing.

>>> ("contract", "Trumps") in {(m.context, m.id) for m in template()}
True
"""

from __future__ import annotations

import argparse
import copy
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from barbu.language import DOMAIN, LANGUAGES, catalogue, catalogue_path

SOURCE = Path(__file__).resolve().parent.parent
"""The package's folder, ``src/barbu``: what is extracted."""

METHOD_MAP = [
    ("rulesets.py", "barbu.language.extract:extract_core"),  # the core's facts, read from its data
    ("*.py", "python"),  # the core's texts for people, marked N_(...) (barbu.errors.Text)
    ("language/**.py", "ignore"),
    ("server/static/**.js", "javascript"),
    ("server/static/**.html", "barbu.language.extract:extract_html"),
    ("**.py", "python"),
]
"""Which extractor reads which files (first match wins), as Babel's ``babel.cfg`` would say."""

KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "_p": ((1, "c"), 2),
    "_n": (1, 2),
    "t": None,
    "tp": ((1, "c"), 2),
    "tn": (1, 2),
    "Phrase": None,
}
"""The translating functions: Python's ``_``, ``_p``, ``_n``, ``N_``, the commands' help lines with
values (:class:`barbu.usage.Phrase`) and the pages' ``t``, ``tp``, ``tn``."""

OPTIONS = {"server/static/**.js": {"parse_template_string": "false"}}


STAMP = datetime(2026, 1, 1, tzinfo=UTC)
"""The date written in the catalogues' headers: fixed, so that a catalogue changes only with its messages."""
HEADER = (
    "# Messages of barbu, the French compendium card game (docs/i18n.md).\n"
    "# This file is distributed under the same license as the barbu project."
)


def template() -> Catalog:
    """Every message of the package, as Babel extracts it (the ``.pot`` template)."""
    pot = Catalog(domain=DOMAIN, project="barbu", fuzzy=False, creation_date=STAMP, revision_date=STAMP)
    for filename, lineno, message, comments, context in extract_from_dir(
        SOURCE, METHOD_MAP, OPTIONS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        pot.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return pot


def _key(m: Message) -> tuple[str | None, str]:
    return m.context, m.id[0] if isinstance(m.id, (list, tuple)) else m.id


def _read(lang: str) -> Catalog:
    path = catalogue_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="barbu")
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def merged(lang: str, pot: Catalog) -> Catalog:
    """The catalogue of ``lang`` brought up to ``pot``: messages gone are dropped, new ones
    added (in English with their id as text; in French empty)."""
    po = _read(lang)
    po.update(copy.deepcopy(pot), no_fuzzy_matching=True)  # update shares the template's messages
    po.obsolete.clear()
    po.header_comment = HEADER
    po.creation_date = po.revision_date = STAMP
    po.fuzzy = False
    po.version = "1"
    po.msgid_bugs_address = po.last_translator = po.language_team = ""
    for m in po:
        if not m.id:
            continue
        m.flags.discard("fuzzy")
        if lang == "en" and not (m.string and all(m.string) if isinstance(m.string, tuple) else m.string):
            m.string = tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id
    return po


def missing(po: Catalog) -> list[tuple[str | None, str]]:
    """The messages of ``po`` with no text (or a plural form without text)."""
    out = []
    for m in po:
        if not m.id:
            continue
        text = m.string
        if not text or (isinstance(text, (list, tuple)) and not all(text)):
            out.append(_key(m))
    return out


def _text(po: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, po, width=120, omit_header=False, include_previous=False, ignore_obsolete=True)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m barbu.language.catalogues", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if a catalogue is behind")
    args = parser.parse_args(argv)
    pot = template()
    status = 0
    for lang in LANGUAGES:
        po = merged(lang, pot)
        text = _text(po)
        path = catalogue_path(lang)
        written = {_key(m) for m in _read(lang) if m.id}
        behind = written != {_key(m) for m in pot if m.id} or (not args.check and path.read_bytes() != text)
        if args.check and behind:
            print(f"{path}: behind the sources; run python -m barbu.language.catalogues", file=sys.stderr)
            status = 1
        elif behind:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
        gaps = missing(po)
        for context, msgid in gaps:
            print(f"{lang}: missing {context + ': ' if context else ''}{msgid}", file=sys.stderr)
        status = status or (1 if gaps else 0)
    catalogue.cache_clear()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
