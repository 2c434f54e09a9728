"""JSON from clients, read with limits: at most so many bytes, nested at most :data:`MAX_DEPTH` levels.

Every HTTP route that takes a JSON body reads it with :func:`read_json`, and the table
protocol's frames are parsed with :func:`loads`: one size rule (the body is read only up
to its limit, never whole first) and one depth rule for every door. A body that breaks
one is a :class:`BodyError` whose ``code`` is ``too_large`` or ``malformed`` and whose
message says what is allowed.

>>> loads(b'{"players": ["Ann", "Bob"]}')
{'players': ['Ann', 'Bob']}
>>> loads("[" * 40 + "]" * 40)
Traceback (most recent call last):
...
barbu.server.bodies.BodyError: JSON may be nested at most 32 levels deep; this is nested 40 levels
"""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from barbu.errors import BarbuError
from barbu.language import _

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted (a record is nested about 6 levels)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class BodyError(BarbuError):
    """A body that cannot be read: ``code`` is ``too_large`` or ``malformed``; ``message`` says what is allowed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Request(Protocol):
    @property
    def headers(self) -> Any: ...

    def stream(self) -> Any: ...


def depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do not count).

    >>> depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    level = deepest = 0
    for c in brackets:
        if c in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def loads(raw: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text, checking its nesting before the parser sees it."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BodyError("malformed", _("the text is not UTF-8: send JSON encoded as UTF-8")) from None
    else:
        text = raw
    # nesting is at most the number of opening brackets: most messages (an act has 2) skip the scan
    deep = depth(text) if text.count("[") + text.count("{") > max_depth else 0
    if deep > max_depth:
        raise BodyError(
            "malformed",
            _("JSON may be nested at most {most} levels deep; this is nested {deep} levels", most=max_depth, deep=deep),
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BodyError("malformed", _("the text is not valid JSON")) from None


async def read_json(request: _Request, limit: int, empty: Any = None) -> Any:
    """The JSON body of ``request``: ``too_large`` as soon as it passes ``limit`` bytes, ``malformed`` if unreadable.

    An empty body gives ``empty`` (``{}`` if None). A body announcing a larger
    ``Content-Length`` is refused before a byte of it is read.
    """
    too_large = BodyError("too_large", _("a request here is at most {size}", size=_size(limit)))
    announced = request.headers.get("content-length")
    if announced is not None and announced.isdigit() and int(announced) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {} if empty is None else empty
    return loads(raw)


def _size(n: int) -> str:
    """``n`` bytes in words.

    >>> _size(8192), _size(4 * 1024 * 1024), _size(100)
    ('8 KiB', '4 MiB', '100 bytes')
    """
    if n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MiB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


__all__ = ["MAX_DEPTH", "BodyError", "depth", "loads", "read_json"]
