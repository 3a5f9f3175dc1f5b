"""Play now's waiting room: where the entries wait (this process's memory, or Redis for a
cluster), and the loop that turns groups of them into started tables.

**One matchmaker at a time.** Every process runs the loop, but a tick only forms tables in
the process that holds the lead: always the only process, or in a cluster whoever set the
Redis key ``cambio:queue:lead`` (a short lease, renewed each tick). Entries and matches live
where every process reads them, so a player may queue on one process and poll another.

**Only who is there is matched.** The page polls its ticket about every second. An entry
is matched only once its page has polled it since joining, and only while its last poll is
at most :data:`FRESH` seconds old: a client that queues and goes away (or queues and
leaves in a loop, to be matched with real players and never come) is seated with nobody.
An entry not polled for :data:`STALE` seconds is dropped (a closed page leaves the queue
even if its last words, a ``DELETE`` sent as the page goes away, were lost). A player
matched all the same who does not come to the table is given a bot within seconds
of hearing the match (``--seat-grace``; :meth:`..table.Table.expect`).

**Secrets.** An entry holds the hash of the seat token the player's browser was given when it
queued, never the token: a queue in Redis holds nothing that acts for a player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from .matching import Entry, Group, form

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("cambio.server")

STALE = 10.0
"""Seconds without a poll after which an entry is dropped."""
FRESH = 3.0
"""Seconds since its last poll within which an entry may be matched (the page polls every
second)."""
MATCH_KEPT = 120.0
"""Seconds a match waits for its player to poll it."""
TICK = 0.25
PREFIX = "cambio:queue:"


class Backend(Protocol):
    async def put(self, entry: Entry) -> None: ...
    async def touch(self, ticket: str, now: bool) -> None: ...
    async def remove(self, tickets: list[str]) -> None: ...
    async def waiting(self) -> tuple[list[Entry], dict[str, Seen]]: ...
    async def lead(self) -> bool: ...
    async def set_match(self, ticket: str, match: dict[str, Any]) -> None: ...
    async def match_of(self, ticket: str) -> dict[str, Any] | None: ...
    async def entry(self, ticket: str) -> Entry | None: ...


@dataclass(frozen=True)
class Seen:
    """When an entry's page last showed it is there."""

    at: float
    """The last poll (or the join)."""
    now: bool = False
    """Its player asked to stop waiting for people."""
    polled: bool = False
    """Polled at least once since joining (the join alone proves nothing)."""

    def json(self) -> str:
        return json.dumps([self.at, self.now, self.polled])

    @staticmethod
    def parse(raw: bytes | str) -> Seen:
        data = json.loads(raw)
        return Seen(float(data[0]), bool(data[1]), bool(data[2]) if len(data) > 2 else True)

    def touched(self, now: bool) -> Seen:
        return Seen(time.time(), now or self.now, True)


NEVER = Seen(0.0)


