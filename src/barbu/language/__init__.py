"""French and English for everything a person reads: gettext catalogues shared by Python and the pages.

The messages live in two gettext catalogues, ``locale/en/LC_MESSAGES/barbu.po`` and
``locale/fr/LC_MESSAGES/barbu.po``, managed with Babel (:mod:`barbu.language.catalogues`
extracts them from the Python modules, the page scripts, the pages and the core's rule data).
A message id is the English text, with a context for the core's facts (``contract``,
``variant``, ``tally``, ``flag``, ``bot``, ``suit``…): the core writes its facts once, in
English, and their French names live in the French catalogue only. Placeholders are
``{name}``, filled from keywords, the same in Python and in the pages' ``t()``.

The language of the moment is a context variable: the web app sets it per request and per
connection, the terminal game and the score keeper once from ``--lang`` or the environment
(:func:`from_environment`). Outside any choice it is English.

>>> with speaking("fr"):
...     _("Create table"), _p("contract", "No tricks"), _("Seat {n}", n=2)
('Créer la table', 'Pas de plis', 'Place 2')
>>> _("Create table")
'Create table'
>>> negotiate("de-DE,fr;q=0.8,en;q=0.5")
'fr'
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from barbu.errors import Text

if TYPE_CHECKING:
    from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français"}
"""The languages of the catalogues, each named in itself."""
DEFAULT = "en"
DOMAIN = "barbu"
COOKIE = "barbu_lang"
"""The cookie that holds a browser's chosen language (the pages' switch sets it)."""
CONTEXT_SEPARATOR = "\x04"
"""Between a context and its message id in a catalogue's keys (the gettext convention)."""


def _plural_en(n: int) -> int:
    return 0 if n == 1 else 1


def _plural_fr(n: int) -> int:
    return 0 if n in (0, 1) else 1 if n % 1_000_000 == 0 else 2


_PLURAL: dict[str, Callable[[int], int]] = {"en": _plural_en, "fr": _plural_fr}
"""Which plural form a count takes (gettext's ``Plural-Forms`` of each language)."""

_current: ContextVar[str] = ContextVar("barbu_language", default=DEFAULT)


def _fill(text: str, params: Mapping[str, Any]) -> str:
    return text.format(**params) if params else text


