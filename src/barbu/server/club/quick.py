"""The quick-game queue: people of similar rating at one table, bots of a comparable level filling it.

A logged-in player joins the queue of a rule set, rated or unrated, saying how long they
will wait for other people (:data:`WAITS`). Every :data:`TICK` seconds the queue looks at its
oldest entry: the others of the same rule set and the same choice whose rating (``mu``) is
within a window that widens the longer the oldest has waited (:func:`window`) are its
candidates, the closest first. As soon as there are enough people for the table, they get it;
once the oldest has waited what they chose, the table is made with the candidates found and the
remaining seats go to bots of the level whose rating in that rule set is closest to the
people's mean. Each player then finds their seat's link in ``GET /api/club/quick``.

The page looks every half second; a waiting entry nobody looked at for :data:`GONE` seconds ends
(the player left). The entries live in a :class:`QueueStore`: this process's memory, or Redis when
several processes serve as one (:mod:`barbu.server.club.shared`), and every process that has a
player waiting or looking runs the matcher. A matcher *claims* a group before it makes the table:
the claim moves every entry of the group from ``waiting`` to ``seating`` at once, and only if each
is still waiting under the token it read, so two matchers never seat one player twice.

>>> window(0.0), window(10.0), window(1000.0)
(3.0, 8.0, 25.0)
>>> closest_level({"random": 18.0, "heuristic": 26.0, "search": 31.0}, 27.5)
'heuristic'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Protocol

from barbu.bots import bot_level
from barbu.errors import OptionsError
from barbu.language import _
from barbu.rulesets import rules
from barbu.server.lobby import create_table
from barbu.server.protocol import ProtocolError
from barbu.server.tables import TableService
from barbu.storage.club import Account, ClubStore

WAITS = (5, 15, 30, 60, 120, 300)
"""The waits (seconds) a player may choose before bots fill the table."""
TICK = 0.25
"""Seconds between two looks at the queue."""
DEFAULT_MU = {"random": 19.0, "heuristic": 25.0, "search": 29.0}
"""A bot level's assumed ``mu`` until it has a rating in the rule set."""
QUICK_LEVELS: tuple[str, ...] = tuple(
    level for level in ("random", "heuristic", "search") if bot_level(level) is not None
)
"""The bot levels that fill quick games."""


def window(waited: float) -> float:
    """How far (in ``mu``) a candidate's rating may be from the oldest entry's after ``waited`` seconds."""
    return min(25.0, 3.0 + 0.5 * waited)


def closest_level(levels: Mapping[str, float], mu: float) -> str:
    """The bot level whose ``mu`` is closest to ``mu`` (the weaker one on a tie)."""
    return min(levels, key=lambda level: (abs(levels[level] - mu), levels[level]))


