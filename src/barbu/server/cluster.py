"""Several ``barbu serve`` processes as one server: leases, relay and takeover over Redis.

Every process shares the database (PostgreSQL: the action logs, accounts, ratings) and one
Redis server. A live table is served by exactly one process, its **owner**, which runs the
table's lock, bots and journal as a lone server does (:mod:`barbu.server.tables`). Redis holds:

- a **lease** per live table, the key ``PREFIX:lease:TABLE`` whose value is the owner's process
  id, taken with ``SET NX PX`` and renewed every quarter of its life by a Lua script that extends
  only the keys still holding the process's id (:class:`Leases`); a process that could not renew
  a lease lets the table go;
- a **channel per process**, ``PREFIX:proc:ID``, on which other processes send it what their
  connections ask of the tables it owns, and it sends back the frames for those connections;
- a **heartbeat per process**, ``PREFIX:alive:ID``, set with ``PX`` ``alive_seconds`` (a second)
  and refreshed every ``beat_every`` seconds on the pool's connections, not the listener's: while
  it lives, nobody takes the process's tables over.

Any process accepts any WebSocket and any HTTP request. A connection to a table another process
owns is **relayed** (:class:`ClusterTable`): the accepting process checks and charges each
message against its own budgets (:mod:`barbu.server.limits`), then posts it to the owner, which
seats a placeholder subscriber (:class:`RemoteSeat`) at the live table; the frames the table builds
for that connection (its own seat's view and nothing else) go back on the accepting process's
own channel only, never on a channel shared with other seats. HTTP routes that need the live
table (claim, invitations, hint, record, review, rematch, delete) are relayed whole and run on
the owner with the request's own headers and client address (:class:`HttpRelay`).

**Takeover.** A process that relays a table watches its lease. When the lease ends (the owner
stopped and released it, or died and it expired, or another process found the owner dead: its
channel lost its listener, which Redis sees at once when a process is killed, and its heartbeat
expired), the first process
to take it with ``SET NX`` loads the table from its log (the same replay as a restart) and
becomes the owner; every relaying process then seats its connections again at the new owner,
with the last sequence number each client saw (the client receives the missed events, no second
``welcome``), and sends again the actions not yet answered: one the old owner had committed is
answered ``duplicate``. Nothing acknowledged is lost because an action is acknowledged only after
its commit, and two owners never both commit the same sequence number (the log's primary key
refuses the second).

A killed process may have owned hundreds of tables, and they move **together** and **ahead of
their clients**: every process keeps in Redis the list of its tables (``PREFIX:owns:ID``, kept
by the same calls that take, renew and release its leases) and its id in ``PREFIX:processes``;
every process watches the others' channels, and the first to find one without a listener at two
looks running and without a heartbeat claims its tables in one call (:meth:`Leases.claim`: its
leases and its list deleted, refused while its heartbeat key lives) and loads them all at once, so
the clients coming back find them loaded (a table nobody comes back to leaves memory after a
while, as any idle table). A killed process is so taken over about a second after its death; a
live one whose listener drops for a moment (a reset socket, Redis closing a slow subscriber)
subscribes again at once and keeps its tables, its heartbeat beating meanwhile. A process
stopping leaves ``PREFIX:processes`` before its listener closes and beats until its journal has
written everything and its leases are released (:meth:`Cluster.hand_over`). The leases asked for on one turn
of the event loop are taken in one call (:meth:`Cluster.hold`), and the logs of the tables
loading at once are read in one read (:meth:`TableService.get
<barbu.server.tables.TableService.get>`). Calls to Redis go
through a bounded pool of connections (:data:`REDIS_CONNECTIONS`) that makes a call wait for a free
connection rather than fail: a burst of calls that frees a connection within :data:`REDIS_WAIT`
seconds never looks like an outage; a reply slower than half a lease fails its call, and
:meth:`Cluster.hold` answers within :data:`HOLD_TIMEOUT` seconds.

**Redis away.** The first failure cuts what goes through Redis (:meth:`Cluster._trouble`): the
tables served here play on for the connections accepted here, the connections relayed elsewhere
are told and closed (their clients reconnect), ``/readyz`` says not ready. When Redis answers
again, the renewal takes back the leases nobody holds (a restarted, empty Redis), and for one
lease's life no other lease is taken here (:meth:`Cluster._back`): each owner gets its own back
first, so no table has two owners.

Redis also holds, for the lobbies, the seats with a connection at each table
(``PREFIX:online:ID``, a hash per process written with the renewals) and the quick-game queue
(:mod:`barbu.server.club.shared`).

>>> Leases("barbu").key("t1"), channel("barbu", "p1")
('barbu:lease:t1', 'barbu:proc:p1')
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from barbu.language import _, current, speaking
from barbu.server.protocol import TABLE_ID, ProtocolError, encode
from barbu.server.tables import CATCH_UP_LIMIT

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from barbu.server.tables import LiveTable, Subscriber, TableService

log = logging.getLogger("barbu.server.cluster")


@dataclass(frozen=True)
class ClusterSettings:
    """Where the processes meet and how fast a table moves when its owner goes.

    >>> ClusterSettings("redis://127.0.0.1:6379/0").renew_every
    1.0
    """

    url: str
    """The Redis URL, e.g. ``redis://127.0.0.1:6379/0``."""
    prefix: str = "barbu"
    """The prefix of every key and channel: processes with the same prefix (and Redis) are one server."""
    lease_seconds: float = 4.0
    """How long a lease lives without renewal: a process that died holds its tables at most this long."""
    watch_every: float = 0.25
    """Seconds between two looks at the leases of the tables a process relays."""
    alive_seconds: float = 1.0
    """How long a process's heartbeat key ``PREFIX:alive:ID`` lives without refresh: a killed
    process is taken over at most this long (and two silent looks) after its death, and no
    process is taken over while its key lives, whatever its channel's listener does."""
    beat_every: float = 0.25
    """Seconds between two refreshes of a process's heartbeat key (well under ``alive_seconds``)."""

    @property
    def renew_every(self) -> float:
        """Seconds between two renewals of the leases a process holds (a quarter of their life)."""
        return self.lease_seconds / 4


REDIS_CONNECTIONS = 32
"""The most connections a process opens to Redis at once (its channel's listener included)."""
REDIS_WAIT = 10.0
"""Seconds a call waits for a free connection of the pool before it fails (as Redis away would)."""
HOLD_TIMEOUT = 15.0
"""Seconds :meth:`Cluster.hold` waits for its lease: past a wait for a connection and a reply
that times out, the answer is a refusal to try again, never a wait without end."""


def channel(prefix: str, process: str) -> str:
    """The Redis channel on which process ``process`` receives."""
    return f"{prefix}:proc:{process}"


