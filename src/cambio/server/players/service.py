"""The players' part of a server process: identity (:mod:`.directory`), the results hooks
of every table (:mod:`.results`) and Play now's matchmaker (:mod:`.queue`), started and
stopped with the app (``app.state.players``)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from starlette.requests import Request

from ..errors import ProtocolError, Words
from ..server import Server
from ..social import hush
from ..social.bans import BanWatch
from ..social.relations import Relations
from ..store import players_sql as sql
from ..store import social_sql
from ..table import Table
from . import keys, results
from .directory import Directory, Player
from .hashing import HashBudget
from .keys import COOKIE
from .matching import Group
from .queue import Backend, Matchmaker, MemoryBackend, RedisBackend
from .ratings import MU, nearest_bot

log = logging.getLogger("cambio.server")

IDLE_DAYS = 30
"""Days after which an unclaimed player who never sat at a table is forgotten."""
SWEEP_EVERY = 6 * 3600.0


class Players:
    def __init__(self, server: Server) -> None:
        self.server = server
        settings = server.settings
        self.directory = Directory(server.store, hashing=HashBudget(settings.hash_workers,
                                                                    settings.hash_queue))
        redis = getattr(server, "redis", None)
        self.backend: Backend = (RedisBackend(redis, str(getattr(server, "me", "")))
                                 if redis is not None else MemoryBackend())
        self.relations = Relations(server.store, self.connected)
        self.matchmaker = Matchmaker(self.backend, self.start_group, self.apart, self.told)
        self._sweeper: asyncio.Task[None] | None = None
        self._bans: asyncio.Task[None] | None = None
        self._watching: set[asyncio.Task[None]] = set()
        """Play now tables' seat-grace watchers (kept so they are not collected)."""
        server.table_hooks = self.hook

    def hook(self, table: Table) -> None:
        """Every table's results hooks and its chat room's hush."""
        results.hook(table)
        hush.hook(self.server.store, table)

    def connected(self, table_id: str) -> set[str]:
        """The players with an open connection at a table this process holds."""
        table = self.server.tables.get(table_id)
        return {x.player for x in table.seats if x.player and x.conns} if table else set()

    async def apart(self, players: list[str]) -> set[frozenset[str]]:
        """The pairs among ``players`` that Play now never seats together: one blocked the
        other."""
        text = social_sql.BLOCK_PAIRS.format(ids=", ".join("?" for _ in players))
        rows = await asyncio.to_thread(self.server.store.read, text, (*players, *players))
        return {frozenset((str(a), str(b))) for a, b in rows}

    async def start(self) -> None:
        self.matchmaker.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="players")
        self._bans = asyncio.get_running_loop().create_task(BanWatch(self.server).run(),
                                                            name="bans")

    async def stop(self) -> None:
        for task in (self._sweeper, self._bans):
            if task is not None:
                task.cancel()
        for task in list(self._watching):
            task.cancel()
        await self.matchmaker.stop()
        self.directory.hashing.close()

    async def _sweep(self) -> None:
        """Every few hours: forget the players of visits that played nothing (idle for
        :data:`IDLE_DAYS`), and expired transfer codes."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            now = time.time()
            try:
                await self.server.store.write([sql.delete_expired_keys(now),
                                               *sql.forget_idle(now - IDLE_DAYS * 86400),
                                               social_sql.delete_old_invites(now - 86400)])
            except Exception as exc:  # the database away: next time
                log.warning("players: the sweep failed (%s)", type(exc).__name__)

    def level_bots(self, game: str) -> list[str]:
        """The bots Play now fills seats with: the game's difficulty levels."""
        return [str(b["name"]) for b in self.server.games[game].bots()
                if b.get("level") and not b.get("alias_of")]

    async def start_group(self, group: Group) -> tuple[str, list[int]]:
        """Make, seat and start the table of one group (no host acts: the server does)."""
        first = group.entries[0]
        # Private: never listed nor offered to quick play while its seats are being filled
        # (a stranger taking one meanwhile would leave a player of the group out).
        body: dict[str, Any] = {"game": first.game, "players": group.size,
                                "table_name": "Play now", "private": True}
        if first.game == "cards":
            body["rules"] = {"preset": first.variant, "overrides": {}}
        else:
            body["setup"] = first.variant
        # strangers: free text at this table needs a claimed account (social/hush.py)
        extra = {hush.STRANGERS: True, **({"rated": True} if group.rated else {})}
        table, _ = await self.server.create(first.game, body, first.name, extra=extra,
                                            player=first.player, host_hash=first.token_hash)
        seats = [0]
        for e in group.entries[1:]:
            seats.append(await table.call(table.join, e.name, None, e.token_hash, e.player))
        empty = table.seats.empty()
        if empty:
            target = sum(e.mu for e in group.entries) / len(group.entries)
            bot = nearest_bot(first.game, self.level_bots(first.game), target)
            for seat in empty:
                await table.call(table.set_bot, seat, bot)
        await table.call(table.start, None)
        log.info("play now: table %s started (%s, %d players, %d bots, %s)", table.id,
                 first.game, group.size, len(empty), "rated" if group.rated else "casual")
        return table.id, seats

    async def told(self, group: Group, table_id: str, seats: list[int]) -> None:
        """Every player of the group can now hear their match: from now, a seat nobody
        opens within the seat grace goes to its bot. Counting from the table's start
        instead would spend the grace of a busy server before anybody knew where to go."""
        table = self.server.tables.get(table_id)
        if table is None:  # stopped meanwhile: nobody to wait for
            return
        grace = self.server.settings.seat_grace
        await table.call(table.expect, grace)
        task = asyncio.get_running_loop().create_task(self._no_shows(table, group, seats,
                                                                     grace))
        self._watching.add(task)
        task.add_done_callback(self._watching.discard)

    async def _no_shows(self, table: Table, group: Group, seats: list[int],
                        grace: float) -> None:
        """Once the seat grace is over: the ticket of each player who never came to their
        seat (its bot plays it now) is dropped -- its page hears so, not "matched"."""
        await asyncio.sleep(grace)

        async def absent() -> list[int]:  # a job of the table: after its away checks
            return [s for s in seats if table.seats[s].away and table.seats[s].conns == 0]

        try:
            gone = set(await table.call(absent))
            for e, seat in zip(group.entries, seats, strict=True):
                if seat in gone:
                    await self.backend.set_match(e.ticket, {
                        "player": e.player,
                        "error": "you did not come to your seat in time and a bot took it; "
                                 "press Play now again"})
        except Exception as exc:  # the table stopped, Redis away: the ticket just expires
            log.info("play now: no-shows of table %s not dropped (%s)", table.id,
                     type(exc).__name__)