@dataclass
class Entry:
    """One player waiting in the queue, then holding their seat's link."""

    account: str
    name: str
    variant: str
    rated: bool
    wait: float
    mu: float
    joined: float
    """When the player joined, on the queue's clock (:meth:`QueueStore.now`)."""
    token: str = ""
    """Random, new at each join: a claim on an entry the player has replaced since fails."""
    state: str = "waiting"
    """``waiting``, ``seating`` (claimed by a matcher that is making the table) or ``matched``."""
    seen: float = 0.0
    """When the player last looked (a waiting entry nobody looks at for :data:`GONE` seconds ends)."""
    table: str | None = None
    link: str | None = None

    def as_json(self, now: float) -> dict[str, Any]:
        """What ``GET /api/club/quick`` says of it."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "rated": self.rated,
            "wait": self.wait,
            "waited": round(max(0.0, now - self.joined), 1),
            "status": "matched" if self.link else "waiting",
        }
        if self.link:
            out["table"] = self.table
            out["link"] = self.link
        return out

    def dump(self) -> str:
        """The entry as one JSON text (how a shared store keeps it)."""
        return json.dumps(asdict(self))

    @classmethod
    def load(cls, text: str | bytes) -> Entry:
        """The entry :meth:`dump` wrote."""
        return cls(**json.loads(text))

    def moved(self, state: str, **changes: Any) -> Entry:
        """A copy in ``state``."""
        return replace(self, state=state, **changes)


GONE = 15.0
"""Seconds after which a waiting entry nobody looked at ends: the player closed the page (it
looks every half second) or lost their connection."""
KEPT = 600.0
"""Seconds a matched entry (the seat's link) is kept for the player; their games list keeps it after."""


class QueueStore(Protocol):
    """Where the entries live: this process's memory (:class:`MemoryQueue`), or Redis, shared by the
    processes of a cluster (:class:`barbu.server.club.shared.RedisQueue`).

    Each change of state is all-or-nothing on the entries it names, and applies only to entries
    still in the expected state with the expected tokens: two matchers (two processes) can
    never both claim one player.
    """

    async def now(self) -> float:
        """The queue's clock (seconds; one clock for every process that shares the queue)."""

    async def put(self, entry: Entry) -> None:
        """Add or replace the account's entry (waiting)."""

    async def look(self, account: str, now: float) -> Entry | None:
        """The account's entry; a waiting one counts as seen ``now``."""

    async def entries(self, now: float) -> list[Entry]:
        """Every entry still in the queue (those ended by :data:`GONE` or :data:`KEPT` are dropped)."""

    async def swap(self, expected: str, entries: Sequence[Entry]) -> bool:
        """Replace the stored entries with ``entries`` (same accounts and tokens) if every one of
        them is still stored in state ``expected``; whether it did (all or none)."""

    async def remove(self, account: str) -> Entry | None:
        """Take the account's entry out; the entry as it was, or None."""


class MemoryQueue:
    """The queue in this process's memory (one process: a restart empties it)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.stored: dict[str, Entry] = {}

    async def now(self) -> float:
        """This process's monotonic clock."""
        return self.clock()

    async def put(self, entry: Entry) -> None:
        """Add or replace the account's entry."""
        self.stored[entry.account] = entry

    async def look(self, account: str, now: float) -> Entry | None:
        """The account's entry, seen now if waiting."""
        self._expire(now)
        entry = self.stored.get(account)
        if entry is not None and entry.state == "waiting":
            entry.seen = now
        return entry

    async def entries(self, now: float) -> list[Entry]:
        """The entries still in the queue."""
        self._expire(now)
        return list(self.stored.values())

    async def swap(self, expected: str, entries: Sequence[Entry]) -> bool:
        """Replace the entries if all are still stored in state ``expected`` with the same token."""
        for e in entries:
            found = self.stored.get(e.account)
            if found is None or found.token != e.token or found.state != expected:
                return False
        for e in entries:
            self.stored[e.account] = e
        return True

    async def remove(self, account: str) -> Entry | None:
        """Take the entry out."""
        return self.stored.pop(account, None)

    def _expire(self, now: float) -> None:
        for account, e in list(self.stored.items()):
            if now - e.seen > (KEPT if e.state == "matched" else GONE):
                del self.stored[account]


class QuickQueue:
    """The queues of every rule set, in a :class:`QueueStore` (memory, or Redis for a cluster)."""

    def __init__(self, service: TableService, club: ClubStore, store: QueueStore | None = None) -> None:
        self.service = service
        self.club = club
        self.store: QueueStore = store if store is not None else MemoryQueue()
        self._task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        """One matcher at a time in this process (between processes, :meth:`QueueStore.swap` decides)."""

    async def join(self, account: Account, variant: object, rated: object, wait: object) -> dict[str, Any]:
        """Put ``account`` in the queue (again: its previous entry is replaced); the entry as JSON."""
        if not isinstance(variant, str):
            raise ProtocolError("bad_request", _('"variant" must name a rule set (see /api/rules)'))
        try:
            players = rules(variant, {}).players
        except OptionsError:  # an unknown rule set: say where they are listed
            raise ProtocolError(
                "bad_request", _("unknown rule set {name}: see /api/rules", name=repr(variant))
            ) from None
        if players < 2:
            raise ProtocolError("bad_request", _("{name} is not played at a table", name=variant))
        if not isinstance(rated, bool):
            raise ProtocolError("bad_request", _('"rated" must be true or false'))
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 <= wait <= max(WAITS):
            raise ProtocolError("bad_request", _('"wait" must be a number of seconds from 0 to {n}', n=max(WAITS)))
        known = await asyncio.to_thread(self.club.ratings_of, variant, [f"a:{account.id}"])
        mu = known[f"a:{account.id}"].mu if known else 25.0
        now = await self.store.now()
        entry = Entry(account.id, account.name, variant, rated, float(wait), mu, now, secrets.token_hex(8), seen=now)
        await self.store.put(entry)
        self._ensure_running()
        return entry.as_json(now)

    async def leave(self, account_id: str) -> bool:
        """Take the account out of the queue; False if it was not waiting."""
        entry = await self.store.remove(account_id)
        return entry is not None and entry.state == "waiting"

    async def status(self, account_id: str) -> dict[str, Any] | None:
        """The account's entry as JSON (a matched entry is given until the player leaves it); looking
        keeps a waiting entry in the queue."""
        now = await self.store.now()
        entry = await self.store.look(account_id, now)
        if entry is not None and entry.state != "matched":
            self._ensure_running()  # the player looks here: this process matches too
        return entry.as_json(now) if entry is not None else None

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop looking at the queue."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                if await self.match() is None:
                    return  # nobody waits any more
            except Exception as e:  # a failed table creation (the database), the shared store: try again next tick
                self.service.log(f"quick game: {e}")
            await asyncio.sleep(TICK)

    async def match(self) -> list[str] | None:
        """Make every table the queue can make now; their ids (None: nobody waits)."""
        made: list[str] = []
        async with self.lock:
            while True:
                now = await self.store.now()
                waiting = [e for e in await self.store.entries(now) if e.state == "waiting"]
                if not waiting:
                    return made or None
                group = next_group(waiting, now)
                if group is None:
                    return made
                if not await self.store.swap("waiting", [e.moved("seating", seen=now) for e in group]):
                    return made  # another process claimed one of them, or a player left: look again next tick
                made.append(await self._seat(group))

    async def _seat(self, group: Sequence[Entry]) -> str:
        """Make the table of a claimed group; if that fails, the group waits again."""
        try:
            table_id, links = await self._make_table(group)
        except BaseException:
            for e in group:
                with contextlib.suppress(Exception):
                    await self.store.swap("seating", [e.moved("waiting")])
            raise
        now = await self.store.now()
        for e, link in zip(group, links, strict=True):  # one by one: a player who left meanwhile keeps nobody out
            await self.store.swap("seating", [e.moved("matched", seen=now, table=table_id, link=link)])
        return table_id

    async def _make_table(self, group: Sequence[Entry]) -> tuple[str, list[str]]:
        variant = group[0].variant
        players = rules(variant, {}).players
        levels: dict[str, float] = dict(DEFAULT_MU)
        known = await asyncio.to_thread(self.club.ratings_of, variant, [f"bot:{lv}" for lv in QUICK_LEVELS])
        for level in QUICK_LEVELS:
            r = known.get(f"bot:{level}")
            if r is not None:
                levels[level] = r.mu
        levels = {lv: mu for lv, mu in levels.items() if lv in QUICK_LEVELS}
        chosen = closest_level(levels, sum(e.mu for e in group) / len(group))
        seats: list[dict[str, Any]] = [{"kind": "human", "name": e.name} for e in group]
        seats += [{"kind": "bot", "level": chosen}] * (players - len(group))
        made = await create_table(self.service, {"variant": variant, "seats": seats}, f"quick:{group[0].account}")
        seated: dict[int, tuple[str, str | None]] = {i: (e.account, made.credentials[i]) for i, e in enumerate(group)}
        await asyncio.to_thread(self.club.mark_table, made.id, group[0].rated, True, seated)
        self.service.log(f"quick game {made.id}: {len(group)} of {players} people, {chosen} bots")
        return made.id, [f"/t/{made.id}#seat={i}&key={made.credentials[i]}" for i in range(len(group))]


def next_group(waiting: Sequence[Entry], now: float) -> list[Entry] | None:
    """The next table the waiting entries make now, oldest first, or None.

    For each entry from the oldest: the others of its rule set and choice (rated or not) whose
    ``mu`` is within reach (:func:`window`) are its candidates, closest first; the group is made
    once it fills the table, or once the oldest has waited what it chose.
    """
    waiting = sorted(waiting, key=lambda e: e.joined)
    for oldest in waiting:
        players = rules(oldest.variant, {}).players
        reach = window(now - oldest.joined)
        others = [
            e
            for e in waiting
            if e is not oldest
            and e.variant == oldest.variant
            and e.rated == oldest.rated
            and abs(e.mu - oldest.mu) <= max(reach, window(now - e.joined))
        ]
        others.sort(key=lambda e: (abs(e.mu - oldest.mu), e.joined))
        group = [oldest, *others[: players - 1]]
        if len(group) == players or now - oldest.joined >= oldest.wait:
            return group
    return None


__all__ = [
    "DEFAULT_MU",
    "GONE",
    "KEPT",
    "QUICK_LEVELS",
    "TICK",
    "WAITS",
    "Entry",
    "MemoryQueue",
    "QueueStore",
    "QuickQueue",
    "closest_level",
    "next_group",
    "window",
]