@dataclass(frozen=True)
class Catalogue:
    """The messages of one language: ``messages`` maps a key (``context\\x04id`` or ``id``)
    to its text, or to its plural forms for a message with a plural.

    >>> fr = catalogue("fr")
    >>> fr.ngettext("With {n} players: {deals} deal.", "With {n} players: {deals} deals.", 35, n=5, deals=35)
    'À 5 joueurs : 35 donnes.'
    >>> fr.gettext("no such message")
    'no such message'
    """

    lang: str
    messages: Mapping[str, str | tuple[str, ...]]

    def _lookup(self, key: str) -> str | tuple[str, ...] | None:
        return self.messages.get(key) or None

    def gettext(self, msgid: str, /, **params: Any) -> str:
        """``msgid`` in this language (itself if the catalogue lacks it), placeholders filled."""
        found = self._lookup(msgid)
        return _fill(found if isinstance(found, str) else msgid, params)

    def pgettext(self, context: str, msgid: str, /, **params: Any) -> str:
        """``msgid`` in ``context`` (a core fact: ``contract``, ``tally``…) in this language."""
        found = self._lookup(f"{context}{CONTEXT_SEPARATOR}{msgid}")
        return _fill(found if isinstance(found, str) else msgid, params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form of a message with a plural that fits the count ``n``."""
        found = self._lookup(singular)
        index = _PLURAL.get(self.lang, _PLURAL[DEFAULT])(n)
        if isinstance(found, tuple) and len(found) > index and found[index]:
            return _fill(found[index], params)
        return _fill(singular if n == 1 else plural, params)

    def as_json(self) -> dict[str, Any]:
        """What the pages receive (``GET /api/i18n``): the language, the languages on offer,
        the core's words keyed by the core's ids (:func:`core_words`) and every message
        (plural forms as lists)."""
        with speaking(self.lang):
            words = core_words()
        return {
            "lang": self.lang,
            "words": words,
            "languages": [{"code": c, "name": n} for c, n in LANGUAGES.items()],
            "messages": {k: list(v) if isinstance(v, tuple) else v for k, v in self.messages.items() if v},
        }


def catalogue_path(lang: str) -> Path:
    """Where the catalogue of ``lang`` lives: ``locale/LANG/LC_MESSAGES/barbu.po`` beside this module."""
    from pathlib import Path  # here: a command that reads no catalogue does not pay pathlib's import

    return Path(__file__).parent / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`), read from its ``.po`` file once.

    >>> catalogue("fr").pgettext("variant", "Classic Barbu")
    'Barbu classique'
    """
    from babel.messages.pofile import read_po

    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages are: {', '.join(LANGUAGES)}")
    with catalogue_path(lang).open("rb") as f:  # no locale: the plural rule is ours (_PLURAL), and
        po = read_po(f, domain=DOMAIN)  # Babel's locale data would cost each command ~0.4 s to load
    messages: dict[str, str | tuple[str, ...]] = {}
    for m in po:
        if not m.id:
            continue
        msgid = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
        key = f"{m.context}{CONTEXT_SEPARATOR}{msgid}" if m.context else msgid
        if m.fuzzy:
            continue
        messages[key] = tuple(m.string) if isinstance(m.string, (tuple, list)) else str(m.string or "")
    return Catalogue(lang, messages)


def supported(lang: str | None) -> str | None:
    """``lang`` (a tag like ``fr-CA`` or ``fr_FR.UTF-8``) as one of :data:`LANGUAGES`, or None.

    >>> supported("fr_FR.UTF-8"), supported("en-GB"), supported("de"), supported(None)
    ('fr', 'en', None, None)
    """
    if not lang:
        return None
    base = lang.strip().replace("_", "-").split(".")[0].split("-")[0].lower()
    return base if base in LANGUAGES else None


def negotiate(accept_language: str | None, chosen: str | None = None) -> str:
    """The language for a browser: its ``chosen`` one (the switch's cookie) if offered, else the
    first of ``Accept-Language`` (by weight) that is offered, else English.

    >>> negotiate("fr-FR,fr;q=0.9"), negotiate("de", chosen="fr"), negotiate("en;q=0.2,fr;q=0.9")
    ('fr', 'fr', 'fr')
    >>> negotiate(None), negotiate("*;q=0.1,de")
    ('en', 'en')
    """
    found = supported(chosen)
    if found:
        return found
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        weight = 1.0
        if rest.strip().startswith("q="):
            try:
                weight = float(rest.strip()[2:])
            except ValueError:
                weight = 0.0
        lang = supported(tag)
        if lang and weight > 0:
            weighted.append((-weight, i, lang))
    return min(weighted)[2] if weighted else DEFAULT


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``LANGUAGE`` (its first offered entry), then
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them; English otherwise.

    >>> from_environment({"LANG": "fr_FR.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "fr_FR"})
    ('fr', 'en')
    >>> from_environment({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"})
    'fr'
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        if name == "LANGUAGE":
            for entry in value.split(":"):
                if supported(entry):
                    return supported(entry) or DEFAULT
            continue
        return supported(value) or DEFAULT
    return DEFAULT


def current() -> str:
    """The language of the moment."""
    return _current.get()


def use(lang: str) -> None:
    """Make ``lang`` the language of the moment (of this context: a request, the terminal game)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages are: {', '.join(LANGUAGES)}")
    _current.set(lang)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside a ``with`` block, then the language of before."""
    token = _current.set(supported(lang) or DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def _(msgid: str, /, **params: Any) -> str:
    """``msgid`` in the language of the moment, ``{placeholders}`` filled from ``params``.

    English is the message ids themselves (the English catalogue repeats them, which
    tests/test_language.py checks), so English reads no catalogue: a command that speaks
    English does not pay the catalogue's reading (~0.2 s)."""
    lang = current()
    if lang == DEFAULT:
        return _fill(msgid, params)
    return catalogue(lang).gettext(msgid, **params)


def _p(context: str, msgid: str, /, **params: Any) -> str:
    """``msgid`` of ``context`` (a core fact: ``contract``, ``variant``, ``tally``…) in the language of the moment."""
    lang = current()
    if lang == DEFAULT:
        return _fill(msgid, params)
    return catalogue(lang).pgettext(context, msgid, **params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of a message with a plural for the count ``n``, in the language of the moment."""
    lang = current()
    if lang == DEFAULT:
        return _fill(singular if n == 1 else plural, params)
    return catalogue(lang).ngettext(singular, plural, n, **params)


def translate(text: Text | str) -> str:
    """A core's text (:class:`barbu.errors.Text`: an error's ``text``) in the language of the
    moment, its placeholders' values translated too when they are texts; a plain string (a
    message the core did not mark) stays as it is.

    >>> from barbu.errors import N_, fact
    >>> why = N_("seat {seat} must follow {suit}", seat=2, suit=fact("suit", "diamonds"))
    >>> with speaking("fr"):
    ...     translate(why)
    'la place 2 doit fournir à carreau'
    """
    if isinstance(text, str):
        return text
    params = {k: translate(v) if isinstance(v, Text) else v for k, v in text.params.items()}
    if text.context is not None:
        return _p(text.context, text.template, **params)
    return _(text.template, **params)


def error_text(error: BaseException) -> str:
    """What a person reads of an error of the core: its :class:`~barbu.errors.Text` translated,
    or the error's own text.

    >>> from barbu.errors import IllegalAction, N_
    >>> with speaking("fr"):
    ...     error_text(IllegalAction("call", N_("the calls are over")))
    'les annonces sont terminées'
    """
    text = getattr(error, "text", None)
    if isinstance(text, Text):
        return translate(text)
    return getattr(error, "message", None) or str(error)


def tally_label(key: str, tricks: int) -> str:
    """The label of the tally key ``key`` for a deal of ``tricks`` tricks, in the language of the moment.

    >>> with speaking("fr"):
    ...     tally_label("last", 13)
    'qui a fait le dernier pli (13)'
    """
    from barbu.tally_keys import TALLY_KEYS

    return _p("tally", TALLY_KEYS[key].label, second_last=tricks - 1, last=tricks)


def tally_words(table: Mapping[str, Mapping[str, Any]], tricks: int) -> dict[str, dict[str, Any]]:
    """A :func:`barbu.tally_keys.tally_table` with its labels in the language of the moment."""
    return {key: {**entry, "label": tally_label(key, tricks)} for key, entry in table.items()}


def core_words() -> dict[str, Any]:
    """The core's words for cards and calls in the language of the moment, keyed by the core's
    ids: suits by letter, ranks by letter, call words, the rows of an arrangement, poker hands.

    >>> with speaking("fr"):
    ...     words = core_words()
    >>> words["suits"]["H"], words["ranks"]["Q"], words["calls"]["pass"], words["rows"]
    ('cœur', 'dame', 'passe', ['arrière', 'milieu', 'avant'])
    """
    from barbu.actions import CALL_WORDS
    from barbu.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUITS
    from barbu.poker import CATEGORIES, ROWS

    return {
        "suits": {s: _p("suit", name) for s, name in zip(SUITS, SUIT_NAMES, strict=True)},
        "ranks": {r: _p("rank", name) for r, name in zip(RANKS, RANK_NAMES, strict=True)},
        "calls": {w: _p("call", w) for w in CALL_WORDS},
        "rows": [_p("row", name) for name in ROWS],
        "poker": [_p("poker", name) for name in CATEGORIES],
    }


def N_(msgid: str, /) -> str:
    """Mark ``msgid`` for the catalogues without translating it now (a table of texts
    translated where they are shown, with :func:`_`).

    >>> N_("Score sheets")
    'Score sheets'
    """
    return msgid


ORDINALS = (N_("1st"), N_("2nd"), N_("3rd"))


def ordinal(k: int) -> str:
    """``1st``, ``2nd``… (a contract of a set, a place in a ranking) in the language of the moment.

    >>> ordinal(1), ordinal(4)
    ('1st', '4th')
    >>> with speaking("fr"):
    ...     ordinal(1), ordinal(2)
    ('1er', '2e')
    """
    return _(ORDINALS[k - 1]) if 1 <= k <= len(ORDINALS) else _("{n}th", n=k)


__all__ = [
    "COOKIE",
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "Catalogue",
    "_",
    "_n",
    "_p",
    "catalogue",
    "core_words",
    "current",
    "error_text",
    "from_environment",
    "negotiate",
    "ordinal",
    "speaking",
    "supported",
    "tally_label",
    "tally_words",
    "translate",
    "use",
]
