"""The one shape of every cookie the server sets: a secret no page script reads.

A browser's cookie (:mod:`barbu.server.credentials`), a session's
(:mod:`barbu.server.club.accounts`) and a sheet's key (:mod:`barbu.server.sheets`) are all
set here: named ``barbu_…``, ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no
other site's page sends it), ``Secure`` when the request came over HTTPS, with a path and
a lifetime in seconds. Clearing one names the same attributes, so the browser drops the
very cookie it was given.

>>> cookie_name("session")
'barbu_session'
>>> request = Request({"type": "http", "scheme": "https", "server": ("barbu.example", 443), "path": "/",
...                    "headers": []})
>>> response = Response()
>>> set_private_cookie(response, request, "barbu_session", "s3cret", max_age=60)
>>> response.headers["set-cookie"]
'barbu_session=s3cret; HttpOnly; Max-Age=60; Path=/; SameSite=strict; Secure'
"""

from __future__ import annotations

from fastapi import Request, Response

COOKIE_PREFIX = "barbu_"
"""The start of every cookie name the server sets."""
DAY = 86400
"""Seconds in a day, for cookie lifetimes."""


def cookie_name(kind: str) -> str:
    """The name of the server's cookie of ``kind`` (``browser``, ``session``, ``sheet_ID``)."""
    return COOKIE_PREFIX + kind


def set_private_cookie(
    response: Response, request: Request, name: str, value: str, *, max_age: int, path: str = "/"
) -> None:
    """In the answer to ``request``, set cookie ``name`` to ``value`` for ``max_age`` seconds
    under ``path``: HttpOnly, SameSite=Strict, and Secure when the request came over HTTPS."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=path,
        httponly=True,
        samesite="strict",
        secure=_secure(request),
    )


def clear_private_cookie(response: Response, request: Request, name: str, *, path: str = "/") -> None:
    """In the answer to ``request``, tell the browser to drop cookie ``name`` (set by
    :func:`set_private_cookie` under ``path``)."""
    response.delete_cookie(name, path=path, httponly=True, samesite="strict", secure=_secure(request))


def _secure(request: Request) -> bool:
    """Whether the cookies of the answer to ``request`` are ``Secure``: when it came over HTTPS."""
    return request.url.scheme == "https"


__all__ = ["COOKIE_PREFIX", "DAY", "clear_private_cookie", "cookie_name", "set_private_cookie"]
