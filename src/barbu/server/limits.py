"""What a client may cost the server: budgets by cost, bounded outboxes, frame and body limits.

Every limit is one field of :class:`Limits` (``Settings.limits``). The work a message causes
is counted in *cost units*: a ping or an action costs 1, a ``hello`` 5, a new connection 2
(to its address), and each whole view a message makes the server send (a ``state``, or an
``event`` of a catch-up) one more unit. A message is accepted only if every budget it draws
on holds its cost:

- the **connection's** budget (``messages_per_second``, ``message_burst``), and for an ``act``
  the connection's action budget as well (``actions_per_second``, ``action_burst``);
- the **address's** budget, shared by every connection from one client address
  (``address_per_second``, ``address_burst``), so that opening more connections buys nothing;
- the **table's** budget for what its watchers ask (``table_per_second``, ``table_burst``):
  the messages of connections that do not hold a seat, so that watchers never starve the
  players of a table.

A refused message costs nothing and is answered ``rate_limited`` with ``retry_after`` seconds,
and the server reads nothing more from that connection for half that long (a flood waits in its
own buffers and costs no work). A connection refused for its rate twice in a row (it did not
wait as told), or sending messages that cannot be read (more than ``refusal_burst`` of them, refilled at
``refusals_per_second``), is closed with a reason. A client that waits as told is never closed.

>>> b = Bucket(2.0, 4, clock=lambda: 0.0)
>>> b.take(3), b.take(3), round(b.retry_after(3), 2)
(True, False, 1.0)
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from barbu.errors import BarbuError
from barbu.language import _n

Clock = Callable[[], float]
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """Every limit of the server, in one place (``barbu serve`` sets some of them).

    >>> Limits().hello_cost > Limits().ping_cost
    True
    """

    message_bytes: int = 8192
    """Longest WebSocket message accepted (a Chinese-poker arrangement is about 150 bytes)."""
    actions_per_second: float = 10.0
    action_burst: int = 10
    messages_per_second: float = 30.0
    """Cost units one connection may spend a second (a ping is one unit)."""
    message_burst: int = 80
    """Cost units one connection may save up: a reconnect catching up on 64 events costs 69."""
    address_per_second: float = 120.0
    """Cost units all the connections of one client address may spend a second together."""
    address_burst: int = 240
    table_per_second: float = 60.0
    """Cost units the watchers of one table (connections without a seat) may spend a second."""
    table_burst: int = 160
    ping_cost: float = 1.0
    act_cost: float = 1.0
    sync_cost: float = 1.0
    """A ``sync`` costs this plus one unit per whole view it makes the server send."""
    say_cost: float = 5.0
    hints_cost: float = 5.0
    """A seat's yes or no to hints for everyone at the table (``hints``)."""
    """A quick message goes to everyone at the table: it costs like a ``hello``."""
    table_change_cost: float = 5.0
    """Leaving a seat, proposing to abandon the table or answering it: each tells everyone at the table."""
    hello_cost: float = 5.0
    """A ``hello`` may load a table from the database: it costs this plus one unit per view sent."""
    connect_cost: float = 2.0
    """A new WebSocket connection costs its address this (the handshake is work too)."""
    refused_connection_delay: float = 1.0
    """Seconds a connection refused for its address's rate waits before the refusal (a flood slows down)."""
    refusals_per_second: float = 1.0
    refusal_burst: int = 30
    """Unreadable messages, or messages sent before the time a refusal said to wait, before a close."""
    outbox_bytes: int = 2 * 1024 * 1024
    """Bytes of frames waiting for one client; past this the client is dropped (a full catch-up is ~0.6 MiB)."""
    outbox_frames: int = 1000
    """Frames waiting for one client; past this the client is dropped."""
    tables_per_client: int = 10
    """Unfinished tables one client (address) may have created."""
    connections_per_client: int = 64
    """Open WebSocket connections from one client address, handshakes included."""
    body_bytes: int = 64 * 1024
    """Largest HTTP request body, read while it streams in; a record to import aside."""
    import_bytes: int = 4 * 1024 * 1024
    """Largest HTTP request body of ``POST /api/sheets/import``."""

    def cost(self, kind: str) -> float:
        """The base cost of a message of type ``kind`` (before the views it makes the server send).

        >>> Limits().cost("sync"), Limits().cost("hello"), Limits().cost("abandon")
        (1.0, 5.0, 5.0)
        """
        costs = {
            "ping": self.ping_cost,
            "act": self.act_cost,
            "sync": self.sync_cost,
            "hello": self.hello_cost,
            "say": self.say_cost,
            "hints": self.hints_cost,
            "leave": self.table_change_cost,
            "abandon": self.table_change_cost,
            "consent": self.table_change_cost,
        }
        return costs[kind]


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up.

    >>> b = Bucket(1.0, 2, clock=lambda: 0.0)
    >>> b.take(), b.take(), b.take()
    (True, True, False)
    """

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def retry_after(self, cost: float = 1.0) -> float:
        """Seconds until :meth:`take` of ``cost`` would succeed (0 if it would now)."""
        self._refill()
        need = min(cost, self.burst) - self.tokens
        return max(0.0, need / self.rate) if self.rate > 0 else float("inf")

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are that many (a cost above the burst needs a full bucket)."""
        if self.retry_after(cost) > 0:
            return False
        self.tokens -= cost
        return True

    def charge(self, cost: float) -> None:
        """Spend ``cost`` tokens whatever the balance (work already done); the debt is at most one burst."""
        self._refill()
        self.tokens = max(-self.burst, self.tokens - cost)

    def full(self) -> bool:
        """Whether the bucket holds its whole burst (nothing spent lately)."""
        self._refill()
        return self.tokens >= self.burst