_RENEW = """
local lost = {}
for i = 3, #KEYS do
  local key = KEYS[i]
  local holder = redis.call('get', key)
  if holder == ARGV[1] then redis.call('pexpire', key, ARGV[2]); redis.call('sadd', KEYS[1], key)
  elseif not holder then redis.call('set', key, ARGV[1], 'PX', ARGV[2]); redis.call('sadd', KEYS[1], key)
  else redis.call('srem', KEYS[1], key); table.insert(lost, i - 2) end
end
redis.call('sadd', KEYS[2], ARGV[1])
redis.call('pexpire', KEYS[1], ARGV[3])
return lost
"""
"""Extend the leases (KEYS[3..]) still held by process ARGV[1], take again those nobody holds (a
Redis that restarted empty), keep its list of tables (KEYS[1]) and its name in the list of
processes (KEYS[2]); the 1-based indexes of the leases another process holds."""

_TAKE = """
local holders = {}
for i = 3, #KEYS do
  local key = KEYS[i]
  if redis.call('set', key, ARGV[1], 'NX', 'PX', ARGV[2]) then holders[i - 2] = ARGV[1]
  else holders[i - 2] = redis.call('get', key) end
  if holders[i - 2] == ARGV[1] then redis.call('sadd', KEYS[1], key) end
end
redis.call('sadd', KEYS[2], ARGV[1])
redis.call('pexpire', KEYS[1], ARGV[3])
return holders
"""
"""Take, for process ARGV[1], each lease (KEYS[3..]) nobody holds, listing it among the process's
tables (KEYS[1]) and the process among the processes (KEYS[2]); the holder of each lease then
(ARGV[1] for those it held already or took)."""

_RELEASE = """
local gone = {}
for i = 2, #KEYS do
  local key = KEYS[i]
  if redis.call('get', key) == ARGV[1] then redis.call('del', key); table.insert(gone, i - 1) end
  redis.call('srem', KEYS[1], key)
end
return gone
"""
"""Delete the leases (KEYS[2..]) process ARGV[1] holds, and strike them from its list of tables
(KEYS[1]); the 1-based indexes of those deleted."""

_CLAIM = """
if redis.call('exists', KEYS[3]) == 1 then return false end
local gone = {}
for _, key in ipairs(redis.call('smembers', KEYS[1])) do
  if redis.call('get', key) == ARGV[1] then redis.call('del', key); table.insert(gone, key) end
end
redis.call('del', KEYS[1])
redis.call('srem', KEYS[2], ARGV[1])
return gone
"""
"""A dead process ARGV[1]: unless its heartbeat key (KEYS[3]) lives (nil then: it is alive), delete
the leases it still holds among its list of tables (KEYS[1]), the list, and its name from the list
of processes (KEYS[2]); the keys of the leases deleted. One call, so of several processes claiming
the same dead one, one gets its tables, and none while its heartbeat lives."""


class Leases:
    """The lease of each live table: ``PREFIX:lease:TABLE`` = the owning process's id.

    Beside them, each process holding leases has its list of tables, the set
    ``PREFIX:owns:ID`` of its lease keys (kept by every take, renewal and release, living three
    leases without renewal), and its id in the set ``PREFIX:processes``: a process that finds
    another one dead takes all its tables over at once (:meth:`claim`), before their clients ask.
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.processes = f"{prefix}:processes"
        """The key of the set of the processes that hold (or held) leases."""

    def key(self, table_id: str) -> str:
        """The Redis key of a table's lease."""
        return f"{self.prefix}:lease:{table_id}"

    def table_of(self, key: str) -> str:
        """The table of a lease key.

        >>> Leases("barbu").table_of("barbu:lease:t1")
        't1'
        """
        return key.removeprefix(f"{self.prefix}:lease:")

    def owns(self, process: str) -> str:
        """The key of the set of a process's lease keys."""
        return f"{self.prefix}:owns:{process}"

    def alive(self, process: str) -> str:
        """The key of a process's heartbeat: while it lives, nobody claims the process's tables."""
        return f"{self.prefix}:alive:{process}"

    async def take(self, r: aioredis.Redis, table_ids: list[str], me: str, ms: int) -> list[str]:
        """Take each lease of ``table_ids`` that nobody holds, in one call; the holder of each
        then (``me`` for those this process holds)."""
        if not table_ids:
            return []
        keys = [self.owns(me), self.processes, *[self.key(t) for t in table_ids]]
        holders = await r.eval(_TAKE, len(keys), *keys, me, ms, 3 * ms)
        return [str(h) for h in holders]

    async def renew(self, r: aioredis.Redis, table_ids: list[str], me: str, ms: int) -> list[str]:
        """Extend the leases of ``table_ids`` still held by ``me`` (taking again those nobody holds);
        the tables whose lease another process holds."""
        if not table_ids:
            return []
        keys = [self.owns(me), self.processes, *[self.key(t) for t in table_ids]]
        lost = await r.eval(_RENEW, len(keys), *keys, me, ms, 3 * ms)
        return [table_ids[int(i) - 1] for i in lost]

    async def release(self, r: aioredis.Redis, table_ids: list[str], holder: str) -> list[str]:
        """Delete the leases of ``table_ids`` that ``holder`` holds, in one call; those it deleted."""
        if not table_ids:
            return []
        keys = [self.owns(holder), *[self.key(t) for t in table_ids]]
        gone = await r.eval(_RELEASE, len(keys), *keys, holder)
        return [table_ids[int(i) - 1] for i in gone]

    async def claim(self, r: aioredis.Redis, dead: str) -> list[str] | None:
        """The tables of a dead process, their leases deleted, its list and name gone, in one call
        (another process claiming it then gets nothing); None, and nothing deleted, while its
        heartbeat key lives (it is alive, whatever its channel says)."""
        keys = await r.eval(_CLAIM, 3, self.owns(dead), self.processes, self.alive(dead), dead)
        if keys is None:
            return None
        return [self.table_of(str(k)) for k in keys]

    async def leave(self, r: aioredis.Redis, me: str) -> None:
        """A process stopping: its list and its name go (its leases were released)."""
        async with r.pipeline(transaction=True) as pipe:
            pipe.delete(self.owns(me))
            pipe.srem(self.processes, me)
            await pipe.execute()


_SEQ = re.compile(r'^\{"type":"(?:event|state)","seq":(\d+)(?:,"ack":("(?:[^"\\]|\\.)*"))?')


def seq_and_ack(text: str) -> tuple[int, str | None] | None:
    r"""The sequence number of an ``event`` or ``state`` frame and the action id it acknowledges
    (None if none); None for another frame.

    >>> seq_and_ack('{"type":"event","seq":7,"ack":"a\\"1","patch":{}}')
    (7, 'a"1')
    >>> seq_and_ack('{"type":"event","seq":8,"patch":{"ack":"x"}}'), seq_and_ack('{"type":"table"}')
    ((8, None), None)
    """
    found = _SEQ.match(text)
    if found is None:
        return None
    ack = found.group(2)
    return int(found.group(1)), None if ack is None else json.loads(ack)


