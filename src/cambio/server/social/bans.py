"""A ban ends the banned player's sessions at the tables, too.

``cambio admin ban`` deletes the player's browser keys (their identity's sessions) in the
database, but a seat is held by its own token, which a browser keeps, and the ban's command
reaches no server process. So every process looks for new bans every :data:`EVERY`
seconds (a short read of a small table) and, at each table it holds where the player sits,
gives the seat a key no token matches and closes its connections: the player cannot come
back to the seat, which goes to its bot at the away timeout (at a rated table: a forfeit,
as for any player who leaves). Each process does this for its own tables, so a cluster
covers them all.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from ..errors import FORBIDDEN
from ..server import Server
from ..store import social_sql as sql
from ..table import Table
from .moderation import BAN, Sanction

log = logging.getLogger("cambio.server")

EVERY = 2.0
SLACK = 60.0
"""Bans are read from this long before the newest one seen (a ban written with an earlier
time by another machine's clock, committed a moment later, is still found)."""


class BanWatch:
    def __init__(self, server: Server, every: float = EVERY) -> None:
        self.server = server
        self.every = every
        self.newest = 0.0
        """The newest ban seen (0: none yet, so a start reads every ban in force)."""
        self.done: set[tuple[str, float]] = set()

    async def run(self) -> None:
        while True:
            try:
                await self.look()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database away: next time
                log.warning("bans: not read (%s)", type(exc).__name__)
            await asyncio.sleep(self.every)

    async def look(self) -> None:
        rows = await asyncio.to_thread(self.server.store.read, sql.BANS_SINCE,
                                       (BAN, self.newest - SLACK))
        now = time.time()
        for pid, until, reason, created in rows:
            key = (str(pid), float(created))
            self.newest = max(self.newest, float(created))
            ban = Sanction(BAN, None if until is None else float(until), str(reason))
            if key in self.done or not ban.active(now):
                continue
            self.done.add(key)
            await self.end(str(pid), ban.refusal())

    async def end(self, player: str, why: str) -> None:
        """Close the player's seats at this process's tables to every token."""
        for table in list(self.server.tables.values()):
            for seat in table.seats.of_player(player):
                try:
                    await table.call(_shut, table, seat, why)
                except Exception as exc:  # the table stopped meanwhile
                    log.info("bans: table %s seat %d not shut (%s)", table.id, seat,
                             type(exc).__name__)


async def _shut(table: Table, seat: int, why: str) -> None:
    """A job of the table: no token is the seat's any more, its connections close."""
    if table.seats[seat].kind != "human":
        return
    await table.rekey(seat, "banned:" + secrets.token_hex(16))
    for conn in table.audience.of_seat(seat):
        conn.error(FORBIDDEN, why)
        conn.close(1008)
