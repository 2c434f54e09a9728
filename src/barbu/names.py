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

from barbu.errors import N_, BarbuError, Text

NAME_LIMIT = 40
"""The longest player or seat name."""
TITLE_LIMIT = 120
"""The longest score-sheet title."""


_OPENS = {"\u202a": "embedding", "\u202b": "embedding", "\u202d": "override", "\u202e": "override"}
_OPENS |= {"\u2066": "isolate", "\u2067": "isolate", "\u2068": "isolate"}


class TextError(BarbuError, ValueError):
    """Text that cannot be a name or title: ``field`` names what was given, ``text`` why and
    what is allowed, as a :class:`~barbu.errors.Text` for the outer layers to translate
    (``barbu.language.error_text``), ``message`` its English."""

    def __init__(self, field: str, why: Text, allowed: Text) -> None:
        text = N_("{field}: {why}; {allowed}", field=field, why=why, allowed=allowed)
        super().__init__(str(text))
        self.field = field
        self.text = text
        self.message = str(text)


def _refused(c: str) -> Text | None:
    """Why the character ``c`` cannot be in a name (None if it can)."""
    category = unicodedata.category(c)
    if category == "Cs":
        return N_("it holds U+{code}, a lone surrogate", code=format(ord(c), "04X"))
    if category == "Cc":
        return N_("it holds U+{code}, a control character", code=format(ord(c), "04X"))
    return None


def unclosed_bidi(text: str) -> Text | None:
    """Why ``text``'s bidirectional controls would reach past its end (None if they are closed).

    >>> unclosed_bidi("\\u202eAnn\\u202c Lee") is None
    True
    >>> str(unclosed_bidi("\\u202eAnn"))
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
                return N_("it closes a bidirectional isolate (U+2069) it did not open")
            stack.pop()
        elif c == "\u202c":
            if not stack or _OPENS[stack[-1]] == "isolate":
                return N_("it closes a bidirectional embedding or override (U+202C) it did not open")
            stack.pop()
    if stack:
        code = f"{ord(stack[-1]):04X}"
        kind = _OPENS[stack[-1]]
        if kind == "isolate":
            return N_("it opens a bidirectional isolate (U+{code}) it does not close (with U+2069)", code=code)
        if kind == "override":
            return N_("it opens a bidirectional override (U+{code}) it does not close (with U+202C)", code=code)
        return N_("it opens a bidirectional embedding (U+{code}) it does not close (with U+202C)", code=code)
    return None


def check_text(value: object, field: str, limit: int, *, required: bool = True, kind: str = "name") -> str:
    """``value`` as a clean name or title, or :class:`TextError` naming ``field`` and what is allowed.

    White space runs become one space and the ends are trimmed; with ``required`` False an
    empty value gives ``""``. ``kind`` says which is checked ("name" or "title") and
    chooses the message's words; ``field`` is what the message calls the text (in the
    language of the person who typed it: the core does not translate it).

    >>> check_text("", "title", 120, required=False, kind="title")
    ''
    >>> check_text("a\\x07b", "name", 40)
    Traceback (most recent call last):
    ...
    barbu.names.TextError: name: it holds U+0007, a control character; a name is 1 to 40 characters of printable text
    """
    low = 1 if required else 0
    if kind == "title":
        allowed = N_("a title is {low} to {limit} characters of printable text", low=low, limit=limit)
    else:
        allowed = N_("a name is {low} to {limit} characters of printable text", low=low, limit=limit)
    if not isinstance(value, str):
        raise TextError(field, N_("give text"), allowed)
    for c in value:
        why = _refused(c) if not c.isspace() else None
        if why is not None:
            raise TextError(field, why, allowed)
    text = " ".join(value.split())
    bidi = unclosed_bidi(text)
    if bidi is not None:
        raise TextError(field, bidi, allowed)
    if not text and required:
        raise TextError(field, N_("it is empty"), allowed)
    if len(text) > limit:
        raise TextError(field, N_("it has {n} characters", n=len(text)), allowed)
    return text


__all__ = ["NAME_LIMIT", "TITLE_LIMIT", "TextError", "check_text", "unclosed_bidi"]