def players_of(request: Request) -> Players | None:
    found: Players | None = getattr(request.app.state, "players", None)
    return found


async def caller(request: Request) -> Player | None:
    """The player whose browser sent the request (its identity cookie), if any."""
    players = players_of(request)
    if players is None:
        return None
    return await players.directory.by_key(request.cookies.get(COOKIE))


async def required(request: Request) -> Player:
    """The caller's player; ``unauthorized`` when the browser has none yet."""
    player = await caller(request)
    if player is None:
        raise ProtocolError("unauthorized", Words(
            "refusal.noPlayer", "no player: open the lobby first (POST /api/me)"))
    return player


async def caller_id(request: Request) -> str | None:
    player = await caller(request)
    return player.id if player is not None else None


async def own_seat(request: Request, table: Table) -> int | None:
    """The caller's seat at ``table``, known from their identity rather than a seat token
    (their profile's link to the replay of a game still in play, from any device): only
    when the player holds exactly one seat there."""
    pid = await caller_id(request)
    if pid is None:
        return None
    seats = table.seats.of_player(pid)
    return seats[0] if len(seats) == 1 else None


def address_hash(request: Request) -> str:
    """The client's address, hashed (what the queue keeps of it)."""
    return keys.address_hash(request.client.host if request.client else "?")


__all__ = ["MU", "Players", "caller", "caller_id", "own_seat", "players_of", "required"]
