"""The quick-game queue in Redis, shared by the processes of a cluster (``barbu serve --redis``).

Each entry is the key ``PREFIX:quick:e:ACCOUNT`` (the entry as JSON), and the set
``PREFIX:quick:all`` names the accounts that have one. A key's expiry is the entry's end: a
waiting entry lives :data:`~barbu.server.club.quick.GONE` seconds from the player's last look
(each look extends it), a claimed one as long from its claim (a matcher that died while making
the table leaves nothing behind for long), a matched one
:data:`~barbu.server.club.quick.KEPT` seconds. Every change of state runs as one Lua script, so
it is atomic across processes; the clock is the Redis server's (``TIME``), the one clock every
process shares.

>>> RedisQueue(None, "barbu").key("a1")
'barbu:quick:e:a1'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.exceptions import RedisError

from barbu.language import _
from barbu.server.club.quick import GONE, KEPT, Entry
from barbu.server.protocol import ProtocolError

_LOOK = """
local v = redis.call('get', KEYS[1])
if v and cjson.decode(v).state == 'waiting' then redis.call('pexpire', KEYS[1], ARGV[1]) end
return v
"""
"""The entry; a waiting one lives ARGV[1] ms more."""

_ALL = """
local out = {}
for _, account in ipairs(redis.call('smembers', KEYS[1])) do
  local v = redis.call('get', ARGV[1] .. account)
  if v then table.insert(out, v) else redis.call('srem', KEYS[1], account) end
end
return out
"""
"""Every entry still stored; the accounts whose entry expired leave the set."""

_SWAP = """
local n = #KEYS
for i, key in ipairs(KEYS) do
  local v = redis.call('get', key)
  if not v then return 0 end
  local e = cjson.decode(v)
  if e.token ~= ARGV[i] or e.state ~= ARGV[2 * n + 1] then return 0 end
end
for i, key in ipairs(KEYS) do redis.call('set', key, ARGV[n + i], 'PX', ARGV[2 * n + 2]) end
return 1
"""
"""KEYS: entries; ARGV: their tokens, their new texts, the expected state, the new life in ms.
All replaced, or none if one is gone, was replaced (another token) or is in another state."""

_REMOVE = """
local v = redis.call('get', KEYS[1])
redis.call('del', KEYS[1])
redis.call('srem', KEYS[2], ARGV[1])
return v
"""


class RedisQueue:
    """A :class:`~barbu.server.club.quick.QueueStore` in Redis (``client``: a ``redis.asyncio`` client
    that decodes responses)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix
        self.members = f"{prefix}:quick:all"

    def key(self, account: str) -> str:
        """The Redis key of an account's entry."""
        return f"{self.prefix}:quick:e:{account}"

    @staticmethod
    def _unreachable() -> ProtocolError:
        return ProtocolError(
            "storage", _("the quick-game queue cannot be reached right now: try again in a few seconds")
        )

    async def now(self) -> float:
        """The Redis server's clock."""
        try:
            seconds, micros = await self.redis.time()
        except (RedisError, OSError):
            raise self._unreachable() from None
        return float(seconds) + float(micros) / 1e6

    async def put(self, entry: Entry) -> None:
        """Add or replace the account's entry."""
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.set(self.key(entry.account), entry.dump(), px=int(GONE * 1000))
                pipe.sadd(self.members, entry.account)
                await pipe.execute()
        except (RedisError, OSError):
            raise self._unreachable() from None

    async def look(self, account: str, now: float) -> Entry | None:
        """The account's entry; a waiting one lives :data:`GONE` seconds more."""
        try:
            text = await self.redis.eval(_LOOK, 1, self.key(account), int(GONE * 1000))
        except (RedisError, OSError):
            raise self._unreachable() from None
        return Entry.load(text) if text is not None else None

    async def entries(self, now: float) -> list[Entry]:
        """Every entry still stored."""
        try:
            texts = await self.redis.eval(_ALL, 1, self.members, self.key(""))
        except (RedisError, OSError):
            raise self._unreachable() from None
        return [Entry.load(t) for t in texts]

    async def swap(self, expected: str, entries: Sequence[Entry]) -> bool:
        """Replace the entries, all or none, if each is still stored in state ``expected``."""
        if not entries:
            return True
        life = KEPT if entries[0].state == "matched" else GONE
        keys = [self.key(e.account) for e in entries]
        args = [*(e.token for e in entries), *(e.dump() for e in entries), expected, int(life * 1000)]
        try:
            return bool(await self.redis.eval(_SWAP, len(keys), *keys, *args))
        except (RedisError, OSError):
            raise self._unreachable() from None

    async def remove(self, account: str) -> Entry | None:
        """Take the entry out."""
        try:
            text = await self.redis.eval(_REMOVE, 2, self.key(account), self.members, account)
        except (RedisError, OSError):
            raise self._unreachable() from None
        return Entry.load(text) if text is not None else None


__all__ = ["RedisQueue"]
