"""Seat credentials in a browser: the link's key is traded once for a cookie no script can read.

A seat's invitation link (``/t/TABLE#seat=N&key=KEY``) carries its key in the fragment.
The table page sends that key once to ``POST /api/tables/TABLE/claim`` and drops it from
the address bar; the server ties the seat to the browser's cookie ``barbu_browser`` (a
random secret, HttpOnly, SameSite=Strict, Secure over HTTPS: no script reads it and no
other site's page sends it) and from then on the page says ``hello`` with the seat number,
the cookie proving it. Only the SHA-256 of the cookie is stored.

A link opened in a second browser is not silently accepted: its claim is refused with
``seat_held`` until that browser asks for a ``takeover``, and then the first browser's
connections are told (``taken_over``) and closed. Programs (bots, scripts) keep sending the
key in ``hello``, which works while no browser holds the seat.

The browser that created a table sees the invitations of the seats nobody claimed yet
(``GET /api/tables/TABLE/invitations``), so nothing is kept in the page's storage.

>>> len(new_browser_secret()) >= 40
True
>>> browser_secret("short") is None, browser_secret("x" * 40) == "x" * 40
(True, True)
"""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from barbu.language import _, error_text
from barbu.server.bodies import BodyError, read_json
from barbu.server.cookies import DAY, cookie_name, set_private_cookie
from barbu.server.protocol import ProtocolError
from barbu.server.tables import TableService, credential_hash
from barbu.storage import StoreError

BROWSER_COOKIE = cookie_name("browser")
"""The cookie naming a browser: a random secret, never readable by the pages' scripts."""
COOKIE_DAYS = 400
"""How long a browser keeps its cookie (the longest a browser keeps any)."""
CLAIM_BYTES = 1024
"""The longest claim request body."""
_SECRET = re.compile(r"[A-Za-z0-9_-]{32,128}")

STATUS = {
    "unknown_table": 404,
    "bad_credential": 403,
    "seat_held": 409,
    "bad_request": 400,
    "too_large": 413,
    "storage": 503,
}
"""The HTTP status of each error code these routes answer."""


def new_browser_secret() -> str:
    """A fresh browser secret for the cookie."""
    return secrets.token_urlsafe(32)


def browser_secret(value: str | None) -> str | None:
    """The cookie's value if it has the form of a browser secret (else the browser has none)."""
    return value if value is not None and _SECRET.fullmatch(value) else None


def holder_of(secret: str) -> str:
    """The stored form of a browser secret (the secret itself is never stored).

    >>> holder_of("x" * 40) == holder_of("x" * 40) != holder_of("y" * 40)
    True
    """
    return credential_hash(f"browser:{secret}")


def browser_holder(cookies: dict[str, str]) -> str | None:
    """The holder hash of the request's browser cookie, or None without a valid one."""
    secret = browser_secret(cookies.get(BROWSER_COOKIE))
    return holder_of(secret) if secret is not None else None


def ensure_browser(request: Request) -> tuple[str, bool]:
    """The request's browser secret, and whether it is new (to be set in the answer)."""
    secret = browser_secret(request.cookies.get(BROWSER_COOKIE))
    if secret is not None:
        return secret, False
    return new_browser_secret(), True


def set_browser_cookie(response: Response, request: Request, secret: str) -> None:
    """Give the browser its cookie (:func:`~barbu.server.cookies.set_private_cookie`)."""
    set_private_cookie(response, request, BROWSER_COOKIE, secret, max_age=COOKIE_DAYS * DAY)


def error(e: ProtocolError) -> JSONResponse:
    """A protocol error as the JSON API answers it."""
    return JSONResponse({"error": {"code": e.code, "message": e.message}}, status_code=STATUS.get(e.code, 400))


async def read_claim(request: Request) -> tuple[str, int | None, bool]:
    """The key, the seat number (optional) and the takeover flag of a claim request."""
    try:
        body = await read_json(request, CLAIM_BYTES)
    except BodyError as e:
        if e.code == "too_large":
            raise ProtocolError("too_large", _("a claim is at most {n} bytes", n=CLAIM_BYTES)) from None
        raise ProtocolError(
            "bad_request", _("a claim is JSON like {example}: {why}", example='{"seat": 0, "key": "…"}', why=e.message)
        ) from None
    if not isinstance(body, dict):
        raise ProtocolError(
            "bad_request", _("a claim is a JSON object like {example}", example='{"seat": 0, "key": "…"}')
        )
    key = body.get("key")
    if not isinstance(key, str) or not 1 <= len(key) <= 64:
        raise ProtocolError("bad_request", _('"key" must be the key of the seat\'s invitation link'))
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise ProtocolError("bad_request", _('"seat" must be the seat number of the invitation link'))
    takeover = body.get("takeover", False)
    if not isinstance(takeover, bool):
        raise ProtocolError("bad_request", _('"takeover" must be true or false'))
    return key, seat, takeover


def add_credential_routes(app: FastAPI, service: TableService) -> None:
    """Add ``POST /api/tables/{table}/claim`` and ``GET /api/tables/{table}/invitations``."""

    @app.post("/api/tables/{table_id}/claim")
    async def api_claim(table_id: str, request: Request) -> Any:
        try:
            key, seat, takeover = await read_claim(request)
            table = await service.get(table_id)
            secret, new = ensure_browser(request)
            index, taken = await table.claim(key, holder_of(secret), takeover, seat)
            followed = getattr(request.app.state, "on_claim", None)  # a logged-in player's seat follows the account
            if followed is not None:
                await followed(request, table_id, index, key)
        except ProtocolError as e:
            return error(e)
        except StoreError as e:
            return error(ProtocolError("storage", error_text(e)))
        response = JSONResponse({"table": table_id, "seat": index, "taken_over": taken})
        if new:
            set_browser_cookie(response, request, secret)
        return response

    @app.get("/api/tables/{table_id}/invitations")
    async def api_invitations(table_id: str, request: Request) -> Any:
        try:
            await service.get(table_id)
        except ProtocolError as e:
            return error(e)
        holder = browser_holder(dict(request.cookies))
        try:
            found = await asyncio.to_thread(service.store.invitations, table_id, holder)
        except StoreError as e:
            return error(ProtocolError("storage", error_text(e)))
        if found is None:  # another browser: it holds no invitation to see (an empty list, not an error)
            return {"table": table_id, "seats": [], "creator": False}
        links = [{"seat": n, "link": f"/t/{table_id}#seat={n}&key={k}"} for n, k in sorted(found.items())]
        return {"table": table_id, "seats": links, "creator": True}


__all__ = [
    "BROWSER_COOKIE",
    "add_credential_routes",
    "browser_holder",
    "browser_secret",
    "ensure_browser",
    "holder_of",
    "new_browser_secret",
    "set_browser_cookie",
]