class Link:
    """One local connection seated at a table of the cluster (a :class:`~barbu.server.tables.Subscriber`).

    It passes every frame on to the connection and remembers what a move to another owner
    needs: the ``hello`` that seated it, the last sequence number the client received and the
    actions it sent that have no answer yet.
    """

    def __init__(self, conn: Subscriber, cid: str, key: str | None, name: str | None, wanted: int | None) -> None:
        self.conn = conn
        self.cid = cid
        self.holder = conn.holder
        self.key, self.name, self.wanted = key, name, wanted
        self.language = current()
        """The connection's language (its handler's), for what this process tells it on its own."""
        self.seq: int | None = None
        self.pending: dict[str, dict[str, Any]] = {}
        """Action id -> the ``act`` message, until its answer passes (an event or ``ack`` frame with
        its id as ``ack``, or an ``error`` with it as ``id``)."""
        self.mute_welcome = False
        """Seated again at a new owner: the client already had its welcome."""
        self.ready = asyncio.Event()
        self.ready.set()
        self.answer: asyncio.Future[dict[str, Any]] | None = None
        """The owner's answer to the ``hello`` on its way, if one is."""

    @property
    def seat(self) -> int | None:
        return self.conn.seat

    @seat.setter
    def seat(self, value: int | None) -> None:
        self.conn.seat = value

    def send(self, text: str) -> None:
        """Pass a frame on, noting the sequence number, the seat and the answered actions."""
        if text.startswith('{"type":"welcome"'):
            frame = json.loads(text)
            self.conn.seat = frame["seat"]
            if self.seq is None:
                self.seq = frame["seq"]
            if self.mute_welcome:
                self.mute_welcome = False
                return
        elif text.startswith('{"type":"ack"'):
            self.pending.pop(json.loads(text)["ack"], None)
        elif text.startswith('{"type":"error"'):
            ref = json.loads(text).get("id")
            if ref is not None:
                self.pending.pop(ref, None)
        else:
            found = seq_and_ack(text)
            if found is not None:
                self.seq, ref = found
                if ref is not None:
                    self.pending.pop(ref, None)
        self.conn.send(text)

    def close(self, reason: str) -> None:
        """End the connection."""
        self.conn.close(reason)


class RemoteSeat:
    """At the owner: a connection another process accepted, seated at a live table.

    Its frames go, in order, to that process's channel only.
    """

    def __init__(self, cluster: Cluster, process: str, cid: str, holder: str | None) -> None:
        self.cluster = cluster
        self.process = process
        self.cid = cid
        self.holder = holder
        self.seat: int | None = None
        self.table: LiveTable | None = None

    def send(self, text: str) -> None:
        """Queue the frame for the connection's process."""
        self.cluster.post(self.process, f"f {self.cid} {text}")

    def close(self, reason: str) -> None:
        """Ask the connection's process to close it."""
        self.cluster.post(self.process, f"c {self.cid} {reason}")
        self.cluster.remote.pop((self.process, self.cid), None)


class ClusterTable:
    """A table as the connections of this process see it: served here, or relayed to its owner.

    It offers :class:`~barbu.server.tables.LiveTable`'s doors for a connection (``join``,
    ``act``, ``say``, ``sync``, ``leave``) whichever process owns the table, and moves its
    connections to the next owner when the table changes hands.
    """

    def __init__(self, cluster: Cluster, table_id: str) -> None:
        self.cluster = cluster
        self.id = table_id
        self.links: dict[Subscriber, Link] = {}
        self.owner: str | None = None
        self.live: LiveTable | None = None
        self.seq = 0
        """The highest sequence number a connection of this process received (for catch-up costs)."""
        self.moving: asyncio.Lock = asyncio.Lock()

    async def locate(self) -> None:
        """Find the owner, taking the lease if nobody holds it (and then loading the table here)."""
        while True:
            owner = await self.cluster.hold(self.id)
            if owner == self.cluster.me:
                try:
                    self.live = await self.cluster.service.get(self.id)
                except ProtocolError:
                    await self.cluster.let_go(self.id)
                    raise
                self.owner = owner
                return
            if owner is not None:
                self.owner, self.live = owner, None
                return

    # -- the doors of a connection ------------------------------------------------

    async def join(
        self, conn: Subscriber, key: str | None, name: str | None, last_seq: int | None, seat: int | None = None
    ) -> None:
        """Seat ``conn`` (as :meth:`LiveTable.join <barbu.server.tables.LiveTable.join>`), here or at the owner."""
        link = Link(conn, secrets.token_hex(8), key, name, seat)
        self.links[conn] = link
        self.cluster.by_cid[link.cid] = (self, link)
        try:
            await self._seat(link, last_seq)
        except BaseException:
            await self.leave(conn, told=False)
            raise

    async def _seat(self, link: Link, last_seq: int | None) -> None:
        while True:
            if self.owner is None:
                await self.locate()
            if self.live is not None:
                await self.live.join(link, link.key, link.name, last_seq, link.wanted)
                return
            assert self.owner is not None
            loop = asyncio.get_running_loop()
            link.answer = loop.create_future()
            message = {"k": "hello", "key": link.key, "name": link.name, "last_seq": last_seq, "seat": link.wanted}
            self.cluster.ask(self.owner, self.id, link, message)
            try:  # an owner that dies before it answers: ask again whoever holds the lease then
                answer = await asyncio.wait_for(asyncio.shield(link.answer), self.cluster.settings.lease_seconds)
            except TimeoutError:
                answer = {"moved": True}
            link.answer = None
            if "error" in answer:
                e = answer["error"]
                raise ProtocolError(e["code"], e["message"], e.get("id"), e.get("kind"), e.get("retry_after"))
            if answer.get("ok"):
                return
            await self.locate()  # moved: look again

    def _link(self, conn: Subscriber) -> Link:
        return self.links[conn]

    async def act(self, conn: Subscriber, ref: str, seq: int, intent: Mapping[str, Any]) -> None:
        """Send an action to the table; its answer comes as the event it made (with ``ack``), a
        duplicate's ``ack`` frame or an ``error`` frame."""
        link = self._link(conn)
        await link.ready.wait()
        message = {"k": "act", "id": ref, "seq": seq, "action": dict(intent)}
        link.pending[ref] = message
        await self._forward(link, message)

    async def carry_out(self, conn: Subscriber, msg: Mapping[str, Any]) -> None:
        """A joined connection's message (see :meth:`LiveTable.carry_out`), sent to the owner."""
        if msg["type"] == "act":
            await self.act(conn, msg["id"], msg["seq"], msg["action"])
            return
        link = self._link(conn)
        await link.ready.wait()
        await self._forward(link, {"k": "table", "msg": dict(msg)})

    async def _forward(self, link: Link, message: dict[str, Any]) -> None:
        if self.live is None:
            if self.owner is not None:  # else the table is changing hands: its actions are sent again after
                self.cluster.ask(self.owner, self.id, link, message)
            return
        try:
            await self.cluster.carry_out(self.live, link, message)
        except ProtocolError as e:
            link.send(encode(e.frame()))

    async def leave(self, conn: Subscriber, told: bool = True) -> None:
        """Forget a closed connection, here and at the owner (``told``: it was seated there)."""
        link = self.links.pop(conn, None)
        if link is not None:
            self.cluster.by_cid.pop(link.cid, None)
            if not told:
                pass
            elif self.live is not None:
                await self.live.leave(link)
            elif self.owner is not None:
                self.cluster.ask(self.owner, self.id, link, {"k": "leave"})
        if not self.links and self.cluster.tables.get(self.id) is self:
            del self.cluster.tables[self.id]

    async def recover(self) -> None:
        """After an unexpected failure: the owner rebuilds the table from its log."""
        if self.live is not None:
            await self.live.recover()

    def catch_up_frames(self, last_seq: int | None) -> int:
        """What a catch-up from ``last_seq`` costs (as :meth:`LiveTable.catch_up_frames`)."""
        if self.live is not None:
            return self.live.catch_up_frames(last_seq)
        seq = max([self.seq, *(link.seq or 0 for link in self.links.values())])
        self.seq = seq
        if last_seq is None or last_seq > seq or seq - last_seq > CATCH_UP_LIMIT:
            return 1
        return seq - last_seq

    # -- changing hands -------------------------------------------------------------

    async def move(self) -> None:
        """The lease changed hands: find the new owner and seat every connection there again."""
        async with self.moving:
            before = (self.live, self.owner)
            self.live, self.owner = None, None
            for link in self.links.values():
                link.ready.clear()
            try:
                await self.locate()
            except Exception as e:  # the table cannot be loaded: its connections start over
                if not isinstance(e, ProtocolError):
                    log.exception("table %s: it could not be located after it moved", self.id)
                    e = ProtocolError("internal", _("the server failed on this message"))
                for link in list(self.links.values()):
                    link.send(encode(e.frame()))
                    link.close("the table could not be loaded: reconnect")
                    link.ready.set()
                return
            if (self.live, self.owner) == before and (self.live is not None or before[1] is not None):
                for link in self.links.values():  # it did not move after all: the connections stay as they are
                    link.ready.set()
                return
            self.cluster.moves += 1
            for link in list(self.links.values()):
                if link.answer is not None:  # a hello on its way: it asks the new owner
                    if not link.answer.done():
                        link.answer.set_result({"moved": True})
                    link.ready.set()
                    continue
                await self._seat_again(link)

    async def _seat_again(self, link: Link) -> None:
        """Seat a connection at the new owner with what its client saw, then resend its unanswered actions."""
        if self.links.get(link.conn) is not link:  # the connection closed meanwhile
            return
        link.mute_welcome = True
        try:
            await self._seat(link, link.seq)
        except ProtocolError as e:
            link.send(encode(e.frame()))
            link.close("the table moved and the seat could not be taken again: reconnect")
            link.ready.set()
            return
        except Exception:
            log.exception("table %s: a connection could not follow the table", self.id)
            link.close("the table moved: reconnect")
            link.ready.set()
            return
        link.ready.set()
        if self.links.get(link.conn) is not link:  # it closed while being seated: no ghost stays at the owner
            if self.live is not None:
                await self.live.leave(link)
            elif self.owner is not None:
                self.cluster.ask(self.owner, self.id, link, {"k": "leave"})
            return
        for message in list(link.pending.values()):
            await self._forward(link, message)


