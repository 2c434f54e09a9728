"""The coach on the web: the analysis board's routes and the table's hint.

- ``GET /analysis`` the analysis board (``?table=ID`` for a finished game of the server);
- ``POST /api/analysis`` with ``{"table": ID}`` (a finished game: anyone may see its record,
  so anyone may have it analysed; a game in progress never) or ``{"record": {...}}`` (an
  uploaded ``barbu-record/1``, at most :data:`RECORD_BYTES`): the record with its
  ``analysis`` (docs/coach.md) and the ``board``, every position with all hands;
- ``GET /api/tables/{table}/hint``: whether this browser may ask for a hint at the table;
  ``POST /api/tables/{table}/hint``: the advisor's values of the legal actions of the seat
  this browser holds, from that seat's view only, when it is its turn. At a table where
  every other seat is a bot, or where every person agreed (the ``hints`` message of the
  table protocol, docs/server.md).

Both cost CPU, so each address has a budget (:data:`ANALYSES_PER_MINUTE`,
:data:`HINTS_PER_MINUTE`), at most :data:`CONCURRENT_ANALYSES` analyses run at once (a
further one is refused, not queued) and at most :data:`HINTS_WAITING` hints wait. The work
runs in worker processes (:class:`CoachWorkers`: :data:`CONCURRENT_ANALYSES` for analyses,
one for hints, started on first use), so that neither the event loop nor the tables' bots
share a core's interpreter with it.

>>> WEB_SETTINGS.iterations, WEB_SETTINGS.exact_tricks
(8, 3)
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse

from barbu import seat_view
from barbu.coach import AnalysisError, Settings, advise_view, analyse
from barbu.coach.analysis import replay_record
from barbu.coach.board import board
from barbu.errors import BarbuError
from barbu.language import _, error_text
from barbu.server.bodies import BodyError, read_json
from barbu.server.credentials import browser_holder
from barbu.server.limits import Budgets
from barbu.server.protocol import ProtocolError
from barbu.server.tables import TableService

STATIC = Path(__file__).parent / "static"
RECORD_BYTES = 1024 * 1024
"""The largest record accepted for analysis (a whole 28-deal game is about 40 KiB)."""
WEB_SETTINGS = Settings(iterations=8, exact_tricks=3, seed=0)
"""The board's setting: 8 worlds a decision (the command's default is 24), cards solved exactly from 3 tricks left."""
ANALYSES_PER_MINUTE = 4.0
"""Analyses one address may start a minute, on average."""
ANALYSIS_BURST = 4.0
"""Analyses one address may start one after the other."""
HINTS_PER_MINUTE = 30.0
"""Hint requests (refused ones included) one address may make a minute; up to a third of them at once."""
CONCURRENT_ANALYSES = 1
"""Analyses running at once on the server; one more is refused (503), not queued."""
HINT_ITERATIONS = 12
"""Worlds the advisor samples for a hint."""
HINTS_WAITING = 8
"""Hints asked and not yet answered, server-wide; one more is refused (503)."""

T = TypeVar("T")


class CoachWorkers:
    """The worker processes of the coach: a pool of :data:`CONCURRENT_ANALYSES` processes for
    analyses and one process for hints, each started when first needed (spawned: a fresh
    interpreter, nothing of the server's state or threads copied) and ended by :meth:`stop`.

    A pool whose process died (killed, out of memory) is replaced at the next request; the
    request that met the death is answered as busy.

    >>> import asyncio
    >>> workers = CoachWorkers()
    >>> asyncio.run(workers.run("hints", sum, [1, 2, 3]))
    6
    >>> workers.stop()
    """

    def __init__(self) -> None:
        self._pools: dict[str, ProcessPoolExecutor] = {}
        self.sizes = {"analyses": CONCURRENT_ANALYSES, "hints": 1}
        """Worker processes of each kind."""

    def _pool(self, kind: str) -> Executor:
        pool = self._pools.get(kind)
        if pool is None:
            context = multiprocessing.get_context("spawn")
            pool = self._pools[kind] = ProcessPoolExecutor(max_workers=self.sizes[kind], mp_context=context)
        return pool

    async def run(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process of ``kind`` (``analyses`` or ``hints``)."""
        pool = self._pool(kind)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if self._pools.get(kind) is pool:
                del self._pools[kind]
            raise

    def stop(self) -> None:
        """End the worker processes now (work in progress is dropped)."""
        for pool in self._pools.values():
            processes = list(getattr(pool, "_processes", {}).values())  # the standard pool has no terminate
            pool.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                p.terminate()
        self._pools.clear()


STATUS = {
    "bad_request": 400,
    "bad_record": 400,
    "too_large": 413,
    "unknown_table": 404,
    "not_finished": 409,
    "not_your_turn": 409,
    "humans_at_table": 403,
    "bad_credential": 403,
    "rate_limited": 429,
    "busy": 503,
    "storage": 503,
}


class Refused(BarbuError):
    """A hint refused: its code (a key of :data:`STATUS`) and the message for the person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _refuse(code: str, message: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=STATUS.get(code, 400), headers=headers)


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def add_coach_routes(app: FastAPI, service: TableService) -> CoachWorkers:
    """Add the analysis board's page and routes and the hint routes to ``app``; the workers
    they run on (stop them when the app stops)."""
    analyses = Budgets(ANALYSES_PER_MINUTE / 60, ANALYSIS_BURST)
    hints = Budgets(HINTS_PER_MINUTE / 60, HINTS_PER_MINUTE / 3)
    running = {"analyses": 0, "hints": 0}
    workers = CoachWorkers()

    @app.get("/analysis", include_in_schema=False)
    async def analysis_page() -> FileResponse:
        return FileResponse(STATIC / "analysis.html")

    @app.post("/api/analysis")
    async def api_analysis(request: Request) -> Any:
        try:
            spec = await read_json(request, RECORD_BYTES)
        except BodyError as e:
            return _refuse(
                e.code if e.code == "too_large" else "bad_request", _("the analysis request: {why}", why=e.message)
            )
        if not isinstance(spec, dict) or ("table" in spec) == ("record" in spec):
            return _refuse(
                "bad_request", _('send {"table": ID} for a finished game, or {"record": {...}} for a record')
            )
        if "table" in spec:
            if not isinstance(spec["table"], str) or len(spec["table"]) > 100:
                return _refuse("bad_request", _("table must be the id of a table"))
            try:
                doc = await service.record(spec["table"])
            except ProtocolError as e:
                return _refuse(e.code, e.message)
        else:
            doc = spec["record"]
            if not isinstance(doc, dict):
                return _refuse("bad_record", _("record must be a barbu-record/1 object"))
        try:  # a record that does not replay is refused before it costs the address anything
            await asyncio.to_thread(replay_record, doc)
        except AnalysisError as e:
            return _refuse("bad_record", _("the record cannot be analysed: {why}", why=error_text(e)))
        bucket = analyses.bucket(_address(request))
        if not bucket.take():
            wait = bucket.retry_after()
            return _refuse("rate_limited", _("too many analyses from this address: wait {n} s", n=round(wait)), wait)
        if running["analyses"] >= CONCURRENT_ANALYSES:
            return _refuse("busy", _("the server is analysing another game: try again in a minute"), 30)
        running["analyses"] += 1
        try:
            started = time.monotonic()
            out = await workers.run("analyses", _analyse, doc)
        except AnalysisError as e:
            return _refuse("bad_record", _("the record cannot be analysed: {why}", why=error_text(e)))
        except BrokenProcessPool:
            return _refuse("busy", _("the server is analysing another game: try again in a minute"), 30)
        finally:
            running["analyses"] -= 1
        out["seconds"] = round(time.monotonic() - started, 2)
        return out

    async def _held_seat(table_id: str, request: Request) -> tuple[Any, int]:
        """The live table and the seat this browser holds there, or :class:`Refused`."""
        try:
            table = await service.get(table_id)
        except ProtocolError as e:
            raise Refused(e.code, e.message) from None
        holder = browser_holder(dict(request.cookies))
        mine = [s for s in table.seats if holder is not None and s.holder == holder]
        if not mine:
            raise Refused("bad_credential", _("this browser holds no seat at this table"))
        if len(mine) != 1 or not table.hints_on():
            raise Refused(
                "humans_at_table",
                _("hints are given at a table with other people only once every person agreed"),
            )
        return table, mine[0].index

    @app.get("/api/tables/{table_id}/hint")
    async def api_hint_allowed(table_id: str, request: Request) -> Any:
        try:
            await _held_seat(table_id, request)
        except Refused as e:
            return {"available": False, "code": e.code, "message": e.message}
        return {"available": True}

    @app.post("/api/tables/{table_id}/hint")
    async def api_hint(table_id: str, request: Request) -> Any:
        bucket = hints.bucket(_address(request))
        if not bucket.take():
            wait = bucket.retry_after()
            return _refuse("rate_limited", _("too many hints from this address: wait {n} s", n=round(wait)), wait)
        try:
            table, seat = await _held_seat(table_id, request)
        except Refused as e:
            return _refuse(e.code, e.message)
        async with table.lock:
            game = table.game
            if game.is_over or game.to_act != seat:
                return _refuse("not_your_turn", _("a hint is given when it is your turn"))
            view = seat_view(game, seat)
            seed = len(game.history)
        if running["hints"] >= HINTS_WAITING:
            return _refuse("busy", _("the server is giving many hints: try again in a moment"), 5)
        running["hints"] += 1
        try:
            return await workers.run("hints", advise_view, view, HINT_ITERATIONS, seed)
        except BrokenProcessPool:
            return _refuse("busy", _("the server is giving many hints: try again in a moment"), 5)
        finally:
            running["hints"] -= 1

    return workers


def _analyse(doc: dict[str, Any]) -> dict[str, Any]:
    out = analyse(doc, WEB_SETTINGS)
    out["board"] = board(doc)
    return out


__all__ = [
    "ANALYSES_PER_MINUTE",
    "CONCURRENT_ANALYSES",
    "HINTS_WAITING",
    "RECORD_BYTES",
    "WEB_SETTINGS",
    "CoachWorkers",
    "add_coach_routes",
]
