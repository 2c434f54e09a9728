"""Live tables: the authoritative game of each table, its seats, its bots and its watchers.

A table is loaded by replaying its stored action log through the core. A seat's intent
goes through the core's checked door (``Game.apply``); an accepted action gets the
table's next sequence number, is committed by the :class:`~barbu.server.journal.Journal`
and only then acknowledged and broadcast. Each connection of a seat receives frames
built from that seat's view (``seat_view(game, seat).as_json()``) and nothing else;
watchers get the spectator's view.

The live state changes only after the database committed the change: an action is
checked without changing the game (``Game.check``), written, and only then applied to the
table's game. A write that fails (the database gone, locked, timed out) is a typed ``storage``
error and the table stays exactly as it was; a bot whose move could not be written tries
again :attr:`Settings.storage_retry` seconds later. After a failure the table reads its
log again before the next change, in case the failed commit did reach the database.

Bots move on their own ``bot_delay`` seconds after their turn comes; a person who
leaves a seat is replaced by a bot once their turn comes ``takeover_after`` seconds
after they left, until they come back. Automatic moves happen only while someone
is connected to the table.

A player may also leave their seat on purpose (``leave``): a bot stands in at once, and the
seat stays theirs to take back (open it again from "my games" or the invitation link). A
player may propose to abandon an unfinished table (``abandon``): every other person seated
(joined, not gone) is asked (``consent``); when all agree, or nobody refused within
:attr:`Settings.abandon_after` seconds, the table's status becomes ``abandoned`` (written
first): nothing more is played there, it is unrated and no longer counts among its creator's
unfinished tables. A refusal ends the proposal, and its author may propose again only
:data:`PROPOSE_AGAIN_AFTER` seconds later. A proposal lives in memory: a restart forgets it,
and a seat left on purpose then waits for ``takeover_after`` as any person who went away.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from barbu.actions import action_from_json, action_to_json
from barbu.bots import bot_level, make_bot
from barbu.errors import ActionNotationError, IllegalAction, OutOfTurn
from barbu.game import Game
from barbu.language import N_, _, error_text
from barbu.names import NAME_LIMIT, TextError, check_text
from barbu.record import game_to_record
from barbu.server.catchup import RecentViews, view_text
from barbu.server.journal import Journal, Status
from barbu.server.limits import Limits
from barbu.server.protocol import HINTS_INTERVAL, SAY_INTERVAL, ProtocolError, check_table_id, encode
from barbu.storage import ActionRow, Store, StoredTable, StoreError, TableRow
from barbu.view import GROWING_FIELDS, JSON_FIELDS, OWN_ATTRIBUTES, SeatView, seat_view, seat_views, summary_json

CATCH_UP_LIMIT = 64
"""A reconnecting client that missed more events than this gets the current state instead;
the table keeps the views of this many sequence numbers for each person's seat and the watchers."""


READ_BATCH = 200
"""The most tables read from the store in one read when many are loaded at once (a takeover)."""

PROPOSE_AGAIN_AFTER = 30.0
"""Seconds after a refusal before the same seat may propose to abandon the table again."""


@dataclass(frozen=True)
class Settings:
    """How the server runs its tables."""

    bot_delay: float = 0.8
    """Seconds a bot waits before it acts, so people can follow the play."""
    bot_budgets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Each level's thinking budget, as :func:`~barbu.bots.parse_budget` reads it (``{"search":
    {"iterations": 16, "seconds": None}}``): every bot of that level (a stand-in too) thinks
    within it. A level absent thinks with its defaults; the level keeps its name on the ladder."""
    takeover_after: float = 60.0
    """Seconds after a person left before a bot plays their turns."""
    abandon_after: float = 120.0
    """Seconds the people asked have to refuse a proposal to abandon the table; then it is abandoned."""
    takeover_level: str = "heuristic"
    """The bot level that stands in for an absent person (``random`` if that level is missing)."""
    commit_gather: float = 0.005
    """Seconds the idle journal waits after an action before committing it, so that the actions of
    the next moments share its commit: fewer commits (each costs about the same CPU whatever it
    holds), at up to that much more time before an action is acknowledged (see
    :class:`~barbu.server.journal.Journal`)."""
    checkpoint_every: float = 2.0
    """Seconds between two checkpoints of SQLite's write-ahead log."""
    lag_every: float = 0.1
    """Seconds between two looks at the event loop's lag (how late a timer set for then fires:
    the time every connection waits for whatever runs on the loop), reported to
    :attr:`TableService.timings` as ``("lag", seconds)``; 0 looks at nothing."""
    idle_unload_after: float = 60.0
    """Seconds a table with nobody connected stays in memory."""
    storage_retry: float = 1.0
    """Seconds before a bot tries again when the database could not record its move."""
    limits: Limits = field(default_factory=Limits)
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://host[:port]``) besides the server's own whose pages may change things:
    the public address of a proxy in front of the server (see :mod:`barbu.server.origin`)."""
    allowed_hosts: tuple[str, ...] | None = None
    """Names the server answers to besides IP addresses and ``localhost`` (``*``: every name);
    None leaves ``Host`` unchecked, for an application mounted behind something that checks it.
    ``barbu serve`` always checks it (see :mod:`barbu.server.origin`)."""


class Subscriber(Protocol):
    """One connection to a table (a seat's, or a watcher's with ``seat`` None)."""

    seat: int | None
    holder: str | None
    """The hash of the connection's browser cookie (None: a program without one)."""

    def send(self, text: str) -> None:
        """Queue a frame (JSON text) for the client; never blocks."""
        ...

    def close(self, reason: str) -> None:
        """End the connection once the frames queued before are sent."""
        ...


def credential_hash(key: str) -> str:
    """The stored form of a seat's credential (the credential itself is never stored).

    >>> len(credential_hash("abc"))
    64
    """
    return hashlib.sha256(key.encode()).hexdigest()


def bot_seed(seed: str, seq: int) -> int:
    """The seed of the bot move after action ``seq``: the same on every replay and every restart."""
    return int.from_bytes(hashlib.sha256(f"{seed}/bot/{seq}".encode()).digest()[:8], "big")