class Cluster:
    """This process's part of the cluster: its leases, its channel, its relayed tables."""

    def __init__(self, settings: ClusterSettings, service: TableService) -> None:
        self.settings = settings
        self.service = service
        self.me = secrets.token_hex(6)
        # a bounded pool that makes a call wait for a connection: hundreds of tables moving at once
        # never open hundreds of connections (nor fail for want of one within REDIS_WAIT, which would
        # look like an outage); a reply that does not come within half a lease fails the call, and a
        # connection idle for a lease is checked before use, so a hung connection blocks nobody for long
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.url,
            decode_responses=True,
            socket_connect_timeout=2,
            socket_timeout=settings.lease_seconds / 2,
            health_check_interval=settings.lease_seconds,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT,
        )
        self.redis: aioredis.Redis = aioredis.Redis.from_pool(pool)
        self.leases = Leases(settings.prefix)
        self.owned: dict[str, float] = {}
        """Tables whose lease this process holds -> when it took it (monotonic clock)."""
        self.tables: dict[str, ClusterTable] = {}
        """The tables this process's connections sit at."""
        self.by_cid: dict[str, tuple[ClusterTable, Link]] = {}
        """This process's seated connections by their id in the cluster."""
        self.remote: dict[tuple[str, str], RemoteSeat] = {}
        """(process, connection) -> the connection of another process seated at a table owned here."""
        self._outbox: dict[str, list[str]] = {}
        self._wake = asyncio.Event()
        self._chains: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._taking: dict[str, asyncio.Future[str | None]] = {}
        """Leases waiting for the next batched take (:meth:`hold`)."""
        self._taker: asyncio.Task[None] | None = None
        self._releasing: dict[str, asyncio.Future[None]] = {}
        """Tables whose lease :meth:`let_go` is releasing -> done when it is."""
        self._silent: dict[str, int] = {}
        """Owners whose channel had no listener at the last looks (a killed process)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._beating: asyncio.Task[None] | None = None
        """The heartbeat's task (:meth:`_beat`): it runs from :meth:`start` to :meth:`hand_over`."""
        self._pubsub: Any = None
        self.app: ASGIApp | None = None
        """The application, for relayed HTTP requests (set by :func:`barbu.server.app.create_app`)."""
        self.moves = 0
        self.relayed = 0
        self.down = False
        """Redis stopped answering and has not answered a renewal since (see :meth:`_trouble`)."""
        self._recovering_until = 0.0
        """Until then (monotonic clock), after Redis came back, no table is taken here: each owner
        takes its own leases again first."""
        self._checking = False
        """A ``PING`` after a failed call is on its way (:meth:`_suspect`)."""
        self._owed: list[tuple[str, str]] = []
        """What the other processes must hear once Redis is back: the ties cut while it was away."""
        self._marks: dict[str, str] = {}
        """The online marks last written to Redis (table -> seats), to write only what changed."""
        service.before_load = self._before_load
        service.online_elsewhere = self.online_elsewhere

    # -- life ------------------------------------------------------------------------

    @property
    def lease_ms(self) -> int:
        return int(self.settings.lease_seconds * 1000)

    @property
    def alive_ms(self) -> int:
        return int(self.settings.alive_seconds * 1000)

    async def start(self) -> None:
        """Write this process's heartbeat and listen on its channel; start beating, renewing,
        watching and sending."""
        await self.redis.set(self.leases.alive(self.me), "1", px=self.alive_ms)
        await self._subscribe()
        self._beating = asyncio.ensure_future(self._beat())
        for job in (self._listen(), self._renew(), self._watch(), self._send()):
            self._spawn(job)

    async def stop(self) -> None:
        """Stop listening: no more requests from other processes. The tables are still held: this
        process leaves the list of processes before its listener closes, and its heartbeat goes
        on until :meth:`hand_over`, so nobody claims its tables while its journal writes."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.srem(self.leases.processes, self.me)
        with contextlib.suppress(RedisError, OSError):
            if self._pubsub is not None:
                await self._pubsub.aclose()

    async def _beat(self) -> None:
        """Refresh this process's heartbeat key ``PREFIX:alive:ID`` every ``beat_every`` seconds,
        on the pool's connections (not the listener's): while it lives, no process claims this
        one's tables (:meth:`Leases.claim`), even if its channel's listener drops for a moment."""
        while True:
            await asyncio.sleep(self.settings.beat_every)
            try:
                await self.redis.set(self.leases.alive(self.me), "1", px=self.alive_ms)
            except (RedisError, OSError) as e:
                self._suspect(e, "refreshing the heartbeat")

    async def hand_over(self) -> None:
        """Once the journal wrote everything: release every lease, so other processes take the
        tables at once, then end the heartbeat."""
        with contextlib.suppress(RedisError, OSError):
            await self.leases.release(self.redis, list(self.owned), self.me)
            await self.leases.leave(self.redis, self.me)
        self.owned.clear()
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
            self._beating = None
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(self.leases.alive(self.me))
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    def _spawn(self, job: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- leases ----------------------------------------------------------------------

    async def hold(self, table_id: str) -> str | None:
        """The owner of a table, after taking its lease if nobody held it (this process's id then)."""
        if table_id in self.owned:
            return self.me
        if self._away():
            message = _("the server processes are getting back in touch with each other: try again in a few seconds")
            raise ProtocolError("storage", message)
        releasing = self._releasing.get(table_id)
        if releasing is not None:  # let go of here a moment ago: taken again only once it is released
            await asyncio.shield(releasing)
        future = self._taking.get(table_id)
        if future is None:
            future = self._taking[table_id] = asyncio.get_running_loop().create_future()
            if self._taker is None or self._taker.done():
                self._taker = self._spawn(self._take_batches())
        try:
            owner = await asyncio.wait_for(asyncio.shield(future), HOLD_TIMEOUT)
        except TimeoutError:
            owner = None
        if owner is None:
            message = _("the servers cannot agree which one serves the table: try again")
            raise ProtocolError("storage", message)
        return owner

    def _away(self) -> bool:
        """Whether Redis is down or the processes are getting back in touch (no lease taken then)."""
        return self.down or time.monotonic() < self._recovering_until

    async def _take_batches(self) -> None:
        """Answer :meth:`hold`: the leases asked for since the last call, taken in one call (a
        takeover of hundreds of tables, or their clients coming back, is a few round trips to
        Redis, not one per table), until none is waiting. None answers a failed call, a table
        whose release is in flight, and every table while Redis is down or being got back. A
        call of several tables failing for something else than Redis takes each again alone:
        only the tables at fault fail."""
        batch: dict[str, asyncio.Future[str | None]] = {}
        try:
            while self._taking:
                await asyncio.sleep(0)  # the other tables asked for on this turn of the loop join the batch
                batch, self._taking = self._taking, {}
                ids = [t for t in batch if t not in self._releasing]
                holders: dict[str, str | BaseException | None] = dict.fromkeys(batch)
                if not self._away():
                    holders.update(await self._take_leases(ids))
                now = time.monotonic()
                for table_id, future in batch.items():
                    holder = holders[table_id]
                    if holder == self.me:
                        self.owned.setdefault(table_id, now)
                    if future.done():
                        continue
                    if isinstance(holder, BaseException):
                        future.set_exception(holder)
                    else:
                        future.set_result(holder)
                batch = {}
        except asyncio.CancelledError:  # stopping: nobody will answer the tables still waiting
            for future in [*batch.values(), *self._taking.values()]:
                future.cancel()
            self._taking.clear()
            raise
        finally:
            if self._taking:  # left by an error no table caused: the next taker answers them
                self._taker = self._spawn(self._take_batches())

    async def _take_leases(self, ids: list[str]) -> dict[str, str | BaseException | None]:
        """The holder of each lease of ``ids`` after taking those nobody holds, None for all if Redis
        failed; a table whose call fails otherwise (alone) gets its error."""
        try:
            return dict(zip(ids, await self.leases.take(self.redis, ids, self.me, self.lease_ms), strict=True))
        except (RedisError, OSError) as e:
            self._suspect(e, "taking a lease")
            return {}
        except Exception as e:
            if len(ids) == 1:
                return {ids[0]: e}
        out: dict[str, str | BaseException | None] = {}
        for t in ids:  # one table spoilt the call: each alone
            out.update(await self._take_leases([t]))
        return out

    async def let_go(self, table_id: str) -> None:
        """Release a table's lease (it is not served here any more); until the release is done the
        table is not taken again here (a take landing first would see this process hold it)."""
        if self.owned.pop(table_id, None) is not None:
            done = self._releasing[table_id] = asyncio.get_running_loop().create_future()
            try:
                with contextlib.suppress(RedisError, OSError):
                    await self.leases.release(self.redis, [table_id], self.me)
            finally:
                del self._releasing[table_id]
                done.set_result(None)

    async def _before_load(self, table_id: str) -> None:
        """A table is loaded here only under this process's lease."""
        owner = await self.hold(table_id)
        if owner != self.me:
            raise ProtocolError("storage", _("another server process serves this table right now: try again"))

    async def _renew(self) -> None:
        """Renew every lease held; let go of the tables whose lease was lost, and of those that left
        memory (after a minute with nobody connected: ``TableService.unload``)."""
        while True:
            await asyncio.sleep(self.settings.renew_every)
            now = time.monotonic()
            for table_id, since in list(self.owned.items()):
                if table_id not in self.service.live and now - since > 10:
                    await self.let_go(table_id)
            held = list(self.owned)
            try:
                if self.down:
                    await self.redis.ping()
                lost = await self.leases.renew(self.redis, held, self.me, self.lease_ms)
            except (RedisError, OSError) as e:
                self._suspect(e, "renewing the leases")
                continue
            back = self.down
            if back:
                self._back()
            for table_id in lost:
                self._lost(table_id)
            if back:
                log.warning(
                    "Redis answers again; %d tables served here kept their lease, %d were taken over elsewhere",
                    len(self.owned),
                    len(lost),
                )
            await self._publish_online()
            await self._drop_gone_processes()

    def _lost(self, table_id: str) -> None:
        """Another process took a table this one served (this one stalled past its lease): let it go."""
        log.warning("table %s: lease lost; the table leaves this process", table_id)
        self.owned.pop(table_id, None)
        live = self.service.live.pop(table_id, None)
        if live is not None:
            live.close()
        for key, sub in list(self.remote.items()):
            if sub.table is live:
                del self.remote[key]
        table = self.tables.get(table_id)
        if table is not None:
            self._spawn(table.move())

    async def _drop_gone_processes(self) -> None:
        """Forget the connections of processes that no longer listen (killed): their seats are free."""
        processes = sorted({p for p, _ in self.remote})
        if not processes:
            return
        try:
            counts = dict(await self.redis.pubsub_numsub(*[channel(self.settings.prefix, p) for p in processes]))
        except (RedisError, OSError):
            return
        for p in processes:
            if counts.get(channel(self.settings.prefix, p), 0):
                continue
            for key, sub in list(self.remote.items()):
                if key[0] == p:
                    del self.remote[key]
                    if sub.table is not None:
                        await sub.table.leave(sub)

    async def _watch(self) -> None:
        """Watch the other processes and the leases of the tables relayed from here: take a dead
        process's tables over, move a relayed table when its owner changes."""
        prefix = self.settings.prefix
        while True:
            await asyncio.sleep(self.settings.watch_every)
            if self._away():
                self._silent.clear()  # no look at any process: the two looks that void its leases start again
                continue
            relayed = [t for t in self.tables.values() if t.live is None and t.owner is not None and t.links]
            try:
                others = sorted(str(p) for p in await self.redis.smembers(self.leases.processes) if p != self.me)
                owners = await self.redis.mget([self.leases.key(t.id) for t in relayed]) if relayed else []
                names = [channel(prefix, p) for p in others]
                listening = dict(await self.redis.pubsub_numsub(*names)) if names else {}
            except (RedisError, OSError) as e:
                self._suspect(e, "watching the leases")
                continue
            for table, owner in zip(relayed, owners, strict=True):
                if not table.moving.locked() and owner != table.owner:
                    self._spawn(table.move())
            for p in others:
                if listening.get(channel(prefix, p), 0):
                    self._silent.pop(p, None)
                else:
                    await self._silent_owner(p)
            for p in [p for p in self._silent if p not in others]:  # gone from the list: its looks end
                del self._silent[p]

    async def _silent_owner(self, owner: str) -> None:
        """A process whose channel had no listener at two looks running and whose heartbeat key
        expired is gone (killed): its leases are void, deleted in one call with its list of tables
        (:meth:`Leases.claim`, which refuses while the heartbeat lives: a live process whose
        listener dropped for a moment keeps its tables, and is looked at again at the next look
        while silent), and its tables are loaded here at once, before their clients come back
        (together: their leases are taken and their logs read in batches, :meth:`hold`,
        :meth:`TableService.get <barbu.server.tables.TableService.get>`); the tables relayed from
        here move. A table taken over that nobody comes back to leaves memory as any idle table does."""
        looks = self._silent.get(owner, 0) + 1
        self._silent[owner] = looks
        if looks < 2:
            return
        try:
            gone = await self.leases.claim(self.redis, owner)
        except (RedisError, OSError) as e:
            self._silent.pop(owner, None)
            self._suspect(e, "taking a dead process's tables over")
            return
        if gone is None:  # silent but beating: alive (its listener subscribes again)
            if looks == 2:
                log.info("server process %s has no listener but a heartbeat: not taken over", owner)
            return
        self._silent.pop(owner, None)
        if gone:
            log.warning("server process %s is gone; taking over its %d tables", owner, len(gone))
        for table_id in gone:
            self._spawn(self._adopt(table_id))
        for table in list(self.tables.values()):
            if table.live is None and table.owner == owner and table.links and not table.moving.locked():
                self._spawn(table.move())

    async def _adopt(self, table_id: str) -> None:
        """Load a dead process's table here (unless another process took its lease first)."""
        try:
            await self.service.get(table_id)
        except ProtocolError as e:
            log.info("table %s was not taken over here: %s", table_id, e.message)

    # -- Redis down, Redis back ----------------------------------------------------------

    def _trouble(self, error: BaseException, doing: str) -> None:
        """Redis failed: the first time, cut the ties that go through it.

        The tables served here keep playing for the connections accepted here (their log is in
        the database). If Redis is away for every process, nobody takes their lease meanwhile; if
        only this process lost it, the others take its tables over once its channel is silent and
        its heartbeat has expired (about ``alive_seconds``), or once its leases expire, and this
        process finds them lost at its first renewal when Redis answers. Every connection relayed
        to another process is told and closed: its client reconnects, and is seated again once
        Redis answers. The connections other processes relayed here are forgotten (their frames
        cannot reach them); their clients come back the same way. What the other side must hear
        of this (it may not have seen Redis fail: a blip on this process's link) is said once
        Redis is back (:meth:`_back`): close that connection, forget that seat.
        """
        if self.down:
            return
        self.down = True
        log.warning("Redis failed %s (%s): relayed connections are closed until it is back", doing, error)
        self._outbox.clear()
        for table in list(self.tables.values()):
            if table.live is not None:
                continue
            owner, table.owner = table.owner, None  # found again once Redis answers
            for link in list(table.links.values()):
                if owner is not None:
                    leave = {"k": "leave", "p": self.me, "c": link.cid, "t": table.id, "h": link.holder}
                    self._owed.append((owner, json.dumps(leave)))
                with speaking(link.language):
                    said = _("the server processes lost touch with each other: reconnecting in a moment")
                link.send(encode(ProtocolError("storage", said).frame()))
                link.close("the server processes lost touch with each other: reconnect")
        for key, sub in list(self.remote.items()):
            del self.remote[key]
            self._owed.append((sub.process, f"c {sub.cid} the server processes lost touch with each other: reconnect"))
            if sub.table is not None:
                self._spawn(sub.table.leave(sub))

    def _suspect(self, error: BaseException, doing: str) -> None:
        """A Redis call failed where nothing was lost (it is tried again later): an outage only if
        Redis does not answer a ``PING`` either (else it was one connection Redis had closed)."""
        if self.down or self._checking:
            return
        self._checking = True

        async def check() -> None:
            try:
                await self.redis.ping()
            except (RedisError, OSError):
                self._trouble(error, doing)
            finally:
                self._checking = False

        self._spawn(check())

    def _back(self) -> None:
        """Redis answers again (this process's leases were just renewed or taken again): for one
        lease's life no other table is taken here, so every owner takes its own leases back first."""
        self.down = False
        self._recovering_until = time.monotonic() + self.settings.lease_seconds
        self._marks = {}  # a Redis that restarted lost them: written again whole
        owed, self._owed = self._owed, []
        for process, line in owed:
            self.post(process, line)

    async def readiness(self) -> tuple[str, str] | None:
        """For ``/readyz``: None while Redis answers, else why the process is not ready."""
        try:
            if not self.down:
                await asyncio.wait_for(self.redis.ping(), 2.0)
                return None
        except (RedisError, OSError, TimeoutError):
            pass
        return "redis", _("Redis does not answer: tables served by other processes cannot be reached")

    # -- who is online -----------------------------------------------------------------

    def _online_key(self, process: str) -> str:
        return f"{self.settings.prefix}:online:{process}"

    async def _publish_online(self) -> None:
        """Keep, in this process's hash ``PREFIX:online:ID`` (table -> the seats with a connection,
        e.g. ``0,2``), the marks of the tables served here, for the lobbies of the other processes:
        the marks that changed are written, those of tables gone are deleted, and the hash lives
        one lease (renewed with the leases; gone with a killed process)."""
        here = self.service.online_here()
        marks = {t: ",".join(str(i) for i in sorted(here[t])) for t in self.owned if t in here}
        changed: Mapping[Any, Any] = {t: v for t, v in marks.items() if self._marks.get(t) != v}
        gone = [t for t in self._marks if t not in marks]
        if not marks and not gone:
            return
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                if changed:
                    pipe.hset(self._online_key(self.me), mapping=changed)
                if gone:
                    pipe.hdel(self._online_key(self.me), *gone)
                pipe.pexpire(self._online_key(self.me), self.lease_ms)
                await pipe.execute()
        except (RedisError, OSError) as e:
            self._suspect(e, "writing the online marks")
            return
        self._marks = marks

    async def online_elsewhere(self, table_ids: list[str]) -> dict[str, set[int]]:
        """The seats with a connection at tables other processes serve, as their owners last said
        (none while Redis is away)."""
        if self.down:
            return {}
        try:
            owners = await self.redis.mget([self.leases.key(t) for t in table_ids])
            by_owner: dict[str, list[str]] = {}
            for t, owner in zip(table_ids, owners, strict=True):
                if owner is not None and owner != self.me:
                    by_owner.setdefault(str(owner), []).append(t)
            if not by_owner:
                return {}
            async with self.redis.pipeline(transaction=False) as pipe:
                for owner, tables in by_owner.items():
                    pipe.hmget(self._online_key(owner), tables)
                found = await pipe.execute()
        except (RedisError, OSError):
            return {}
        out: dict[str, set[int]] = {}
        for tables, values in zip(by_owner.values(), found, strict=True):
            for t, v in zip(tables, values, strict=True):
                if v is not None:
                    out[t] = {int(i) for i in str(v).split(",") if i}
        return out

    # -- messages ----------------------------------------------------------------------

    def post(self, process: str, line: str) -> None:
        """Queue one line for a process's channel; lines go out in order, a batch per process."""
        self._outbox.setdefault(process, []).append(line)
        self._wake.set()

    def ask(self, owner: str, table_id: str, link: Link, message: dict[str, Any]) -> None:
        """Post a connection's message to the table's owner."""
        self.relayed += 1
        self.post(owner, json.dumps({**message, "p": self.me, "c": link.cid, "t": table_id, "h": link.holder}))

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batches, self._outbox = self._outbox, {}
            for process, lines in batches.items():
                try:
                    try:
                        heard = await self.redis.publish(channel(self.settings.prefix, process), "\n".join(lines))
                    except (RedisError, OSError):  # once more, on a new connection (one Redis closed)
                        heard = await self.redis.publish(channel(self.settings.prefix, process), "\n".join(lines))
                except (RedisError, OSError) as e:
                    self._trouble(e, "sending")
                    break
                if not heard:
                    log.info("nobody listens on %s's channel", process)

    async def _subscribe(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(channel(self.settings.prefix, self.me))

    async def _listen(self) -> None:
        """Receive on this process's channel. When the listener fails it subscribes again at once
        (its connection alone was reset or closed by Redis: the gap is a round trip, and the
        heartbeat keeps the tables here meanwhile), then every half second while it fails; Redis
        is taken for away only if it does not answer a ``PING`` either (:meth:`_suspect`)."""
        failures = 0
        while True:
            try:
                if self._pubsub is None:  # listen again: at once the first time, then in a moment
                    if failures > 1:
                        await asyncio.sleep(0.5)
                    await self._subscribe()
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as e:
                failures += 1
                self._suspect(e, "listening")
                if self._pubsub is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.aclose()
                    self._pubsub = None
                continue
            failures = 0
            if message is None or message.get("type") != "message":
                continue
            for line in str(message["data"]).split("\n"):
                self._take(line)

    def _take(self, line: str) -> None:
        """One line from another process: a request to an owned table, or something for a local connection."""
        if line.startswith("{"):
            request = json.loads(line)
            key = (request["p"], request["c"])
            before = self._chains.get(key)
            task = asyncio.ensure_future(self._in_turn(before, self._serve(request)))
            self._chains[key] = task
            task.add_done_callback(lambda done: self._end_chain(key, done))
            return
        kind, cid, rest = [*line.split(" ", 2), "", ""][:3]
        if kind == "r":
            call = self._calls.pop(cid, None)
            if call is not None and not call.done():
                call.set_result(json.loads(rest))
            return
        found = self.by_cid.get(cid)
        if found is None:
            return
        table, link = found
        if kind == "f":
            link.send(rest)
        elif kind == "c":
            link.close(rest)
        elif kind == "a":  # the answer to a hello
            if link.answer is not None and not link.answer.done():
                link.answer.set_result(json.loads(rest))
        elif kind == "m" and not table.moving.locked():  # the owner does not serve the table any more
            self._spawn(table.move())

    def _end_chain(self, key: tuple[str, str], done: asyncio.Task[None]) -> None:
        if self._chains.get(key) is done:
            del self._chains[key]

    @staticmethod
    async def _in_turn(before: asyncio.Task[None] | None, job: Awaitable[None]) -> None:
        if before is not None:
            with contextlib.suppress(BaseException):
                await before
        try:
            await job
        except Exception:
            log.exception("a request from another process failed")

    async def _serve(self, request: dict[str, Any]) -> None:
        """At the owner: carry out what a connection of another process asked."""
        process, cid, kind = request["p"], request["c"], request["k"]
        if kind == "http":
            await self._serve_http(request)
            return
        key = (process, cid)
        if kind == "hello":
            await self._serve_hello(request)
            return
        sub = self.remote.get(key)
        if sub is None or sub.table is None:
            if kind != "leave":
                self.post(process, f"m {cid} ")
            return
        try:
            if kind == "leave":
                del self.remote[key]
                await sub.table.leave(sub)
            else:
                await self.carry_out(sub.table, sub, request)
        except ProtocolError as e:
            sub.send(encode(e.frame()))

    async def _serve_hello(self, request: dict[str, Any]) -> None:
        process, cid, table_id = request["p"], request["c"], request["t"]
        try:
            if await self.hold(table_id) != self.me:
                self.post(process, f"a {cid} " + json.dumps({"moved": True}))
                return
            table = await self.service.get(table_id)
            earlier = self.remote.pop((process, cid), None)
            if earlier is not None and earlier.table is not None:  # seated again (the table came back here)
                await earlier.table.leave(earlier)
            sub = RemoteSeat(self, process, cid, request.get("h"))
            sub.table = table
            await table.join(sub, request.get("key"), request.get("name"), request.get("last_seq"), request.get("seat"))
            self.remote[(process, cid)] = sub
        except ProtocolError as e:
            self.post(process, f"a {cid} " + json.dumps({"error": e.frame()}))
            return
        self.post(process, f"a {cid} " + json.dumps({"ok": True}))

    async def carry_out(self, table: LiveTable, sub: Subscriber, message: Mapping[str, Any]) -> None:
        """A message of a connection another process relays, at the live table."""
        if message["k"] == "table":
            msg = message["msg"]
        else:  # an action, resent as it was until its answer comes
            msg = {"type": "act", "id": message["id"], "seq": message["seq"], "action": message["action"]}
        try:
            await table.carry_out(sub, msg)
        except ProtocolError:
            raise
        except Exception:
            log.exception("unexpected failure on a relayed message")
            sub.send(encode(ProtocolError("internal", _("the server failed on this message")).frame()))
            await table.recover()

    def table(self, table_id: str) -> ClusterTable:
        """The table as this process's connections reach it."""
        found = self.tables.get(table_id)
        if found is None:
            found = self.tables[table_id] = ClusterTable(self, table_id)
        return found

    # -- HTTP --------------------------------------------------------------------------

    async def call(self, owner: str, request: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """Post a request to a process and wait for its answer (None: no answer in time)."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[rid] = future
        self.post(owner, json.dumps({**request, "p": self.me, "c": rid}))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None
        finally:
            self._calls.pop(rid, None)

    async def _serve_http(self, request: dict[str, Any]) -> None:
        """At the owner: run a relayed HTTP request through the application, answer with its response."""
        process, rid, table_id = request["p"], request["c"], request["t"]
        if await self.hold(table_id) != self.me or self.app is None:
            self.post(process, f"r {rid} " + json.dumps({"moved": True}))
            return
        given = request["scope"]
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": given["method"],
            "scheme": given["scheme"],
            "path": given["path"],
            "raw_path": given["path"].encode(),
            "query_string": given["query"].encode("latin-1"),
            "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in given["headers"]],
            "client": tuple(given["client"]) if given["client"] else None,
            "server": None,
            "barbu.relayed": True,
        }
        body = base64.b64decode(request["body"])
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        status, headers, chunks = 500, [], []

        async def send(message: Message) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception:  # the application answered 500 already (or could not): say so rather than fall silent
            log.exception("a relayed request failed")
            if not headers:
                status, chunks = 500, [encode({"error": {"code": "internal", "message": "the server failed"}}).encode()]
                headers = [["content-type", "application/json"]]
        answer = {"status": status, "headers": headers, "body": base64.b64encode(b"".join(chunks)).decode()}
        self.post(process, f"r {rid} " + json.dumps(answer))

    def add_metrics(self, registry: Any) -> None:
        """Gauges of the leases held and the connections relayed both ways; counters of the tables
        moved and the messages relayed."""
        from prometheus_client import Gauge

        gauges: tuple[tuple[str, str, Callable[[], int]], ...] = (
            ("barbu_leases_held", "tables whose lease this process holds", lambda: len(self.owned)),
            ("barbu_relayed_in", "connections of other processes seated at tables here", lambda: len(self.remote)),
            (
                "barbu_relayed_out",
                "connections of this process seated at tables another process serves",
                lambda: sum(len(t.links) for t in self.tables.values() if t.live is None),
            ),
        )
        for name, what, read in gauges:
            Gauge(name, what, registry=registry).set_function(read)
        registry.register(_Counts(self))


class _Counts:
    """The cluster's counters, read when Prometheus asks."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily

        yield CounterMetricFamily(
            "barbu_table_moves", "times a table relayed from here changed owner", value=self.cluster.moves
        )
        yield CounterMetricFamily(
            "barbu_relayed_messages", "connection messages sent to another process", value=self.cluster.relayed
        )


_RELAYED_ROUTES = re.compile(r"^/api/tables/([^/]+)/(claim|invitations|hint|record|review|rematch)$")
_TABLE_ROUTE = re.compile(r"^/api/tables/([^/]+)$")


class HttpRelay:
    """ASGI middleware: an HTTP request about a live table another process owns runs at that process.

    The request (method, path, query, headers, client address, body) goes to the owner, which
    runs it through its own application (origin and host checks, budgets and routes) and sends
    the response back. A table nobody serves is taken here.
    """

    def __init__(self, app: ASGIApp, cluster: Callable[[], Cluster | None]) -> None:
        self.app = app
        self.cluster = cluster

    @staticmethod
    def table_of(scope: Scope) -> str | None:
        """The table a request is about, if it needs the live table.

        >>> HttpRelay.table_of({"type": "http", "path": "/api/tables/abc/claim", "method": "POST"})
        'abc'
        >>> HttpRelay.table_of({"type": "http", "path": "/api/tables", "method": "POST"}) is None
        True
        >>> HttpRelay.table_of({"type": "http", "path": "/api/tables/a b/claim", "method": "POST"}) is None
        True
        """
        if scope["type"] != "http" or scope.get("barbu.relayed"):
            return None
        found = _RELAYED_ROUTES.match(scope["path"])
        if not found:
            found = _TABLE_ROUTE.match(scope["path"])
            if scope["method"] != "DELETE":
                return None
        if not found or not TABLE_ID.fullmatch(found.group(1)):  # no table: the application refuses it
            return None
        return found.group(1)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = self.cluster()
        table_id = self.table_of(scope)
        if cluster is None or table_id is None:
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        request = {
            "k": "http",
            "t": table_id,
            "scope": {
                "method": scope["method"],
                "scheme": scope.get("scheme", "http"),
                "path": scope["path"],
                "query": scope.get("query_string", b"").decode("latin-1"),
                "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
                "client": list(scope["client"]) if scope.get("client") else None,
            },
            "body": base64.b64encode(body).decode(),
        }
        deadline = time.monotonic() + 3 * cluster.settings.lease_seconds
        while time.monotonic() < deadline:
            try:
                owner = await cluster.hold(table_id)
            except ProtocolError:
                owner = None
            if owner == cluster.me:
                done = False

                async def replay() -> Message:
                    nonlocal done
                    if done:
                        return await receive()
                    done = True
                    return {"type": "http.request", "body": body, "more_body": False}

                await self.app(scope, replay, send)
                return
            answer = await cluster.call(owner, request, 2.0) if owner is not None else None
            if answer is not None and "status" in answer:
                headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]
                await send({"type": "http.response.start", "status": answer["status"], "headers": headers})
                await send({"type": "http.response.body", "body": base64.b64decode(answer["body"])})
                return
            await asyncio.sleep(cluster.settings.watch_every)
        silent = _("the server process serving this table does not answer: try again in a few seconds")
        text = encode({"error": {"code": "storage", "message": silent}})
        await send({"type": "http.response.start", "status": 503, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": text.encode()})


__all__ = ["Cluster", "ClusterSettings", "ClusterTable", "HttpRelay", "Leases", "Link", "RemoteSeat", "channel"]
