"""The score sheet in the web app: a JSON API over the sheets of the app's store, and its pages.

Every rule is the core's: the page sends what the scorekeeper entered and shows what this
API answers (the contracts a declarer has left, the grid's open cells, the shorthands'
expansion, the scores, the refusals). A refusal changes nothing and answers
``{"error": {"kind", "deal", "seat", "message"}}`` (status 422; a change that would break a
later deal adds ``later``, ``changed`` and ``reason``). Changes carry the ``version`` of the
sheet the page shows: a sheet changed elsewhere meanwhile (the terminal, another page)
answers 409 ``stale`` with the sheet as it is now.

Pages: ``GET /sheets`` (list, start, import, statistics across sheets) and ``GET /sheets/{id}``.

Who asks: every request about a sheet is checked against the keys it carries, in an
``Authorization: Bearer KEY`` header or in the HttpOnly cookies ``barbu_sheet_{id}`` that
``POST /{id}/session`` sets (never in a query string). A key is the secret of one link of one
sheet (:data:`barbu.storage.sheet_links`): ``owner`` (everything, deleting and sharing
too), ``editor`` (enter, edit, undo, rename, retitle) or ``viewer`` (read and export). A sheet
no key opens answers 404 ``unknown_sheet``, exactly as a sheet that does not exist; a role that
may not do what is asked answers 403 ``forbidden``; both as ``{"error": {"code", "message"}}``.

API (under ``/api/sheets``):

- ``GET`` the sheets the caller's keys open (each with its ``role``); ``POST`` a new sheet
  ``{title, variant, options, players, first_declarer}`` and ``POST /import`` ``{record, title}``
  answer the sheet with its ``owner`` ``{key, link}`` (shown once) and set the owner's cookie;
  ``GET /stats`` statistics across the caller's sheets;
- ``POST /{id}/session`` with a link's key as the bearer: sets that key's cookie, answers the role;
  ``GET /{id}/links``, ``POST /{id}/links`` ``{role: viewer|editor}`` (answers the new link's key,
  once), ``DELETE /{id}/links/{link}``: the owner shares and revokes;
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from barbu.errors import BarbuError
from barbu.language import N_, _, error_text
from barbu.names import TITLE_LIMIT, TextError, check_text
from barbu.server.bodies import BodyError, loads, read_json
from barbu.server.cookies import DAY, cookie_name, set_private_cookie
from barbu.server.headers import DOCUMENT_POLICY
from barbu.sheet.doubles import Double, SheetError, fill, fill_all
from barbu.sheet.entry import DealEntry
from barbu.sheet.export import record_text, sheet_csv
from barbu.sheet.history import SheetHistory, read_change
from barbu.sheet.model import Sheet
from barbu.sheet.paper import sheet_html, sheet_pdf
from barbu.sheet.stats import sheet_stats, stats_across
from barbu.sheet.store import MAX_KEYS, SheetStore, StoredSheet, new_key, role_at_least
from barbu.storage import Store, StoreError

STATIC = Path(__file__).parent / "static"
BODY_LIMIT = 64 * 1024
"""The largest request body, a record to import aside."""
IMPORT_LIMIT = 4 * 1024 * 1024
"""The largest record to import."""

_STATUS = {"stale": 409, "request": 400, "too_large": 413}
COOKIE = cookie_name("sheet_")
"""The name of a sheet's cookie is this and the sheet's id; its value is a key of the sheet."""
COOKIE_AGE = 365 * DAY
"""Seconds a browser keeps a sheet's cookie."""
MAY = {
    "viewer": N_("read and export the sheet"),
    "editor": N_(
        "read and export the sheet, enter and edit deals, undo, rename the players and retitle it, "
        "but not delete or share it"
    ),
    "owner": N_("do everything with the sheet"),
}
"""What each role may do, in the words of a refusal."""


class RequestError(BarbuError):
    """A request the API cannot read (``request``, ``too_large``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class AccessError(BarbuError):
    """A sheet the caller's keys do not open (``unknown_sheet``, 404) or may not do that with (``forbidden``, 403)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = {"unknown_sheet": 404, "unknown_link": 404}.get(code, 403)


def unknown(sheet_id: str) -> AccessError:
    """The answer about a sheet that does not exist, and about one the caller holds no key to: the same."""
    return AccessError(
        "unknown_sheet",
        _(
            "no sheet {sheet} is open to you: open it from a link its owner gave you (the list at /sheets "
            "shows the sheets this browser holds a link to)",
            sheet=repr(sheet_id),
        ),
    )


