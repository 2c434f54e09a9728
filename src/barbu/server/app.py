"""The web app: the lobby's HTTP API, the table WebSocket and the browser pages.

:func:`create_app` builds a FastAPI application around a :class:`~barbu.storage.Store`
(migrated on start) and a :class:`~barbu.server.tables.TableService`.

HTTP:

- ``GET /`` the lobby page; ``GET /t/{table}`` the table page (the seat's credential rides
  in the link's fragment, which browsers never send in a request, and the page trades it
  for a cookie: :mod:`barbu.server.credentials`);
- ``GET /api/rules`` rule sets with their flags, ``GET /api/bots`` bot levels
  (``/api/bots/levels`` with each described), ``GET /api/errors`` the protocol's error codes;
- ``GET /rules`` and ``GET /rules/{variant}`` the rules pages, from ``GET /api/rulebook`` (how to
  play) and ``GET /api/rulebook/{variant}?players=N`` (:mod:`barbu.server.rulebook`);
- ``GET /api/i18n`` the page's catalogue (``?lang=fr`` or the browser's language:
  :mod:`barbu.server.speaking`, docs/i18n.md);
- ``POST /api/tables`` create a table, ``GET /api/tables?status=open|playing|finished``;
  ``GET /api/my-tables`` this browser's tables (its seats, the ones it created);
  ``POST /api/tables/{table}/rematch`` a finished table's player starts the same table again;
- ``POST /api/tables/{table}/claim`` a browser takes a seat by its key,
  ``GET /api/tables/{table}/invitations`` the creator's unclaimed invitations;
- ``GET /api/tables/{table}/record`` the game as ``barbu-record/1``, once it is over;
- ``GET /api/tables/{table}/review`` every deal's calls, tricks and settlement, once it is over;
- ``DELETE /api/tables/{table}`` the browser that created the table deletes it, while its game
  is not over (:mod:`barbu.server.owners`);
- ``GET /analysis``, ``POST /api/analysis`` and ``/api/tables/{table}/hint``: the coach
  (:mod:`barbu.server.coaching`);
- ``GET /sheets`` and ``GET /sheets/{sheet}`` the score sheet's pages, ``/api/sheets/…`` its
  JSON API (:mod:`barbu.server.sheets`).

WebSocket ``/ws``: the protocol of :mod:`barbu.server.protocol`, within the budgets of
:mod:`barbu.server.limits` (HTTP bodies too are limited there, while they stream).

Every state-changing request and every WebSocket handshake passes the origin check of
:mod:`barbu.server.origin` first.

>>> app = create_app("sqlite://")
>>> paths = {r.path for r in app.routes}
>>> {"/api/bots", "/api/errors", "/api/rules", "/api/analysis"} <= paths
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from barbu.bots import bot_levels, offered_levels
from barbu.language import _, catalogue, supported
from barbu.rulesets import RULE_SETS
from barbu.server.bodies import BodyError, read_json
from barbu.server.club import add_club_routes
from barbu.server.coaching import add_coach_routes
from barbu.server.credentials import (
    add_credential_routes,
    browser_holder,
    ensure_browser,
    holder_of,
    set_browser_cookie,
)
from barbu.server.frames import writer
from barbu.server.headers import SecurityHeaders
from barbu.server.heap import CollectorPauses, set_aside_startup_objects
from barbu.server.limits import BodyLimit, ConnectionBudget, Guard, Limits, RateLimited
from barbu.server.lobby import create_table, list_tables, my_tables, rematch, rule_sets
from barbu.server.origin import OriginGuard
from barbu.server.owners import delete_table
from barbu.server.protocol import ERROR_CODES, ProtocolError, encode, parse_message
from barbu.server.rulebook import first_game, rulebook
from barbu.server.sheets import add_sheet_routes
from barbu.server.speaking import Speaking, request_language
from barbu.server.tables import LiveTable, Settings, TableService
from barbu.storage import Store

if TYPE_CHECKING:
    from barbu.server.cluster import Cluster, ClusterSettings, ClusterTable

log = logging.getLogger("barbu.server")
STATIC = Path(__file__).parent / "static"

_STATUS = {
    "unknown_table": 404,
    "not_finished": 409,
    "in_play": 409,
    "not_creator": 403,
    "table_limit": 429,
    "too_large": 413,
    "bad_credential": 403,
    "seat_held": 409,
    "storage": 503,
}


def _error(e: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": {"code": e.code, "message": e.message}}, status_code=_STATUS.get(e.code, 400))


_EXPECTED = {"int_parsing": "a whole number", "int_from_float": "a whole number", "missing": "given"}
"""What a parameter the framework checks must be, by the kind of its refusal."""


def _invalid_parameter(_request: Request, exc: Exception) -> JSONResponse:
    """A query or path parameter of the wrong type, refused in the API's own shape (not the framework's).

    >>> import json
    >>> exc = RequestValidationError([{"type": "int_parsing", "loc": ("query", "limit"), "msg": "…"}])
    >>> json.loads(_invalid_parameter(None, exc).body)["error"]["message"]
    'the query parameter limit must be a whole number'
    """
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    first = errors[0] if errors else {}
    loc = [str(part) for part in first.get("loc", ())]
    where, name = (loc[0], loc[-1]) if len(loc) >= 2 else ("request", "value")
    expected = _EXPECTED.get(str(first.get("type")), "valid")
    message = f"the {where} parameter {name} must be {expected}"
    return JSONResponse({"error": {"code": "bad_request", "kind": "bad_request", "message": message}}, status_code=400)


class Connection:
    """One WebSocket client: a frame goes out at once, or waits in an outbox drained by its own task.

    Served by :class:`~barbu.server.frames.DirectFrames` (``barbu serve``), a frame is written
    to the socket as it is sent, while nothing waits before it and the socket's buffer is under
    its high mark: no task is woken for it. Otherwise (a slow reader, or another ASGI server)
    it waits in the outbox, so a slow reader slows no table. The outbox is bounded
    (``outbox_bytes`` characters, ``outbox_frames`` frames): a client that lets more pile up is
    dropped, closed with a reason, and its frames are forgotten.
    """

    def __init__(self, websocket: WebSocket, limits: Limits, budget: ConnectionBudget) -> None:
        self.websocket = websocket
        self.write_now = writer(websocket.scope)
        self.limits = limits
        self.budget = budget
        self.seat: int | None = None
        self.holder = browser_holder(dict(websocket.cookies))
        self.outbox: deque[str] = deque()
        self.queued_bytes = 0
        """Characters of the frames queued or being sent."""
        self.ready = asyncio.Event()
        self.reason: str | None = None
        """Why the server closes the connection, once it has decided to."""
        self.handler: asyncio.Task[Any] | None = None
        self.pump_task: asyncio.Task[None] | None = None
        self.receiving = False

    def send(self, text: str) -> None:
        """Queue a frame; a client that lets too many pile up is dropped."""
        if self.reason is not None:
            return
        if not self.outbox and self.write_now is not None and self.write_now(text.encode()):
            return  # written: the pump is idle whenever the outbox is empty, so the order holds
        if self.queued_bytes + len(text) > self.limits.outbox_bytes or len(self.outbox) >= self.limits.outbox_frames:
            self.drop("too many unread frames: the client does not read what it is sent")
            return
        self.outbox.append(text)
        self.queued_bytes += len(text)
        self.ready.set()

    def drop(self, reason: str) -> None:
        """Forget the queued frames and end the connection (its handler closes it with ``reason``)."""
        if self.reason is None:
            self.reason = reason
        self.outbox.clear()
        self.queued_bytes = 0
        self.ready.set()
        if self.pump_task is not None:
            self.pump_task.cancel()
        if self.receiving and self.handler is not None:
            self.handler.cancel()

    def close(self, reason: str) -> None:
        """Close the connection after the frames already queued (its handler closes it with ``reason``)."""
        if self.reason is None:
            self.reason = reason
        self.ready.set()
        if self.receiving and self.handler is not None:
            self.handler.cancel()

    async def pump(self) -> None:
        """Send the queued frames in order until the connection ends."""
        while True:
            while not self.outbox:
                if self.reason is not None:  # everything queued went out: the handler may close
                    return
                self.ready.clear()
                await self.ready.wait()
            text = self.outbox[0]
            await self.websocket.send_text(text)
            self.outbox.popleft()
            self.queued_bytes -= len(text)

    async def receive(self) -> dict[str, Any] | None:
        """The next message, or None once the connection is dropped while it waits."""
        self.receiving = True
        try:
            return dict(await self.websocket.receive())
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self.reason is None or task is None:
                raise
            task.uncancel()
            return None
        finally:
            self.receiving = False


_LARGE_BODIES = {"/api/sheets/import", "/api/analysis"}
"""Routes whose body is a whole record, allowed up to ``Limits.import_bytes`` (each checks its own, smaller, limit)."""

_UNREADABLE = {"malformed", "too_large", "unknown_type"}
"""Refusals that count towards closing a connection that keeps sending them."""


def create_app(
    db: str = "sqlite:///barbu.db", settings: Settings | None = None, cluster_settings: ClusterSettings | None = None
) -> FastAPI:
    """The web app on the database at URL ``db``, migrated when the app starts.

    With ``cluster_settings`` the process is one of several sharing the database and a Redis
    server (:mod:`barbu.server.cluster`); without, it serves every table itself.
    """
    settings = settings or Settings()
    store = Store(db)
    service = TableService(store, settings)
    limits = settings.limits
    guard = Guard(limits)
    cluster: Cluster | None = None
    if cluster_settings is not None:
        from barbu.server.cluster import Cluster

        cluster = Cluster(cluster_settings, service)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        await service.start()
        if cluster is not None:
            await cluster.start()
        _app.state.frozen_objects = set_aside_startup_objects()  # full GC passes skip them from now on
        pauses = CollectorPauses(club.metrics.collection)
        pauses.start()
        try:
            yield
        finally:
            pauses.stop()
            await club.stop()
            coach.stop()
            if cluster is not None:
                await cluster.stop()  # no more requests from the other processes
            await service.stop()
            if cluster is not None:
                await cluster.hand_over()  # every write is committed: the others take the tables at once
            store.dispose()

    app = FastAPI(title="barbu", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_exception_handler(RequestValidationError, _invalid_parameter)
    if cluster is not None:
        from barbu.server.cluster import HttpRelay

        app.add_middleware(HttpRelay, cluster=lambda: cluster)
        cluster.app = app
    app.add_middleware(
        BodyLimit,
        limit_for=lambda path: limits.import_bytes if path in _LARGE_BODIES else limits.body_bytes,
    )
    app.add_middleware(OriginGuard, allowed_origins=settings.allowed_origins, allowed_hosts=settings.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Speaking)
    app.state.service = service
    app.state.guard = guard
    app.state.store = store

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_sheet_routes(app, store)
    add_credential_routes(app, service)
    queue = None
    if cluster is not None:  # the quick-game queue is shared by the processes
        from barbu.server.club.shared import RedisQueue

        queue = RedisQueue(cluster.redis, cluster.settings.prefix)
    club = add_club_routes(app, service, store, queue)
    app.state.club = club
    app.state.cluster = cluster
    if cluster is not None:
        cluster.add_metrics(club.metrics.registry)
        club.checks.append(cluster.readiness)
    coach = add_coach_routes(app, service)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_index() -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules_page(variant: str) -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    @app.get("/api/rulebook")
    async def api_first_game() -> dict[str, Any]:
        return first_game()

    @app.get("/api/rulebook/{variant}")
    async def api_rulebook(variant: str, players: int | None = None) -> Any:
        if variant not in RULE_SETS:
            message = _("unknown rule set {name}; rule sets are: {names}", name=variant, names=", ".join(RULE_SETS))
            return JSONResponse({"error": {"code": "unknown_variant", "message": message}}, status_code=404)
        return rulebook(variant, players)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/api/rules")
    async def api_rules() -> list[dict[str, Any]]:
        return rule_sets()

    @app.get("/api/bots")
    async def api_bots() -> list[str]:
        return list(bot_levels())

    @app.get("/api/bots/levels")
    async def api_bot_levels() -> list[dict[str, str]]:
        return [{"name": level, "help": _(words)} for level, words in offered_levels().items()]

    @app.get("/api/i18n")
    async def api_i18n(request: Request, lang: str | None = None) -> JSONResponse:
        chosen = supported(lang) or request_language(list(request.headers.raw))
        return JSONResponse(catalogue(chosen).as_json(), headers={"Vary": "Cookie, Accept-Language"})

    @app.get("/api/errors")
    async def api_errors() -> dict[str, str]:
        return ERROR_CODES

    @app.get("/api/tables")
    async def api_tables(status: str = "open", limit: int = 50) -> Any:
        if status not in ("open", "playing", "finished", "abandoned"):
            return _error(ProtocolError("bad_request", _("status must be open, playing, finished or abandoned")))
        try:
            return await list_tables(service, status, max(1, min(limit, 200)))
        except ProtocolError as e:
            return _error(e)

    @app.post("/api/tables/{table_id}/rematch")
    async def api_rematch(table_id: str, request: Request) -> Any:
        client = request.client.host if request.client else "unknown"
        try:
            return await rematch(service, table_id, client, browser_holder(dict(request.cookies)))
        except ProtocolError as e:
            return _error(e)

    @app.get("/api/my-tables")
    async def api_my_tables(request: Request) -> Any:
        try:
            return await my_tables(service, browser_holder(dict(request.cookies)))
        except ProtocolError as e:
            return _error(e)

    @app.post("/api/tables")
    async def api_create(request: Request) -> Any:
        try:
            spec = await read_json(request, limits.message_bytes)
        except BodyError as e:
            code = "too_large" if e.code == "too_large" else "bad_request"
            return _error(ProtocolError(code, _("table settings: {why}", why=e.message)))
        client = request.client.host if request.client else "unknown"
        secret, new = ensure_browser(request)
        try:
            made = await create_table(service, spec, client, holder_of(secret))
        except ProtocolError as e:
            return _error(e)
        response = JSONResponse(
            {
                "table": made.id,
                "watch": f"/t/{made.id}",
                "seats": [
                    {"seat": s, "link": f"/t/{made.id}#seat={s}&key={key}"}
                    for s, key in sorted(made.credentials.items())
                ],
            }
        )
        if new:
            set_browser_cookie(response, request, secret)
        return response

    @app.delete("/api/tables/{table_id}")
    async def api_delete(table_id: str, request: Request) -> Any:
        try:
            await delete_table(service, table_id, browser_holder(dict(request.cookies)))
        except ProtocolError as e:
            return _error(e)
        return {"deleted": table_id}

    @app.get("/api/tables/{table_id}/record")
    async def api_record(table_id: str) -> Any:
        try:
            doc = await service.record(table_id)
        except ProtocolError as e:
            return _error(e)
        return JSONResponse(doc, headers={"Content-Disposition": f'attachment; filename="barbu-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/review")
    async def api_review(table_id: str) -> Any:
        try:
            return await service.review(table_id)
        except ProtocolError as e:
            return _error(e)

    async def ws(websocket: WebSocket) -> None:
        """The table WebSocket (first among the routes, see below)."""
        address = websocket.client.host if websocket.client else "unknown"
        wait = guard.connect(address)
        if wait > 0:  # refused at the handshake (HTTP 403), the cheapest refusal, after a pause that
            if guard.admit(address):  # slows a flood down; held connections count against the address
                try:
                    await asyncio.sleep(limits.refused_connection_delay)
                finally:
                    guard.release(address)
            await websocket.close(code=1008, reason="this address opens connections faster than it may")
            return
        if not guard.admit(address):  # counted before the handshake completes
            await websocket.accept()
            limit = limits.connections_per_client
            error = ProtocolError("table_limit", _("at most {limit} connections per client address", limit=limit))
            await websocket.send_text(encode(error.frame()))
            await websocket.close(code=1008, reason="too many connections from this address")
            return
        try:
            await websocket.accept()
            await serve(websocket, address)
        finally:
            guard.release(address)

    # first, and without FastAPI's dependency solving: a connection does not walk past every HTTP
    # route to find its own, which counted in a burst of thousands of clients coming back at once
    app.router.routes.insert(0, WebSocketRoute("/ws", ws))

    async def serve(websocket: WebSocket, address: str) -> None:
        conn = Connection(websocket, limits, guard.connection())
        conn.handler = asyncio.current_task()
        conn.pump_task = asyncio.create_task(conn.pump())
        table: LiveTable | ClusterTable | None = None
        pause = 0.0  # after a rate refusal: read nothing for half the time it gave
        limited = False  # whether the previous message was refused for its rate
        try:
            while conn.reason is None and not conn.pump_task.done():
                if pause > 0:
                    await asyncio.sleep(pause)
                    if conn.reason is not None:
                        break
                message = await conn.receive()
                pause = 0.0
                if message is None or message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                try:
                    table = await handle(conn, address, table, text)
                    limited = False
                except ProtocolError as e:
                    conn.send(encode(e.frame()))
                    pause = (e.retry_after or 0.0) / 2
                    # a client that waits as told is accepted next time; refused twice running, it did not wait
                    again = e.code == "rate_limited" and limited
                    limited = e.code == "rate_limited"
                    if (again or e.code in _UNREADABLE) and guard.refused(conn.budget):
                        conn.reason = "too many refused messages: slow down or fix the client"
                except Exception:  # a bug: say so, and trust the log over what is in memory
                    log.exception("unexpected failure on a message")
                    conn.send(encode(ProtocolError("internal", _("the server failed on this message")).frame()))
                    if table is not None:
                        await table.recover()
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None:
                await table.leave(conn)
            await close(conn)

    async def close(conn: Connection) -> None:
        """Stop the pump; if the server ends the connection, let the last frames out, then say why."""
        pump = conn.pump_task
        assert pump is not None
        if conn.reason is None:
            pump.cancel()
            return
        conn.ready.set()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(pump), 1.0)
        pump.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(conn.websocket.close(code=1008, reason=conn.reason), 1.0)

    async def handle(
        conn: Connection, address: str, table: LiveTable | ClusterTable | None, text: str | bytes
    ) -> LiveTable | ClusterTable | None:
        """Check, charge and carry out one message; returns the connection's table."""
        msg = parse_message(text, limits)
        kind = msg["type"]
        watching: str | None = None  # the table whose watchers' budget the message draws on
        if table is not None and conn.seat is None:
            watching = table.id
        elif table is None and kind == "hello" and msg.get("key") is None and msg.get("seat") is None:
            watching = msg["table"]
        cost = limits.cost(kind)
        if kind == "sync" and table is not None:
            cost += table.catch_up_frames(msg["last_seq"])
        try:
            guard.spend(conn.budget, address, watching, cost, action=kind == "act")
        except RateLimited as e:
            raise ProtocolError("rate_limited", e.message, msg.get("id"), retry_after=e.retry_after) from None
        if kind == "ping":
            conn.send(encode({"type": "pong"}))
        elif kind == "hello":
            if table is not None:
                raise ProtocolError("already_joined", _("this connection is at table {table} already", table=table.id))
            found: LiveTable | ClusterTable = (
                cluster.table(msg["table"]) if cluster is not None else await service.get(msg["table"])
            )
            await found.join(conn, msg.get("key"), msg.get("name"), msg.get("last_seq"), msg.get("seat"))
            guard.charge(conn.budget, address, watching, found.catch_up_frames(msg.get("last_seq")))
            return found
        elif table is None:
            raise ProtocolError(
                "not_joined", _("say {example} first", example='{"type": "hello", "table": ...}'), msg.get("id")
            )
        else:
            await table.carry_out(conn, msg)
        return table

    return app


__all__ = ["Connection", "create_app"]
