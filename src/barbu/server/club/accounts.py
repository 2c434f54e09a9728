"""Accounts: names, argon2 password hashes, session cookies, and a limit on log-in attempts.

A session is a random cookie ``barbu_session`` (shaped as :mod:`barbu.server.cookies` shapes
every cookie: HttpOnly, ``SameSite=Strict``, ``Secure`` over HTTPS); the database keeps only
its SHA-256. Every log-in and sign-up makes a **new** cookie and ends the session the browser
came with, so a cookie planted before log-in (session fixation) never becomes a logged-in one.
Changing the password ends every other session of the account. Log-out ends the session and clears the cookie.

Passwords are hashed with argon2id (``argon2-cffi``'s defaults), on a worker thread, at most
:data:`HASHING_AT_ONCE` at a time. Failed log-ins are limited per name and per address
(:class:`Attempts`), and so are sign-ups per address.

>>> account_name("  Anne  Marie ")
'Anne Marie'
>>> account_name("a")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
barbu.server.club.accounts.AccountError: an account name is 2 to 24 letters, digits, spaces, '-', '_' or '.'; ...
>>> check_password("short")
Traceback (most recent call last):
...
barbu.server.club.accounts.AccountError: a password is 8 to 256 characters; this one has 5
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import deque
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Request, Response

from barbu.errors import BarbuError
from barbu.language import _
from barbu.names import TextError, check_text
from barbu.server.cookies import DAY, clear_private_cookie, cookie_name, set_private_cookie
from barbu.storage.club import Account, ClubStore, NameTaken

SESSION_COOKIE = cookie_name("session")
"""The cookie of a logged-in browser."""
SESSION_DAYS = 30
"""How long a session lasts after log-in."""
NAME_CHARS = "-_. "
HASHING_AT_ONCE = 2
"""Argon2 hashes computed at the same time (each takes tens of milliseconds and 64 MiB)."""


class AccountError(BarbuError, ValueError):
    """A name or password that is not allowed, with what is allowed; ``code`` is the API's error code."""

    def __init__(self, message: str, code: str = "bad_request", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def account_name(value: object) -> str:
    """The clean account name, or :class:`AccountError` saying what a name may be."""
    allowed = _("an account name is 2 to 24 letters, digits, spaces, '-', '_' or '.'")
    try:
        text = check_text(value, _("account name"), 24)
    except TextError:
        raise AccountError(allowed) from None
    if len(text) < 2:
        raise AccountError(_("{allowed}; this one is too short", allowed=allowed))
    bad = [c for c in text if not (c.isalnum() or c in NAME_CHARS)]
    if bad:
        raise AccountError(_("{allowed}; {char} is not one of them", allowed=allowed, char=repr(bad[0])))
    return text


def check_password(value: object) -> str:
    """The password if it is 8 to 256 characters, else :class:`AccountError`."""
    if not isinstance(value, str):
        raise AccountError(_("a password is 8 to 256 characters of text"))
    if not 8 <= len(value) <= 256:
        raise AccountError(_("a password is 8 to 256 characters; this one has {n}", n=len(value)))
    return value


def token_hash(token: str) -> str:
    """The stored form of a session cookie.

    >>> len(token_hash("x"))
    64
    """
    return hashlib.sha256(f"session:{token}".encode()).hexdigest()


@dataclass
class Attempts:
    """A sliding window of failures per key: past ``limit`` in ``window`` seconds, wait.

    >>> a = Attempts(limit=2, window=60.0)
    >>> a.fail("k", now=0.0); a.fail("k", now=1.0)
    >>> a.wait("k", now=2.0)
    58.0
    >>> a.wait("k", now=61.0) is None
    True
    """

    limit: int
    window: float
    seen: dict[str, deque[float]] = field(default_factory=dict)

    def wait(self, key: str, now: float | None = None) -> float | None:
        """Seconds to wait before trying again under ``key``, or None."""
        now = time.monotonic() if now is None else now
        q = self.seen.get(key)
        if q is None:
            return None
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self.seen[key]
            return None
        return q[0] + self.window - now if len(q) >= self.limit else None

    def fail(self, key: str, now: float | None = None) -> None:
        """Count a failure under ``key``."""
        self.seen.setdefault(key, deque()).append(time.monotonic() if now is None else now)
        if len(self.seen) > 100_000:  # a flood of keys: forget the oldest half
            for k in list(self.seen)[: len(self.seen) // 2]:
                del self.seen[k]

    def clear(self, key: str) -> None:
        """Forget ``key``'s failures (after a success)."""
        self.seen.pop(key, None)


class Accounts:
    """Accounts and sessions over a :class:`~barbu.storage.club.ClubStore` (async; the database on threads)."""

    def __init__(self, club: ClubStore, *, per_name: int = 5, per_address: int = 20, window: float = 300.0) -> None:
        self.club = club
        self.hasher = PasswordHasher()
        self.hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self.by_name = Attempts(per_name, window)
        self.by_address = Attempts(per_address, window)
        self.signups = Attempts(10, 3600.0)
        self._dummy: str | None = None

    async def _hash(self, password: str) -> str:
        async with self.hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        async with self.hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    def _limited(self, *waits: float | None) -> None:
        longest = max((w for w in waits if w is not None), default=None)
        if longest is not None:
            raise AccountError(
                _("too many failed attempts: wait {n} s before trying again", n=int(longest) + 1),
                "rate_limited",
                retry_after=longest,
            )

    async def sign_up(self, name: object, password: object, address: str) -> Account:
        """A new account (the name must be free), or :class:`AccountError`."""
        self._limited(self.signups.wait(address))
        clean = account_name(name)
        secret = check_password(password)
        stored = await self._hash(secret)
        self.signups.fail(address)  # counts sign-ups, not failures
        account_id = secrets.token_urlsafe(12)
        try:
            return await asyncio.to_thread(self.club.create_account, account_id, clean, clean.casefold(), stored)
        except NameTaken:
            raise AccountError(_("the name {name} is taken: choose another", name=clean), "name_taken") from None

    async def log_in(self, name: object, password: object, address: str) -> Account:
        """The account if the password is right; :class:`AccountError` (``bad_login``, ``rate_limited``) else."""
        key = str(name).casefold()[:64] if isinstance(name, str) else ""
        self._limited(self.by_name.wait(key), self.by_address.wait(address))
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 256:
            raise AccountError(_("give the account's name and password"), "bad_login")
        account = await asyncio.to_thread(self.club.account_by_name, " ".join(name.split()))
        if account is None:  # hash anyway, so a missing name takes as long as a wrong password
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(12))
            await self._verify(self._dummy, password)
            ok = False
        else:
            ok = await self._verify(account.password, password)
        if not ok or account is None:
            self.by_name.fail(key)
            self.by_address.fail(address)
            raise AccountError(_("no account has this name and password"), "bad_login")
        self.by_name.clear(key)
        if self.hasher.check_needs_rehash(account.password):
            await asyncio.to_thread(self.club.set_password, account.id, await self._hash(password), None)
        return account

    async def change_password(self, account: Account, old: object, new: object, session: str | None) -> None:
        """Check the old password, store the new one, end the account's other sessions."""
        secret = check_password(new)
        if not isinstance(old, str) or not await self._verify(account.password, old):
            raise AccountError(_("the current password is not right"), "bad_login")
        await asyncio.to_thread(self.club.set_password, account.id, await self._hash(secret), session)

    async def open_session(self, account: Account, request: Request, response: Response) -> None:
        """Give the browser a fresh session cookie for ``account``, ending the one it came with."""
        token = secrets.token_urlsafe(32)
        old = request.cookies.get(SESSION_COOKIE)
        await asyncio.to_thread(self.club.open_session, token_hash(token), account.id, token_hash(old) if old else None)
        set_private_cookie(response, request, SESSION_COOKIE, token, max_age=SESSION_DAYS * DAY)

    async def close_session(self, request: Request, response: Response) -> None:
        """End the request's session and clear its cookie."""
        old = request.cookies.get(SESSION_COOKIE)
        if old:
            await asyncio.to_thread(self.club.close_session, token_hash(old))
        clear_private_cookie(response, request, SESSION_COOKIE)

    async def current(self, cookies: dict[str, str]) -> tuple[Account, str] | None:
        """The logged-in account of these cookies and its session's hash, or None (a guest)."""
        token = cookies.get(SESSION_COOKIE)
        if not token or len(token) > 128:
            return None
        digest = token_hash(token)
        found = await asyncio.to_thread(self.club.session_account, digest, SESSION_DAYS * float(DAY))
        return (found, digest) if found is not None else None


__all__ = [
    "SESSION_COOKIE",
    "AccountError",
    "Accounts",
    "Attempts",
    "account_name",
    "check_password",
    "token_hash",
]