class Stale(BarbuError):
    """The page acted on an older version of the sheet; ``view`` is the sheet as it is now."""

    def __init__(self, message: str, view: dict[str, Any]) -> None:
        super().__init__(message)
        self.message = message
        self.view = view


def sheet_view(stored: StoredSheet, role: str) -> dict[str, Any]:
    """What the sheet page shows: the sheet's state, its title, version, what undo and redo would do,
    and the ``role`` the caller holds (the page offers only what that role may do)."""
    h = stored.history
    return {
        "id": stored.id,
        "role": role,
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
        raise SheetError("deal", _("{key} must be a whole number, not {value}", key=key, value=repr(value)))
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
        if stored is None:  # removed since its key was checked
            raise unknown(sheet_id)
        return stored

    # -- who asks --------------------------------------------------------------------

    def check(self, sheet_id: str, keys: Sequence[str], need: str) -> str:
        """The caller's role on the sheet, if it may do what ``need`` may; else ``unknown_sheet`` or ``forbidden``."""
        role = self.store.roles(keys).get(sheet_id)
        if role is None:
            raise unknown(sheet_id)
        if not role_at_least(role, need):
            raise AccessError(
                "forbidden",
                _(
                    "your link to this sheet is a {role} link: it lets you {may}. This needs a link of role {need}: "
                    "ask the sheet's owner for one",
                    role=role,
                    may=_(MAY[role]),
                    need=need,
                ),
            )
        return role

    def links(self, sheet_id: str) -> Sequence[dict[str, Any]]:
        """The sheet's links (owner, editors, viewers), without their keys."""
        return [link.to_json() for link in self.store.links(sheet_id)]

    def add_link(self, sheet_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new viewer link or editor invitation; its key is in the answer and nowhere else."""
        role = body.get("role")
        if role not in ("viewer", "editor"):
            raise SheetError(
                "store",
                _("a link is for a viewer or an editor (role viewer or editor), not {role}", role=repr(role)),
            )
        link, key = self.store.add_link(sheet_id, str(role))
        return {**link.to_json(), "key": key, "link": f"/sheets/{sheet_id}#key={key}"}

    def revoke(self, sheet_id: str, link_id: str) -> dict[str, Any]:
        """Revoke a viewer link or an editor invitation (the owner's own link stays)."""
        link = next((x for x in self.store.links(sheet_id) if x.id == link_id), None)
        if link is None:
            raise AccessError("unknown_link", _("this sheet has no link {link}: see its links", link=repr(link_id)))
        if link.role == "owner":
            raise AccessError("forbidden", _("the owner's link cannot be revoked: the sheet would have no owner"))
        self.store.revoke(sheet_id, link_id)
        return {"revoked": link_id}

    # -- sheets ----------------------------------------------------------------------

    def list(self, keys: list[str]) -> list[dict[str, Any]]:
        """The sheets the keys open, the latest changed first, each with the caller's role."""
        roles = self.store.roles(keys)
        return [{**s.to_json(), "role": roles[s.id]} for s in self.store.list(only=roles)]

    def _owned(self, stored: StoredSheet, key: str) -> dict[str, Any]:
        return {**sheet_view(stored, "owner"), "owner": {"key": key, "link": f"/sheets/{stored.id}#key={key}"}}

    def create(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Start a sheet."""
        options = body.get("options") or {}
        if not isinstance(options, Mapping):
            raise SheetError(
                "record", _("options must be an object of flags, e.g. {example}", example='{"rotation": "quick"}')
            )
        variant = body.get("variant", "classic")
        if not isinstance(variant, str):
            raise SheetError("record", _("variant must be a rule set's name, not {variant}", variant=repr(variant)))
        players = body.get("players")
        if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
            raise SheetError("players", _("players must be a list of names, one per seat"))
        first = _number(body, "first_declarer", 0)
        title = body.get("title") or ""
        if not isinstance(title, str):
            raise SheetError("store", _("the title must be text"))
        sheet = Sheet.new(variant, dict(options), players, first)
        key = new_key()
        return self._owned(self.store.create(SheetHistory(sheet), title, owner_key=key), key)

    def import_record(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Store a record (any valid ``barbu-record/1``: played deals become tallies) as a new sheet."""
        record = body.get("record")
        if isinstance(record, str):
            try:
                record = loads(record)
            except BodyError as e:
                raise SheetError("record", _("the file is not JSON: {why}", why=e.message)) from None
        if not isinstance(record, Mapping):
            raise SheetError("record", _("give the record: a barbu-record/1 document (a JSON object)"))
        title = body.get("title") or ""
        if not isinstance(title, str):
            raise SheetError("store", _("the title must be text"))
        sheet = Sheet.from_record(record)
        key = new_key()
        return self._owned(self.store.create(SheetHistory(sheet), title or None, owner_key=key), key)

    def get(self, sheet_id: str, role: str) -> dict[str, Any]:
        """The sheet."""
        return sheet_view(self._get(sheet_id), role)

    def version(self, sheet_id: str) -> dict[str, Any]:
        """The sheet's version (cheap: for a page that watches for changes made elsewhere)."""
        v = self.store.version(sheet_id)
        if v is None:
            raise unknown(sheet_id)
        return {"id": sheet_id, "version": v}

    def remove(self, sheet_id: str) -> dict[str, Any]:
        """Delete a sheet and its history."""
        with self._locked(sheet_id):
            self._get(sheet_id)
            self.store.remove(sheet_id)
        return {"removed": sheet_id}

    # -- changes ---------------------------------------------------------------------

    def _change(
        self, sheet_id: str, body: Mapping[str, Any], do: Callable[[StoredSheet], object], role: str = "editor"
    ) -> dict[str, Any]:
        """Apply ``do`` to the stored sheet and save it; a refusal saves nothing."""
        with self._locked(sheet_id):
            stored = self._get(sheet_id)
            version = body.get("version")
            if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
                raise RequestError(
                    "request", _('version must be the whole number the sheet showed (its "version"), or left out')
                )
            if version is not None and version != stored.version:
                raise Stale(
                    _(
                        "the sheet was changed elsewhere (it is at version {now}, the page showed "
                        "version {version}): here it is as it is now; check it and enter your change again",
                        now=stored.version,
                        version=version,
                    ),
                    sheet_view(stored, role),
                )
            do(stored)
            try:
                self.store.save(stored)
            except SheetError as e:  # changed by another process since it was read: show it as it is
                now = self.store.get(sheet_id)
                if now is None:
                    raise unknown(sheet_id) from None
                raise Stale(e.message, sheet_view(now, role)) from None
            return sheet_view(stored, role)

    def change(self, sheet_id: str, body: Mapping[str, Any], role: str = "editor") -> dict[str, Any]:
        """A change of the log (add, tally, edit, delete, insert, players)."""
        return self._change(
            sheet_id, body, lambda s: s.history.do(read_change({k: v for k, v in body.items() if k != "version"})), role
        )

    def undo(self, sheet_id: str, body: Mapping[str, Any], role: str = "editor") -> dict[str, Any]:
        """Go back one change."""
        return self._change(sheet_id, body, lambda s: s.history.undo(), role)

    def redo(self, sheet_id: str, body: Mapping[str, Any], role: str = "editor") -> dict[str, Any]:
        """Go forward one undone change."""
        return self._change(sheet_id, body, lambda s: s.history.redo(), role)

    def retitle(self, sheet_id: str, body: Mapping[str, Any], role: str = "editor") -> dict[str, Any]:
        """Change the title."""
        try:
            title = check_text(body.get("title"), _("title"), TITLE_LIMIT, kind="title")
        except TextError as e:
            raise SheetError("store", error_text(e)) from None

        def do(stored: StoredSheet) -> None:
            stored.title = title

        return self._change(sheet_id, body, do, role)

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
            if sheet.complete:
                said = _("there is no deal {n} to enter: the game is over", n=number)
            else:
                last = len(sheet.rows)
                said = _("there is no deal {n} to enter: deal {last} waits for its tally", n=number, last=last)
            raise SheetError("deal", said, number)
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
            raise SheetError(
                "contract",
                _(
                    "choose the contract first (one of {variant}'s), not {contract}",
                    variant=sheet.rules.name,
                    contract=repr(contract),
                ),
            )
        if not isinstance(word, str):
            raise SheetError("call", _("say the word: maximum, flanks or pass"))
        if not 0 <= declarer < sheet.rules.players:
            raise SheetError("call", _("the declarer is a seat from 0 to {last}", last=sheet.rules.players - 1))
        cells = body.get("doubles") or []
        if not isinstance(cells, list):
            raise SheetError("call", _("doubles must be a list of cells"))
        grid = tuple(Double.from_json(c) for c in cells)
        seat = body.get("seat")
        if seat is None:
            grid = fill_all(grid, word, sheet.rules, declarer, contract)
        else:
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise SheetError("call", _("seat must be a seat number, not {seat}", seat=repr(seat)))
            grid = fill(grid, seat, word, sheet.rules, declarer, contract)
        return {"doubles": [d.to_json() for d in grid]}

    # -- reading out -----------------------------------------------------------------

    def stats(self, sheet_id: str) -> dict[str, Any]:
        """Statistics of one sheet."""
        return sheet_stats(self._get(sheet_id).history.sheet).to_json()

    def stats_all(self, keys: Sequence[str]) -> dict[str, Any]:
        """Statistics across the sheets the keys open (players matched by name)."""
        found = (self.store.get(s.id) for s in self.store.list(only=self.store.roles(keys)))
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
            return Response(
                sheet_html(sheet, stored.title),
                media_type="text/html; charset=utf-8",
                headers={"Content-Security-Policy": DOCUMENT_POLICY},
            )
        if fmt == "pdf":
            return Response(
                sheet_pdf(sheet, stored.title),
                media_type="application/pdf",
                headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'},
            )
        said = _("{format} is not an export format: say record, csv, html or pdf", format=repr(fmt))
        raise SheetError("export", said)


def _error(kind: str, message: str, status: int, **more: Any) -> JSONResponse:
    return JSONResponse({"error": {"kind": kind, "message": message}, **more}, status_code=status)


async def _run(work: Callable[[], Any]) -> Any:
    """Do ``work`` on a thread; turn what it raises into the API's error answers."""
    try:
        result = await asyncio.to_thread(work)
    except AccessError as e:
        return JSONResponse({"error": {"code": e.code, "message": e.message}}, status_code=e.status)
    except SheetError as e:
        return JSONResponse({"error": e.as_json()}, status_code=422)
    except Stale as e:
        return _error("stale", e.message, 409, sheet=e.view)
    except RequestError as e:
        return _error(e.kind, e.message, _STATUS.get(e.kind, 400))
    except StoreError as e:
        return _error("storage", error_text(e), 503)
    except SQLAlchemyError:
        return _error("storage", _("the database is not answering, so nothing changed: try again in a moment"), 503)
    return result


async def _body(request: Request, limit: int = BODY_LIMIT) -> dict[str, Any]:
    try:
        body = await read_json(request, limit)
    except BodyError as e:
        raise RequestError("too_large" if e.code == "too_large" else "request", e.message) from None
    if not isinstance(body, dict):
        raise RequestError("request", _("the request must be a JSON object"))
    return body


def bearer(request: Request) -> str | None:
    """The key of an ``Authorization: Bearer KEY`` header, if any."""
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    return key.strip() or None if scheme.casefold() == "bearer" else None


def request_keys(request: Request, sheet_id: str | None = None) -> list[str]:
    """The keys a request carries: its bearer key, then the cookie of ``sheet_id``, then the other sheets' cookies."""
    keys = [k for k in (bearer(request), request.cookies.get(COOKIE + sheet_id) if sheet_id else None) if k]
    keys += [v for name, v in request.cookies.items() if name.startswith(COOKIE) and v and v not in keys]
    return keys[:MAX_KEYS]


def keep_key(response: Response, request: Request, sheet_id: str, key: str) -> None:
    """Let the browser keep a sheet's key as an HttpOnly cookie sent only to this API, only from this site."""
    set_private_cookie(response, request, COOKIE + sheet_id, key, max_age=COOKIE_AGE, path="/api/sheets")


@dataclass(frozen=True)
class Call:
    """A checked request about one sheet: its id, the caller's role, the path's other parts and the body."""

    sheet_id: str
    role: str
    params: Mapping[str, str]
    body: dict[str, Any]


SHEET_ROUTES: list[tuple[str, str, str, Callable[[SheetService, Call], Any]]] = [
    ("GET", "", "viewer", lambda s, c: s.get(c.sheet_id, c.role)),
    ("GET", "/version", "viewer", lambda s, c: s.version(c.sheet_id)),
    ("GET", "/stats", "viewer", lambda s, c: s.stats(c.sheet_id)),
    ("GET", "/export/{fmt}", "viewer", lambda s, c: s.export(c.sheet_id, c.params["fmt"])),
    ("PATCH", "", "editor", lambda s, c: s.retitle(c.sheet_id, c.body, c.role)),
    ("POST", "/changes", "editor", lambda s, c: s.change(c.sheet_id, c.body, c.role)),
    ("POST", "/undo", "editor", lambda s, c: s.undo(c.sheet_id, c.body, c.role)),
    ("POST", "/redo", "editor", lambda s, c: s.redo(c.sheet_id, c.body, c.role)),
    ("POST", "/form", "editor", lambda s, c: s.form(c.sheet_id, c.body)),
    ("POST", "/preview", "editor", lambda s, c: s.preview(c.sheet_id, c.body)),
    ("POST", "/fill", "editor", lambda s, c: s.fill(c.sheet_id, c.body)),
    ("DELETE", "", "owner", lambda s, c: s.remove(c.sheet_id)),
    ("GET", "/links", "owner", lambda s, c: s.links(c.sheet_id)),
    ("POST", "/links", "owner", lambda s, c: s.add_link(c.sheet_id, c.body)),
    ("DELETE", "/links/{link_id}", "owner", lambda s, c: s.revoke(c.sheet_id, c.params["link_id"])),
]
"""Every route about one sheet (under ``/api/sheets/{sheet_id}``): method, path, the least role it
needs, and its work. The routes are made from this list only, so none escapes the check."""


def add_sheet_routes(app: FastAPI, store: Store) -> None:
    """Add the sheets' pages and API, on the app's store, to ``app``."""
    service = SheetService(SheetStore(store))

    async def with_body(request: Request, work: Callable[[dict[str, Any]], Any], limit: int = BODY_LIMIT) -> Any:
        try:
            body = await _body(request, limit)
        except RequestError as e:
            return _error(e.kind, e.message, _STATUS[e.kind])
        return await _run(lambda: work(body))

    async def created(request: Request, work: Callable[[dict[str, Any]], Any], limit: int = BODY_LIMIT) -> Any:
        answer = await with_body(request, work, limit)
        if isinstance(answer, Response):
            return answer
        response = JSONResponse(answer)
        keep_key(response, request, answer["id"], answer["owner"]["key"])
        owned = getattr(request.app.state, "on_sheet", None)  # a logged-in creator's sheet follows the account
        if owned is not None:
            await owned(request, answer["id"], answer["owner"]["key"])
        return response

    @app.get("/sheets", include_in_schema=False)
    async def sheets_page() -> FileResponse:
        return FileResponse(STATIC / "sheets.html")

    @app.get("/sheets/{sheet_id}", include_in_schema=False)
    async def sheet_page(sheet_id: str) -> FileResponse:
        return FileResponse(STATIC / "sheet.html")

    @app.get("/api/sheets")
    async def api_list(request: Request) -> Any:
        keys = request_keys(request)
        return await _run(lambda: service.list(keys))

    @app.post("/api/sheets")
    async def api_create(request: Request) -> Any:
        return await created(request, service.create)

    @app.post("/api/sheets/import")
    async def api_import(request: Request) -> Any:
        return await created(request, service.import_record, IMPORT_LIMIT)

    @app.get("/api/sheets/stats")
    async def api_stats_all(request: Request) -> Any:
        keys = request_keys(request)
        return await _run(lambda: service.stats_all(keys))

    @app.post("/api/sheets/{sheet_id}/session")
    async def api_session(sheet_id: str, request: Request) -> Any:
        key = bearer(request)
        answer = await _run(lambda: {"id": sheet_id, "role": service.check(sheet_id, [key] if key else [], "viewer")})
        if isinstance(answer, Response):
            return answer
        response = JSONResponse(answer)
        assert key is not None
        keep_key(response, request, sheet_id, key)
        return response

    def route(method: str, suffix: str, need: str, work: Callable[[SheetService, Call], Any]) -> None:
        async def endpoint(request: Request) -> Any:
            params = dict(request.path_params)
            sheet_id = params.pop("sheet_id")
            keys = request_keys(request, sheet_id)
            body: dict[str, Any] = {}
            if method in ("POST", "PATCH"):
                try:
                    body = await _body(request)
                except RequestError as e:
                    return _error(e.kind, e.message, _STATUS[e.kind])

            def checked() -> Any:
                role = service.check(sheet_id, keys, need)
                return work(service, Call(sheet_id, role, params, body))

            return await _run(checked)

        name = "sheet_" + (method + suffix).lower().replace("/", "_").replace("{", "").replace("}", "")
        app.add_api_route(f"/api/sheets/{{sheet_id}}{suffix}", endpoint, methods=[method], name=name)

    for method, suffix, need, work in SHEET_ROUTES:
        route(method, suffix, need, work)


__all__ = [
    "SHEET_ROUTES",
    "AccessError",
    "Call",
    "RequestError",
    "SheetService",
    "Stale",
    "add_sheet_routes",
    "request_keys",
    "sheet_view",
]
