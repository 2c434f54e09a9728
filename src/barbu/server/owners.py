"""What only a table's creator may do: delete the table before its game is over.

The creator of a table is the browser that created it: the server keeps the hash of that
browser's cookie (``barbu_browser``, HttpOnly; :mod:`barbu.server.credentials`) in
``table_creators``, and a program that created a table answers with the same cookie. The
creator may delete a table whose game is not over when no action has been played yet, or when
no other person has taken a seat (a game against bots), or once its players abandoned it
(:meth:`~barbu.server.tables.LiveTable.propose_abandon`): deleting a game other people are
playing would take it from them. Everyone connected is told (a ``closed`` frame with the
reason), then disconnected with that reason. Tables stored before creators were kept have
none: nobody may delete them from the web.

>>> is_creator(None, "a browser"), is_creator("h", None), is_creator("h", "h")
(False, False, True)
"""

from __future__ import annotations

import asyncio
import hmac

from barbu.language import N_, _, error_text
from barbu.server.protocol import ProtocolError, encode
from barbu.server.tables import LiveTable, TableService
from barbu.storage import StoreError

DELETED_REASON = N_("the table's owner deleted it")
"""Why everyone connected is let go (sent in their language: ``_(DELETED_REASON)``)."""


def is_creator(creator: str | None, holder: str | None) -> bool:
    """Whether the browser ``holder`` (its cookie's hash) created the table (``creator``; None: unknown)."""
    if creator is None or holder is None:
        return False
    return hmac.compare_digest(creator, holder)


def _people_seated(table: LiveTable) -> list[str]:
    """The names (or seat numbers) of the people who took a seat at the table."""
    return [s.name or f"seat {s.index}" for s in table.seats if s.kind == "human" and s.joined]


async def delete_table(service: TableService, table_id: str, holder: str | None) -> None:
    """Delete the table if the browser ``holder`` created it and no one else's game would be cut short.

    Raises ``unknown_table``, ``not_creator`` (another browser, or a program without the creator's
    cookie) or ``in_play`` (the game is over, or others play at it); a refusal changes nothing.
    """
    table = await service.get(table_id)
    async with table.lock:
        if table.status == "deleted":
            raise ProtocolError(
                "unknown_table", _("there is no table {table}: it was just deleted", table=repr(table_id))
            )
        try:
            creator = await asyncio.to_thread(service.store.table_creator, table_id)
        except StoreError as e:
            raise ProtocolError("storage", error_text(e)) from None
        if not is_creator(creator, holder):
            raise ProtocolError(
                "not_creator",
                _("only the table's owner, the browser that created it, may delete it; seats and watchers may not"),
            )
        if table.game.is_over:
            raise ProtocolError("in_play", _("the game is over: a finished table stays, with its record"))
        people = _people_seated(table)
        if table.seq > 0 and len(people) > 1 and table.status != "abandoned":
            raise ProtocolError(
                "in_play",
                _(
                    "{people} play at this table and {n} actions were played: a table may be "
                    "deleted before its first action, or when no other person sits at it",
                    people=", ".join(people),
                    n=table.seq,
                ),
            )
        try:
            await asyncio.to_thread(service.store.delete_table, table_id)
        except StoreError as e:
            raise ProtocolError("storage", error_text(e)) from None
        table.status = "deleted"
        table.close()
        frame = encode({"type": "closed", "table": table_id, "reason": _(DELETED_REASON)})
        for sub in table.subscribers():
            sub.send(frame)
            sub.close(DELETED_REASON)
        if service.live.get(table_id) is table:
            del service.live[table_id]


__all__ = ["DELETED_REASON", "delete_table", "is_creator"]
