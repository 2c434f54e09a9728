"""The club's tables: accounts, their sessions, rated tables, ratings and their history.

Defined on the store's :data:`barbu.storage.metadata` (Alembic revision ``v0005``):

- :data:`accounts`: a player's name (shown), its case-folded form (unique), the argon2 hash of
  the password (never the password) and the preferences (language, sounds, card style) as JSON;
- :data:`sessions`: one row per logged-in browser, holding the SHA-256 of the session cookie;
- :data:`club_tables`: whether a table is rated, and what became of its rating
  (``pending``, ``rated``, or ``unrated`` with the reason);
- :data:`table_accounts`: which account sat at which seat, with the seat's key so the seat
  follows the account to another device;
- :data:`sheet_accounts`: the score sheets an account created, with their owner keys;
- :data:`ratings` and :data:`rating_history`: a player's rating per rule set (``a:ID`` for an
  account, ``bot:LEVEL`` for a bot level) and each change a game made to it.

>>> sorted(t for t in metadata.tables if t in CLUB_TABLES)
['accounts', 'club_tables', 'rating_history', 'ratings', 'sessions', 'sheet_accounts', 'table_accounts']
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)

from barbu.storage import Store, StoreError, actions, metadata, seats, sheets, tables

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),
    Column("password", String(200), nullable=False),
    Column("created", Float, nullable=False),
    Column("prefs", Text, nullable=False, default="{}"),
)
"""One row per account: ``password`` is an argon2 hash; ``name_key`` the name case-folded (unique)."""

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", String(24), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", Float, nullable=False),
)
"""A logged-in browser: the SHA-256 of its ``barbu_session`` cookie (the cookie is never stored)."""

club_tables = Table(
    "club_tables",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("reason", Text, nullable=True),
    Column("quick", Boolean, nullable=False, default=False),
)
"""A table made by the club's routes: rated or not, and ``outcome`` ``pending``, ``rated`` or ``unrated``."""

