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
from collections.abc import Callable
from typing import Any

from cambio.seeds import derive_seed

from .chat import CHAT_KEPT, chat_setting
from .clock import clock_setting, timeout_settings
from .errors import NOT_FOUND, UNAVAILABLE, ProtocolError, Words, store_unreachable
from .games import GameKind, game_kinds
from .kernels import Kernels
from .limits import AddressLimiter
from .listing import listing_options
from .match import past_results
from .settings import Settings
from .store import SeatRow, Store, StoreError, TableRow, open_store
from .table import Table

log = logging.getLogger("cambio.server")

IDLE_FINISHED = 600.0
"""Seconds a finished table with no connection stays in memory."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def waited_out(settings: Settings, table: Table, idle: float) -> bool:
    """A waiting table nobody is at, idle ``idle`` seconds in this process, has waited
    long enough to be deleted.

    An ordinary table: ``--waiting-ttl`` since anyone was last at it (a restart starts
    that afresh; it lasts hours). A correspondence table gathers its players over days, and
    a restart or a cluster's failover within them must not matter:
    ``--correspondence-waiting-ttl`` since it was created, by its stored creation time and
    the wall clock its deadlines are read against (which ``--time-offset`` moves on)."""
    if table.correspondence:
        ttl = settings.correspondence_waiting_ttl
        return ttl > 0 and table.clock.decisions.now() - table.created > ttl
    ttl = settings.waiting_ttl
    return ttl > 0 and idle > ttl


class Server:
    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store if store is not None else open_store(settings.database)
        self.games: dict[str, GameKind] = game_kinds(settings.games)
        self.tables: dict[str, Table] = {}
        self.damaged: dict[str, str] = {}
        """Tables set aside because their stored rows cannot be read back (id: why)."""
        self.connect_limiter = AddressLimiter(settings.ws_connect_rate,
                                              settings.ws_connect_burst)
        self.open_by_address: dict[str, int] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.table_hooks: Callable[[Table], None] | None = None
        """Called with every table made or loaded (server/players/ sets its hooks)."""
        self.kernels = Kernels()
        """The bots' numba kernels, loaded in the background (server/kernels.py)."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Load every unfinished table back (replaying its actions) and start its actor.

        A table whose rows are damaged is set aside (logged, answered ``unavailable``);
        the others are served."""
        self.warm_kernels()
        t0 = time.perf_counter()
        rows, damaged = self.store.unfinished_tables()
        for table_id, why in damaged.items():
            self._quarantine(table_id, why)
        for row in rows:
            try:
                table = self._load(row)
            except Exception as exc:
                self._quarantine(row.id, f"{type(exc).__name__}: {exc}")
                continue
            await table.after_load()
        if rows:
            log.info("loaded %d tables in %.2fs", len(rows), time.perf_counter() - t0)
        # A correspondence table whose waiting time ran out while the server was down is
        # gone before the first request, not up to a sweep period later.
        await self._sweep_once()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def warm_kernels(self) -> None:
        """Start loading the kernels of every bot the lobby offers, unless the operator
        said to wait for a table to seat one (``--no-warm-kernels``)."""
        if self.settings.warm_kernels:
            self.kernels.warm(self.games)

    def _quarantine(self, table_id: str, why: str) -> None:
        self.damaged[table_id] = why
        log.error("table %s is set aside: its stored data cannot be loaded (%s)",
                  table_id, why[:200])

    async def stop(self) -> None:
        if self._sweeper:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.stop_actor()
        self.tables.clear()
        await self.kernels.stop()
        self.store.close()

    def _load(self, row: TableRow) -> Table:
        """Build a table and replay its current game, on the event loop (start-up)."""
        table = self._table(row, self.store.seats(row.id))
        table.install_game(table.build_game())
        self._restore(table)
        self.tables[row.id] = table
        table.start_actor()
        return table

    def _table(self, row: TableRow, seats: list[SeatRow]) -> Table:
        """A table in memory, with the hooks of whoever watches every table (the players'
        results: :attr:`table_hooks`)."""
        table = Table(self.store, self.settings, self.games, row, seats, self.kernels)
        if self.table_hooks is not None:
            self.table_hooks(table)
        return table

    def _restore(self, table: Table) -> None:
        """What a table keeps besides its game, read back: its earlier games' results and
        its chat."""
        table.history = past_results(self.store, table.new_session, table.id, table.game_no)
        table.chat_log = self.store.chat(table.id, CHAT_KEPT)
        if table.correspondence:
            table.restore_stored(self.store.deadline(table.id),
                                 self.store.forfeits(table.id, table.game_no))

    def _build(self, table_id: str) -> Table | None:
        """Read and replay a table in a worker thread: a long finished game must not stall
        every other table while it is replayed."""
        row = self.store.table(table_id)
        if row is None:
            return None
        table = self._table(row, self.store.seats(row.id))
        table.built = table.build_game()
        self._restore(table)
        return table

    async def _sweep(self) -> None:
        """Every so often, drop idle finished tables from memory and delete the waiting
        tables that waited too long (:func:`waited_out`)."""
        ttl = self.settings.waiting_ttl
        period = 60.0 if ttl <= 0 else min(60.0, max(0.5, ttl / 4))
        while True:
            await asyncio.sleep(period)
            await self._sweep_once()

    async def _sweep_once(self) -> None:
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.conns:
                continue
            idle = now - table.last_active
            if table.status == "finished" and idle > IDLE_FINISHED:
                del self.tables[table.id]
                await table.stop_actor()
            elif table.status == "waiting" and waited_out(self.settings, table, idle):
                await self._expire(table)

    async def _expire(self, table: Table) -> None:
        """A table nobody started and nobody is at: gone (``not_found`` from now on)."""
        try:
            await self.store.write(self.store.delete_table(table.id))
        except Exception:
            log.exception("table %s: could not delete the expired table", table.id)
            return
        self.tables.pop(table.id, None)
        await table.stop_actor()
        log.info("table %s expired: it waited with nobody at it", table.id)

    # ------------------------------------------------------------------ tables
    async def ask_owner(self, table_id: str, path: str) -> tuple[bool, Any]:
        """``GET path`` of the process that serves ``table_id``, when that is another one (a
        cluster's): ``(True, its JSON answer)``, ``None`` for an answer other than 200.
        ``(False, None)``: this process serves the table, ask it here. A single process
        serves every table itself."""
        return False, None

    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.damaged:
            raise ProtocolError(UNAVAILABLE, "this table's stored data is damaged; it is set "
                                             "aside (the server log says why)")
        if len(table_id) > 64:
            raise ProtocolError(NOT_FOUND, Words("refusal.noSuchTable", "no such table"))
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                built = await asyncio.to_thread(self._build, table_id)
                if built is None:
                    raise ProtocolError(NOT_FOUND, Words("refusal.noSuchTable", "no such table"))
                table = self.tables.get(table_id)  # created meanwhile?
                if table is None:
                    table = built
                    table.install_game(table.built)
                    self.tables[table_id] = table
                    table.start_actor()
                    await table.after_load()
                pending.set_result(table)
            except ProtocolError as exc:
                pending.set_exception(exc)
            except StoreError as exc:  # the database, not the table: the next call retries
                log.warning("table %s cannot be loaded now: %s", table_id, exc)
                pending.set_exception(store_unreachable())
            except Exception as exc:
                self._quarantine(table_id, f"{type(exc).__name__}: {exc}")
                pending.set_exception(ProtocolError(
                    UNAVAILABLE, "this table's stored data is damaged; it is set aside"))
            except BaseException:
                pending.cancel()  # the caller went away: the next one loads it again
                raise
            finally:
                del self._loading[table_id]
        return await asyncio.shield(pending)

    async def _table_seed(self) -> int:
        if self.settings.seed is None:
            return secrets.randbits(63)
        count = await asyncio.to_thread(self.store.count_tables)
        return derive_seed(self.settings.seed, "table", count)

    async def _new_table_id(self) -> str:
        """A fresh id (read in a worker thread: a PostgreSQL round trip must not hold up
        the event loop)."""
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and \
                    await asyncio.to_thread(self.store.table, table_id) is None:
                return table_id

    async def create(self, game: str, body: dict[str, Any], host_name: str, *,
                     seed: int | None = None, extra: dict[str, Any] | None = None,
                     player: str | None = None, host_hash: str | None = None
                     ) -> tuple[Table, str]:
        """A new waiting table with its host in seat 0; returns it and the host's token.
        ``seed`` and ``extra`` (config fields) are the server's own choices, never a
        caller's: the tutorial's fixed deal (:mod:`.tutorial`), Play now's ``rated``.
        ``player``: the host's player id (from their browser's identity), if any;
        ``host_hash``: the hash of a token the host already holds (Play now), and then the
        token returned is ``""``."""
        kind = self.games.get(game)
        if kind is None:
            raise ProtocolError("bad_request", f"'game' must be one of {sorted(self.games)}")
        players, config = kind.config(body)
        config.update(listing_options(body))
        config["clock"] = clock_setting(body, self.settings.turn_clock)
        config.update(timeout_settings(body, config["clock"]))
        config.update(chat_setting(body))
        config.update(extra or {})
        table_id = await self._new_table_id()
        token = new_token() if host_hash is None else ""
        if seed is None:
            seed = await self._table_seed()
        row = TableRow(table_id, game, players, config, seed, "waiting",
                       0, time.time())
        host = SeatRow(0, "human", host_name, None, host_hash or token_hash(token), player)
        seats = [host] + [SeatRow(i, "empty", "", None, None) for i in range(1, players)]
        await self.store.write([Store.insert_table(row)]
                               + [Store.put_seat(table_id, s) for s in seats])
        table = self._table(row, seats)
        self.tables[table_id] = table
        table.start_actor()
        await table.call(table.joined_host)
        return table, token

    def joinable_tables(self) -> list[Table]:
        """The tables the lobby lists, newest first: joinable and not private."""
        waiting = [t for t in self.tables.values()
                   if t.joinable() and not t.config.get("private")]
        waiting.sort(key=lambda t: t.created, reverse=True)
        return waiting

    async def quick_seat(self, name: str, client: str, skip: frozenset[str] = frozenset(),
                         player: str | None = None) -> tuple[str, int, str] | None:
        """Quick play's seat at the newest card table waiting for players: ``(table, seat,
        token)``, or None if there is none. (``client``: the caller's address, for a
        cluster process that asks another on its behalf; ``skip``: the tables the caller
        holds a seat token for, never joined a second time.)"""
        for table in self.joinable_tables():
            if not table.kind.quick_play or table.id in skip:
                continue
            token = new_token()
            try:
                seat = await table.call(table.join, name, None, token_hash(token), player)
            except ProtocolError:
                continue                    # filled or started meanwhile: the next one
            return table.id, seat, token
        return None

    def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        waiting = self.joinable_tables()
        return [t.summary() for t in waiting[:limit]]
