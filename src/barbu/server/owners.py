"""What only a table's creator may do: delete the table before its game is over.

The creator of a table gets an owner key (shown once, in the answer to ``POST /api/tables``);
the table keeps only its hash (``tables.owner_hash``). The owner may delete a table whose game
is not over when no action has been played yet, or when no other person has taken a seat
(a game against bots): deleting a game other people are playing would take it from them.
Everyone connected is told (a ``closed`` frame with the reason), then disconnected with that
reason (close code :data:`CLOSE_DELETED`). Tables stored before owners existed have no owner
key: nobody may delete them from the web.

>>> owner_matches(None, "any key"), owner_matches(credential_hash("k"), "k")
(False, True)
"""

from __future__ import annotations

import asyncio
import hmac

from barbu.server.protocol import ProtocolError, encode
from barbu.server.tables import LiveTable, TableService, credential_hash

CLOSE_DELETED = 4000
"""The WebSocket close code sent to everyone at a table its owner deleted."""
DELETED_REASON = "the table's owner deleted it"


def owner_matches(owner_hash: str | None, key: str | None) -> bool:
    """Whether ``key`` is the owner key whose hash the table keeps (a table without one has no owner)."""
    if owner_hash is None or not key:
        return False
    return hmac.compare_digest(owner_hash, credential_hash(key))


def _people_seated(table: LiveTable) -> list[str]:
    """The names (or seat numbers) of the people who took a seat at the table."""
    return [s.name or f"seat {s.index}" for s in table.seats if s.kind == "human" and s.joined]


async def delete_table(service: TableService, table_id: str, key: str | None) -> None:
    """Delete the table if ``key`` is its owner key and no one else's game would be cut short.

    Raises ``unknown_table``, ``forbidden`` (not the owner's key) or ``in_play`` (the game is
    over, or others play at it); a refusal changes nothing.
    """
    table = await service.get(table_id)
    async with table.lock:
        if table.status == "deleted":
            raise ProtocolError("unknown_table", f"there is no table {table_id!r}: it was just deleted")
        if not owner_matches(table.row.owner_hash, key):
            raise ProtocolError(
                "forbidden",
                "only the table's owner may delete it: send the owner key given when the table was created "
                "(as Authorization: Bearer KEY)",
            )
        if table.game.is_over:
            raise ProtocolError("in_play", "the game is over: a finished table stays, with its record")
        people = _people_seated(table)
        if table.seq > 0 and len(people) > 1:
            raise ProtocolError(
                "in_play",
                f"{', '.join(people)} play at this table and {table.seq} actions were played: a table may be "
                "deleted before its first action, or when no other person sits at it",
            )
        await asyncio.to_thread(service.store.delete_table, table_id)
        table.status = "deleted"
        table.close()
        frame = encode({"type": "closed", "table": table_id, "reason": DELETED_REASON})
        for sub in table.subscribers():
            sub.send(frame)
            sub.close(CLOSE_DELETED, DELETED_REASON)
        if service.live.get(table_id) is table:
            del service.live[table_id]


__all__ = ["CLOSE_DELETED", "DELETED_REASON", "delete_table", "owner_matches"]
