"""The lobby: the rule sets a table may use, creating a table from its settings, listing tables.

>>> [r["name"] for r in rule_sets()][:2]
['classic', 'ravage-city']
>>> check_spec({"variant": "king", "seats": [{"kind": "human"}] * 3})
Traceback (most recent call last):
...
barbu.server.protocol.ProtocolError: bad_request: seats must list 4 seats for king, one object per seat
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from barbu.bots import offered_levels
from barbu.errors import OptionsError
from barbu.game import Game
from barbu.language import _, _p, error_text, tally_words
from barbu.names import NAME_LIMIT, TextError, check_text
from barbu.rulesets import CHOICE_HELP, FLAG_CHOICES, FLAG_HELP, FLAG_NAMES, RULE_SETS, applicable_flags, rules
from barbu.server.protocol import ProtocolError, check_table_id
from barbu.server.tables import TableService, credential_hash
from barbu.storage import SeatRow, StoreError, TableRow
from barbu.tally_keys import tally_table


@dataclass(frozen=True)
class NewTable:
    """A created table: its id and the credential of each person's seat (shown once)."""

    id: str
    credentials: dict[int, str]


def rule_sets() -> list[dict[str, Any]]:
    """Every rule set with its player counts, number of deals, the flags that apply to it
    (:func:`~barbu.rulesets.applicable_flags` at any of its player counts), its contracts'
    ids and titles, and per player count the labels and totals of the tally keys: the
    pages write no word of Barbu of their own. Titles, labels and the flags' meanings
    (``help``, ``choice_help``) are in the language of the moment.

    >>> [r["name"] for r in rule_sets()][:2]
    ['classic', 'ravage-city']
    >>> rule_sets()[0]["contracts"][2]
    {'id': 'no-queens', 'title': 'No queens'}
    """
    out = []
    for name, rs in RULE_SETS.items():
        by_count = {n: rules(name, {"player_count": n} if len(rs.player_counts) > 1 else {}) for n in rs.player_counts}
        base = by_count[rs.player_counts[0]]
        applicable = set().union(*(applicable_flags(r) for r in by_count.values()))
        flags = []
        for f in FLAG_NAMES:
            if f not in applicable:
                continue
            default = getattr(base.flags, f)
            kind = "choice" if f in FLAG_CHOICES else type(default).__name__
            flags.append(
                {
                    "name": f,
                    "kind": {"tuple": "list"}.get(kind, kind),
                    "default": list(default) if isinstance(default, tuple) else default,
                    "choices": list(FLAG_CHOICES.get(f, ())),
                    "help": _p("flag", FLAG_HELP[f]),
                    "choice_help": {c: _p("flag", CHOICE_HELP[f"{f}={c}"]) for c in FLAG_CHOICES.get(f, ())},
                }
            )
        out.append(
            {
                "name": name,
                "title": _p("variant", rs.title),
                "blurb": _p("variant", rs.blurb),
                "players": list(rs.player_counts),
                "deals": {str(n): r.deal_count for n, r in by_count.items()},
                "flags": flags,
                "contracts": [
                    {"id": c.id, "title": _p("contract", c.title)} for c in base.ruleset.all_contracts(base.players)
                ],
                "tally": {
                    str(n): tally_words(tally_table(r.deck, r.cards_each), r.cards_each) for n, r in by_count.items()
                },
            }
        )
    return out


async def create_table(
    service: TableService, spec: Mapping[str, Any], creator: str, browser: str | None = None
) -> NewTable:
    """Create a table from the lobby's settings; raise ``bad_request`` or ``table_limit``.

    ``creator`` is the client's address (for the per-client limit); ``browser``, the hash of
    the creating browser's cookie, may list the invitations until their seats are claimed.
    """
    variant, options, seat_rows = check_spec(spec)
    credentials: dict[int, str] = {}
    final_rows = []
    for s in seat_rows:
        if s.kind == "human":
            key = secrets.token_urlsafe(18)
            credentials[s.seat] = key
            s = SeatRow(s.seat, s.kind, None, credential_hash(key), s.name)
        final_rows.append(s)
    limit = service.settings.limits.tables_per_client
    try:
        unfinished = await asyncio.to_thread(service.store.unfinished_tables_of, creator)
    except StoreError as e:
        raise ProtocolError("storage", error_text(e)) from None
    if unfinished >= limit:
        raise ProtocolError(
            "table_limit",
            _("a client may have {limit} unfinished tables at once; finish or leave one first", limit=limit),
        )
    table_id = secrets.token_urlsafe(6)
    seed = secrets.token_hex(16)
    first = Game.new(variant, options, seed).first_declarer
    status = "playing" if not credentials else "open"
    row = TableRow(table_id, variant, options, seed, first, creator, time.time(), status)
    try:
        await asyncio.to_thread(service.store.create_table, row, final_rows, credentials, browser)
    except StoreError as e:
        raise ProtocolError("storage", error_text(e)) from None
    return NewTable(table_id, credentials)


