"""Cross-site request defence: only the server's own pages (or allowed origins) change anything.

A page on another site can make a visitor's browser send requests here, with the
visitor's cookies. Browsers say where such a request comes from: ``Origin`` (the page's
scheme, host and port) on every cross-origin request and every POST, and
``Sec-Fetch-Site`` (``same-origin``, ``same-site``, ``cross-site`` or ``none``) on every
request. :class:`OriginGuard`, an ASGI middleware, looks at both on every request that may
change something (any method but GET, HEAD and OPTIONS) and on every WebSocket handshake:

- an ``Origin`` equal to the request's own (the scheme, the ``Host`` header) or listed in
  the allowed origins passes, unless ``Sec-Fetch-Site`` says the request crossed sites
  (the two signals must agree); any other ``Origin`` (``null`` included) is refused;
- without ``Origin``, ``Sec-Fetch-Site`` decides (``same-origin`` and ``none`` pass);
- a request with neither comes from a program (a bot, a script, curl), not from a page a
  visitor was lured to: it passes, and answers to the same checks as everyone else.

A page can also reach this server under a name of its own: DNS rebinding points a name the
attacker owns (``evil.example``) at 127.0.0.1 after the page has loaded, so that its requests
carry ``Origin`` and ``Host`` both ``http://evil.example:8000`` and look same-origin. ``barbu
serve`` therefore answers only to the names it knows (``allowed_hosts``): IP addresses (a page
served from an IP address is that address's own), ``localhost`` and its subdomains, the hosts
of the allowed origins and the names given with ``--allow-host`` (``*`` answers to every name,
for a proxy that checks them itself). Any other ``Host`` gets a 400 JSON error with code
``unknown_host`` on every request, reads included; a WebSocket handshake is closed.

A refused HTTP request gets a 403 JSON error with code ``cross_origin`` and never reaches
its route; a refused WebSocket handshake is closed with code 1008 (policy violation)
before the connection is accepted (uvicorn answers such a handshake with HTTP 403), so no
message is ever read. A body sent to a
state-changing route must be ``application/json`` (415 ``content_type`` otherwise): an
HTML form, the one cross-site request a browser sends without asking the server first,
can only send form encodings or plain text.

>>> guard = OriginGuard(None, ["https://barbu.example:443"])
>>> guard.allowed
frozenset({'https://barbu.example'})
>>> guard.refusal("POST", {"origin": "https://barbu.example", "host": "127.0.0.1:8000"}, "http") is None
True
>>> guard.refusal("POST", {"origin": "http://evil.example", "host": "127.0.0.1:8000"}, "http")
'a page of http://evil.example may not change things on http://127.0.0.1:8000 (cross-origin request refused)'
>>> guard.refusal("POST", {}, "http") is None  # a program: no browser headers at all
True
>>> guard = OriginGuard(None, allowed_hosts=["barbu.example"])
>>> print(guard.unknown_host({"host": "evil.example:8000"}))  # doctest: +NORMALIZE_WHITESPACE
this server does not answer to the name 'evil.example' (refused against DNS rebinding):
it answers to IP addresses, localhost, barbu.example
>>> [guard.unknown_host({"host": h}) for h in ("127.0.0.1:8000", "[::1]:8000", "localhost", "Barbu.Example")]
[None, None, None, None]
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from barbu.errors import N_, BarbuError, Text

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: never checked."""
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class OriginError(BarbuError, ValueError):
    """An allowed origin that is not ``scheme://host[:port]`` with scheme http or https, or an
    allowed host that is not a name: ``text`` says why, for ``barbu.language.error_text``."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


def normalise_origin(text: str) -> str:
    """``scheme://host[:port]`` in lower case, without the scheme's default port.

    >>> normalise_origin("HTTPS://Barbu.Example:443")
    'https://barbu.example'
    >>> normalise_origin("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    >>> normalise_origin("barbu.example")
    Traceback (most recent call last):
    ...
    barbu.server.origin.OriginError: 'barbu.example' is not an origin: write scheme://host[:port], e.g. https://barbu.example
    """
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        parts, port = None, None
    if (
        parts is None
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise OriginError(
            N_("{value} is not an origin: write scheme://host[:port], e.g. https://barbu.example", value=repr(text))
        )
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _own_origin(scheme: str, host: str) -> str | None:
    """The origin of a request made to ``host`` (the Host header) over ``scheme``."""
    web = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    try:
        return normalise_origin(f"{web}://{host}")
    except OriginError:
        return None


_HOST_NAME = re.compile(r"^(\*|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$")


def normalise_host(text: str) -> str:
    """A name given with ``--allow-host``, in lower case (``*``: every name).

    >>> normalise_host("Barbu.Example")
    'barbu.example'
    >>> normalise_host("https://barbu.example")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.server.origin.OriginError: 'https://barbu.example' is not a host name: write the name alone, ...
    """
    name = text.strip().lower().rstrip(".")
    if not _HOST_NAME.match(name) or len(name) > 253:
        raise OriginError(
            N_(
                "{value} is not a host name: write the name alone, e.g. barbu.example (or * for every name)",
                value=repr(text),
            )
        )
    return name


def _host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port or an IPv6 address's brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class OriginGuard:
    """ASGI middleware refusing cross-site state changes and WebSocket handshakes, and (when
    ``allowed_hosts`` is given) requests made to a name the server does not answer to (see the
    module)."""

    def __init__(
        self, app: ASGIApp | None, allowed_origins: Iterable[str] = (), allowed_hosts: Iterable[str] | None = None
    ) -> None:
        self.app = app
        self.allowed = frozenset(normalise_origin(o) for o in allowed_origins)
        self.hosts: frozenset[str] | None = None
        if allowed_hosts is not None:
            named = {normalise_host(h) for h in allowed_hosts}
            named |= {_host_name(urlsplit(o).netloc) for o in self.allowed}
            self.hosts = frozenset(named)

    def unknown_host(self, headers: Mapping[str, str]) -> str | None:
        """Why a request made to this ``Host`` is refused (an unknown name), or None if it passes."""
        if self.hosts is None or "*" in self.hosts or "host" not in headers:
            return None
        name = _host_name(headers["host"]).rstrip(".")
        if _is_address(name) or name == "localhost" or name.endswith(".localhost") or name in self.hosts:
            return None
        known = ", ".join(["IP addresses", "localhost", *sorted(self.hosts)])
        return (
            f"this server does not answer to the name {name!r} (refused against DNS rebinding): it answers to {known}"
        )

    def refusal(self, method: str, headers: Mapping[str, str], scheme: str) -> str | None:
        """Why a request with these (lower-case) headers is refused, or None if it passes."""
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        if origin is None:
            if site is None or site in ("same-origin", "none"):
                return None
            return f"a page of another site (Sec-Fetch-Site: {site}) may not change things here (cross-origin)"
        own = _own_origin(scheme, headers.get("host", ""))
        try:
            claimed = normalise_origin(origin)
        except OriginError:
            return f"a page of origin {origin!r} may not change things here (cross-origin)"
        if claimed in self.allowed:
            return None
        if claimed != own:
            return f"a page of {claimed} may not change things on {own} (cross-origin request refused)"
        if site is not None and site not in ("same-origin", "none"):
            return f"the request crossed sites (Sec-Fetch-Site: {site}) though its origin is {own} (cross-origin)"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.app is not None
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        method = "WEBSOCKET" if kind == "websocket" else str(scope.get("method", "GET")).upper()
        stranger = self.unknown_host(headers)
        why = stranger or self.refusal(method, headers, str(scope.get("scheme", "http")))
        if why is not None:
            if kind == "websocket":
                await receive()  # the handshake's websocket.connect
                reason = "unknown host name" if stranger else "cross-origin connection refused"
                await send({"type": "websocket.close", "code": 1008, "reason": reason})
            elif stranger:
                await _json_error(send, 400, "unknown_host", stranger)
            else:
                await _json_error(send, 403, "cross_origin", why)
            return
        if kind == "http" and method not in SAFE_METHODS and _has_body(headers):
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                shown = media or "none"
                message = f"the body must be sent as Content-Type: application/json, not {shown}"
                await _json_error(send, 415, "content_type", message)
                return
        await self.app(scope, receive, send)


def _has_body(headers: Mapping[str, str]) -> bool:
    if "transfer-encoding" in headers:
        return True
    length = headers.get("content-length", "0").strip()
    return not (length.isdigit() and int(length) == 0)


async def _json_error(send: Send, status: int, code: str, message: str) -> None:
    """An error answer in the shape of both JSON APIs (tables read ``code``, score sheets ``kind``)."""
    body = json.dumps({"error": {"code": code, "kind": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["SAFE_METHODS", "OriginError", "OriginGuard", "normalise_host", "normalise_origin"]
