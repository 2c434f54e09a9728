"""The club's routes: accounts, preferences, rated tables, the quick game, the ladder, profiles, operations.

Every route that changes something is a POST, PUT or DELETE with a JSON body, so the
cross-site guard of :mod:`barbu.server.origin` refuses it from another site's page before it
runs (CSRF), and the session cookie is ``SameSite=Strict`` besides.

========================================  =====================================================
``POST /api/club/signup``                 ``{"name", "password"}``: a new account, logged in
``POST /api/club/login``                  ``{"name", "password"}``: a fresh session cookie
``POST /api/club/logout``                 ends the session
``POST /api/club/password``               ``{"old", "new"}``: other sessions end
``GET /api/club/me``                      the account (name, preferences) or ``null``
``PUT /api/club/prefs``                   ``{"language", "sounds", "cards"}``
``GET /api/club/games``                   the account's tables (a seat's link while unfinished)
``GET /api/club/sheets``                  the score sheets the account created, with their owner links
``POST /api/club/tables``                 the lobby's settings plus ``"rated"``
``POST|GET|DELETE /api/club/quick``       join (``variant``, ``rated``, ``wait``), look, leave
``GET /api/club/ladder``                  ``?variant=&period=all|30d``
``GET /api/club/players/{name}``          a profile: games, results per rule set, ratings
``GET /healthz``, ``/readyz``, ``/metrics``  operations (:mod:`~barbu.server.club.operations`)
``GET /account``, ``/ladder``, ``/player``   the pages
========================================  =====================================================
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse, JSONResponse

from barbu.bots import bot_level
from barbu.language import _, error_text
from barbu.rulesets import RULE_SETS
from barbu.server.bodies import BodyError, read_json
from barbu.server.club.accounts import AccountError, Accounts
from barbu.server.club.operations import Metrics
from barbu.server.club.quick import QueueStore, QuickQueue
from barbu.server.club.ratings import GIVEN_UP, Reason, rating_json, reason_text, settle_async
from barbu.server.lobby import create_table
from barbu.server.protocol import ProtocolError
from barbu.server.tables import LiveTable, TableService
from barbu.storage import Store, StoreError
from barbu.storage.club import Account, ClubStore

STATIC = Path(__file__).parent.parent / "static"
BODY_BYTES = 2048
"""The longest body of an account request."""
PREFS = {"language": ("fr", "en"), "sounds": (True, False), "cards": ("classic", "large", "four-colour")}
"""The preferences an account keeps, and their allowed values."""

_STATUS = {
    "bad_request": 400,
    "too_large": 413,
    "bad_login": 401,
    "not_logged_in": 401,
    "name_taken": 409,
    "rate_limited": 429,
    "unknown_player": 404,
    "storage": 503,
    "table_limit": 429,
    "not_queued": 404,
}


def _error(code: str, message: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(int(retry_after) + 1)} if retry_after is not None else None
    body = {"error": {"code": code, "kind": code, "message": message}}
    return JSONResponse(body, status_code=_STATUS.get(code, 400), headers=headers)


class Club:
    """Everything the club adds to one web app."""

    def __init__(self, service: TableService, store: Store, queue: QueueStore | None = None) -> None:
        self.service = service
        self.club = ClubStore(store)
        self.accounts = Accounts(self.club)
        self.queue = QuickQueue(service, self.club, queue)
        self.checks: list[Callable[[], Awaitable[tuple[str, str] | None]]] = []
        """Looked at by ``/readyz`` besides the database: each says (status, why) when the process
        is not ready (several processes: Redis does not answer)."""
        journal = service.journal
        self.metrics = Metrics(
            lambda: len(service.live), self._connections, lambda: (journal.commits, journal.rows_written)
        )
        self.stopping = False
        service.on_finish.append(self._finished)
        service.on_abandon.append(self._abandoned)
        service.timings.append(self.metrics.observe)

    def _connections(self) -> int:
        return sum(len(t.subscribers()) for t in list(self.service.live.values()))

    def _finished(self, table: LiveTable) -> None:
        self.metrics.finished.inc()
        kinds = [s.kind for s in table.seats]
        ranks = table.game.ranking()
        self.service.spawn(self._settle(table.id, table.row.variant, kinds, ranks))

    def _abandoned(self, table: LiveTable) -> None:
        """An abandoned rated table is unrated: its game never ended."""
        self.service.spawn(self._unrate(table.id, table.row.variant))

    async def _unrate(self, table_id: str, variant: str) -> None:
        try:
            await asyncio.to_thread(self.club.settle, table_id, variant, None, Reason(GIVEN_UP).stored())
        except StoreError as e:
            self.service.log(f"table {table_id}: not marked unrated yet: {e}")

    async def _settle(self, table_id: str, variant: str, kinds: list[str], ranks: list[int]) -> None:
        try:
            said = await settle_async(self.club, table_id, variant, kinds, ranks)
        except StoreError as e:  # the table stays pending; a later settle_table run rates it
            self.service.log(f"table {table_id}: not rated yet: {e}")
            return
        if said != "-":
            self.service.log(f"table {table_id}: {said}")

    async def stop(self) -> None:
        """Stop the queue (the server is going away)."""
        self.stopping = True
        await self.queue.stop()


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await read_json(request, BODY_BYTES)
    except BodyError as e:
        raise AccountError(e.message, "too_large" if e.code == "too_large" else "bad_request") from None
    if not isinstance(body, dict):
        raise AccountError(_("the body must be a JSON object"))
    return body


def add_club_routes(app: FastAPI, service: TableService, store: Store, queue: QueueStore | None = None) -> Club:
    """Add the club's routes and pages to ``app``; returns the :class:`Club` (the app stops it).

    ``queue``: where the quick-game queue lives (None: this process's memory)."""
    club = Club(service, store, queue)
    accounts = club.accounts

    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    async def who(request: Request) -> tuple[Account, str]:
        found = await accounts.current(dict(request.cookies))
        if found is None:
            raise AccountError(_("log in first (this needs an account)"), "not_logged_in")
        return found

    def handled(fn: Any) -> Any:
        """Turn the club's refusals into the API's error answers."""

        @functools.wraps(fn)
        async def run(request: Request, **kw: Any) -> Any:
            try:
                return await fn(request, **kw)
            except AccountError as e:
                if e.code == "bad_login":
                    club.metrics.logins.labels("refused").inc()
                return _error(e.code, e.message, e.retry_after)
            except ProtocolError as e:
                return _error(e.code, e.message)
            except StoreError as e:
                return _error("storage", error_text(e))

        return run

    def me_json(account: Account) -> dict[str, Any]:
        return {"name": account.name, "prefs": account.prefs}

    @handled
    async def signup(request: Request) -> Any:
        body = await _body(request)
        account = await accounts.sign_up(body.get("name"), body.get("password"), address(request))
        response = JSONResponse({"account": me_json(account)}, status_code=201)
        await accounts.open_session(account, request, response)
        return response

    @handled
    async def login(request: Request) -> Any:
        body = await _body(request)
        account = await accounts.log_in(body.get("name"), body.get("password"), address(request))
        club.metrics.logins.labels("ok").inc()
        response = JSONResponse({"account": me_json(account)})
        await accounts.open_session(account, request, response)
        return response

    @handled
    async def logout(request: Request) -> Any:
        response = JSONResponse({"account": None})
        await accounts.close_session(request, response)
        return response

    @handled
    async def password(request: Request) -> Any:
        account, session = await who(request)
        body = await _body(request)
        await accounts.change_password(account, body.get("old"), body.get("new"), session)
        return {"changed": True}

    @handled
    async def me(request: Request) -> Any:
        found = await accounts.current(dict(request.cookies))
        return {"account": me_json(found[0]) if found else None}

    @handled
    async def prefs(request: Request) -> Any:
        account, _session = await who(request)
        body = await _body(request)
        merged = dict(account.prefs)
        for key, value in body.items():
            allowed = PREFS.get(key)
            if allowed is None:
                raise AccountError(
                    _("unknown preference {key}; preferences: {known}", key=repr(key), known=", ".join(PREFS))
                )
            if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
                shown = ", ".join(str(a).lower() for a in allowed)
                raise AccountError(_("{key} must be one of {shown}", key=key, shown=shown))
            merged[key] = value
        await asyncio.to_thread(club.club.set_prefs, account.id, merged)
        return {"prefs": merged}

    @handled
    async def games(request: Request) -> Any:
        account, _session = await who(request)
        rows = await asyncio.to_thread(club.club.games_of, account.id)
        out = []
        for r in rows:
            item = {
                "table": r["id"],
                "variant": r["variant"],
                "status": r["status"],
                "created": r["created"],
                "seat": r["seat"],
                "rated": bool(r["rated"]),
                "outcome": r["outcome"],
                "reason": reason_text(r["reason"]),
            }
            if r["status"] != "finished" and r["key"]:  # the seat follows the account to this device
                item["link"] = f"/t/{r['id']}#seat={r['seat']}&key={r['key']}"
            out.append(item)
        return {"games": out}

    @handled
    async def rated_table(request: Request) -> Any:
        account, _session = await who(request)
        try:
            spec = await read_json(request, service.settings.limits.message_bytes)
        except BodyError as e:
            raise AccountError(_("table settings: {problem}", problem=e.message)) from None
        if not isinstance(spec, dict) or not isinstance(spec.get("rated", False), bool):
            raise AccountError(_('the settings are the lobby\'s, with "rated": true or false'))
        made = await create_table(service, spec, address(request))
        await asyncio.to_thread(club.club.mark_table, made.id, bool(spec.get("rated", False)), False, {})
        seats = [{"seat": s, "link": f"/t/{made.id}#seat={s}&key={k}"} for s, k in sorted(made.credentials.items())]
        return {
            "table": made.id,
            "watch": f"/t/{made.id}",
            "rated": bool(spec.get("rated")),
            "seats": seats,
            "by": account.name,
        }

    @handled
    async def quick_join(request: Request) -> Any:
        account, _session = await who(request)
        body = await _body(request)
        return await club.queue.join(
            account, body.get("variant", "classic"), body.get("rated", True), body.get("wait", 30)
        )

    @handled
    async def quick_status(request: Request) -> Any:
        account, _session = await who(request)
        found = await club.queue.status(account.id)
        return found if found is not None else {"status": "none"}

    @handled
    async def quick_leave(request: Request) -> Any:
        account, _session = await who(request)
        await club.queue.leave(account.id)
        return {"status": "none"}

    @handled
    async def ladder(request: Request) -> Any:
        variant = request.query_params.get("variant", "classic")
        period = request.query_params.get("period", "all")
        if variant not in RULE_SETS:
            raise AccountError(_("unknown rule set {name}: see /api/rules", name=repr(variant)))
        if period not in ("all", "30d"):
            raise AccountError(_("period must be all or 30d"))
        since = None if period == "all" else time.time() - 30 * 86400
        rows = await asyncio.to_thread(club.club.ladder, variant, since, 200)
        names = await asyncio.to_thread(club.club.names, [r.player[2:] for r, _ in rows if r.player.startswith("a:")])
        out = []
        for place, (r, n) in enumerate(rows, 1):
            item = rating_json(r)
            item["place"] = place
            item["period_games"] = n
            if r.player.startswith("bot:"):
                item["bot"] = r.player[4:]
                item["name"] = r.player[4:]
            else:
                item["name"] = names.get(r.player[2:], "?")
            del item["player"]
            out.append(item)
        return {"variant": variant, "period": period, "players": out}

    @handled
    async def player(request: Request, name: str) -> Any:
        if name.startswith("bot:") and bot_level(name[4:]) is not None:
            key, shown, games_rows = name, name[4:], []
        else:
            account = await asyncio.to_thread(club.club.account_by_name, " ".join(name.split()))
            if account is None:
                raise AccountError(_("no player is called {name}", name=repr(name)), "unknown_player")
            key, shown = f"a:{account.id}", account.name
            games_rows = await asyncio.to_thread(club.club.games_of, account.id, 1000)
        current = await asyncio.to_thread(club.club.ratings_by_player, key)
        history = await asyncio.to_thread(club.club.history, key)
        per: dict[str, dict[str, Any]] = {}
        for g in games_rows:
            p = per.setdefault(g["variant"], {"played": 0, "finished": 0, "rated": 0, "wins": 0, "places": []})
            p["played"] += 1
            p["finished"] += g["status"] == "finished"
        for h in history:
            p = per.setdefault(h["variant"], {"played": 0, "finished": 0, "rated": 0, "wins": 0, "places": []})
            p["rated"] += 1
            p["wins"] += h["rank"] == 1
            p["places"].append(h["rank"])
        results = []
        for variant, p in sorted(per.items()):
            places = p.pop("places")
            p["mean_place"] = round(sum(places) / len(places), 2) if places else None
            results.append({"variant": variant, **p})
        return {
            "name": shown,
            "bot": key.startswith("bot:"),
            "games": len(games_rows) if not key.startswith("bot:") else sum(r.games for r in current),
            "results": results,
            "ratings": [rating_json(r) | {"player": None} for r in current],
            "history": [h | {"rating": round(h["mu"] - 3 * h["sigma"], 3)} for h in history],
        }

    async def healthz() -> Any:
        return {"status": "ok"}

    async def readyz() -> Any:
        if club.stopping:
            return JSONResponse({"status": "stopping"}, status_code=503)
        try:
            await asyncio.wait_for(asyncio.to_thread(club.club.ping), 2.0)
        except (StoreError, TimeoutError) as e:
            return JSONResponse(
                {"status": "database", "message": str(e) or "the database did not answer"}, status_code=503
            )
        for check in club.checks:
            trouble = await check()
            if trouble is not None:
                return JSONResponse({"status": trouble[0], "message": trouble[1]}, status_code=503)
        return {"status": "ready", "tables": len(service.live)}

    async def metrics() -> Response:
        body, kind = club.metrics.text()
        return Response(body, media_type=kind)

    async def on_claim(request: Request, table_id: str, seat: int, key: str) -> None:
        """A logged-in browser claimed a seat: the seat follows its account."""
        found = await accounts.current(dict(request.cookies))
        if found is not None:
            await asyncio.to_thread(club.club.seat_account, table_id, seat, found[0].id, key)

    async def on_sheet(request: Request, sheet_id: str, key: str) -> None:
        """A logged-in browser created a score sheet: it belongs to the account too."""
        found = await accounts.current(dict(request.cookies))
        if found is not None:
            await asyncio.to_thread(club.club.own_sheet, sheet_id, found[0].id, key)

    @handled
    async def my_sheets(request: Request) -> Any:
        account, _session = await who(request)
        rows = await asyncio.to_thread(club.club.sheets_of, account.id)
        return {
            "sheets": [
                {
                    "id": r["id"],
                    "title": r["title"],
                    "variant": r["variant"],
                    "updated": r["updated"],
                    "link": f"/sheets/{r['id']}#key={r['key']}",
                }
                for r in rows
            ]
        }

    app.state.on_claim = on_claim
    app.state.on_sheet = on_sheet
    app.add_api_route("/api/club/sheets", my_sheets, methods=["GET"])
    app.add_api_route("/api/club/signup", signup, methods=["POST"])
    app.add_api_route("/api/club/login", login, methods=["POST"])
    app.add_api_route("/api/club/logout", logout, methods=["POST"])
    app.add_api_route("/api/club/password", password, methods=["POST"])
    app.add_api_route("/api/club/me", me, methods=["GET"])
    app.add_api_route("/api/club/prefs", prefs, methods=["PUT"])
    app.add_api_route("/api/club/games", games, methods=["GET"])
    app.add_api_route("/api/club/tables", rated_table, methods=["POST"])
    app.add_api_route("/api/club/quick", quick_join, methods=["POST"])
    app.add_api_route("/api/club/quick", quick_status, methods=["GET"])
    app.add_api_route("/api/club/quick", quick_leave, methods=["DELETE"])
    app.add_api_route("/api/club/ladder", ladder, methods=["GET"])
    app.add_api_route("/api/club/players/{name}", player, methods=["GET"])
    app.add_api_route("/healthz", healthz, methods=["GET"], include_in_schema=False)
    app.add_api_route("/readyz", readyz, methods=["GET"], include_in_schema=False)
    app.add_api_route("/metrics", metrics, methods=["GET"], include_in_schema=False)
    for page in ("account", "ladder", "player"):  # one document: its script runs the page its path names
        app.add_api_route(f"/{page}", club_page, methods=["GET"], include_in_schema=False, name=f"{page}_page")
    return club


async def club_page() -> FileResponse:
    """The club's pages (``static/club.html``, whose ``club.js`` runs the page of the path)."""
    return FileResponse(STATIC / "club.html")


__all__ = ["PREFS", "Club", "add_club_routes"]