async def list_tables(service: TableService, status: str, limit: int = 50) -> list[dict[str, Any]]:
    """Tables with ``status`` (``open``, ``playing``, ``finished``) for the lobby."""
    try:
        found = await asyncio.to_thread(service.store.list_tables, status, limit)
    except StoreError as e:
        raise ProtocolError("storage", error_text(e)) from None
    out = []
    connected = await service.online([t.id for t, _seats, _n in found])
    for t, seat_rows, n in found:
        r = rules(t.variant, t.options)
        online = connected.get(t.id, set())
        out.append(
            {
                "id": t.id,
                "variant": t.variant,
                "options": t.options,
                "status": t.status,
                "created": t.created,
                "finished": t.finished,
                "actions": n,
                "deals": r.deal_count,
                "seats": [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.bot_level,
                        "name": s.name,
                        "joined": s.joined or s.kind == "bot",
                        "online": s.kind == "bot" or s.seat in online,
                    }
                    for s in seat_rows
                ],
            }
        )
    return out


async def rematch(service: TableService, table_id: str, creator: str, holder: str | None) -> dict[str, Any]:
    """A new table with the same rule set, house rules and seats as the finished ``table_id``,
    asked by a browser that holds one of its seats (``holder``; anyone else: ``bad_credential``).

    Every person's seat of the new table is given at once to the browser that held it, so each
    player reaches their seat with ``/t/NEW#seat=N`` (no new link to pass around); everyone at the
    old table is told (a ``rematch`` frame). It counts against the asker's unfinished tables.
    """
    stored = await asyncio.to_thread(service.store.load_table, check_table_id(table_id))
    if stored is None:
        raise ProtocolError("unknown_table", _("there is no table {table}", table=repr(table_id)))
    if stored.table.status != "finished":
        raise ProtocolError("not_finished", _("a rematch is offered once the game is over"))
    holders = await asyncio.to_thread(service.store.seat_holders, table_id)
    if holder is None or holder not in holders.values():
        raise ProtocolError("bad_credential", _("only a player of this table may ask for a rematch"))
    seats = [
        {"kind": "bot", "level": s.bot_level} if s.kind == "bot" else {"kind": "human", "name": s.name}
        for s in stored.seats
    ]
    spec: dict[str, Any] = {"variant": stored.table.variant, "options": stored.table.options, "seats": seats}
    made = await create_table(service, spec, creator, holder)
    try:
        for seat, h in sorted(holders.items()):
            await asyncio.to_thread(service.store.claim_seat, made.id, seat, h)
    except StoreError as e:
        raise ProtocolError("storage", error_text(e)) from None
    mine = next(seat for seat, h in sorted(holders.items()) if h == holder)
    live = service.live.get(table_id)
    if live is not None:
        live.tell({"type": "rematch", "table": made.id})
    return {"table": made.id, "seat": mine, "link": f"/t/{made.id}#seat={mine}"}


async def my_tables(service: TableService, holder: str | None) -> list[dict[str, Any]]:
    """The tables of this browser (``holder``, its cookie's hash): the seat it holds in each, with
    the address that brings it back to that seat, and whether it created the table (it may then
    delete it while the game is not over, :mod:`barbu.server.owners`). No cookie: none."""
    if holder is None:
        return []
    try:
        found = await asyncio.to_thread(service.store.tables_of_browser, holder)
    except StoreError as e:
        raise ProtocolError("storage", error_text(e)) from None
    return [
        {
            "id": t.id,
            "variant": t.variant,
            "status": t.status,
            "created": t.created,
            "seat": seat,
            "owner": owner,
            "link": f"/t/{t.id}" + ("" if seat is None else f"#seat={seat}"),
        }
        for t, seat, owner in found
    ]


def check_spec(spec: Mapping[str, Any]) -> tuple[str, dict[str, Any], list[SeatRow]]:
    """Check the lobby's table settings: a rule set, its options, and one entry per seat."""
    if not isinstance(spec, Mapping):
        raise ProtocolError("bad_request", _("the table settings must be a JSON object"))
    variant = spec.get("variant", "classic")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise ProtocolError(
            "bad_request", _("options must be an object of flags, e.g. {example}", example='{"rotation": "quick"}')
        )
    try:
        r = rules(variant, options)
    except OptionsError as e:
        raise ProtocolError("bad_request", error_text(e)) from None
    raw_seats = spec.get("seats")
    if raw_seats is None:
        raw_seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (r.players - 1)
    if not isinstance(raw_seats, list) or len(raw_seats) != r.players:
        raise ProtocolError(
            "bad_request",
            _("seats must list {n} seats for {variant}, one object per seat", n=r.players, variant=variant),
        )
    out = []
    for i, s in enumerate(raw_seats):
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise ProtocolError("bad_request", _('seat {n}: kind must be "human" or "bot"', n=i))
        try:
            name = check_text(s.get("name") or "", _("seat {n} name", n=i), NAME_LIMIT, required=False) or None
        except TextError as e:
            raise ProtocolError("bad_request", error_text(e)) from None
        if s["kind"] == "bot":
            level = s.get("level", "random")
            if not isinstance(level, str) or level not in offered_levels():
                levels = ", ".join(offered_levels())
                raise ProtocolError(
                    "bad_request",
                    _("seat {n}: unknown bot level {level}; levels: {levels}", n=i, level=repr(level), levels=levels),
                )
            out.append(SeatRow(i, "bot", level, name=name))
        else:
            out.append(SeatRow(i, "human", name=name))
    return variant, dict(options), out


__all__ = ["NewTable", "check_spec", "create_table", "list_tables", "rule_sets"]