class Budgets:
    """One :class:`Bucket` per key (a client address, a table), forgetting the full ones when too many.

    >>> budgets = Budgets(1.0, 1, clock=lambda: 0.0)
    >>> budgets.bucket("a").take(), budgets.bucket("a").take(), budgets.bucket("b").take()
    (True, False, True)
    """

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.keep = keep
        self.buckets: dict[str, Bucket] = {}

    def bucket(self, key: str) -> Bucket:
        """The bucket of ``key`` (a new, full one the first time)."""
        found = self.buckets.get(key)
        if found is None:
            if len(self.buckets) >= self.keep:
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full()}
                while len(self.buckets) >= self.keep:  # all busy: forget the oldest
                    del self.buckets[next(iter(self.buckets))]
            found = self.buckets[key] = Bucket(self.rate, self.burst, self.clock)
        return found


class RateLimited(BarbuError):
    """A message over a budget: ``retry_after`` seconds until it would be accepted, ``message`` says which."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class ConnectionBudget:
    """The buckets of one WebSocket connection: messages by cost, actions, refusals."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.messages = Bucket(limits.messages_per_second, limits.message_burst, clock)
        self.actions = Bucket(limits.actions_per_second, limits.action_burst, clock)
        self.refusals = Bucket(limits.refusals_per_second, limits.refusal_burst, clock)


