"""The quick-game queue: people of similar rating at one table, bots of a comparable level filling it.

A logged-in player joins the queue of a rule set, rated or unrated, saying how long they
will wait for other people (:data:`WAITS`). Every :data:`TICK` seconds the queue looks at its
oldest entry: the others of the same rule set and the same choice whose rating (``mu``) is
within a window that widens the longer the oldest has waited (:func:`window`) are its
candidates, the closest first. As soon as there are enough people for the table, they get it;
once the oldest has waited what they chose, the table is made with the candidates found and the
remaining seats go to bots of the level whose rating in that rule set is closest to the
people's mean. Each player then finds their seat's link in ``GET /api/club/quick``.

>>> window(0.0), window(10.0), window(1000.0)
(3.0, 8.0, 25.0)
>>> closest_level({"random": 18.0, "heuristic": 26.0, "search": 31.0}, 27.5)
'heuristic'
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from barbu.bots import BOT_LEVELS
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
QUICK_LEVELS: tuple[str, ...] = tuple(level for level in ("random", "heuristic", "search") if level in BOT_LEVELS)
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
    table: str | None = None
    link: str | None = None

    def as_json(self, now: float) -> dict[str, Any]:
        """What ``GET /api/club/quick`` says of it."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "rated": self.rated,
            "wait": self.wait,
            "waited": round(now - self.joined, 1),
            "status": "matched" if self.link else "waiting",
        }
        if self.link:
            out["table"] = self.table
            out["link"] = self.link
        return out


class QuickQueue:
    """The queues of every rule set (in memory: a process restart empties them)."""

    def __init__(self, service: TableService, club: ClubStore, clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.club = club
        self.clock = clock
        self.entries: dict[str, Entry] = {}
        self._task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()

    async def join(self, account: Account, variant: object, rated: object, wait: object) -> Entry:
        """Put ``account`` in the queue (again: its previous entry is replaced)."""
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
        async with self.lock:
            entry = Entry(account.id, account.name, variant, rated, float(wait), mu, self.clock())
            self.entries[account.id] = entry
            self._ensure_running()
        return entry

    async def leave(self, account_id: str) -> bool:
        """Take the account out of the queue; False if it was not waiting."""
        async with self.lock:
            entry = self.entries.get(account_id)
            if entry is None or entry.link is not None:
                self.entries.pop(account_id, None)
                return False
            del self.entries[account_id]
            return True

    def status(self, account_id: str) -> dict[str, Any] | None:
        """The account's entry as JSON (a matched entry is given until the player leaves it)."""
        entry = self.entries.get(account_id)
        return entry.as_json(self.clock()) if entry is not None else None

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
        while any(e.link is None for e in self.entries.values()):
            try:
                await self.match()
            except Exception as e:  # a failed table creation (the database): try again next tick
                self.service.log(f"quick game: {e}")
            await asyncio.sleep(TICK)

    async def match(self) -> list[str]:
        """Make every table the queue can make now; returns their ids."""
        made = []
        async with self.lock:
            while True:
                group = self._next_group()
                if group is None:
                    break
                made.append(await self._seat(group))
        return made

    def _next_group(self) -> list[Entry] | None:
        now = self.clock()
        waiting = sorted((e for e in self.entries.values() if e.link is None), key=lambda e: e.joined)
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

    async def _seat(self, group: Sequence[Entry]) -> str:
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
        for i, e in enumerate(group):
            e.table = made.id
            e.link = f"/t/{made.id}#seat={i}&key={made.credentials[i]}"
        self.service.log(f"quick game {made.id}: {len(group)} of {players} people, {chosen} bots")
        return made.id


__all__ = ["DEFAULT_MU", "QUICK_LEVELS", "TICK", "WAITS", "Entry", "QuickQueue", "closest_level", "window"]
