"""The process-wide registry: storage, the live tables, and loading them back after a restart.

Tables that are waiting or playing are all in memory (each with its actor). A finished table
is loaded when someone asks for it and dropped again once it has been idle for a while.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from typing import Any

from .errors import ProtocolError
from .games import GameKind, game_kinds
from .session import derive
from .settings import Settings
from .store import SeatRow, Store, TableRow
from .table import Table

log = logging.getLogger("cambio.server")

IDLE_FINISHED = 600.0
"""Seconds a finished table with no connection stays in memory."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Server:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db)
        self.games: dict[str, GameKind] = game_kinds()
        self.tables: dict[str, Table] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Load every unfinished table back (replaying its actions) and start its actor."""
        t0 = time.perf_counter()
        rows = self.store.unfinished_tables()
        for row in rows:
            try:
                table = self._load(row)
            except Exception:
                log.exception("table %s could not be loaded", row.id)
                continue
            await table.after_load()
        if rows:
            log.info("loaded %d tables in %.2fs", len(rows), time.perf_counter() - t0)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.stop_actor()
        self.tables.clear()
        self.store.close()

    def _load(self, row: TableRow) -> Table:
        if row.game not in self.games:
            raise RuntimeError(f"unknown game {row.game!r}")
        table = Table(self, row, self.store.seats(row.id))
        table.load_game()
        self.tables[row.id] = table
        table.start_actor()
        return table

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(60)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.status == "finished" and not table.conns \
                        and now - table.last_active > IDLE_FINISHED:
                    del self.tables[table.id]
                    await table.stop_actor()

    # ------------------------------------------------------------------ tables
    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = self.store.table(table_id) if len(table_id) <= 64 else None
        if row is None:
            raise ProtocolError("not_found", "no such table")
        table = self.tables.get(table_id)  # loaded meanwhile?
        if table is None:
            table = self._load(row)
            await table.after_load()
        return table

    def _table_seed(self) -> int:
        if self.settings.seed is None:
            return secrets.randbits(63)
        count = self.store.db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        return derive(self.settings.seed, "table", count)

    async def create(self, game: str, body: dict[str, Any], host_name: str
                     ) -> tuple[Table, str]:
        """A new waiting table with its host in seat 0; returns it and the host's token."""
        kind = self.games.get(game)
        if kind is None:
            raise ProtocolError("bad_request", f"'game' must be one of {sorted(self.games)}")
        players, config = kind.config(body)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or self.store.table(table_id) is not None:
            table_id = secrets.token_urlsafe(6)
        token = new_token()
        row = TableRow(table_id, game, players, config, self._table_seed(), "waiting", 0,
                       time.time())
        host = SeatRow(0, "human", host_name, None, token_hash(token))
        seats = [host] + [SeatRow(i, "empty", "", None, None) for i in range(1, players)]
        await self.store.write([Store.insert_table(row)]
                               + [Store.put_seat(table_id, s) for s in seats])
        table = Table(self, row, seats)
        self.tables[table_id] = table
        table.start_actor()
        await table.call(table.joined_host)
        return table, token

    def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        waiting = [t for t in self.tables.values() if t.status == "waiting"]
        waiting.sort(key=lambda t: t.created, reverse=True)
        return [t.summary() for t in waiting[:limit]]