class MemoryBackend:
    """One process: plain dictionaries."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}
        self.seen: dict[str, Seen] = {}
        self.matches: dict[str, tuple[float, dict[str, Any]]] = {}

    async def put(self, entry: Entry) -> None:
        self.entries[entry.ticket] = entry
        self.seen[entry.ticket] = Seen(time.time())

    async def touch(self, ticket: str, now: bool) -> None:
        if ticket in self.entries:
            self.seen[ticket] = self.seen.get(ticket, NEVER).touched(now)

    async def remove(self, tickets: list[str]) -> None:
        for t in tickets:
            self.entries.pop(t, None)
            self.seen.pop(t, None)

    async def waiting(self) -> tuple[list[Entry], dict[str, Seen]]:
        cutoff = time.time() - MATCH_KEPT
        for t in [t for t, (at, _) in self.matches.items() if at < cutoff]:
            del self.matches[t]
        return list(self.entries.values()), dict(self.seen)

    async def lead(self) -> bool:
        return True

    async def set_match(self, ticket: str, match: dict[str, Any]) -> None:
        self.matches[ticket] = (time.time(), match)

    async def match_of(self, ticket: str) -> dict[str, Any] | None:
        found = self.matches.get(ticket)
        return found[1] if found is not None else None

    async def entry(self, ticket: str) -> Entry | None:
        return self.entries.get(ticket)


class RedisBackend:
    """A cluster: the entries in the hash ``cambio:queue:entries``, when each was last
    polled in ``cambio:queue:seen`` (a separate hash, so a late poll never brings back an
    entry the matchmaker took), matches as keys that expire."""

    def __init__(self, redis: Redis, me: str, lead_ttl: float = 2.0) -> None:
        self.redis = redis
        self.me = me
        self.lead_ms = int(lead_ttl * 1000)

    async def put(self, entry: Entry) -> None:
        # One transaction: a tick reading between two writes saw an entry never polled
        # (stale: dropped at once) or a poll time without its entry (an orphan: deleted).
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(PREFIX + "entries", entry.ticket, json.dumps(asdict(entry)))
        pipe.hset(PREFIX + "seen", entry.ticket, Seen(time.time()).json())
        await pipe.execute()

    async def touch(self, ticket: str, now: bool) -> None:
        old = await self.redis.hget(PREFIX + "seen", ticket)
        seen = Seen.parse(old) if old else NEVER
        await self.redis.hset(PREFIX + "seen", ticket, seen.touched(now).json())

    async def remove(self, tickets: list[str]) -> None:
        if tickets:
            await self.redis.hdel(PREFIX + "entries", *tickets)
            await self.redis.hdel(PREFIX + "seen", *tickets)

    async def waiting(self) -> tuple[list[Entry], dict[str, Seen]]:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(PREFIX + "entries")
        pipe.hgetall(PREFIX + "seen")
        raw, seen_raw = await pipe.execute()
        entries = [_entry(v) for v in raw.values()]
        seen = {_text(k): Seen.parse(v) for k, v in seen_raw.items()}
        orphans = [t for t in seen if t not in {e.ticket for e in entries}]
        if orphans:
            await self.redis.hdel(PREFIX + "seen", *orphans)
        return entries, seen

    async def lead(self) -> bool:
        key = PREFIX + "lead"
        if await self.redis.set(key, self.me, nx=True, px=self.lead_ms):
            return True
        holder = await self.redis.get(key)
        if holder is not None and _text(holder) == self.me:
            await self.redis.pexpire(key, self.lead_ms)
            return True
        return False

    async def set_match(self, ticket: str, match: dict[str, Any]) -> None:
        await self.redis.set(PREFIX + "match:" + ticket, json.dumps(match),
                             ex=int(MATCH_KEPT))

    async def match_of(self, ticket: str) -> dict[str, Any] | None:
        raw = await self.redis.get(PREFIX + "match:" + ticket)
        return json.loads(raw) if raw else None

    async def entry(self, ticket: str) -> Entry | None:
        raw = await self.redis.hget(PREFIX + "entries", ticket)
        return _entry(raw) if raw else None


async def look_up(backend: Backend, ticket: str) -> tuple[dict[str, Any] | None, Entry | None]:
    """A ticket's match, else its entry, read so that a tick in between cannot hide both.

    The matchmaker writes a ticket's match before it removes the entry, but a poll reads
    them one after the other (in a cluster, from another process): a tick landing between
    the two reads would show neither, and a player being seated would hear "not in the
    queue". So where the entry is gone, the match is read again: written before the entry
    went, it is there now."""
    match = await backend.match_of(ticket)
    if match is not None:
        return match, None
    found = await backend.entry(ticket)
    if found is not None:
        return None, found
    return await backend.match_of(ticket), None


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _entry(raw: bytes | str) -> Entry:
    data = json.loads(raw)
    data["sizes"] = tuple(data["sizes"])
    return Entry(**data)


class Matchmaker:
    """The loop: every :data:`TICK`, if this process leads, drop stale entries, form groups
    (:func:`.matching.form`) and start a table for each (``start_group``)."""

    def __init__(self, backend: Backend,
                 start_group: Callable[[Group], Awaitable[tuple[str, list[int]]]],
                 apart: Callable[[list[str]], Awaitable[set[frozenset[str]]]] | None = None,
                 told: Callable[[Group, str, list[int]], Awaitable[None]] | None = None
                 ) -> None:
        """``apart``: the pairs of the players given that are never seated together;
        ``told``: called with a group's table and seats once every player's poll can hear
        the match (a seat's grace counts from then, not from the slower table start)."""
        self.backend = backend
        self.start_group = start_group
        self.apart = apart
        self.told = told
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="matchmaker")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away, a store error: the next tick tries again
                log.warning("matchmaker: %s: %s", type(exc).__name__, str(exc)[:200])

    async def tick(self) -> None:
        if not await self.backend.lead():
            return
        entries, seen = await self.backend.waiting()
        now = time.time()
        stale = [e.ticket for e in entries if now - seen.get(e.ticket, NEVER).at > STALE]
        await self.backend.remove(stale)
        here = [_shortened(e, seen[e.ticket]) for e in entries
                if e.ticket in seen and _here(seen[e.ticket], now)]
        players = sorted({e.player for e in here})
        apart = await self.apart(players) if self.apart and len(players) > 1 else set()
        groups = form(here, now, apart)
        # Every group's entries leave the queue before any table is made: starting tables
        # takes a while, and a process that took the lead meanwhile must not seat them again.
        for e in (e for group in groups for e in group.entries):
            # a poll meanwhile hears "being seated", not "gone"
            await self.backend.set_match(e.ticket, {"pending": True, "player": e.player})
        await self.backend.remove([e.ticket for group in groups for e in group.entries])
        for group in groups:
            await self._start(group)

    async def _start(self, group: Group) -> None:
        tickets = [e.ticket for e in group.entries]
        try:
            table_id, seats = await self.start_group(group)
        except Exception as exc:
            log.warning("matchmaker: a table could not be started (%s: %s)",
                        type(exc).__name__, str(exc)[:200])
            for t in tickets:
                await self.backend.set_match(t, {"error": "the table could not be started; "
                                                          "press Play now again"})
            return
        for e, seat in zip(group.entries, seats, strict=True):
            await self.backend.set_match(e.ticket, {"table": table_id, "seat": seat,
                                                    "player": e.player,
                                                    "rated": group.rated})
        if self.told is not None:
            try:
                await self.told(group, table_id, seats)
            except Exception as exc:  # the table stopped meanwhile: nobody to wait for
                log.warning("matchmaker: table %s: %s", table_id, type(exc).__name__)


def _here(seen: Seen, now: float) -> bool:
    """Whether an entry's page is there: polled since it joined, and lately."""
    return seen.polled and now - seen.at <= FRESH


def _shortened(e: Entry, seen: Seen) -> Entry:
    """The entry as the matchmaker sees it: its player asked to stop waiting (fill now)."""
    return replace(e, fill_at=0.0) if seen.now else e