@dataclass
class LiveSeat:
    """A seat of a live table."""

    index: int
    kind: str
    bot_level: str | None
    credential_hash: str | None
    name: str | None
    joined: bool
    connections: set[Subscriber] = field(default_factory=set)
    away_since: float | None = None
    """When the seat's last connection closed (monotonic clock), for takeover."""
    holder: str | None = None
    """The browser holding the seat (its cookie's hash), once one claimed it with the seat's key."""
    left: bool = False
    """The person left the seat on purpose: a bot plays it until they come back."""

    def public(self, stand_in: bool, takeover_in: float | None = None) -> dict[str, Any]:
        """What everyone may know about the seat (``takeover_in``: seconds before a bot stands in
        for a person who left, None when no bot is coming)."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "level": self.bot_level,
            "name": self.name,
            "joined": self.joined or self.kind == "bot",
            "online": bool(self.connections) or self.kind == "bot",
            "bot_playing": stand_in,
            "left": self.left,
            "takeover_in": None if takeover_in is None else round(takeover_in, 1),
        }


def _compact_encoder() -> Callable[[Any], str]:
    """Compact JSON text, as ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` writes it.

    ``json.dumps`` and ``JSONEncoder.encode`` make a new C encoder for every value they write
    (about 2 µs, more than a small field's encoding itself); the encoder made here is made once
    and written with for every field of every view (no check for circular references: views hold
    none). Where CPython's C accelerator is missing, ``JSONEncoder.encode`` does the same work.

    >>> encode = _compact_encoder()
    >>> encode({"a": [1, None, "é"]}), encode("QS"), encode(2.5)
    ('{"a":[1,null,"é"]}', '"QS"', '2.5')
    """
    python = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
    c_encoder = getattr(json.encoder, "c_make_encoder", None)
    if c_encoder is None:  # pragma: no cover - CPython has its accelerator
        return python.encode
    write = c_encoder(None, python.default, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    string = json.encoder.encode_basestring

    def encode(value: Any) -> str:
        if type(value) is str:
            return string(value)
        return "".join(write(value, 0))

    return encode


_encode = _compact_encoder()
"""Compact JSON text, as ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` writes it."""

_NOTHING = object()
"""No source kept yet for a field."""

_SCALARS = frozenset({int, float, str, bool, type(None)})
_COMPARED = _SCALARS | {tuple, list, dict}
"""Types of a field's source compared by value: equal sources (same type) are the same text."""


def _grown(text: str, before: tuple[Any, ...], source: tuple[Any, ...], item: Callable[[Any], Any]) -> str | None:
    """The JSON text of the list made from ``source`` (``item`` makes each entry), extended from
    ``text``, that of ``before``, when ``source`` is ``before`` and more items; else None.

    A deal's plays, tricks and calls grow one at a time: the text of the new items is appended
    instead of the whole list being encoded again (a deal's plays are 52 entries at its end).

    >>> _grown("[1,2]", (1, 2), (1, 2, 3), lambda x: x), _grown("[]", (), (7,), str)
    ('[1,2,3]', '["7"]')
    >>> _grown("[1,2]", (1, 2), (1, 5, 3), lambda x: x) is None  # not a growth: encoded again
    True
    """
    known = len(before)
    if len(source) <= known or source[:known] != before:
        return None
    more = _encode([item(x) for x in source[known:]])
    return f"{text[:-1]},{more[1:]}" if known else more


_OWN_FIELDS = tuple(f for f in JSON_FIELDS if f[1] in OWN_ATTRIBUTES)
_SHARED_FIELDS = tuple(f for f in JSON_FIELDS if f[1] not in OWN_ATTRIBUTES)
_SHARED = "shared"


class ViewTexts:
    """The views of a table's audiences as compact JSON texts, one per top-level field of ``as_json()``.

    The fields every seat sees alike (all but :data:`barbu.view.OWN_ATTRIBUTES`) are encoded once
    for every audience (:meth:`shared`), each seat's own fields for that seat (:meth:`own`). A
    field is encoded again only when the attribute it is made from (``barbu.view.JSON_FIELDS``) is
    another object than before, and not equal to it (numbers, texts, tuples, lists): the views'
    caches hand out the same tuples while nothing changed (a finished deal's summary, the tricks,
    a hand), so an action costs the encoding of what it changed.

    >>> from barbu.game import Game
    >>> game = Game.new("classic", seed=3)
    >>> texts = ViewTexts()
    >>> fields = texts.fields(0, seat_view(game, 0))
    >>> fields == {k: _encode(v) for k, v in seat_view(game, 0).as_json().items()}
    True
    >>> texts.fields(0, seat_view(game, 0))["hand"] is fields["hand"]  # not encoded again
    True
    """

    def __init__(self) -> None:
        self.known: dict[int | str | None, tuple[dict[str, Any], dict[str, str]]] = {}
        """Per audience (and ``"shared"``), each field's source object and its text (two dicts: a
        few objects for the garbage collector to walk, not one per field)."""
        self.given: dict[int | str | None, dict[str, str]] = {}
        """Per audience (and ``"shared"``), the texts handed out last: the changes the next call
        reports are against them."""

    def _texts(
        self, audience: int | str | None, view: SeatView, fields: tuple[tuple[str, str, Any], ...]
    ) -> tuple[dict[str, str], dict[str, str]]:
        """The texts of ``fields``, and those of them that differ from :attr:`given`'s for
        ``audience`` (every field the first time), in one pass over the fields."""
        known = self.known.get(audience)
        if known is None:
            known = self.known[audience] = ({}, {})
        sources, texts = known
        changed: dict[str, str] = {}
        values = view.__dict__
        for key, attribute, make in fields:
            source = values[attribute]
            before = sources.get(key, _NOTHING)
            if before is source:
                continue
            if before is not _NOTHING:
                kind = type(source)
                if kind in _COMPARED and type(before) is kind and before == source:
                    continue
                sources[key] = source
                item = GROWING_FIELDS.get(key)
                text = None
                if item is not None and kind is tuple and type(before) is tuple:
                    text = _grown(texts[key], before, source, item)
                if text is None:
                    text = _encode(make(view))
                if text != texts[key]:
                    texts[key] = changed[key] = text
                continue
            sources[key] = source
            texts[key] = changed[key] = _encode(make(view))
        out = self.given[audience] = texts.copy()  # in the order of ``fields``: an audience has one set of fields
        return out, changed

    def shared(self, view: SeatView) -> tuple[dict[str, str], dict[str, str]]:
        """The fields of ``view`` that every audience sees alike, as JSON texts, and those of
        them that changed since the texts :meth:`shared` gave last (``given["shared"]``)."""
        return self._texts(_SHARED, view, _SHARED_FIELDS)

    def own(self, audience: int | None, view: SeatView) -> tuple[dict[str, str], dict[str, str]]:
        """The fields of ``audience``'s ``view`` that depend on the seat, as JSON texts, and those
        of them that changed since the texts :meth:`own` gave ``audience`` last (``given[audience]``)."""
        return self._texts(audience, view, _OWN_FIELDS)

    def fields(self, audience: int | None, view: SeatView) -> dict[str, str]:
        """Every field of ``audience``'s ``view`` as JSON texts."""
        return {**self.shared(view)[0], **self.own(audience, view)[0]}

    def forget(self, audience: int | None) -> None:
        """Drop what is kept for ``audience``."""
        self.known.pop(audience, None)
        self.given.pop(audience, None)

    def clear(self) -> None:
        """Drop everything (the game was rebuilt from its log)."""
        self.known.clear()
        self.given.clear()


def replay(table: TableRow, actions: Sequence[ActionRow]) -> Game:
    """The game of a stored table: a new game from its seed, then every stored action, checked."""
    game = Game.new(table.variant, table.options, table.seed, table.first_declarer)
    for row in actions:
        game.apply(action_from_json(row.intent), row.seat)
    return game


