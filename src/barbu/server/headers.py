"""Security headers on every HTTP answer of the web app.

:class:`SecurityHeaders` is a plain ASGI middleware. Every answer gets:

- a Content-Security-Policy (:func:`page_policy`): scripts, styles and everything else only
  from the app's own origin, no inline script or style, no ``eval``, no plugin, no ``<base>``,
  no framing, forms posting only to the app, connections only to the app (its WebSocket
  included), and Trusted Types required so that no script can turn a string into HTML;
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (a seat's link is its
  key: no page sends its address anywhere), ``X-Frame-Options: DENY``,
  ``Cross-Origin-Opener-Policy: same-origin`` and a ``Permissions-Policy`` granting nothing.

A route that sets one of these headers itself keeps its own: the printable score sheet, a
standalone document with its styles inline, answers with :data:`DOCUMENT_POLICY`.

>>> "script-src 'self'" in page_policy("cards.example:8443")
True
>>> "wss://cards.example:8443" in page_policy("cards.example:8443")
True
>>> "wss://" in page_policy("x; script-src *")  # a Host that is not a host name adds nothing
False
"""

from __future__ import annotations

import re

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["DOCUMENT_POLICY", "SecurityHeaders", "page_policy"]

_HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
"""A host name, IPv4 address or bracketed IPv6 address, with an optional port."""

_PAGE = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
)

DOCUMENT_POLICY = "; ".join(
    (
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "img-src data:",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'none'",
    )
)
"""The policy of a standalone document the app exports: its own inline styles, and no script at all."""

PERMISSIONS = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
)
"""Every powerful feature, granted to no one."""

_FIXED = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Permissions-Policy", PERMISSIONS),
)


def page_policy(host: str | None) -> str:
    """The Content-Security-Policy of the app's pages, served under ``host`` (the Host header).

    ``connect-src`` names the WebSocket's ``ws://`` and ``wss://`` origins on ``host`` besides
    ``'self'`` (which older browsers do not take to cover WebSockets); a Host header that is not
    a plain host name and port adds nothing.

    >>> page_policy(None).split("; ")[0:2]
    ["default-src 'self'", "script-src 'self'"]
    >>> [d for d in page_policy("127.0.0.1:8000").split("; ") if d.startswith("connect-src")]
    ["connect-src 'self' ws://127.0.0.1:8000 wss://127.0.0.1:8000"]
    """
    connect = "connect-src 'self'"
    if host and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join((*_PAGE[:4], connect, *_PAGE[4:]))


class SecurityHeaders:
    """ASGI middleware adding the security headers to every HTTP answer of ``app``.

    >>> from starlette.applications import Starlette
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(SecurityHeaders(Starlette()))
    >>> client.get("/nowhere").headers["x-frame-options"]
    'DENY'
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = page_policy(Headers(scope=scope).get("host"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", policy)
                for name, value in _FIXED:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
