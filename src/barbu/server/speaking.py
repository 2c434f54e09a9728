"""The language of each request and connection: the browser's choice (the switch's cookie),
else its ``Accept-Language``, else English (:func:`barbu.language.negotiate`).

:class:`Speaking` is an ASGI middleware that sets the language of the moment
(:func:`barbu.language.use`) before the app handles an HTTP request or a WebSocket, so that
every message for a person built while handling it (``_(…)``) is in that person's language.

>>> import asyncio
>>> seen = []
>>> async def app(scope, receive, send):
...     seen.append(current())
>>> scope = {"type": "http", "headers": [(b"accept-language", b"fr-FR,fr;q=0.9")]}
>>> asyncio.run(Speaking(app)(scope, None, None)); seen
['fr']
"""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.types import ASGIApp, Receive, Scope, Send

from barbu.language import COOKIE, current, negotiate, speaking


def request_language(headers: list[tuple[bytes, bytes]] | dict[str, str]) -> str:
    """The language of a request with these headers.

    >>> request_language({"cookie": "barbu_lang=fr", "accept-language": "en"})
    'fr'
    """
    pairs = (
        headers.items()
        if isinstance(headers, dict)
        else ((k.decode("latin-1"), v.decode("latin-1")) for k, v in headers)
    )
    found = {k.lower(): v for k, v in pairs}
    chosen = None
    if "cookie" in found:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(found["cookie"])
        except Exception:  # a malformed cookie header chooses nothing
            jar = SimpleCookie()
        if COOKIE in jar:
            chosen = jar[COOKIE].value
    return negotiate(found.get("accept-language"), chosen)


class Speaking:
    """Sets the language of the moment for each HTTP request and WebSocket (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with speaking(request_language(scope.get("headers", []))):
            await self.app(scope, receive, send)


__all__ = ["Speaking", "current", "request_language"]