@dataclass
class Proposal:
    """A proposal to abandon the table: who made it, who agreed, who is still asked, until when."""

    by: int
    asked: set[int]
    agreed: set[int]
    deadline: float
    """When silence counts as consent (monotonic clock)."""
    timer: asyncio.TimerHandle | None = None

    def public(self) -> dict[str, Any]:
        """What everyone at the table sees of it (``ends_in``: seconds before silence counts as consent)."""
        return {
            "by": self.by,
            "agreed": sorted(self.agreed),
            "waiting": sorted(self.asked),
            "ends_in": round(max(0.0, self.deadline - time.monotonic()), 1),
        }


class LiveTable:
    """One table in memory. Every change and every read for a client happens under :attr:`lock`."""

    def __init__(self, service: TableService, stored: StoredTable, holders: Mapping[int, str] | None = None) -> None:
        self.service = service
        self.row = stored.table
        self.id = stored.table.id
        self.seats = [LiveSeat(s.seat, s.kind, s.bot_level, s.credential_hash, s.name, s.joined) for s in stored.seats]
        for index, holder in (holders or {}).items():
            self.seats[index].holder = holder
        self.spectators: set[Subscriber] = set()
        self.lock = asyncio.Lock()
        self.recent: OrderedDict[str, tuple[int, int]] = OrderedDict()
        """Client action id -> (seat, seq) of the last accepted actions, for harmless resends."""
        self.said: dict[int, float] = {}
        """When each seat last sent a quick message (monotonic clock)."""
        self.hints_agreed: set[int] = set()
        """The seats of people who proposed or accepted hints for everyone (kept in memory only)."""
        self.hints_said: dict[int, float] = {}
        """When each seat last said yes or no to hints (monotonic clock)."""
        self.unsure = False
        """A write failed: the log may hold what memory does not (a commit whose answer was lost)."""
        self.proposal: Proposal | None = None
        """The proposal to abandon the table that waits for answers, if any."""
        self.refused: dict[int, float] = {}
        """When each seat's last proposal to abandon was refused (monotonic clock)."""
        self._from_log(stored)
        now = time.monotonic()
        for s in self.seats:
            if s.joined:
                s.away_since = now
        self.sent: dict[int | None, dict[str, str]] = {}
        """The view last sent to each seat's connections (None: the watchers), to send only what changed."""
        self.views = RecentViews(CATCH_UP_LIMIT)
        """The views of the last sequence numbers, for catch-ups (none from before the table was loaded)."""
        self.texts = ViewTexts()
        """Each audience's last view as JSON texts, so a broadcast encodes only what changed."""
        self.broadcast_sent: tuple[dict[str, str], dict[int | None, dict[str, str]], dict[int | None, dict[str, str]]]
        self.broadcast_sent = ({}, {}, {})
        """The shared fields of the last broadcast, the view it made for each audience and each
        audience's own fields: the next broadcast takes the changes from its pass over the texts
        when those are still what :attr:`texts` gave last, else compares with them."""
        self._timer: asyncio.TimerHandle | None = None
        self._unload: asyncio.TimerHandle | None = None

    def _from_log(self, stored: StoredTable) -> None:
        """Make the game, sequence number, status and seats exactly what the store holds."""
        self.status = stored.table.status
        self.game = replay(stored.table, stored.actions)
        self.seq = len(stored.actions)
        self.recent.clear()
        for a in stored.actions[-256:]:
            if a.action_id is not None:
                self.recent[a.action_id] = (a.seat, a.seq)
        for live, row in zip(self.seats, stored.seats, strict=True):
            live.joined, live.name = row.joined, row.name

    async def _check_log(self, ref: str | None = None) -> None:
        """After a failed write, read the log again before any change (lock held); ``storage`` if it cannot.

        Usually the log holds what memory does and nothing is sent. If the failed commit did
        reach the database, the table takes the log's state and sends it to everyone.
        """
        if not self.unsure:
            return
        try:
            stored = await asyncio.to_thread(self.service.store.load_table, self.id)
        except StoreError as e:
            raise ProtocolError("storage", error_text(e), ref) from None
        if stored is None:  # pragma: no cover - tables are never deleted
            raise ProtocolError("unknown_table", _("table {table} is gone", table=self.id))
        self.unsure = False
        seats = [(s.joined, s.name) for s in stored.seats]
        if (
            len(stored.actions) == self.seq
            and stored.table.status == self.status
            and seats == [(s.joined, s.name) for s in self.seats]
        ):
            return
        self._from_log(stored)
        self.resend()
        self.schedule()

    def resend(self) -> None:
        """Send every connection its whole view and the table frame (after the table took its log's state)."""
        self.sent.clear()
        self.views.clear()
        self.texts.clear()
        for seat, connections in self.audiences():
            self.sent[seat] = fields = self.texts.fields(seat, seat_view(self.game, seat))
            text = view_text("state", self.seq, fields)
            for c in connections:
                c.send(text)
        self.broadcast_table()

    # -- reading -------------------------------------------------------------------

    def connected(self) -> bool:
        """Whether anyone (seat or watcher) is connected."""
        return bool(self.spectators) or any(s.connections for s in self.seats)

    def stand_in(self, seat: LiveSeat) -> bool:
        """Whether a bot plays this person's seat now (they left long enough ago)."""
        if seat.kind != "human":
            return False
        if seat.left:
            return True
        if seat.connections or seat.away_since is None:
            return False
        return time.monotonic() - seat.away_since >= self.service.settings.takeover_after

    def takeover_in(self, seat: LiveSeat) -> float | None:
        """Seconds before a bot plays this person's seat (they left and have not come back), or None."""
        if seat.kind != "human" or seat.left or seat.connections or seat.away_since is None or self.game.is_over:
            return None
        left = self.service.settings.takeover_after - (time.monotonic() - seat.away_since)
        return left if left > 0 else None

    def table_frame(self) -> str:
        """Who sits where, who is online, whether a bot stands in: public facts, no cards."""
        frame: dict[str, Any] = {
            "type": "table",
            "table": self.id,
            "status": self.status,
            "variant": self.row.variant,
            "seats": [s.public(self.stand_in(s), self.takeover_in(s)) for s in self.seats],
            "spectators": len(self.spectators),
            "hints": {"agreed": sorted(self.hints_agreed), "on": self.hints_on()},
            "abandon_after": self.service.settings.abandon_after,
            "abandon": None if self.proposal is None else self.proposal.public(),
        }
        if self.game.is_over:
            frame["ranking"] = self.game.ranking()
        return encode(frame)

    def players(self) -> list[str]:
        """A name per seat for the record."""
        out = []
        for s in self.seats:
            if s.kind == "bot":
                out.append(f"bot ({s.bot_level})")
            else:
                out.append(s.name or f"seat {s.index}")
        return out

    # -- sending ---------------------------------------------------------------------

    def broadcast(self, actor: Subscriber | None = None, ref: str | None = None) -> None:
        """Send every connection its own view of the new state: one view per seat, as a patch.

        The connection ``actor`` whose action ``ref`` made this state finds its acknowledgement in
        its event (``"ack": ref``, right after ``seq``): one frame answers the action and shows
        its result, and the other connections' events are the same without it.

        A patch holds the top-level fields of the seat's view (``seat_view(...).as_json()``)
        whose value changed since the view sent before; the client merges it into that view.
        What was sent is remembered as one JSON text per field: compact, and invisible to the
        garbage collector, which would otherwise walk every remembered view on each full pass.
        The fields every seat sees alike are read, encoded and compared once per broadcast
        (``seat_views``, :meth:`ViewTexts.shared`); only each seat's own fields (its hand, its
        legal actions) are made per seat. The views of every person's seat (connected or not)
        and of the watchers go to :attr:`views` as well, for the catch-up of a client that comes back.
        """
        kept: list[int | None] = [s.index for s in self.seats if s.kind == "human" or s.connections]
        if self.spectators:
            kept.append(None)
        views = seat_views(self.game, kept)
        if not views:
            return
        texts = self.texts
        shared_before, before_all, owns_before = self.broadcast_sent
        # The changes the texts' pass reports are those this broadcast needs when nothing else
        # asked for texts since the last broadcast (a catch-up or a resend may have).
        shared_known = texts.given.get(_SHARED) is shared_before
        shared, shared_fresh = texts.shared(views[kept[0]])
        shared_changed: dict[str, str] | None = None
        shared_body = ""
        head = f'{{"type":"event","seq":{self.seq}'
        now: dict[int | None, dict[str, str]] = {}
        owns: dict[int | None, dict[str, str]] = {}
        for seat in kept:
            own_before = owns_before.get(seat)
            own_known = own_before is not None and texts.given.get(seat) is own_before
            own, own_fresh = texts.own(seat, views[seat])
            owns[seat] = own
            fields = now[seat] = {**shared, **own}
            previous = before_all.get(seat)
            changed: dict[str, str] | None = None
            if previous is not None:  # its shared fields are the last broadcast's
                if shared_changed is None:
                    if shared_known:
                        shared_changed = shared_fresh
                    else:
                        shared_changed = {k: v for k, v in shared.items() if shared_before.get(k) != v}
                    shared_body = ",".join(f'"{k}":{v}' for k, v in shared_changed.items())
                own_changed = own_fresh if own_known else {k: v for k, v in own.items() if previous.get(k) != v}
                changed = {**shared_changed, **own_changed} if own_changed else shared_changed
                self.views.record(seat, self.seq, fields, (previous, changed))
            else:
                self.views.record(seat, self.seq, fields)
            connections = self.seats[seat].connections if seat is not None else self.spectators
            if not connections:
                continue
            before = self.sent.get(seat)
            self.sent[seat] = fields
            if before is None:
                body = ",".join(f'"{k}":{v}' for k, v in fields.items())
                rest = f',"view":{{{body}}}}}'
            else:
                if changed is not None and before is previous:
                    own_body = ",".join(f'"{k}":{v}' for k, v in own_changed.items())
                    body = f"{shared_body},{own_body}" if shared_body and own_body else shared_body or own_body
                else:
                    body = ",".join(f'"{k}":{v}' for k, v in fields.items() if before.get(k) != v)
                rest = f',"patch":{{{body}}}}}'
            for c in connections:
                if c is actor:
                    c.send(f'{head},"ack":{_encode(ref)}{rest}')
                else:
                    c.send(head + rest)
        self.broadcast_sent = (shared, now, owns)

    def audiences(self) -> list[tuple[int | None, set[Subscriber]]]:
        """Each seat with connections, then the watchers (seat None) if any."""
        out: list[tuple[int | None, set[Subscriber]]] = [(s.index, s.connections) for s in self.seats if s.connections]
        if self.spectators:
            out.append((None, self.spectators))
        return out

    async def carry_out(self, sub: Subscriber, msg: Mapping[str, Any]) -> None:
        """A joined connection's message, by its protocol type: ``act``, ``say``, ``hints``,
        ``leave``, ``abandon``, ``consent`` or ``sync`` (checked by ``parse_message`` already)."""
        kind = msg["type"]
        if kind == "act":
            await self.act(sub, msg["id"], msg["seq"], msg["action"])
        elif kind == "say":
            await self.say(sub, msg["phrase"])
        elif kind == "hints":
            await self.agree_hints(sub, msg["agree"])
        elif kind == "leave":
            await self.leave_seat(sub)
        elif kind == "abandon":
            await self.propose_abandon(sub)
        elif kind == "consent":
            await self.consent(sub, msg["agree"])
        else:
            await self.sync(sub, msg["last_seq"])

    def _seat_speaks(self, sub: Subscriber, last: dict[int, float], every: float, spectator: str, too_soon: str) -> int:
        """The seat of ``sub``, which may speak now: a spectator is refused with ``spectator``, and
        a seat heard less than ``every`` seconds ago (``last``) with ``too_soon`` (a message id with
        ``{every}`` and ``{wait}``); the time it speaks is written down in ``last``."""
        if sub.seat is None:
            raise ProtocolError("no_credential", spectator)
        now = time.monotonic()
        wait = last.get(sub.seat, -every) + every - now
        if wait > 0:
            raise ProtocolError(
                "rate_limited",
                _(too_soon, every=format(every, "g"), wait=format(wait, ".1f")),
                retry_after=round(wait, 1),
            )
        last[sub.seat] = now
        return sub.seat

    async def say(self, sub: Subscriber, phrase: str) -> None:
        """A seat's quick message (one of :data:`~barbu.server.protocol.PHRASES`) to everyone at
        the table; a spectator may not, and a seat speaks at most once every few seconds."""
        async with self.lock:
            self._seat_speaks(
                sub,
                self.said,
                SAY_INTERVAL,
                _("spectators cannot send messages: only players at the table"),
                N_("one quick message every {every} s: wait {wait} s"),
            )
            self.tell({"type": "said", "seat": sub.seat, "phrase": phrase})

    def hints_on(self) -> bool:
        """Whether the coach's hint is open to every person at the table: at once with one
        person (the others are bots), else once every person agreed (:meth:`agree_hints`).

        >>> from types import SimpleNamespace as Seat
        >>> table = LiveTable.__new__(LiveTable)
        >>> table.seats = [Seat(index=0, kind="human"), Seat(index=1, kind="human"), Seat(index=2, kind="bot")]
        >>> table.hints_agreed = {0}
        >>> table.hints_on(), table.hints_agreed.add(1), table.hints_on()
        (False, None, True)
        """
        people = {s.index for s in self.seats if s.kind == "human"}
        return len(people) <= 1 or people <= self.hints_agreed

    async def agree_hints(self, sub: Subscriber, agree: bool) -> None:
        """A person's yes (a proposal, or accepting one) or no (declining a proposal, or
        closing hints that were on) to the hint for everyone; everyone sees who agreed in the
        table frame. A no clears every yes: hints open again only if all agree anew. A
        spectator may not vote, and a seat votes at most once every few seconds."""
        async with self.lock:
            seat = self._seat_speaks(
                sub,
                self.hints_said,
                HINTS_INTERVAL,
                _("spectators have no say on hints: only players at the table"),
                N_("one answer on hints every {every} s: wait {wait} s"),
            )
            if agree:
                self.hints_agreed.add(seat)
            else:
                self.hints_agreed.clear()
            self.broadcast_table()

    def tell(self, frame: Mapping[str, Any]) -> None:
        """Send everyone at the table a public frame (no cards: a rematch's table id)."""
        text = encode(dict(frame))
        for c in self.subscribers():
            c.send(text)

    def broadcast_table(self) -> None:
        """Send everyone the table frame."""
        text = self.table_frame()
        for c in self.subscribers():
            c.send(text)

    def subscribers(self) -> list[Subscriber]:
        """Every connection of the table."""
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.connections)
        return out

    def catch_up_frames(self, last_seq: int | None) -> int:
        """How many whole views a catch-up from ``last_seq`` sends (at most :data:`CATCH_UP_LIMIT`).

        It is what a ``sync`` or ``hello`` costs beyond its base cost.
        """
        if last_seq is None or last_seq > self.seq or self.seq - last_seq > CATCH_UP_LIMIT:
            return 1
        return self.seq - last_seq

    def catch_up(self, sub: Subscriber, last_seq: int | None) -> None:
        """Send what ``sub`` missed since ``last_seq`` (the current state if it is None or too far).

        Missed events are whole views (no patches), taken from :attr:`views`: nothing is
        replayed or built. Events the table does not keep (from before it was loaded) are
        replaced by the current ``state``. The connection ends at the table's sequence
        number, where the next broadcast's patch starts.
        """
        if sub.seat not in self.sent:
            self.sent[sub.seat] = self.views.current(sub.seat, self.seq) or self.texts.fields(
                sub.seat, seat_view(self.game, sub.seat)
            )
        state = view_text("state", self.seq, self.sent[sub.seat])
        if last_seq is None or self.seq - last_seq > CATCH_UP_LIMIT:
            sub.send(state)
            return
        if last_seq > self.seq:
            sub.send(
                encode(
                    ProtocolError(
                        "bad_seq",
                        _(
                            "last_seq {last} is past the table's {seq}; here is the current state",
                            last=last_seq,
                            seq=self.seq,
                        ),
                    ).frame()
                )
            )
            sub.send(state)
            return
        if last_seq == self.seq:
            return
        events = self.views.events(sub.seat, last_seq, self.seq)
        for text in events if events is not None else [state]:
            sub.send(text)

    # -- joining and leaving ---------------------------------------------------------

    def seat_of_key(self, key: str) -> LiveSeat:
        """The seat whose credential is ``key``; ``bad_credential`` if there is none."""
        digest = credential_hash(key)
        found = None
        for s in self.seats:
            if s.credential_hash is not None and hmac.compare_digest(s.credential_hash, digest):
                found = s
        if found is None:
            raise ProtocolError("bad_credential", _("this key is not the credential of any seat of this table"))
        return found

    async def join(
        self, sub: Subscriber, key: str | None, name: str | None, last_seq: int | None, seat_index: int | None = None
    ) -> None:
        """Seat ``sub`` and send it the state.

        The seat is the one of the credential ``key`` (refused with ``seat_held`` if another
        browser claimed it), or seat ``seat_index`` if the connection's browser holds it;
        without either, ``sub`` watches. A seat taken for the first time (or under a new name)
        is written first: if the write fails the answer is ``storage`` and nothing is registered.
        """
        try:
            clean = check_text(name or "", _("name"), NAME_LIMIT, required=False) or None
        except TextError as e:
            raise ProtocolError("bad_name", error_text(e)) from None
        async with self.lock:
            seat: LiveSeat | None = None
            if key is not None:
                seat = self.seat_of_key(key)
                if seat.holder is not None and seat.holder != sub.holder:
                    raise ProtocolError(
                        "seat_held",
                        _(
                            "seat {n} is held by another browser: open its link in a browser "
                            "and choose to take the seat over there",
                            n=seat.index,
                        ),
                    )
            elif seat_index is not None:
                if seat_index >= len(self.seats) or sub.holder is None or self.seats[seat_index].holder != sub.holder:
                    raise ProtocolError(
                        "bad_credential",
                        _(
                            "this browser does not hold seat {n} of this table: open the seat's invitation link",
                            n=seat_index,
                        ),
                    )
                seat = self.seats[seat_index]
            if seat is not None:
                await self._check_log()
                new_name = clean or seat.name
                starts = self.status == "open" and all(s.joined or s is seat for s in self.seats if s.kind == "human")
                if not seat.joined or new_name != seat.name or starts:
                    try:
                        await asyncio.to_thread(
                            self.service.store.seat_joined,
                            self.id,
                            seat.index,
                            new_name,
                            "playing" if starts else None,
                        )
                    except StoreError as e:
                        self.unsure = True
                        raise ProtocolError("storage", error_text(e)) from None
                    seat.joined, seat.name = True, new_name
                    if starts:
                        self.status = "playing"
            self._cancel_unload()
            if seat is None:
                sub.seat = None
                self.spectators.add(sub)
            else:
                # One connection plays a seat: an earlier one (another tab of this browser) is
                # told and let go, so two pages never act for the same seat.
                for c in list(seat.connections):
                    c.send(
                        encode(
                            ProtocolError(
                                "taken_over",
                                _("seat {n} is now played from another tab or window of this browser", n=seat.index),
                            ).frame()
                        )
                    )
                    c.close("seat opened elsewhere")
                    seat.connections.discard(c)
                    c.seat = None
                sub.seat = seat.index
                seat.connections.add(sub)
                seat.away_since = None
                seat.left = False  # back at the seat: the bot stands aside
            sub.send(
                encode(
                    {
                        "type": "welcome",
                        "table": self.id,
                        "seat": sub.seat,
                        "seq": self.seq,
                        "status": self.status,
                    }
                )
            )
            self.catch_up(sub, last_seq)
            self.broadcast_table()
            self.schedule()

    async def claim(
        self, key: str, holder: str, takeover: bool = False, seat_index: int | None = None
    ) -> tuple[int, bool]:
        """Give the seat of ``key`` (which must be seat ``seat_index`` if given) to the browser
        ``holder``: (the seat, whether another browser held it).

        A seat another browser holds moves only with ``takeover``; that browser's connections
        are then told (``taken_over``) and closed, so its player notices.
        """
        async with self.lock:
            seat = self.seat_of_key(key)
            if seat_index is not None and seat_index != seat.index:
                raise ProtocolError(
                    "bad_credential",
                    _("this key is the credential of seat {n}, not of seat {asked}", n=seat.index, asked=seat_index),
                )
            if seat.holder == holder:
                return seat.index, False
            if seat.holder is not None and not takeover:
                raise ProtocolError(
                    "seat_held",
                    _(
                        "seat {n} is open in another browser. Take it over only if the seat is yours: "
                        "that browser will be told and let go",
                        n=seat.index,
                    ),
                )
            try:
                await asyncio.to_thread(self.service.store.claim_seat, self.id, seat.index, holder)
            except StoreError as e:
                raise ProtocolError("storage", error_text(e)) from None
            taken = seat.holder is not None
            seat.holder = holder
            others = [c for c in seat.connections if c.holder != holder]
            for c in others:
                error = ProtocolError(
                    "taken_over",
                    _(
                        "seat {n} was taken over from another browser with its invitation link; "
                        "if that was not you, open your link again to take it back",
                        n=seat.index,
                    ),
                )
                c.send(encode(error.frame()))
                c.close("seat taken over")
                seat.connections.discard(c)
                c.seat = None
            if others:
                if not seat.connections:
                    self.sent.pop(seat.index, None)
                    seat.away_since = time.monotonic()
                self.broadcast_table()
                self.schedule()
            return seat.index, taken

    async def sync(self, sub: Subscriber, last_seq: int) -> None:
        """Send ``sub`` what it missed since ``last_seq``."""
        async with self.lock:
            self.catch_up(sub, last_seq)

    async def leave(self, sub: Subscriber) -> None:
        """Forget a closed connection."""
        async with self.lock:
            if sub.seat is None:
                self.spectators.discard(sub)
                if not self.spectators:
                    self.sent.pop(None, None)
                    self.views.forget(None)
                    self.texts.forget(None)
            else:
                seat = self.seats[sub.seat]
                seat.connections.discard(sub)
                if not seat.connections:
                    self.sent.pop(sub.seat, None)
                    if seat.kind == "human":
                        seat.away_since = time.monotonic()
            self.broadcast_table()
            self.schedule()
            self.idle()

    # -- leaving a seat, abandoning the table --------------------------------------------

    def _player(self, sub: Subscriber, refusal: str) -> LiveSeat:
        """The seat of ``sub`` (a player's connection), for a change only a player may ask
        (``refusal``: what a spectator is told)."""
        if sub.seat is None:
            raise ProtocolError("no_credential", refusal)
        return self.seats[sub.seat]

    def _unfinished(self) -> None:
        """Refuse a change that needs a table still being played (``game_over``, ``abandoned``)."""
        if self.status == "abandoned":
            raise ProtocolError("abandoned", _("the table was abandoned: nothing more is played at it"))
        if self.game.is_over or self.status == "deleted":
            raise ProtocolError("game_over", _("the game is over: there is nothing to leave or abandon"))

    async def leave_seat(self, sub: Subscriber) -> None:
        """A player leaves their seat on purpose: a bot plays it at once, the connection watches
        from then on, and the seat stays theirs to take back (``hello`` with it again)."""
        async with self.lock:
            seat = self._player(sub, _("only a player at this table may leave a seat: you are watching"))
            await self._check_log()
            self._unfinished()
            seat.left = True
            seat.connections.discard(sub)
            sub.seat = None
            self.spectators.add(sub)
            if not seat.connections:
                self.sent.pop(seat.index, None)
                seat.away_since = time.monotonic()
            sub.send(encode({"type": "left", "seat": seat.index}))
            self.catch_up(sub, None)
            p = self.proposal
            if p is not None and seat.index in p.asked:  # who leaves does not hold the table back
                p.asked.discard(seat.index)
                if not p.asked:
                    await self._abandon()
                    return
            self.broadcast_table()
            self.schedule()

    async def propose_abandon(self, sub: Subscriber) -> None:
        """A player proposes to abandon the table; the others seated are asked (or, with nobody
        else seated, the table is abandoned at once)."""
        async with self.lock:
            seat = self._player(sub, _("only a player at this table may propose to abandon it: you are watching"))
            await self._check_log()
            self._unfinished()
            if self.proposal is not None:
                raise ProtocolError(
                    "proposed", _("abandoning the table is already proposed: it waits for the others' answers")
                )
            wait = self.refused.get(seat.index, -PROPOSE_AGAIN_AFTER) + PROPOSE_AGAIN_AFTER - time.monotonic()
            if wait > 0:
                raise ProtocolError(
                    "rate_limited",
                    _("your last proposal was refused: propose again in {s} s", s=math.ceil(wait)),
                    retry_after=round(wait, 1),
                )
            asked = {
                s.index for s in self.seats if s.kind == "human" and s.joined and not s.left and s.index != seat.index
            }
            if not asked:
                await self._abandon()
                return
            after = self.service.settings.abandon_after
            p = Proposal(seat.index, asked, {seat.index}, time.monotonic() + after)
            p.timer = asyncio.get_running_loop().call_later(after, lambda: self.service.spawn(self._silence(p)))
            self.proposal = p
            self.broadcast_table()

    async def consent(self, sub: Subscriber, agree: bool) -> None:
        """An asked player's answer: agreeing (the last one abandons the table) or refusing (the
        proposal ends)."""
        async with self.lock:
            seat = self._player(
                sub, _("only a player at this table may answer a proposal to abandon it: you are watching")
            )
            p = self.proposal
            if p is None or seat.index not in p.asked:
                raise ProtocolError("no_proposal", _("no proposal to abandon this table waits for your answer"))
            if not agree:
                self._drop_proposal()
                self.refused[p.by] = time.monotonic()
                self.tell({"type": "abandon_refused", "seat": seat.index})
                self.broadcast_table()
                self.idle()
                return
            p.asked.discard(seat.index)
            p.agreed.add(seat.index)
            if p.asked:
                self.broadcast_table()
            else:
                await self._abandon()

    async def _silence(self, p: Proposal) -> None:
        """Nobody refused in time: the table is abandoned (a failed write tries again later)."""
        async with self.lock:
            if self.proposal is not p:
                return
            try:
                await self._abandon()
            except ProtocolError as e:
                self.service.log(f"table {self.id}: not abandoned yet: {e}")
                retry = self.service.settings.storage_retry
                p.timer = asyncio.get_running_loop().call_later(retry, lambda: self.service.spawn(self._silence(p)))

    def _drop_proposal(self) -> None:
        if self.proposal is not None and self.proposal.timer is not None:
            self.proposal.timer.cancel()
        self.proposal = None

    async def _abandon(self) -> None:
        """Write the status ``abandoned``, then stop the table and tell everyone (lock held)."""
        try:
            await asyncio.to_thread(self.service.store.set_status, self.id, "abandoned", time.time())
        except StoreError as e:
            self.unsure = True
            raise ProtocolError("storage", error_text(e)) from None
        self._drop_proposal()
        self.status = "abandoned"
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.broadcast_table()
        for hook in self.service.on_abandon:
            hook(self)
        self.idle()

    # -- acting ------------------------------------------------------------------------

    async def act(self, sub: Subscriber, ref: str, seq: int, intent: Mapping[str, Any]) -> None:
        """A seat's intent: checked by the core, committed, acknowledged, broadcast; or a typed error."""
        started = time.perf_counter()
        async with self.lock:
            if sub.seat is None:
                raise ProtocolError(
                    "no_credential", _("spectators cannot act: open the seat's invitation link to play"), ref
                )
            if self.status == "deleted":
                raise ProtocolError("unknown_table", _("the table's owner deleted it"), ref)
            await self._check_log(ref)
            if self.status == "abandoned":
                raise ProtocolError("abandoned", _("the table was abandoned: nothing more is played at it"), ref)
            done = self.recent.get(ref)
            if done is not None and done[0] == sub.seat:
                sub.send(encode({"type": "ack", "ack": ref, "seq": done[1], "duplicate": True}))
                return
            if self.status == "open":
                waiting = [str(s.index) for s in self.seats if s.kind == "human" and not s.joined]
                raise ProtocolError(
                    "not_started", _("the table waits for seat(s) {seats} to join", seats=", ".join(waiting)), ref
                )
            if seq != self.seq:
                code = "stale" if seq < self.seq else "bad_seq"
                raise ProtocolError(
                    code,
                    _(
                        "the game moved on before this action arrived (made at step {seq}, the table is at "
                        "step {now}): here is the table as it is now",
                        seq=seq,
                        now=self.seq,
                    ),
                    ref,
                )
            try:
                action = action_from_json(intent)
            except ActionNotationError as e:
                raise ProtocolError("bad_action", str(e), ref) from None
            await self._commit(sub.seat, action, ref, "human", sub)
        for timing in self.service.timings:
            timing("action", time.perf_counter() - started)

    async def _commit(self, seat: int, action: Any, ref: str | None, actor: str, sub: Subscriber | None) -> None:
        """Check the action without changing the game, write it, and only then apply it (lock held).

        A failed write leaves the table exactly as it was and answers ``storage``. The game stays
        one object for the table's life, so the views' caches of it (``barbu.view``) stay warm.
        """
        try:
            ends = self.game.check(action, seat)
        except OutOfTurn as e:
            raise ProtocolError("not_your_turn", error_text(e), ref, e.kind) from None
        except IllegalAction as e:
            code = "game_over" if e.kind == "game" else "illegal"
            raise ProtocolError(code, error_text(e), ref, e.kind) from None
        seq = self.seq + 1
        row = ActionRow(self.id, seq, seat, action_to_json(action), ref, actor)
        statuses: list[Status] = []
        if ends:
            statuses.append((self.id, "finished", time.time()))
        try:
            await self.service.journal.write([row], statuses)
        except StoreError as e:
            self.unsure = True
            raise ProtocolError("storage", error_text(e), ref) from None
        self.game.apply(action, seat)
        self.seq = seq
        if self.game.is_over:
            self.status = "finished"
        if ref is not None:
            self.recent[ref] = (seat, seq)
            if len(self.recent) > 256:
                self.recent.popitem(last=False)
        self.broadcast(sub if ref is not None else None, ref)
        if self.game.is_over:
            self.broadcast_table()
            for hook in self.service.on_finish:
                hook(self)
        self.schedule()

    async def recover(self) -> None:
        """After an unexpected failure: rebuild the game from the log and resend everyone the state.

        With the database unreachable, the table stays as it is and reads its log before the next change.
        """
        async with self.lock:
            try:
                stored = await asyncio.to_thread(self.service.store.load_table, self.id)
            except StoreError as e:
                self.unsure = True
                self.service.log(f"table {self.id}: not reloaded: {e}")
                return
            if stored is None:  # pragma: no cover - tables are never deleted
                return
            self.unsure = False
            self._from_log(stored)
            self.resend()
            self.schedule()

    # -- bots --------------------------------------------------------------------------

    def automatic(self, seat: int) -> str | None:
        """The bot level that plays ``seat`` now, or None when a person does."""
        s = self.seats[seat]
        if s.kind == "bot":
            return s.bot_level
        if self.stand_in(s):
            return self.service.stand_in_level
        return None

    def schedule(self, retry: bool = False) -> None:
        """Arrange the next automatic move, if a bot (or a stand-in) is to act (``retry``: after a failed write)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.status != "playing" or self.game.is_over or not self.connected():
            return
        seat = self.game.to_act
        if seat is None:
            return
        s = self.seats[seat]
        delay = self.service.settings.bot_delay
        if retry:
            delay = max(delay, self.service.settings.storage_retry)
        if s.kind == "human" and not s.left:
            if s.connections or s.away_since is None:
                return
            waited = time.monotonic() - s.away_since
            delay = max(delay, self.service.settings.takeover_after - waited)
        expected = self.seq
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay, lambda: self.service.spawn(self._bot_move(expected)))

    async def _bot_move(self, expected: int) -> None:
        async with self.lock:
            try:
                await self._check_log()
            except ProtocolError:
                self.schedule(retry=True)
                return
            seat = self.game.to_act
            if self.seq != expected or seat is None or self.status != "playing":
                return
            level = self.automatic(seat)
            if level is None:
                self.schedule()
                return
            bot = make_bot(
                level, seed=bot_seed(self.row.seed, self.seq), **self.service.settings.bot_budgets.get(level, {})
            )
            view = seat_view(self.game, seat)
            started = time.perf_counter()
            action = await asyncio.to_thread(bot.act, view) if level != "random" else bot.act(view)
            for timing in self.service.timings:
                timing("bot", time.perf_counter() - started)
            try:
                await self._commit(seat, action, None, "bot", None)
            except ProtocolError as e:
                if e.code == "storage":  # not recorded, so it did not happen: try again later
                    self.schedule(retry=True)
                    return
                self.service.log(f"table {self.id}: bot at seat {seat} failed: {e}")  # a bug; the table is unchanged
            if self.seats[seat].kind == "human":
                self.broadcast_table()

    # -- memory ------------------------------------------------------------------------

    def idle(self) -> None:
        """With nobody connected, leave memory after a while (everything is in the store)."""
        if self.connected():
            return
        self._cancel_unload()
        loop = asyncio.get_running_loop()
        self._unload = loop.call_later(self.service.settings.idle_unload_after, self.service.unload, self.id)

    def _cancel_unload(self) -> None:
        if self._unload is not None:
            self._unload.cancel()
            self._unload = None

    def close(self) -> None:
        """Stop the timers (the table leaves memory)."""
        self._cancel_unload()
        self._drop_proposal()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _connected(table: LiveTable) -> set[int]:
    return {s.index for s in table.seats if s.connections}


async def watch_loop_lag(every: float, report: Callable[[float], None]) -> None:
    """Every ``every`` seconds, ``report`` how much later than asked a sleep on the running event
    loop ended: the time whatever runs on the loop makes every other task wait (runs until
    cancelled). The server's ``barbu_loop_lag_seconds``, and ``benchmarks/bench_server.py``'s
    client bots' own lag."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + every
        await asyncio.sleep(every)
        report(max(0.0, loop.time() - asked))


