"""Storage of tables and score sheets as logs: SQLAlchemy 2, SQLite (WAL) by default, PostgreSQL by URL.

A table is stored as what makes it, never as a snapshot: its settings (rule set, options,
the dealer's secret seed, the first declarer), its seats (who sits there: a person, known
by the hash of the credential in their invitation link, or a bot of some level) and the
ordered list of accepted actions, each with its sequence number. Replaying that list
through the core gives back every state of the game.

Score sheets are stored the same way, as the log of the scorekeeper's changes
(:data:`sheets`, :data:`sheet_changes`); :mod:`barbu.sheet.store` reads and writes them.

The schema is created and migrated by Alembic (``migrations/``); :meth:`Store.migrate`
runs the migrations, as ``barbu serve`` does on start.

>>> store = Store("sqlite://")
>>> store.migrate()
>>> store.create_table(TableRow("t1", "classic", {}, "secret", 2, "me", 0.0),
...                    [SeatRow(0, "human", credential_hash="ab"), SeatRow(1, "bot", "random"),
...                     SeatRow(2, "bot", "random"), SeatRow(3, "bot", "random")])
>>> store.append_actions([ActionRow("t1", 1, 2, {"type": "declare", "contract": "trumps"})])
>>> stored = store.load_table("t1")
>>> stored.table.seed, [a.intent for a in stored.actions]
('secret', [{'type': 'declare', 'contract': 'trumps'}])
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from barbu.errors import N_, BarbuError
from barbu.errors import Text as Said

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic script folder."""

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("first_declarer", Integer, nullable=False),
    Column("creator", String(64), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("finished", Float, nullable=True),
)
"""One row per table: its rule set, options and the dealer's seed (never sent to anyone)."""

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot_level", String(32), nullable=True),
    Column("credential_hash", String(64), nullable=True),
    Column("name", String(40), nullable=True),
    Column("joined", Boolean, nullable=False, default=False),
)
"""Who sits where: ``human`` (with the hash of its invitation credential) or ``bot``."""

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("action_id", String(64), nullable=True),
    Column("actor", String(8), nullable=False),
)
"""The action log: one row per accepted action, numbered from 1 within its table."""

_ACTION_COLUMNS = ("table_id", "seq", "seat", "action", "action_id", "actor")
"""The action log's columns, in the order :meth:`Store.append_actions` gives their values: the
table's order, which its compiled INSERT follows for drivers whose parameters are positional.

>>> tuple(c.name for c in actions.columns) == _ACTION_COLUMNS
True
>>> tuple(insert(actions).compile(dialect=make_engine("sqlite://").dialect).positiontup or ()) == _ACTION_COLUMNS
True
"""

