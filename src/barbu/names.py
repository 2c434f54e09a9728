"""Names and titles people type: checked in one place before anything stores or shows them.

A name (a player's, a seat's) or a title (a score sheet's) is text of 1 to ``limit``
characters once its runs of white space are made single spaces and its ends trimmed. It
may hold any character of Unicode but a control character (``U+0000``–``U+001F``,
``U+007F``–``U+009F``; tabs and line breaks count as white space) and a lone surrogate
(which no database can store). A bidirectional embedding, override or isolate it opens
(``U+202A``, ``U+202B``, ``U+202D``, ``U+202E``, ``U+2066``–``U+2068``) must be closed in
the text itself (``U+202C``, ``U+2069``), and nothing it did not open may be closed: shown
on a page, an unclosed override turns the page's own text after the name around. Marks
(``U+200E``, ``U+200F``) and closed runs are shown as typed. Pages insert names as text, so
markup in a name is shown, never run.

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


_OPENS = {"\u202a": "embedding", "\u202b": "embedding", "\u202d": "override", "\u202e": "override"}
_OPENS |= {"\u2066": "isolate", "\u2067": "isolate", "\u2068": "isolate"}


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


def unclosed_bidi(text: str) -> str | None:
    """Why ``text``'s bidirectional controls would reach past its end (None if they are closed).

    >>> unclosed_bidi("\\u202eAnn\\u202c Lee") is None
    True
    >>> unclosed_bidi("\\u202eAnn")
    'it opens a bidirectional override (U+202E) it does not close (with U+202C)'
    """
    stack: list[str] = []
    for c in text:
        if c in _OPENS:
            stack.append(c)
        elif c == "\u2069":  # closes the last isolate and whatever was opened inside it
            while stack and _OPENS[stack[-1]] != "isolate":
                stack.pop()
            if not stack:
                return "it closes a bidirectional isolate (U+2069) it did not open"
            stack.pop()
        elif c == "\u202c":
            if not stack or _OPENS[stack[-1]] == "isolate":
                return "it closes a bidirectional embedding or override (U+202C) it did not open"
            stack.pop()
    if stack:
        c = stack[-1]
        close = "U+2069" if _OPENS[c] == "isolate" else "U+202C"
        return f"it opens a bidirectional {_OPENS[c]} (U+{ord(c):04X}) it does not close (with {close})"
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
    bidi = unclosed_bidi(text)
    if bidi is not None:
        raise TextError(field, f"{bidi}; {allowed}")
    if not text and required:
        raise TextError(field, f"it is empty; {allowed}")
    if len(text) > limit:
        raise TextError(field, f"it has {len(text)} characters; {allowed}")
    return text


__all__ = ["NAME_LIMIT", "TITLE_LIMIT", "TextError", "check_text", "unclosed_bidi"]