class TableService:
    """Every live table of the server, loaded on demand from the store."""

    def __init__(self, store: Store, settings: Settings | None = None, log: Callable[[str], None] = print) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.journal = Journal(store, gather=self.settings.commit_gather)
        self.live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._reads: dict[str, asyncio.Future[tuple[StoredTable | None, dict[int, str]]]] = {}
        """Tables waiting for the next batched read of the store (:meth:`_read`)."""
        self._reader: asyncio.Future[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.log = log
        self.on_finish: list[Callable[[LiveTable], None]] = []
        """Called once when a game of a live table ends (after its last action is committed)."""
        self.on_abandon: list[Callable[[LiveTable], None]] = []
        """Called once when a live table is abandoned (after its status is written)."""
        self.timings: list[Callable[[str, float], None]] = []
        """Called with ``("action", seconds)`` per person's action, ``("bot", seconds)`` per bot's
        choice and ``("lag", seconds)`` per look at the event loop's lag (``Settings.lag_every``)."""
        level = self.settings.takeover_level
        self.stand_in_level = level if bot_level(level) is not None else "random"
        self.before_load: Callable[[str], Awaitable[None]] | None = None
        """Awaited before a table is loaded (several processes: it takes the table's lease, or refuses)."""
        self.online_elsewhere: Callable[[list[str]], Awaitable[dict[str, set[int]]]] | None = None
        """The seats with a connection at tables other processes serve (several processes), by table."""

    def online_here(self) -> dict[str, set[int]]:
        """The seats with a connection (here or relayed from another process) at each live table."""
        return {t.id: _connected(t) for t in self.live.values()}

    async def online(self, table_ids: list[str]) -> dict[str, set[int]]:
        """The seats with a connection at each of ``table_ids`` (absent: none), wherever it is served."""
        out = {t: _connected(live) for t in table_ids if (live := self.live.get(t)) is not None}
        elsewhere = [t for t in table_ids if t not in out]
        if elsewhere and self.online_elsewhere is not None:
            out.update(await self.online_elsewhere(elsewhere))
        return out

    async def start(self) -> None:
        """Start writing, checkpointing the log every ``checkpoint_every`` seconds and looking at
        the loop's lag every ``lag_every`` seconds."""
        self.journal.start()
        self.spawn(self._checkpoints())
        if self.settings.lag_every > 0:
            self.spawn(self._loop_lag())

    async def _loop_lag(self) -> None:
        """Report the loop's lag to :attr:`timings` every ``lag_every`` seconds."""

        def report(lag: float) -> None:
            for timing in self.timings:
                timing("lag", lag)

        await watch_loop_lag(self.settings.lag_every, report)

    async def _checkpoints(self) -> None:
        while True:
            await asyncio.sleep(self.settings.checkpoint_every)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except Exception as e:  # a busy database: the next round will do it
                self.log(f"checkpoint skipped: {e}")

    async def stop(self) -> None:
        """Stop the bots, finish the writes."""
        for t in self.live.values():
            t.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.journal.stop()

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run a coroutine in the background, keeping a reference until it ends (:meth:`stop` cancels it)."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- tables ------------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable:
        """The live table (loaded from the store if needed); ``unknown_table`` if there is none."""
        table = self.live.get(table_id)
        if table is not None:
            return table
        check_table_id(table_id)
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                if self.before_load is not None:
                    await self.before_load(table_id)
                try:
                    stored, holders = await self._read(table_id)
                except StoreError as e:
                    raise ProtocolError("storage", error_text(e)) from None
                # the replay of a long game takes tens of milliseconds: not on the event loop
                table = await asyncio.to_thread(LiveTable, self, stored, holders) if stored is not None else None
                if table is not None:
                    self.live[table_id] = table
                    table.idle()
                pending.set_result(table)
            except BaseException as e:
                pending.set_exception(e)
                raise
            finally:
                del self._loading[table_id]
        found = await pending
        if found is None:
            raise ProtocolError("unknown_table", _("there is no table {table}: check the link", table=repr(table_id)))
        return found

    async def _read(self, table_id: str) -> tuple[StoredTable | None, dict[int, str]]:
        """A table's rows and seat holders from the store, read together with those of the other
        tables asked for meanwhile (a process taking over hundreds of tables reads them in a few
        queries, not four per table)."""
        future: asyncio.Future[tuple[StoredTable | None, dict[int, str]]] = asyncio.get_running_loop().create_future()
        self._reads[table_id] = future
        if self._reader is None or self._reader.done():
            self._reader = self.spawn(self._read_batches())
        return await future

    async def _read_batches(self) -> None:
        """Answer :meth:`_read`: every table asked for since the last read, in one read (at most
        :data:`READ_BATCH` tables each), until none is waiting. When a read of several tables
        fails for something else than the database being unusable (a damaged log, an id it
        cannot take), each is read again alone: only the tables at fault fail."""
        batch: dict[str, asyncio.Future[tuple[StoredTable | None, dict[int, str]]]] = {}
        try:
            while self._reads:
                await asyncio.sleep(0)  # the other tables asked for on this turn of the loop join the batch
                ids = list(itertools.islice(self._reads, READ_BATCH))
                batch = {t: self._reads.pop(t) for t in ids}
                try:
                    found, holders = await asyncio.to_thread(self.store.load_tables, ids)
                except Exception as e:
                    if len(ids) == 1 or (isinstance(e, StoreError) and not e.refused):
                        # the database itself (each table's loader answers it in its own words)
                        for future in batch.values():
                            if not future.done():
                                future.set_exception(e)
                    else:
                        for t, answer in zip(ids, await asyncio.to_thread(self._read_alone, ids), strict=True):
                            future = batch[t]
                            if future.done():
                                continue
                            if isinstance(answer, Exception):
                                future.set_exception(answer)
                            else:
                                future.set_result(answer)
                    batch = {}
                    continue
                for t, future in batch.items():
                    if not future.done():
                        future.set_result((found.get(t), holders.get(t, {})))
                batch = {}
        except asyncio.CancelledError:  # stopping: nobody will answer the tables still waiting
            for future in [*batch.values(), *self._reads.values()]:
                future.cancel()
            self._reads.clear()
            raise
        finally:
            if self._reads:  # left by an error no table caused: the next reader answers them
                self._reader = self.spawn(self._read_batches())

    def _read_alone(self, ids: list[str]) -> list[tuple[StoredTable | None, dict[int, str]] | Exception]:
        """Each table of ``ids`` read by itself, or the error reading it (in a worker thread)."""
        out: list[tuple[StoredTable | None, dict[int, str]] | Exception] = []
        for t in ids:
            try:
                found, holders = self.store.load_tables([t])
                out.append((found.get(t), holders.get(t, {})))
            except Exception as e:
                out.append(e)
        return out

    def unload(self, table_id: str) -> None:
        """Drop an idle table from memory (it is all in the store)."""
        table = self.live.get(table_id)
        if table is not None and not table.connected() and not table.lock.locked() and table.proposal is None:
            table.close()
            del self.live[table_id]

    async def record(self, table_id: str) -> dict[str, Any]:
        """The ``barbu-record/1`` of a finished game (the hands are in it, so only once it is over)."""
        table = await self.get(table_id)
        async with table.lock:
            if not table.game.is_over:
                raise ProtocolError(
                    "not_finished", _("the record holds every hand, so it is given once the game is over")
                )
            return game_to_record(table.game, table.players())

    async def review(self, table_id: str) -> dict[str, Any]:
        """Every finished deal with its calls, tricks, domino order and settlement pair by pair
        (``summary_json(..., detail=True)``), for browsing the game once it is over: only what
        the table showed as it was played, never an unplayed card."""
        table = await self.get(table_id)
        async with table.lock:
            if not table.game.is_over:
                raise ProtocolError("not_finished", _("the game's review is given once the game is over"))
            view = seat_view(table.game, None)
            return {"table": table.id, "deals": [summary_json(h, detail=True) for h in view.history]}


__all__ = [
    "CATCH_UP_LIMIT",
    "PROPOSE_AGAIN_AFTER",
    "LiveSeat",
    "LiveTable",
    "Proposal",
    "Settings",
    "Subscriber",
    "TableService",
    "bot_seed",
    "credential_hash",
    "replay",
]
