"""Score sheets kept in the app's database, each as its log of changes.

The web app (``barbu serve``) and the terminal (``barbu score``) use the same database
(``--db``, default ``sqlite:///barbu.db``; PostgreSQL by URL), so a sheet started at one
shows at the other. A sheet is stored as its history
(:class:`~barbu.sheet.history.SheetHistory`): the record it starts from, the log of changes
(one row per change) and the position in the log (undo and redo move it). The log is the
truth: opening a sheet replays it. The tables are :data:`barbu.storage.sheets` and
:data:`barbu.storage.sheet_changes` (Alembic revision ``v0002``); their links are in
:data:`barbu.storage.sheet_links` (``v0004``).

Who may open a sheet is kept in :data:`barbu.storage.sheet_links`: one row per link
(``owner``, ``editor`` or ``viewer``), holding only the SHA-256 of the link's random key
(:func:`new_key`). The web app answers only to a key (:meth:`SheetStore.roles`); the terminal
reads the database directly, so it opens every sheet.

Every save checks the sheet's ``version``: a save made on a sheet that was changed
elsewhere since it was opened is refused (kind ``store``) and changes nothing.

>>> from barbu.sheet import DealEntry, Sheet
>>> from barbu.sheet.history import SheetHistory
>>> store = SheetStore("sqlite://")
>>> saved = store.create(SheetHistory(Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"])), "Friday game")
>>> _ = saved.history.add(DealEntry("no-king"))
>>> store.save(saved)
>>> saved.id, [(s.title, s.deals) for s in store.list()]
('friday-game', [('Friday game', 1)])
>>> store.open("fri").history.sheet.totals
[1, -7, -7, -7]
>>> link, key = store.add_link("friday-game", "viewer")
>>> store.roles([key]), store.roles(["a guess"])
({'friday-game': 'viewer'}, {})
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from barbu.language import _, error_text
from barbu.names import TITLE_LIMIT, TextError, check_text
from barbu.sheet.doubles import SheetError
from barbu.sheet.history import SheetHistory
from barbu.sheet.model import Sheet
from barbu.storage import Store, StoreError, sheet_changes, sheet_links, sheets

DEFAULT_DB = "sqlite:///barbu.db"
"""The database ``barbu score`` and ``barbu serve`` use when ``--db`` is not given."""

RESERVED = ("stats", "import", "new")
"""Ids a sheet never gets: they are words of the web app's routes."""


ROLES = ("viewer", "editor", "owner")
"""What a link lets its holder do, each role everything the one before may: read and export;
enter, edit, undo and rename; delete and share."""

MAX_KEYS = 64
"""The most keys one request is checked with (a browser holding more sends its latest)."""


def new_key() -> str:
    """A link's key: 192 random bits, URL-safe.

    >>> len(new_key()), new_key() == new_key()
    (32, False)
    """
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    """The stored form of a key (the key itself is never stored).

    >>> key_hash("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def role_at_least(role: str | None, need: str) -> bool:
    """Whether ``role`` may do what ``need`` may.

    >>> role_at_least("owner", "editor"), role_at_least("viewer", "editor"), role_at_least(None, "viewer")
    (True, False, False)
    """
    return role in ROLES and ROLES.index(role) >= ROLES.index(need)


@dataclass(frozen=True)
class SheetLink:
    """A link to a sheet as stored (its key is not: it is shown once, when the link is made)."""

    id: str
    sheet_id: str
    role: str
    created: float

    def to_json(self) -> dict[str, Any]:
        """The link as JSON, without its key."""
        return {"id": self.id, "role": self.role, "created": self.created}


def slug(title: str) -> str:
    """A URL-safe id from a title.

    >>> slug("Friday game: Ann & Bob!")
    'friday-game-ann-bob'
    """
    s = re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")
    return s[:40].rstrip("-") or "sheet"


def default_title(sheet: Sheet) -> str:
    """``Ann, Bob, Cat, Dan (classic)``."""
    return f"{', '.join(sheet.players)} ({sheet.variant})"


@dataclass
class StoredSheet:
    """A sheet as the store keeps it: id, title, times (seconds since the epoch), version and history."""

    id: str
    title: str
    created: float
    updated: float
    version: int
    history: SheetHistory


@dataclass(frozen=True)
class SheetSummary:
    """What a list of sheets shows, read from the listing cache (no replay)."""

    id: str
    title: str
    variant: str
    players: tuple[str, ...]
    deals: int
    complete: bool
    updated: float
    version: int

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {
            "id": self.id,
            "title": self.title,
            "variant": self.variant,
            "players": list(self.players),
            "deals": self.deals,
            "complete": self.complete,
            "updated": self.updated,
            "version": self.version,
        }


def _check_title(title: str) -> str:
    try:
        return check_text(title, _("title"), TITLE_LIMIT, required=False, kind="title")
    except TextError as e:
        raise SheetError("store", error_text(e)) from None


class _Conflict(Exception):
    """The sheet's version moved since it was opened."""


