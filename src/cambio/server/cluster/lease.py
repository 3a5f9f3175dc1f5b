"""Table ownership as Redis leases: a key per table naming its owner, with an expiry.

The owner renews all its leases in one round trip several times per lease period. A process
killed with ``kill -9`` stops renewing, its keys expire, and another process may claim the
tables. Renewing also **re-takes** a lease whose key has vanished (Redis restarted empty):
the owner is still serving the table, and it is first in line to say so.
"""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis

PREFIX = "cambio:"

# KEYS: lease keys; ARGV[1]: me, ARGV[2]: ttl in ms. Returns, per key: 1 kept (renewed or
# re-taken), 0 lost (someone else holds it).
RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  elseif not owner then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def lease_key(table_id: str) -> str:
    return f"{PREFIX}lease:{table_id}"


def worker_key(worker_id: str) -> str:
    return f"{PREFIX}worker:{worker_id}"


class Leases:
    """One process's view of the leases: claim, renew, release, and who owns a table.

    ``me`` is this process's worker id (unique per process start, so a restarted process
    never mistakes its predecessor's leases for its own)."""

    def __init__(self, redis: Redis, me: str, ttl: float) -> None:
        self.redis = redis
        self.me = me
        self.ttl = ttl
        self._ms = max(1, int(ttl * 1000))
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    async def claim(self, table_id: str) -> bool:
        """Take the table if nobody holds it; True if this process now owns it."""
        return bool(await self.redis.set(lease_key(table_id), self.me, nx=True, px=self._ms))

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Extend (or re-take) the leases of ``table_ids``; returns those someone else holds."""
        if not table_ids:
            return []
        kept = await self._renew(keys=[lease_key(t) for t in table_ids],
                                 args=[self.me, self._ms])
        return [t for t, ok in zip(table_ids, kept, strict=True) if not ok]

    async def release(self, table_id: str) -> None:
        """Give a table up (only if this process still holds it)."""
        await self._release(keys=[lease_key(table_id)], args=[self.me])

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        if not table_ids:
            return []
        values = await self.redis.mget([lease_key(t) for t in table_ids])
        return [_text(v) for v in values]

    async def owner(self, table_id: str) -> str | None:
        return _text(await self.redis.get(lease_key(table_id)))

    # ------------------------------------------------------------------ presence
    async def announce(self, info: dict[str, Any]) -> None:
        """Say this process is alive and where it can be reached (renewed with the leases)."""
        await self.redis.set(worker_key(self.me), json.dumps(info), px=self._ms)

    async def withdraw(self) -> None:
        await self.redis.delete(worker_key(self.me))

    async def worker(self, worker_id: str) -> dict[str, Any] | None:
        """A live process's presence record (its address), or None if it is gone."""
        raw = _text(await self.redis.get(worker_key(worker_id)))
        if raw is None:
            return None
        info = json.loads(raw)
        return info if isinstance(info, dict) else None

    async def workers(self) -> int:
        """How many processes are alive (for sharing out orphaned tables)."""
        count = 0
        async for _ in self.redis.scan_iter(match=worker_key("*"), count=100):
            count += 1
        return count


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