table_accounts = Table(
    "table_accounts",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("account_id", String(24), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("key", String(64), nullable=True),
)
"""The account that sits at a seat, and the seat's key (as secret as the table's seed beside it)."""

ratings = Table(
    "ratings",
    metadata,
    Column("player", String(48), primary_key=True),
    Column("variant", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
"""A player's rating in one rule set (Weng-Lin, Plackett-Luce): ``a:ACCOUNT`` or ``bot:LEVEL``."""

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(48), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("at", Float, nullable=False, index=True),
    Column("rank", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ix_rating_history_player", "player", "variant"),
)
"""Each rated game's change to each of its players: the rating after it and the place taken."""


@dataclass(frozen=True)
class Account:
    """An account as stored (``password`` is the argon2 hash)."""

    id: str
    name: str
    password: str
    created: float
    prefs: dict[str, Any]


@dataclass(frozen=True)
class Rating:
    """A player's rating in one rule set."""

    player: str
    variant: str
    mu: float
    sigma: float
    games: int
    updated: float


@dataclass(frozen=True)
class Change:
    """One rated game's effect on one player: the rating after it and the place taken."""

    player: str
    rank: int
    mu: float
    sigma: float


class NameTaken(StoreError):
    """Another account has this name (compared case-folded)."""


class ClubStore:
    """The club's reads and writes on a :class:`~barbu.storage.Store`'s database (blocking calls).

    >>> store = Store("sqlite://")
    >>> store.migrate()
    >>> club = ClubStore(store)
    >>> club.create_account("a1", "Anne", "anne", "$argon2id$…").name
    'Anne'
    >>> club.account_by_name("ANNE").id
    'a1'
    """

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- accounts --------------------------------------------------------------------

    def create_account(self, account_id: str, name: str, name_key: str, password: str) -> Account:
        """Store a new account; :class:`NameTaken` if the name is in use."""
        now = time.time()
        try:
            with self.store.writing("creating the account") as conn:
                taken = conn.execute(select(accounts.c.id).where(accounts.c.name_key == name_key)).first()
                if taken is not None:
                    raise NameTaken(f"the name {name!r} is taken: choose another", refused=True)
                conn.execute(
                    insert(accounts).values(
                        id=account_id, name=name, name_key=name_key, password=password, created=now, prefs="{}"
                    )
                )
        except StoreError as e:
            if e.refused and not isinstance(e, NameTaken):
                raise NameTaken(f"the name {name!r} is taken: choose another", refused=True) from None
            raise
        return Account(account_id, name, password, now, {})

    def account_by_name(self, name_key: str) -> Account | None:
        """The account with this case-folded name."""
        with self.store.reading("finding the account") as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == name_key.casefold())).mappings().first()
            return _account(row) if row is not None else None

    def account(self, account_id: str) -> Account | None:
        """The account with this id."""
        with self.store.reading("finding the account") as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).mappings().first()
            return _account(row) if row is not None else None

    def names(self, account_ids: Iterable[str]) -> dict[str, str]:
        """The shown name of each account id."""
        ids = list(set(account_ids))
        if not ids:
            return {}
        with self.store.reading("reading the names") as conn:
            rows = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
            return {str(r.id): str(r.name) for r in rows}

    def set_password(self, account_id: str, password: str, keep_session: str | None) -> None:
        """Store a new password hash and end every session of the account but ``keep_session``."""
        with self.store.writing("changing the password") as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(password=password))
            others = sessions.c.account_id == account_id
            if keep_session is not None:
                others = others & (sessions.c.token_hash != keep_session)
            conn.execute(delete(sessions).where(others))

    def set_prefs(self, account_id: str, prefs: dict[str, Any]) -> None:
        """Replace the account's preferences."""
        with self.store.writing("saving the preferences") as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(prefs=json.dumps(prefs)))

    # -- sessions --------------------------------------------------------------------

    def open_session(self, token_hash: str, account_id: str, replaces: str | None) -> None:
        """Start a session (and end the one it replaces: a fresh cookie at every log-in)."""
        with self.store.writing("logging in") as conn:
            if replaces is not None:
                conn.execute(delete(sessions).where(sessions.c.token_hash == replaces))
            conn.execute(insert(sessions).values(token_hash=token_hash, account_id=account_id, created=time.time()))

    def session_account(self, token_hash: str, max_age: float) -> Account | None:
        """The account of a live session (younger than ``max_age`` seconds), or None."""
        with self.store.reading("reading the session") as conn:
            row = (
                conn.execute(
                    select(accounts)
                    .join(sessions, sessions.c.account_id == accounts.c.id)
                    .where(sessions.c.token_hash == token_hash, sessions.c.created > time.time() - max_age)
                )
                .mappings()
                .first()
            )
            return _account(row) if row is not None else None

    def close_session(self, token_hash: str) -> None:
        """End a session."""
        with self.store.writing("logging out") as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    # -- tables of the club ------------------------------------------------------------

    def mark_table(self, table_id: str, rated: bool, quick: bool, seated: dict[int, tuple[str, str | None]]) -> None:
        """Record a club table: rated or not, and the account (with the seat's key) at each seat."""
        with self.store.writing("creating the table") as conn:
            conn.execute(
                insert(club_tables).values(
                    table_id=table_id, rated=rated, outcome="pending" if rated else "unrated", quick=quick
                )
            )
            for seat, (account_id, key) in seated.items():
                conn.execute(
                    insert(table_accounts).values(table_id=table_id, seat=seat, account_id=account_id, key=key)
                )

    def seat_account(self, table_id: str, seat: int, account_id: str, key: str | None) -> None:
        """The account takes the seat (the first account to claim a seat keeps it)."""
        try:
            with self.store.writing("recording the seat") as conn:
                where = (table_accounts.c.table_id == table_id) & (table_accounts.c.seat == seat)
                if conn.execute(select(table_accounts.c.account_id).where(where)).first() is None:
                    conn.execute(
                        insert(table_accounts).values(table_id=table_id, seat=seat, account_id=account_id, key=key)
                    )
        except StoreError as e:
            if not e.refused:  # a seat claimed at the same moment by another account keeps its first owner
                raise

    def table_outcome(self, table_id: str) -> tuple[bool, str, str | None] | None:
        """(rated, outcome, reason) of a club table, or None for another table."""
        with self.store.reading("reading the table") as conn:
            row = conn.execute(select(club_tables).where(club_tables.c.table_id == table_id)).mappings().first()
            return (bool(row["rated"]), str(row["outcome"]), row["reason"]) if row is not None else None

    def table_seats(self, table_id: str) -> dict[int, str]:
        """The account at each seat of the table that has one."""
        with self.store.reading("reading the table") as conn:
            rows = conn.execute(
                select(table_accounts.c.seat, table_accounts.c.account_id).where(table_accounts.c.table_id == table_id)
            )
            return {int(r.seat): str(r.account_id) for r in rows}

    def actors(self, table_id: str) -> dict[int, tuple[int, int]]:
        """Per seat: (actions chosen by a person, actions a bot played for the seat)."""
        with self.store.reading("reading the table") as conn:
            rows = conn.execute(
                select(actions.c.seat, actions.c.actor, func.count().label("n"))
                .where(actions.c.table_id == table_id)
                .group_by(actions.c.seat, actions.c.actor)
            )
            out: dict[int, tuple[int, int]] = {}
            for r in rows:
                human, bot = out.get(int(r.seat), (0, 0))
                if r.actor == "bot":
                    bot += int(r.n)
                else:
                    human += int(r.n)
                out[int(r.seat)] = (human, bot)
            return out

    def games_together(self, account_ids: Sequence[str], since: float) -> int:
        """How many rated games since ``since`` had every one of these accounts at the table."""
        if not account_ids:
            return 0
        players = [f"a:{a}" for a in account_ids]
        with self.store.reading("reading the ratings") as conn:
            found = (
                select(rating_history.c.table_id)
                .where(rating_history.c.player.in_(players), rating_history.c.at >= since)
                .group_by(rating_history.c.table_id)
                .having(func.count(func.distinct(rating_history.c.player)) == len(set(players)))
            ).subquery()
            return int(conn.execute(select(func.count()).select_from(found)).scalar_one())

    def ratings_of(self, variant: str, players: Iterable[str]) -> dict[str, Rating]:
        """The stored ratings of these players in ``variant`` (players never rated are absent)."""
        wanted = list(set(players))
        with self.store.reading("reading the ratings") as conn:
            rows = conn.execute(select(ratings).where(ratings.c.variant == variant, ratings.c.player.in_(wanted)))
            return {str(r.player): _rating(r._mapping) for r in rows}

    def settle(self, table_id: str, variant: str, changes: Sequence[Change] | None, reason: str | None) -> bool:
        """Write a finished table's outcome once: the players' new ratings, or why it is unrated.

        Returns False (and writes nothing) when the table was settled already.
        """
        now = time.time()
        with self.store.writing("rating the game") as conn:
            done = conn.execute(
                update(club_tables)
                .where(club_tables.c.table_id == table_id, club_tables.c.outcome == "pending")
                .values(outcome="rated" if changes is not None else "unrated", reason=reason)
            )
            if done.rowcount != 1:
                return False
            for c in changes or ():
                where = (ratings.c.player == c.player) & (ratings.c.variant == variant)
                old = conn.execute(select(ratings.c.games).where(where)).first()
                if old is None:
                    conn.execute(
                        insert(ratings).values(
                            player=c.player, variant=variant, mu=c.mu, sigma=c.sigma, games=1, updated=now
                        )
                    )
                else:
                    conn.execute(
                        update(ratings)
                        .where(where)
                        .values(mu=c.mu, sigma=c.sigma, games=int(old.games) + 1, updated=now)
                    )
                conn.execute(
                    insert(rating_history).values(
                        player=c.player, variant=variant, table_id=table_id, at=now, rank=c.rank, mu=c.mu, sigma=c.sigma
                    )
                )
            return True

    def ladder(self, variant: str, since: float | None, limit: int) -> list[tuple[Rating, int]]:
        """Players of ``variant`` with their rating and games played (since ``since``, or ever), best first.

        Ordered by the conservative estimate ``mu - 3 sigma``.
        """
        with self.store.reading("reading the ladder") as conn:
            if since is None:
                rows = conn.execute(
                    select(ratings)
                    .where(ratings.c.variant == variant)
                    .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.player)
                    .limit(limit)
                ).mappings()
                return [(_rating(r), int(r["games"])) for r in rows]
            recent = (
                select(rating_history.c.player, func.count().label("n"))
                .where(rating_history.c.variant == variant, rating_history.c.at >= since)
                .group_by(rating_history.c.player)
                .subquery()
            )
            rows = conn.execute(
                select(ratings, recent.c.n)
                .join(recent, recent.c.player == ratings.c.player)
                .where(ratings.c.variant == variant)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.player)
                .limit(limit)
            ).mappings()
            return [(_rating(r), int(r["n"])) for r in rows]

    def history(self, player: str, limit: int = 500) -> list[dict[str, Any]]:
        """A player's rating changes, oldest first, across rule sets."""
        with self.store.reading("reading the ratings") as conn:
            rows = conn.execute(
                select(rating_history)
                .where(rating_history.c.player == player)
                .order_by(rating_history.c.at.desc(), rating_history.c.id.desc())
                .limit(limit)
            ).mappings()
            out = [
                {
                    "variant": r["variant"],
                    "table": r["table_id"],
                    "at": r["at"],
                    "rank": r["rank"],
                    "mu": r["mu"],
                    "sigma": r["sigma"],
                }
                for r in rows
            ]
            return out[::-1]

    def ratings_by_player(self, player: str) -> list[Rating]:
        """A player's rating in every rule set played."""
        with self.store.reading("reading the ratings") as conn:
            rows = conn.execute(select(ratings).where(ratings.c.player == player).order_by(ratings.c.variant))
            return [_rating(r._mapping) for r in rows]

    def games_of(self, account_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """The account's tables, newest first: rule set, status, seat, the seat's key while unfinished, rated or not."""
        with self.store.reading("reading the games") as conn:
            rows = conn.execute(
                select(
                    tables.c.id,
                    tables.c.variant,
                    tables.c.status,
                    tables.c.created,
                    tables.c.finished,
                    table_accounts.c.seat,
                    table_accounts.c.key,
                    club_tables.c.rated,
                    club_tables.c.outcome,
                    club_tables.c.reason,
                )
                .join(table_accounts, table_accounts.c.table_id == tables.c.id)
                .outerjoin(club_tables, club_tables.c.table_id == tables.c.id)
                .where(table_accounts.c.account_id == account_id)
                .order_by(tables.c.created.desc(), tables.c.id)
                .limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

    def bot_seats(self, table_id: str) -> dict[int, str]:
        """The bot level at each bot seat of a table."""
        with self.store.reading("reading the table") as conn:
            rows = conn.execute(
                select(seats.c.seat, seats.c.bot_level).where(seats.c.table_id == table_id, seats.c.kind == "bot")
            )
            return {int(r.seat): str(r.bot_level) for r in rows}

    def own_sheet(self, sheet_id: str, account_id: str, key: str) -> None:
        """The account created this sheet: keep its owner key for the account's other devices."""
        with self.store.writing("recording the sheet's owner") as conn:
            conn.execute(insert(sheet_accounts).values(sheet_id=sheet_id, account_id=account_id, key=key))

    def sheets_of(self, account_id: str) -> list[dict[str, Any]]:
        """The sheets the account created, newest first: id, title, updated, owner key."""
        with self.store.reading("reading the sheets") as conn:
            rows = conn.execute(
                select(sheets.c.id, sheets.c.title, sheets.c.updated, sheets.c.variant, sheet_accounts.c.key)
                .join(sheet_accounts, sheet_accounts.c.sheet_id == sheets.c.id)
                .where(sheet_accounts.c.account_id == account_id)
                .order_by(sheets.c.updated.desc())
            ).mappings()
            return [dict(r) for r in rows]

    def ping(self) -> None:
        """Raise :class:`~barbu.storage.StoreError` unless the database answers a query."""
        with self.store.reading("checking the database") as conn:
            conn.execute(select(func.count()).select_from(club_tables).where(club_tables.c.table_id == ""))


def _account(r: Any) -> Account:
    return Account(
        str(r["id"]), str(r["name"]), str(r["password"]), float(r["created"]), json.loads(r["prefs"] or "{}")
    )


def _rating(r: Any) -> Rating:
    return Rating(
        str(r["player"]), str(r["variant"]), float(r["mu"]), float(r["sigma"]), int(r["games"]), float(r["updated"])
    )


sheet_accounts = Table(
    "sheet_accounts",
    metadata,
    Column("sheet_id", String(48), ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", String(24), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("key", String(96), nullable=False),
)
"""A score sheet an account created, with its owner key, so the sheet follows the account."""

CLUB_TABLES = ("accounts", "sessions", "club_tables", "table_accounts", "ratings", "rating_history", "sheet_accounts")

__all__ = [
    "CLUB_TABLES",
    "Account",
    "Change",
    "ClubStore",
    "NameTaken",
    "Rating",
    "accounts",
    "club_tables",
    "rating_history",
    "ratings",
    "sessions",
    "sheet_accounts",
    "table_accounts",
]