class SheetStore:
    """The score sheets of one database.

    ``db`` is a database URL (the schema is then created or migrated at once) or the web
    app's :class:`~barbu.storage.Store` (which migrates on start).
    """

    def __init__(self, db: str | Store = DEFAULT_DB) -> None:
        if isinstance(db, Store):
            self.store = db
        else:
            self.store = Store(db)
            try:
                self.store.migrate()
            except SQLAlchemyError as e:
                self.store.dispose()
                reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]  # the driver's words, one line
                raise StoreError(_("cannot open the database {db}: {why}", db=db, why=reason)) from None
        self.engine = self.store.engine

    def dispose(self) -> None:
        """Close the database connections."""
        self.store.dispose()

    # -- reading -------------------------------------------------------------------

    def list(self, only: Collection[str] | None = None) -> list[SheetSummary]:
        """Every sheet (or those whose ids are in ``only``), the most recently changed first."""
        query = select(sheets).order_by(sheets.c.updated.desc(), sheets.c.id)
        if only is not None:
            if not only:
                return []
            query = query.where(sheets.c.id.in_(list(only)))
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings()
            return [
                SheetSummary(
                    r["id"],
                    r["title"],
                    r["variant"],
                    tuple(json.loads(r["players"])),
                    r["deals"],
                    bool(r["complete"]),
                    r["updated"],
                    r["version"],
                )
                for r in rows
            ]

    def ids(self) -> Sequence[str]:
        """The ids of the stored sheets, sorted."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(sheets.c.id).order_by(sheets.c.id)).scalars())

    def version(self, sheet_id: str) -> int | None:
        """The sheet's version (it counts the saves), or None if there is no such sheet."""
        with self.engine.connect() as conn:
            v = conn.execute(select(sheets.c.version).where(sheets.c.id == sheet_id)).scalar_one_or_none()
            return int(v) if v is not None else None

    def resolve(self, ref: str | None) -> str:
        """The id named by ``ref``: an id, the start of one, or a title; None: the latest sheet."""
        summaries = self.list()
        ids = [s.id for s in summaries]
        if ref is not None and ref in ids:
            return ref
        if not summaries:
            raise SheetError("store", _("no sheet yet: start one with `barbu score new` or on the web page /sheets"))
        if ref is None:
            return summaries[0].id
        found = [s.id for s in summaries if s.id.startswith(ref) or s.title.casefold() == ref.casefold()]
        if len(found) == 1:
            return found[0]
        if not found:
            raise SheetError(
                "store", _("no sheet {ref}; the sheets are {ids}", ref=repr(ref), ids=", ".join(sorted(ids)))
            )
        raise SheetError("store", _("{ref} could be {ids}: say which", ref=repr(ref), ids=", ".join(found)))

    def open(self, ref: str | None = None) -> StoredSheet:
        """The sheet named by ``ref`` (see :meth:`resolve`), its log replayed."""
        sheet_id = self.resolve(ref)
        found = self.get(sheet_id)
        if found is None:
            raise SheetError("store", _("no sheet {id}: it was just removed", id=repr(sheet_id)))
        return found

    def get(self, sheet_id: str) -> StoredSheet | None:
        """The sheet with exactly this id, its log replayed, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(sheets).where(sheets.c.id == sheet_id)).mappings().first()
            if row is None:
                return None
            log = [
                json.loads(c)
                for c in conn.execute(
                    select(sheet_changes.c.change)
                    .where(sheet_changes.c.sheet_id == sheet_id)
                    .order_by(sheet_changes.c.seq)
                ).scalars()
            ]
        try:
            history = SheetHistory.from_json({"base": json.loads(row["base"]), "log": log, "position": row["position"]})
        except SheetError as e:
            raise SheetError(
                "store", _("the stored sheet {id} does not replay: {why}", id=repr(sheet_id), why=e.message)
            ) from None
        return StoredSheet(sheet_id, row["title"], row["created"], row["updated"], row["version"], history)

    # -- writing -------------------------------------------------------------------

    def create(self, history: SheetHistory, title: str | None = None, owner_key: str | None = None) -> StoredSheet:
        """Store a new sheet; its id comes from the title (made unique).

        With ``owner_key`` (see :func:`new_key`), the sheet's owner link is stored with it, in
        the same transaction; without, only the terminal opens the sheet until
        :meth:`add_link` makes one.
        """
        title = _check_title(title or "") or default_title(history.sheet)
        base = slug(title)
        now = time.time()
        for n in range(1, 1000):
            sheet_id = base if n == 1 else f"{base}-{n}"
            if sheet_id in RESERVED:
                continue
            stored = StoredSheet(sheet_id, title, now, now, 0, history)
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(sheets).values(
                            id=sheet_id,
                            title=title,
                            base=json.dumps(history.base.record(), ensure_ascii=False),
                            created=now,
                            **self._row_values(stored),
                        )
                    )
                    self._write_log(conn, sheet_id, history.log, 0)
                    if owner_key is not None:
                        conn.execute(insert(sheet_links).values(self._link_row(sheet_id, "owner", owner_key, now)))
            except IntegrityError:
                continue  # the id is taken: try the next one
            stored.version = 1
            return stored
        raise SheetError(
            "store", _("too many sheets are called {title}: give this one another title", title=repr(title))
        )

    def save(self, stored: StoredSheet) -> None:
        """Write the sheet's changes since it was opened, in one transaction.

        Refused (kind ``store``, nothing written) if the sheet was changed elsewhere meanwhile
        or removed; ``stored.version`` and ``stored.updated`` follow a successful save.
        """
        values = self._row_values(stored)
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(sheets)
                    .where(sheets.c.id == stored.id, sheets.c.version == stored.version)
                    .values(title=_check_title(stored.title), **values)
                )
                if done.rowcount != 1:
                    raise _Conflict
                kept = list(
                    conn.execute(
                        select(sheet_changes.c.change)
                        .where(sheet_changes.c.sheet_id == stored.id)
                        .order_by(sheet_changes.c.seq)
                    ).scalars()
                )
                log = [_text(c) for c in stored.history.log]
                same = 0
                while same < min(len(kept), len(log)) and kept[same] == log[same]:
                    same += 1
                if same < len(kept):
                    conn.execute(
                        delete(sheet_changes).where(sheet_changes.c.sheet_id == stored.id, sheet_changes.c.seq > same)
                    )
                self._write_log(conn, stored.id, stored.history.log[same:], same)
        except _Conflict:
            now = self.version(stored.id)
            if now is None:
                raise SheetError(
                    "store", _("the sheet {id} was removed meanwhile: nothing was saved", id=repr(stored.id))
                ) from None
            raise SheetError(
                "store",
                _(
                    "the sheet {id} was changed elsewhere meanwhile (it is at version {now}, this copy was "
                    "opened at {version}): nothing was saved; open it again and redo the change",
                    id=repr(stored.id),
                    now=now,
                    version=stored.version,
                ),
            ) from None
        stored.version = values["version"]
        stored.updated = values["updated"]

    def remove(self, ref: str) -> str:
        """Delete a sheet and its log; return its id."""
        sheet_id = self.resolve(ref)
        with self.engine.begin() as conn:
            conn.execute(delete(sheet_links).where(sheet_links.c.sheet_id == sheet_id))
            conn.execute(delete(sheet_changes).where(sheet_changes.c.sheet_id == sheet_id))
            conn.execute(delete(sheets).where(sheets.c.id == sheet_id))
        return sheet_id

    # -- links -----------------------------------------------------------------------

    def roles(self, keys: Iterable[str]) -> dict[str, str]:
        """The sheets the ``keys`` open, each with the best role they give (unknown keys give nothing)."""
        hashes = sorted({key_hash(k) for k in list(keys)[:MAX_KEYS] if k})
        if not hashes:
            return {}
        out: dict[str, str] = {}
        with self.engine.connect() as conn:
            found = conn.execute(
                select(sheet_links.c.sheet_id, sheet_links.c.role).where(sheet_links.c.key_hash.in_(hashes))
            )
            for sheet_id, role in found:
                if role in ROLES and not role_at_least(out.get(sheet_id), role):
                    out[sheet_id] = role
        return out

    def add_link(self, sheet_id: str, role: str) -> tuple[SheetLink, str]:
        """A new link to the sheet: the link as stored and its key (shown once, never stored)."""
        if role not in ROLES:
            raise SheetError("store", _("a link is for an owner, an editor or a viewer, not {role}", role=repr(role)))
        key = new_key()
        row = self._link_row(sheet_id, role, key, time.time())
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(sheet_links).values(row))
        except IntegrityError:
            raise SheetError("store", _("no sheet {id}: it was removed", id=repr(sheet_id))) from None
        return SheetLink(row["id"], sheet_id, role, row["created"]), key

    def links(self, sheet_id: str) -> Sequence[SheetLink]:
        """The sheet's links, the oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(sheet_links)
                .where(sheet_links.c.sheet_id == sheet_id)
                .order_by(sheet_links.c.created, sheet_links.c.id)
            ).mappings()
            return [SheetLink(r["id"], r["sheet_id"], r["role"], r["created"]) for r in rows]

    def revoke(self, sheet_id: str, link_id: str) -> bool:
        """Delete one link of the sheet (its key opens nothing from now on); False if there is none."""
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(sheet_links).where(sheet_links.c.sheet_id == sheet_id, sheet_links.c.id == link_id)
            )
            return bool(done.rowcount == 1)

    @staticmethod
    def _link_row(sheet_id: str, role: str, key: str, now: float) -> dict[str, Any]:
        return {
            "key_hash": key_hash(key),
            "id": secrets.token_hex(6),
            "sheet_id": sheet_id,
            "role": role,
            "created": now,
        }

    def count(self) -> int:
        """How many sheets there are."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(sheets)).scalar_one())

    @staticmethod
    def _row_values(stored: StoredSheet) -> dict[str, Any]:
        sheet = stored.history.sheet
        return {
            "position": stored.history.position,
            "version": stored.version + 1,
            "updated": max(time.time(), stored.updated),
            "variant": sheet.variant,
            "players": json.dumps(list(sheet.players), ensure_ascii=False),
            "deals": len(sheet.rows),
            "complete": sheet.complete,
        }

    @staticmethod
    def _write_log(conn: Any, sheet_id: str, changes: Sequence[dict[str, Any]], start: int) -> None:
        if changes:
            conn.execute(
                insert(sheet_changes),
                [{"sheet_id": sheet_id, "seq": start + i, "change": _text(c)} for i, c in enumerate(changes, 1)],
            )


def _text(change: dict[str, Any]) -> str:
    return json.dumps(change, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


__all__ = [
    "DEFAULT_DB",
    "MAX_KEYS",
    "RESERVED",
    "ROLES",
    "SheetLink",
    "SheetStore",
    "SheetSummary",
    "StoredSheet",
    "default_title",
    "key_hash",
    "new_key",
    "role_at_least",
    "slug",
]
