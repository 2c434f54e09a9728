"""The score sheet in the web app: a JSON API over the sheets of the app's store, and its pages.

Every rule is the core's: the page sends what the scorekeeper entered and shows what this
API answers (the contracts a declarer has left, the grid's open cells, the shorthands'
expansion, the scores, the refusals). A refusal changes nothing and answers
``{"error": {"kind", "deal", "seat", "message"}}`` (status 422; a change that would break a
later deal adds ``later``, ``changed`` and ``reason``). Changes carry the ``version`` of the
sheet the page shows: a sheet changed elsewhere meanwhile (the terminal, another page)
answers 409 ``stale`` with the sheet as it is now.

Pages: ``GET /sheets`` (list, start, import, statistics across sheets) and ``GET /sheets/{id}``.

API (under ``/api/sheets``):

- ``GET`` the list; ``POST`` a new sheet ``{title, variant, options, players, first_declarer}``;
  ``POST /import`` ``{record, title}``; ``GET /stats`` statistics across every sheet;
- ``GET /{id}`` the sheet; ``PATCH /{id}`` ``{title}``; ``DELETE /{id}``; ``GET /{id}/version``;
- ``POST /{id}/changes`` a change as the log holds it (``add``, ``tally``, ``edit``,
  ``delete``, ``insert``, ``players``; :func:`barbu.sheet.history.read_change`);
  ``POST /{id}/undo``, ``POST /{id}/redo``;
- ``POST /{id}/form`` ``{deal, changes}``: what deal N's entry may be (contracts left, open
  cells, compulsory doubles) and its entry; ``POST /{id}/preview`` ``{deal, entry, changes}``:
  the row an entry would give; ``POST /{id}/fill`` ``{declarer, contract, doubles, seat, word}``:
  a doubles grid after a shorthand (``maximum``, ``flanks``, ``pass``);
- ``GET /{id}/stats``; ``GET /{id}/export/{record|csv|html|pdf}``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from barbu.names import TITLE_LIMIT, TextError, check_text
from barbu.server.bodies import BodyError, loads, read_json
from barbu.sheet.doubles import Double, SheetError, fill, fill_all
from barbu.sheet.entry import DealEntry
from barbu.sheet.export import record_text, sheet_csv
from barbu.sheet.history import SheetHistory, read_change
from barbu.sheet.model import Sheet
from barbu.sheet.paper import sheet_html, sheet_pdf
from barbu.sheet.stats import sheet_stats, stats_across
from barbu.sheet.store import SheetStore, StoredSheet
from barbu.storage import Store, StoreError

STATIC = Path(__file__).parent / "static"
BODY_LIMIT = 64 * 1024
"""The largest request body, a record to import aside."""
IMPORT_LIMIT = 4 * 1024 * 1024
"""The largest record to import."""

_STATUS = {"not_found": 404, "stale": 409, "request": 400, "too_large": 413}


class RequestError(Exception):
    """A request the API cannot read (``request``, ``too_large``) or a sheet it cannot find (``not_found``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class Stale(Exception):
    """The page acted on an older version of the sheet; ``view`` is the sheet as it is now."""

    def __init__(self, message: str, view: dict[str, Any]) -> None:
        super().__init__(message)
        self.message = message
        self.view = view


def sheet_view(stored: StoredSheet) -> dict[str, Any]:
    """What the sheet page shows: the sheet's state, its title, version and what undo and redo would do."""
    h = stored.history
    return {
        "id": stored.id,
        "title": stored.title,
        "created": stored.created,
        "updated": stored.updated,
        "version": stored.version,
        "can_undo": h.can_undo,
        "can_redo": h.can_redo,
        "undo": h.describe(h.position) if h.can_undo else None,
        "redo": h.describe(h.position + 1) if h.can_redo else None,
        "changes": len(h.log),
        "sheet": h.sheet.state(),
    }


def _entry_changes(value: object) -> dict[int, DealEntry]:
    """``{"3": ENTRY, ...}``: edits not saved yet, which a form or a preview builds on."""
    if value is None or value == {}:
        return {}
    change = read_change({"change": "edit", "deals": value})
    return {int(k): DealEntry.from_json(v) for k, v in change["deals"].items()}


def _number(body: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise SheetError("deal", f"{key} must be a whole number, not {value!r}")
    return value


class SheetService:
    """The sheets API's work, done on a worker thread: each method answers JSON or raises."""

    def __init__(self, store: SheetStore) -> None:
        self.store = store
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def _locked(self, sheet_id: str) -> Iterator[None]:
        """One change at a time per sheet in this process (other processes: the version check)."""
        with self._guard:
            lock = self._locks.setdefault(sheet_id, threading.Lock())
        with lock:
            yield

    def _get(self, sheet_id: str) -> StoredSheet:
        stored = self.store.get(sheet_id)
        if stored is None:
            raise RequestError("not_found", f"no sheet {sheet_id!r}: see the list at /sheets")
        return stored

    # -- sheets ----------------------------------------------------------------------

    def list(self) -> list[dict[str, Any]]:
        """Every sheet, the latest changed first."""
        return [s.to_json() for s in self.store.list()]

    def create(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Start a sheet."""
        options = body.get("options") or {}
        if not isinstance(options, Mapping):
            raise SheetError("record", 'options must be an object of flags, e.g. {"rotation": "quick"}')
        variant = body.get("variant", "classic")
        if not isinstance(variant, str):
            raise SheetError("record", f"variant must be a rule set's name, not {variant!r}")
        players = body.get("players")
        if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
            raise SheetError("players", "players must be a list of names, one per seat")
        first = _number(body, "first_declarer", 0)
        title = body.get("title") or ""
        if not isinstance(title, str):
            raise SheetError("store", "the title must be text")
        sheet = Sheet.new(variant, dict(options), players, first)
        return sheet_view(self.store.create(SheetHistory(sheet), title))

    def import_record(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Store a record (any valid ``barbu-record/1``: played deals become tallies) as a new sheet."""
        record = body.get("record")
        if isinstance(record, str):
            try:
                record = loads(record)
            except BodyError as e:
                raise SheetError("record", f"the file is not JSON: {e.message}") from None
        if not isinstance(record, Mapping):
            raise SheetError("record", "give the record: a barbu-record/1 document (a JSON object)")
        title = body.get("title") or ""
        if not isinstance(title, str):
            raise SheetError("store", "the title must be text")
        sheet = Sheet.from_record(record)
        return sheet_view(self.store.create(SheetHistory(sheet), title or None))

    def get(self, sheet_id: str) -> dict[str, Any]:
        """The sheet."""
        return sheet_view(self._get(sheet_id))

    def version(self, sheet_id: str) -> dict[str, Any]:
        """The sheet's version (cheap: for a page that watches for changes made elsewhere)."""
        v = self.store.version(sheet_id)
        if v is None:
            raise RequestError("not_found", f"no sheet {sheet_id!r}")
        return {"id": sheet_id, "version": v}

    def remove(self, sheet_id: str) -> dict[str, Any]:
        """Delete a sheet and its history."""
        with self._locked(sheet_id):
            self._get(sheet_id)
            self.store.remove(sheet_id)
        return {"removed": sheet_id}

    # -- changes ---------------------------------------------------------------------

    def _change(self, sheet_id: str, body: Mapping[str, Any], do: Callable[[StoredSheet], object]) -> dict[str, Any]:
        """Apply ``do`` to the stored sheet and save it; a refusal saves nothing."""
        with self._locked(sheet_id):
            stored = self._get(sheet_id)
            version = body.get("version")
            if version is not None and version != stored.version:
                raise Stale(
                    f"the sheet was changed elsewhere (it is at version {stored.version}, the page showed "
                    f"version {version}): here it is as it is now; check it and enter your change again",
                    sheet_view(stored),
                )
            do(stored)
            try:
                self.store.save(stored)
            except SheetError as e:  # changed by another process since it was read: show it as it is
                now = self.store.get(sheet_id)
                if now is None:
                    raise RequestError("not_found", e.message) from None
                raise Stale(e.message, sheet_view(now)) from None
            return sheet_view(stored)

    def change(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """A change of the log (add, tally, edit, delete, insert, players)."""
        return self._change(
            sheet_id, body, lambda s: s.history.do(read_change({k: v for k, v in body.items() if k != "version"}))
        )

    def undo(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Go back one change."""
        return self._change(sheet_id, body, lambda s: s.history.undo())

    def redo(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Go forward one undone change."""
        return self._change(sheet_id, body, lambda s: s.history.redo())

    def retitle(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Change the title."""
        try:
            title = check_text(body.get("title"), "title", TITLE_LIMIT)
        except TextError as e:
            raise SheetError("store", e.message) from None

        def do(stored: StoredSheet) -> None:
            stored.title = title

        return self._change(sheet_id, body, do)

    # -- what a form needs -----------------------------------------------------------

    def _sheet_with(self, sheet_id: str, body: Mapping[str, Any]) -> tuple[Sheet, Sheet, dict[int, DealEntry]]:
        """The sheet, the sheet with the edits the page carries (later deals that break dropped), the edits."""
        sheet = self._get(sheet_id).history.sheet
        changes = _entry_changes(body.get("changes"))
        return sheet, sheet.edit_many(changes, drop_later=True) if changes else sheet, changes

    def form(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """What deal N's entry may be (its declarer, the contracts left, the open cells, …) and its entry."""
        original, sheet, changes = self._sheet_with(sheet_id, body)
        number = _number(body, "deal", len(sheet.rows) + 1)
        nxt = sheet.before(number).next
        if nxt is None:
            why = "the game is over" if sheet.complete else f"deal {len(sheet.rows)} waits for its tally"
            raise SheetError("deal", f"there is no deal {number} to enter: {why}", number)
        entry = changes.get(number) or (original.entry(number) if number <= len(original.rows) else None)
        return {"deal": number, "next": nxt.to_json(), "entry": entry.to_json() if entry else None}

    def preview(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The row an entry would give as deal N (nothing changes)."""
        _, sheet, _ = self._sheet_with(sheet_id, body)
        number = _number(body, "deal", len(sheet.rows) + 1)
        return {"row": sheet.preview(DealEntry.from_json(body.get("entry")), number).to_json()}

    def fill(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """A doubles grid after one seat (or, with no seat, everyone) says a shorthand."""
        sheet = self._get(sheet_id).history.sheet
        declarer = _number(body, "declarer")
        contract = body.get("contract")
        word = body.get("word")
        if not isinstance(contract, str) or contract not in [c.id for c in sheet.rules.contracts]:
            raise SheetError("contract", f"choose the contract first (one of {sheet.rules.name}'s), not {contract!r}")
        if not isinstance(word, str):
            raise SheetError("call", "say the word: maximum, flanks or pass")
        if not 0 <= declarer < sheet.rules.players:
            raise SheetError("call", f"the declarer is a seat from 0 to {sheet.rules.players - 1}")
        cells = body.get("doubles") or []
        if not isinstance(cells, list):
            raise SheetError("call", "doubles must be a list of cells")
        grid = tuple(Double.from_json(c) for c in cells)
        seat = body.get("seat")
        if seat is None:
            grid = fill_all(grid, word, sheet.rules, declarer, contract)
        else:
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise SheetError("call", f"seat must be a seat number, not {seat!r}")
            grid = fill(grid, seat, word, sheet.rules, declarer, contract)
        return {"doubles": [d.to_json() for d in grid]}

    # -- reading out -----------------------------------------------------------------

    def stats(self, sheet_id: str) -> dict[str, Any]:
        """Statistics of one sheet."""
        return sheet_stats(self._get(sheet_id).history.sheet).to_json()

    def stats_all(self) -> dict[str, Any]:
        """Statistics across every stored sheet (players matched by name)."""
        found = (self.store.get(s.id) for s in self.store.list())
        return stats_across(s.history.sheet for s in found if s is not None).to_json()

    def export(self, sheet_id: str, fmt: str) -> Response:
        """The sheet as a record, CSV, printable HTML or PDF."""
        stored = self._get(sheet_id)
        sheet = stored.history.sheet
        name = stored.id
        if fmt == "record":
            return Response(
                record_text(sheet),
                media_type="application/json",
                headers={"Content-Disposition": f'attachment; filename="{name}.barbu.json"'},
            )
        if fmt == "csv":
            return Response(
                sheet_csv(sheet),
                media_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
            )
        if fmt == "html":
            return Response(sheet_html(sheet, stored.title), media_type="text/html; charset=utf-8")
        if fmt == "pdf":
            return Response(
                sheet_pdf(sheet, stored.title),
                media_type="application/pdf",
                headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'},
            )
        raise SheetError("export", f"{fmt!r} is not an export format: say record, csv, html or pdf")


def _error(kind: str, message: str, status: int, **more: Any) -> JSONResponse:
    return JSONResponse({"error": {"kind": kind, "message": message}, **more}, status_code=status)


async def _run(work: Callable[[], Any]) -> Any:
    """Do ``work`` on a thread; turn what it raises into the API's error answers."""
    try:
        result = await asyncio.to_thread(work)
    except SheetError as e:
        return JSONResponse({"error": e.as_json()}, status_code=422)
    except Stale as e:
        return _error("stale", e.message, 409, sheet=e.view)
    except RequestError as e:
        return _error(e.kind, e.message, _STATUS.get(e.kind, 400))
    except StoreError as e:
        return _error("storage", str(e), 503)
    except SQLAlchemyError:
        return _error("storage", "the database is not answering, so nothing changed: try again in a moment", 503)
    return result


async def _body(request: Request, limit: int = BODY_LIMIT) -> dict[str, Any]:
    try:
        body = await read_json(request, limit)
    except BodyError as e:
        raise RequestError("too_large" if e.code == "too_large" else "request", e.message) from None
    if not isinstance(body, dict):
        raise RequestError("request", "the request must be a JSON object")
    return body


def add_sheet_routes(app: FastAPI, store: Store) -> None:
    """Add the sheets' pages and API, on the app's store, to ``app``."""
    service = SheetService(SheetStore(store))

    async def with_body(request: Request, work: Callable[[dict[str, Any]], Any], limit: int = BODY_LIMIT) -> Any:
        try:
            body = await _body(request, limit)
        except RequestError as e:
            return _error(e.kind, e.message, _STATUS[e.kind])
        return await _run(lambda: work(body))

    @app.get("/sheets", include_in_schema=False)
    async def sheets_page() -> FileResponse:
        return FileResponse(STATIC / "sheets.html")

    @app.get("/sheets/{sheet_id}", include_in_schema=False)
    async def sheet_page(sheet_id: str) -> FileResponse:
        return FileResponse(STATIC / "sheet.html")

    @app.get("/api/sheets")
    async def api_list() -> Any:
        return await _run(service.list)

    @app.post("/api/sheets")
    async def api_create(request: Request) -> Any:
        return await with_body(request, service.create)

    @app.post("/api/sheets/import")
    async def api_import(request: Request) -> Any:
        return await with_body(request, service.import_record, IMPORT_LIMIT)

    @app.get("/api/sheets/stats")
    async def api_stats_all() -> Any:
        return await _run(service.stats_all)

    @app.get("/api/sheets/{sheet_id}")
    async def api_get(sheet_id: str) -> Any:
        return await _run(lambda: service.get(sheet_id))

    @app.patch("/api/sheets/{sheet_id}")
    async def api_retitle(sheet_id: str, request: Request) -> Any:
        return await with_body(request, lambda b: service.retitle(sheet_id, b))

    @app.delete("/api/sheets/{sheet_id}")
    async def api_remove(sheet_id: str) -> Any:
        return await _run(lambda: service.remove(sheet_id))

    @app.get("/api/sheets/{sheet_id}/version")
    async def api_version(sheet_id: str) -> Any:
        return await _run(lambda: service.version(sheet_id))

    def post(name: str, method: Callable[[str, dict[str, Any]], Any]) -> None:
        async def endpoint(sheet_id: str, request: Request) -> Any:
            return await with_body(request, lambda b: method(sheet_id, b))

        app.add_api_route(f"/api/sheets/{{sheet_id}}/{name}", endpoint, methods=["POST"], name=f"sheet_{name}")

    post("changes", service.change)
    post("undo", service.undo)
    post("redo", service.redo)
    post("form", service.form)
    post("preview", service.preview)
    post("fill", service.fill)

    @app.get("/api/sheets/{sheet_id}/stats")
    async def api_stats(sheet_id: str) -> Any:
        return await _run(lambda: service.stats(sheet_id))

    @app.get("/api/sheets/{sheet_id}/export/{fmt}")
    async def api_export(sheet_id: str, fmt: str) -> Any:
        return await _run(lambda: service.export(sheet_id, fmt))


__all__ = ["RequestError", "SheetService", "Stale", "add_sheet_routes", "sheet_view"]
