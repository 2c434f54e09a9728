"""Names and titles people type: checked in one place before anything stores or shows them.

A name (a player's, a seat's) or a title (a score sheet's) is text of 1 to ``limit``
characters once its runs of white space are made single spaces and its ends trimmed. It
may hold any character of Unicode but a control character (``U+0000``–``U+001F``,
``U+007F``–``U+009F``; tabs and line breaks count as white space) and a lone surrogate
(which no database can store). Pages insert names as text, so markup in a name is shown,
never run.

>>> check_text("  Ann   Lee ", "name", 40)
'Ann Lee'
>>> check_text("x\\ud800", "seat 1 name", 40)
Traceback (most recent call last):
...
barbu.names.TextError: seat 1 name: it holds U+D800, a lone surrogate; a name is 1 to 40 characters of printable text
"""

from __future__ import annotations

import unicodedata

from barbu.errors import BarbuError

NAME_LIMIT = 40
"""The longest player or seat name."""
TITLE_LIMIT = 120
"""The longest score-sheet title."""


class TextError(BarbuError, ValueError):
    """Text that cannot be a name or title: ``field`` names what was given, the message what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = f"{field}: {message}"


def _refused(c: str) -> str | None:
    """Why the character ``c`` cannot be in a name (None if it can)."""
    category = unicodedata.category(c)
    if category == "Cs":
        return "a lone surrogate"
    if category == "Cc":
        return "a control character"
    return None


def check_text(value: object, field: str, limit: int, *, required: bool = True, kind: str | None = None) -> str:
    """``value`` as a clean name or title, or :class:`TextError` naming ``field`` and what is allowed.

    White space runs become one space and the ends are trimmed; with ``required`` False an
    empty value gives ``""``. ``kind`` is the word used in the message ("name" or "title",
    guessed from ``field`` if not given).

    >>> check_text("", "title", 120, required=False)
    ''
    >>> check_text("a\\x07b", "name", 40)
    Traceback (most recent call last):
    ...
    barbu.names.TextError: name: it holds U+0007, a control character; a name is 1 to 40 characters of printable text
    """
    kind = kind or ("title" if "title" in field else "name")
    allowed = f"a {kind} is {'1' if required else '0'} to {limit} characters of printable text"
    if not isinstance(value, str):
        raise TextError(field, f"give text; {allowed}")
    for c in value:
        why = _refused(c) if not c.isspace() else None
        if why is not None:
            raise TextError(field, f"it holds U+{ord(c):04X}, {why}; {allowed}")
    text = " ".join(value.split())
    if not text and required:
        raise TextError(field, f"it is empty; {allowed}")
    if len(text) > limit:
        raise TextError(field, f"it has {len(text)} characters; {allowed}")
    return text


__all__ = ["NAME_LIMIT", "TITLE_LIMIT", "TextError", "check_text"]