sheets = Table(
    "sheets",
    metadata,
    Column("id", String(48), primary_key=True),
    Column("title", String(120), nullable=False),
    Column("base", Text, nullable=False),
    Column("position", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False, index=True),
    Column("variant", String(32), nullable=False),
    Column("players", Text, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("complete", Boolean, nullable=False),
)
"""One row per score sheet: its title, the record it starts from (``base``: a new sheet or an
imported record), how many changes of its log are in effect (``position``: undo and redo move
it) and ``version``, which counts its saves (a save made on an older version is refused).
``variant``, ``players``, ``deals`` and ``complete`` are a cache for listing, rewritten by every
save and never trusted over the log."""

sheet_changes = Table(
    "sheet_changes",
    metadata,
    Column("sheet_id", String(48), ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("change", Text, nullable=False),
)
"""A sheet's log of changes (``add``, ``tally``, ``edit``, ``delete``, ``insert``, ``players``),
numbered from 1: the sheet is its base record with these changes replayed up to ``position``."""

sheet_links = Table(
    "sheet_links",
    metadata,
    Column("key_hash", String(64), primary_key=True),
    Column("id", String(16), nullable=False, unique=True),
    Column("sheet_id", String(48), ForeignKey("sheets.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("role", String(8), nullable=False),
    Column("created", Float, nullable=False),
)
"""Who may open a score sheet: one row per link (``owner``, ``editor`` or ``viewer``), holding the
SHA-256 of the link's random key (the key itself is never stored) and a public ``id`` to revoke it by
(Alembic revision ``v0004``)."""

seat_claims = Table(
    "seat_claims",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("invitation", String(64), nullable=True),
    Column("holder", String(64), nullable=True),
)
"""Which browser holds a person's seat (``holder``: the SHA-256 of that browser's cookie, never the
cookie), and the seat's invitation key until a browser claims the seat, for the table's creator
to send (the table's seed, in the same database, is as secret as an unsent invitation)."""

table_creators = Table(
    "table_creators",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("browser", String(64), nullable=False),
)
"""The browser that created a table (the SHA-256 of its cookie): it alone sees the invitations."""


@dataclass(frozen=True)
class TableRow:
    """A table's settings as stored."""

    id: str
    variant: str
    options: dict[str, Any]
    seed: str
    first_declarer: int
    creator: str
    created: float
    status: str = "open"
    finished: float | None = None


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored: a person (``human``) or a ``bot`` of ``bot_level``."""

    seat: int
    kind: str
    bot_level: str | None = None
    credential_hash: str | None = None
    name: str | None = None
    joined: bool = False


@dataclass(frozen=True)
class ActionRow:
    """One accepted action: ``intent`` is its JSON form (:func:`barbu.actions.action_to_json`)."""

    table_id: str
    seq: int
    seat: int
    intent: dict[str, Any]
    action_id: str | None = None
    actor: str = "human"
    """``human`` when the seat's person chose it, ``bot`` when a bot did."""


@dataclass
class StoredTable:
    """Everything stored about one table."""

    table: TableRow
    seats: list[SeatRow]
    actions: list[ActionRow] = field(default_factory=list)


class StoreError(BarbuError):
    """The database could not be reached or refused a write: nothing was written.

    Every method of :class:`Store` raises this (never a driver's exception): a lost
    connection, a locked SQLite file, a timeout, a refused value. The message says what
    to do, in words for a person. ``refused`` is True when the database refused these
    values (a conflict, text it cannot store), False when it could not be used at all.
    ``text``, where set, is what a person reads of it, one whole sentence per cause for the
    outer layers to translate (``barbu.language.error_text``); the message, naming what did
    not happen, is the English for logs and commands.
    """

    def __init__(self, message: str, refused: bool = False, text: Said | None = None) -> None:
        super().__init__(message)
        self.refused = refused
        self.text = text


LOCK_WAIT = 30.0
"""Seconds a SQLite write waits for a lock another process holds (``sqlite:///FILE?timeout=S`` overrides)."""
CONNECT_TIMEOUT = 5
"""Seconds to wait for a PostgreSQL connection before the write counts as failed."""
SQLITE_HEADER = b"SQLite format 3\x00"


def check_sqlite_file(url: str) -> None:
    """Refuse a SQLite URL whose file exists but is not a SQLite database (say which file, and what to do).

    >>> check_sqlite_file("sqlite://")
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile(suffix=".db", delete=False) as f:
    ...     _ = f.write(b"not a database at all")
    >>> check_sqlite_file(f"sqlite:///{f.name}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.storage.StoreError: /...db is not a SQLite database (its first bytes are not SQLite's): ...
    >>> os.remove(f.name)
    """
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    path = Path(parsed.database)
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as e:
        raise StoreError(f"cannot read the database file {path}: {e.strerror or 'access refused'}") from None
    if head and head != SQLITE_HEADER:
        raise StoreError(
            f"{path} is not a SQLite database (its first bytes are not SQLite's): "
            "give --db another file, or move this one away"
        )


def _failure(e: BaseException, doing: str) -> StoreError:
    """The :class:`StoreError` for a driver's exception, in words a person can act on."""
    text = str(getattr(e, "orig", None) or e).lower()
    if isinstance(e, IntegrityError):
        why = "the database refused the write (it conflicts with what is stored)"
        said = N_("the database refused the write (it conflicts with what is stored), so nothing changed")
        return StoreError(f"{why}, so {doing} did not happen", refused=True, text=said)
    if isinstance(e, UnicodeError) or "surrogate" in text or "encode" in text:
        why = "the database cannot store this text (it holds characters that are not valid Unicode)"
        said = N_(
            "the database cannot store this text (it holds characters that are not valid Unicode), so nothing changed"
        )
        return StoreError(f"{why}, so {doing} did not happen", refused=True, text=said)
    if "locked" in text or "busy" in text:
        why = "the database is locked by another program"
        said = N_("the database is locked by another program, so nothing changed: try again in a moment")
    elif "not a database" in text or "malformed" in text:
        why = "the database file is damaged or is not a SQLite database"
        said = N_("the database file is damaged, so nothing changed: try again in a moment")
    else:
        why = "the database is not answering"
        said = N_("the database is not answering, so nothing changed: try again in a moment")
    return StoreError(f"{why}, so {doing} did not happen: try again in a moment", text=said)


@contextmanager
def _storing(doing: str) -> Iterator[None]:
    """Turn any database failure into a :class:`StoreError` saying that ``doing`` did not happen."""
    try:
        yield
    except StoreError:
        raise
    except (SQLAlchemyError, OSError, UnicodeError) as e:
        raise _failure(e, doing) from e


def database_url(url: str) -> str:
    """The SQLAlchemy URL for a ``--db`` value: plain PostgreSQL URLs get the psycopg 3 driver.

    >>> database_url("postgresql://postgres@127.0.0.1:5432/test")
    'postgresql+psycopg://postgres@127.0.0.1:5432/test'
    >>> database_url("sqlite:///barbu.db")
    'sqlite:///barbu.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, full synchronous commits and foreign keys.

    A SQLite write waits :data:`LOCK_WAIT` seconds for another process's lock (``?timeout=S``
    in the URL sets it); a PostgreSQL connection is given up after :data:`CONNECT_TIMEOUT`
    seconds, and a pooled connection is checked before use, so the store reconnects by
    itself once the server is back.
    """
    url = database_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        try:
            given = parsed.query.get("timeout", str(LOCK_WAIT))
            wait = float(given if isinstance(given, str) else given[-1])
        except ValueError:
            raise StoreError(
                f"timeout={parsed.query['timeout']} in the database URL is not a number of seconds"
            ) from None
        engine = create_engine(
            parsed.difference_update_query(["timeout"]),
            connect_args={"check_same_thread": False, "timeout": wait},
            poolclass=StaticPool if memory else None,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
                # checkpoints run from Store.checkpoint on a thread of their own, never inside a commit
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if parsed.get_backend_name() == "postgresql":
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise StoreError("PostgreSQL needs the psycopg driver: pip install 'psycopg[binary]'") from None
        return create_engine(
            url,
            pool_size=5,
            max_overflow=5,
            pool_pre_ping=True,
            # a connection that stops answering (no reset, no reply) fails within seconds, not hours
            connect_args={
                "connect_timeout": CONNECT_TIMEOUT,
                "keepalives": 1,
                "keepalives_idle": 10,
                "keepalives_interval": 5,
                "keepalives_count": 3,
                "tcp_user_timeout": 20_000,
            },
        )
    return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


class Store:
    """The tables, seats and action logs in one database (thread-safe; calls block)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        compiled = insert(actions).compile(dialect=self.engine.dialect)
        self._action_insert = str(compiled)
        """The action log's INSERT in the database's own SQL, compiled once: each commit of the
        journal hands it to the driver with its rows (one ``executemany``), without building and
        compiling a statement per commit (about a third of a commit's CPU on SQLite)."""
        self._action_positional = bool(compiled.positional)

    @contextmanager
    def writing(self, doing: str) -> Iterator[Connection]:
        """A transaction, committed when the block ends; any database failure in it is a
        :class:`StoreError` saying that ``doing`` did not happen (and none of it did).

        >>> store = Store("sqlite://"); store.migrate()
        >>> with store.writing("nothing at all") as conn:
        ...     conn.exec_driver_sql("SELECT nothing FROM nowhere")
        Traceback (most recent call last):
        ...
        barbu.storage.StoreError: the database is not answering, so nothing at all did not happen: try again in a moment
        """
        with _storing(doing), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def reading(self, doing: str) -> Iterator[Connection]:
        """A connection for reads; any database failure is a :class:`StoreError` naming ``doing``."""
        with _storing(doing), self.engine.connect() as conn:
            yield conn

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision."""
        from alembic import command
        from alembic.config import Config

        check_sqlite_file(self.url)
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except (SQLAlchemyError, OSError) as e:
            where = make_url(database_url(self.url)).render_as_string(hide_password=True)
            text = str(getattr(e, "orig", None) or e).lower()
            if "not a database" in text or "malformed" in text:
                raise StoreError(f"{where} is damaged or is not a SQLite database: give --db another file") from None
            raise StoreError(
                f"cannot open the database {where}: no connection (is it running, and may this user use it?)"
            ) from None

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log into the database file (PASSIVE: writers go on meanwhile).

        Commits never checkpoint themselves (``wal_autocheckpoint=0``), so the flush of the
        database file stays off the path of an action's acknowledgement. Nothing to do on PostgreSQL.
        """
        if self.engine.dialect.name == "sqlite" and make_url(self.engine.url).database not in (None, "", ":memory:"):
            with self.reading("the checkpoint") as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------

    def create_table(
        self,
        table: TableRow,
        seat_rows: Sequence[SeatRow],
        invitations: Mapping[int, str] | None = None,
        creator_browser: str | None = None,
    ) -> None:
        """Store a new table and its seats in one transaction.

        ``invitations`` are the people's seat keys, kept for ``creator_browser`` (a cookie's
        hash) to list until each seat is claimed (:meth:`claim_seat`, :meth:`invitations`).
        """
        with self.writing("creating the table") as conn:
            conn.execute(
                insert(tables).values(
                    id=table.id,
                    variant=table.variant,
                    options=json.dumps(table.options),
                    seed=table.seed,
                    first_declarer=table.first_declarer,
                    creator=table.creator,
                    created=table.created,
                    status=table.status,
                    finished=table.finished,
                )
            )
            conn.execute(
                insert(seats),
                [
                    {
                        "table_id": table.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "bot_level": s.bot_level,
                        "credential_hash": s.credential_hash,
                        "name": s.name,
                        "joined": s.joined,
                    }
                    for s in seat_rows
                ],
            )
            if invitations:
                conn.execute(
                    insert(seat_claims),
                    [{"table_id": table.id, "seat": n, "invitation": key} for n, key in sorted(invitations.items())],
                )
            if creator_browser is not None:
                conn.execute(insert(table_creators).values(table_id=table.id, browser=creator_browser))

    def append_actions(self, rows: Iterable[ActionRow], statuses: Iterable[tuple[str, str, float | None]] = ()) -> None:
        """Append actions and status changes ``(table_id, status, finished)`` in ONE committed transaction."""
        rows = list(rows)
        with self.writing("the action") as conn:
            if rows:
                values = [
                    (r.table_id, r.seq, r.seat, json.dumps(r.intent, separators=(",", ":")), r.action_id, r.actor)
                    for r in rows
                ]
                if not self._action_positional:  # named parameters (PostgreSQL's driver)
                    values = [dict(zip(_ACTION_COLUMNS, v, strict=True)) for v in values]  # type: ignore[misc]
                conn.exec_driver_sql(self._action_insert, values)
            for table_id, status, finished in statuses:
                conn.execute(update(tables).where(tables.c.id == table_id).values(status=status, finished=finished))

    def set_status(self, table_id: str, status: str, finished: float | None = None) -> None:
        """Change a table's status (``open``, ``playing``, ``finished``, ``abandoned``)."""
        self.append_actions((), [(table_id, status, finished)])

    def seat_joined(self, table_id: str, seat: int, name: str | None, status: str | None = None) -> None:
        """Remember that a person took the seat (and the name they gave); with ``status``, the table's new status.

        Both in one transaction: either the seat is taken (and the table started) or nothing changed.
        """
        with self.writing("taking the seat") as conn:
            conn.execute(
                update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat).values(joined=True, name=name)
            )
            if status is not None:
                conn.execute(update(tables).where(tables.c.id == table_id).values(status=status))

    def claim_seat(self, table_id: str, seat: int, holder: str) -> None:
        """Give the seat to the browser ``holder`` (a cookie's hash); its invitation is spent."""
        with self.writing("taking the seat") as conn:
            where = (seat_claims.c.table_id == table_id) & (seat_claims.c.seat == seat)
            done = conn.execute(update(seat_claims).where(where).values(holder=holder, invitation=None))
            if done.rowcount == 0:  # a table made before claims existed
                conn.execute(insert(seat_claims).values(table_id=table_id, seat=seat, holder=holder))

    # -- reading -------------------------------------------------------------------

    def seat_holders(self, table_id: str) -> dict[int, str]:
        """The browser (a cookie's hash) holding each claimed seat of the table."""
        with self.reading("opening the table") as conn:
            return _holders(conn, [table_id]).get(table_id, {})

    def invitations(self, table_id: str, browser: str | None) -> dict[int, str] | None:
        """The unclaimed seats' keys if ``browser`` (a cookie's hash) created the table, else None."""
        with self.reading("reading the invitations") as conn:
            creator = conn.execute(
                select(table_creators.c.browser).where(table_creators.c.table_id == table_id)
            ).scalar_one_or_none()
            if creator is None or browser is None or creator != browser:
                return None
            found = conn.execute(
                select(seat_claims.c.seat, seat_claims.c.invitation)
                .where(seat_claims.c.table_id == table_id, seat_claims.c.invitation.is_not(None))
                .order_by(seat_claims.c.seat)
            )
            return {int(r.seat): str(r.invitation) for r in found}

    def load_table(self, table_id: str) -> StoredTable | None:
        """The table with its seats and its whole action log in order, or None."""
        with self.reading("opening the table") as conn:
            return _load_tables(conn, [table_id]).get(table_id)

    def load_tables(self, table_ids: Sequence[str]) -> tuple[dict[str, StoredTable], dict[str, dict[int, str]]]:
        """Several tables at once, in one read (a query per kind of row, not per table): each
        table found with its seats and its whole action log in order, and the browser holding
        each claimed seat of each (:meth:`seat_holders`). Tables that do not exist are absent.

        >>> store = Store("sqlite://"); store.migrate()
        >>> store.load_tables(["nowhere"])
        ({}, {})
        """
        ids = list(dict.fromkeys(table_ids))
        if not ids:
            return {}, {}
        with self.reading("opening the table") as conn:
            out = _load_tables(conn, ids)
            return out, (_holders(conn, list(out)) if out else {})

    def list_tables(self, status: str, limit: int = 50) -> list[tuple[TableRow, list[SeatRow], int]]:
        """Tables with ``status``, newest first, each with its seats and its number of actions."""
        with self.reading("listing the tables") as conn:
            counts = select(actions.c.table_id, func.count().label("n")).group_by(actions.c.table_id).subquery("counts")
            found = conn.execute(
                select(tables, counts.c.n)
                .outerjoin(counts, counts.c.table_id == tables.c.id)
                .where(tables.c.status == status)
                .order_by(tables.c.created.desc(), tables.c.id)
                .limit(limit)
            ).mappings()
            rows = [(_table_row(r), int(r["n"] or 0)) for r in found]
            if not rows:
                return []
            ids = [t.id for t, _ in rows]
            by_table: dict[str, list[SeatRow]] = {i: [] for i in ids}
            for s in conn.execute(
                select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.table_id, seats.c.seat)
            ).mappings():
                by_table[s["table_id"]].append(_seat_row(s))
            return [(t, by_table[t.id], n) for t, n in rows]

    def delete_table(self, table_id: str) -> bool:
        """Delete a table, its seats, claims, creator and action log in one transaction; False if there was none."""
        with self.writing("deleting the table") as conn:
            for child in (actions, seat_claims, table_creators, seats):
                conn.execute(delete(child).where(child.c.table_id == table_id))
            return bool(conn.execute(delete(tables).where(tables.c.id == table_id)).rowcount == 1)

    def table_creator(self, table_id: str) -> str | None:
        """The browser that created the table (its cookie's hash), or None (a table made before creators were kept)."""
        with self.reading("reading the table's owner") as conn:
            found = conn.execute(
                select(table_creators.c.browser).where(table_creators.c.table_id == table_id)
            ).scalar_one_or_none()
            return str(found) if found is not None else None

    def tables_of_browser(self, browser: str, limit: int = 50) -> list[tuple[TableRow, int | None, bool]]:
        """The tables where ``browser`` (a cookie's hash) holds a seat or that it created, newest
        first: each with the seat it holds (None: none) and whether it created the table."""
        with self.reading("listing the tables") as conn:
            held = {
                str(r.table_id): int(r.seat)
                for r in conn.execute(
                    select(seat_claims.c.table_id, seat_claims.c.seat).where(seat_claims.c.holder == browser)
                )
            }
            made = {
                str(r.table_id)
                for r in conn.execute(select(table_creators.c.table_id).where(table_creators.c.browser == browser))
            }
            ids = set(held) | made
            if not ids:
                return []
            found = conn.execute(
                select(tables).where(tables.c.id.in_(ids)).order_by(tables.c.created.desc(), tables.c.id).limit(limit)
            ).mappings()
            return [(_table_row(r), held.get(r["id"]), r["id"] in made) for r in found]

    def unfinished_tables_of(self, creator: str) -> int:
        """How many tables ``creator`` made that are not finished (an abandoned table is done with)."""
        with self.reading("creating the table") as conn:
            mine = (tables.c.creator == creator) & tables.c.status.not_in(("finished", "abandoned"))
            n = conn.execute(select(func.count()).select_from(tables).where(mine)).scalar_one()
            return int(n)


def _table_row(r: Any) -> TableRow:
    return TableRow(
        r["id"],
        r["variant"],
        json.loads(r["options"]),
        r["seed"],
        r["first_declarer"],
        r["creator"],
        r["created"],
        r["status"],
        r["finished"],
    )


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(s["seat"], s["kind"], s["bot_level"], s["credential_hash"], s["name"], bool(s["joined"]))


def _load_tables(conn: Connection, table_ids: list[str]) -> dict[str, StoredTable]:
    """Each of ``table_ids`` found, with its seats and its whole action log in order (a query per
    kind of row); a log row that is not JSON is a :class:`StoreError` (``refused``: the database
    answers, this table's log is damaged)."""
    out: dict[str, StoredTable] = {}
    for row in conn.execute(select(tables).where(tables.c.id.in_(table_ids))).mappings():
        out[row["id"]] = StoredTable(_table_row(row), [])
    if not out:
        return out
    found = list(out)
    for s in conn.execute(
        select(seats).where(seats.c.table_id.in_(found)).order_by(seats.c.table_id, seats.c.seat)
    ).mappings():
        out[s["table_id"]].seats.append(_seat_row(s))
    for a in conn.execute(
        select(actions).where(actions.c.table_id.in_(found)).order_by(actions.c.table_id, actions.c.seq)
    ).mappings():
        t = a["table_id"]
        try:
            action = json.loads(a["action"])
        except ValueError:
            raise StoreError(
                f"action {a['seq']} of table {t} is damaged in the database (it is not JSON), "
                "so opening the table did not happen",
                refused=True,
                text=N_("the database file is damaged, so nothing changed: try again in a moment"),
            ) from None
        out[t].actions.append(ActionRow(t, a["seq"], a["seat"], action, a["action_id"], a["actor"]))
    return out


def _holders(conn: Connection, table_ids: list[str]) -> dict[str, dict[int, str]]:
    """The browser holding each claimed seat of each of ``table_ids`` (tables with none absent)."""
    out: dict[str, dict[int, str]] = {}
    for r in conn.execute(
        select(seat_claims.c.table_id, seat_claims.c.seat, seat_claims.c.holder).where(
            seat_claims.c.table_id.in_(table_ids), seat_claims.c.holder.is_not(None)
        )
    ):
        out.setdefault(str(r.table_id), {})[int(r.seat)] = str(r.holder)
    return out


# The club's tables (accounts, ratings...) are part of the one schema: defined on ``metadata`` when
# the store is imported, whatever imports it first, so that ``metadata`` always matches the migrations.
from barbu.storage import club as club  # noqa: E402

__all__ = [
    "ActionRow",
    "SeatRow",
    "Store",
    "StoreError",
    "StoredTable",
    "TableRow",
    "check_sqlite_file",
    "club",
    "database_url",
    "make_engine",
    "metadata",
    "seat_claims",
    "sheet_changes",
    "sheet_links",
    "sheets",
    "table_creators",
]