class Guard:
    """The server's budgets: per connection, per client address, per table; and the connection count.

    >>> guard = Guard(Limits(address_per_second=1, address_burst=5))
    >>> conn = guard.connection()
    >>> guard.spend(conn, "10.0.0.1", None, 5.0)
    >>> guard.spend(conn, "10.0.0.1", None, 5.0)
    Traceback (most recent call last):
    ...
    barbu.server.limits.RateLimited: this address may spend 1 cost unit a second (5 at once); this message costs 5
    """

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.addresses = Budgets(limits.address_per_second, limits.address_burst, clock)
        self.tables = Budgets(limits.table_per_second, limits.table_burst, clock)
        self.open_connections: dict[str, int] = {}

    # -- connections -------------------------------------------------------------------

    def connect(self, address: str) -> float:
        """Charge a new connection to its address: 0, or the seconds to wait if the address cannot pay."""
        bucket = self.addresses.bucket(address)
        wait = bucket.retry_after(self.limits.connect_cost)
        if wait == 0:
            bucket.tokens -= self.limits.connect_cost
        return math.ceil(wait * 1000) / 1000

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address`` before its handshake; False if it has too many."""
        n = self.open_connections.get(address, 0)
        if n >= self.limits.connections_per_client:
            return False
        self.open_connections[address] = n + 1
        return True

    def release(self, address: str) -> None:
        """A connection counted by :meth:`admit` has ended."""
        n = self.open_connections.get(address, 0) - 1
        if n > 0:
            self.open_connections[address] = n
        else:
            self.open_connections.pop(address, None)

    def connection(self) -> ConnectionBudget:
        """The buckets of a new connection."""
        return ConnectionBudget(self.limits, self.clock)

    # -- messages ------------------------------------------------------------------------

    def spend(self, conn: ConnectionBudget, address: str, table: str | None, cost: float, action: bool = False) -> None:
        """Spend ``cost`` from every budget the message draws on, or none of them (:class:`RateLimited`).

        ``table`` is the table whose watcher sends the message (None for a seat's message, or
        before a table is known); ``action`` adds the connection's action budget.
        """
        buckets: list[tuple[Bucket, str]] = [(conn.messages, "connection"), (self.addresses.bucket(address), "address")]
        if action:
            buckets.append((conn.actions, "actions"))
        if table is not None:
            buckets.append((self.tables.bucket(table), "table"))
        for bucket, budget in buckets:
            wait = bucket.retry_after(cost)
            if wait > 0:
                raise RateLimited(_over(self.limits, budget, cost), math.ceil(wait * 1000) / 1000)
        for bucket, _budget in buckets:
            bucket.tokens -= cost

    def charge(self, conn: ConnectionBudget, address: str, table: str | None, cost: float) -> None:
        """Charge work already done (the views a ``hello`` made the server send) to the same budgets."""
        conn.messages.charge(cost)
        self.addresses.bucket(address).charge(cost)
        if table is not None:
            self.tables.bucket(table).charge(cost)

    def refused(self, conn: ConnectionBudget) -> bool:
        """Count a message that could not be read or did not wait as told; True once there were too many."""
        return not conn.refusals.take()


def _over(lim: Limits, budget: str, cost: float) -> str:
    """Why a message over ``budget`` is refused, in the language of the moment (the asker's).

    >>> _over(Limits(address_per_second=1, address_burst=5), "address", 5)
    'this address may spend 1 cost unit a second (5 at once); this message costs 5'
    """
    c = format(cost, "g")
    if budget == "connection":
        n = lim.messages_per_second
        return _n(
            "this connection may spend {n} cost unit a second; this message costs {cost}",
            "this connection may spend {n} cost units a second; this message costs {cost}",
            _count(n),
            n=format(n, "g"),
            cost=c,
        )
    if budget == "address":
        n = lim.address_per_second
        return _n(
            "this address may spend {n} cost unit a second ({burst} at once); this message costs {cost}",
            "this address may spend {n} cost units a second ({burst} at once); this message costs {cost}",
            _count(n),
            n=format(n, "g"),
            burst=format(lim.address_burst, "g"),
            cost=c,
        )
    if budget == "actions":
        n = lim.actions_per_second
        return _n(
            "at most {n} action a second; this message costs {cost}",
            "at most {n} actions a second; this message costs {cost}",
            _count(n),
            n=format(n, "g"),
            cost=c,
        )
    n = lim.table_per_second
    return _n(
        "the watchers of this table may spend {n} cost unit a second; this message costs {cost}",
        "the watchers of this table may spend {n} cost units a second; this message costs {cost}",
        _count(n),
        n=format(n, "g"),
        cost=c,
    )


def _count(n: float) -> int:
    """The count that picks a plural form for a rate that may have decimals (1.5 takes the plural)."""
    return int(n) if n == int(n) else 2


# -- HTTP bodies ------------------------------------------------------------------------------


class _TooLarge(Exception):
    """A private signal: the body passed its limit while it streamed (answered 413 at once)."""


class BodyLimit:
    """ASGI middleware: an HTTP request body longer than its limit is refused with 413 while it streams.

    A ``Content-Length`` over the limit is refused before any byte of the body is read; a
    body sent without one is counted as it arrives and refused as soon as it passes the
    limit, so the server never holds more than the limit plus one chunk. ``limit_for``
    gives the limit of a path.

    >>> import asyncio
    >>> async def app(scope, receive, send):
    ...     while (await receive()).get("more_body"):
    ...         pass
    ...     await send({"type": "http.response.start", "status": 200, "headers": []})
    ...     await send({"type": "http.response.body", "body": b""})
    >>> sent = []
    >>> async def send(message):
    ...     sent.append(message)
    >>> async def receive():
    ...     return {"type": "http.request", "body": b"x" * 100, "more_body": True}
    >>> scope = {"type": "http", "path": "/api/tables", "headers": []}
    >>> asyncio.run(BodyLimit(app, lambda path: 1000)(scope, receive, send))
    >>> sent[0]["status"]
    413
    """

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        for name, value in scope.get("headers", []):
            if name.lower() == b"content-length" and (not value.isdigit() or int(value) > limit):
                await _refuse(send, limit)
                return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await _refuse(send, limit)


async def _refuse(send: Send, limit: int) -> None:
    size = f"{limit // 1024} KiB" if limit < 1024 * 1024 else f"{limit // (1024 * 1024)} MiB"
    body = json.dumps({"error": {"code": "too_large", "message": f"a request body here is at most {size}"}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BodyLimit", "Bucket", "Budgets", "ConnectionBudget", "Guard", "Limits", "RateLimited"]
