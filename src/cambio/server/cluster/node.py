"""One server process of a cluster: the tables it owns, and how it claims, keeps, hands
over and finds tables through Redis.

:class:`ClusterServer` is the single-process :class:`~cambio.server.server.Server` plus:

- **claiming**: a table is served by the process holding its lease. A process claims a
  table when a client asks for it and nobody holds it, when its owner hands it over
  (``released`` on the bus), or when the claim loop finds an unfinished table in the store
  whose lease has been missing for a whole lease period (its owner died). Claiming loads the
  table from the store by replaying its actions: the game resumes at the last stored
  action, which is the last one anybody was told about.
- **keeping**: every third of a lease period, one round trip renews every lease this
  process holds; a lease someone else now holds means this process must let the table go
  (:meth:`step_down`). While Redis cannot be reached the process keeps serving what it
  has: nobody else can claim anything meanwhile, and the store refuses a second write of
  any action version, so two processes can never both store a different action as the
  same step of a game.
- **handing over** (``SIGTERM``): each table is stopped between two jobs, its lease
  released and ``released`` published, so another process claims it at once; every action
  a client was told about is in the store by then.
- **finding**: a request for a table that another live process owns is answered with that
  process's address (:meth:`route`), and :mod:`.proxy` passes it on.
- **the lobby**: every process keeps the list of joinable tables of the whole cluster, in
  a Redis hash that owners update, kept fresh in each process by the bus (:mod:`.bus`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from typing import Any

import httpx
from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..errors import NOT_FOUND, UNAVAILABLE, ProtocolError
from ..server import Server, new_token, token_hash
from ..settings import Settings
from ..store import Store, StoreError, TableRow
from ..table import Table
from .bus import Bus
from .lease import Leases
from .proxy import HOP, Forwarder

log = logging.getLogger("cambio.server")


STOP_WAIT = 5.0
"""Seconds a table being let go has to finish the job it is doing (a write in flight)."""


def new_worker_id() -> str:
    """Unique per process start: a restarted process never takes its predecessor's leases
    for its own."""
    return f"{os.uname().nodename}-{os.getpid()}-{os.urandom(3).hex()}"


class ClusterServer(Server):
    def __init__(self, settings: Settings, store: Store | None, redis_url: str,
                 address: str, worker_id: str | None = None, lease_ttl: float = 5.0,
                 machine: str = "") -> None:
        super().__init__(settings, store)
        self.me = worker_id or new_worker_id()
        self.address = address
        """Where other processes send the connections for this process's tables."""
        self.machine = machine
        self.redis = Redis.from_url(redis_url, socket_timeout=max(1.0, lease_ttl / 2),
                                    socket_connect_timeout=max(1.0, lease_ttl / 2))
        self.leases = Leases(self.redis, self.me, lease_ttl)
        self.ttl = lease_ttl
        self.bus = Bus(self.redis, self.me, self._released)
        self.draining = False
        self.held: set[str] = set()
        """Tables whose lease this process renews (the live tables, at the last renewal)."""
        self._missing: dict[str, float] = {}
        """Unfinished tables nobody holds, and since when (monotonic)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._claiming: set[str] = set()
        self._leaving: set[str] = set()
        """Tables being let go: not to be claimed back by this process meanwhile."""
        self.forwarder = Forwarder()
        self._stepping: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Nothing is loaded up front: tables are claimed (loaded) as they are asked for,
        handed over, or found orphaned by the claim loop."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(RedisError, OSError):
            await self._announce()
        self._tasks = [loop.create_task(self._keep(), name="leases"),
                       loop.create_task(self._claim_orphans(), name="claims"),
                       loop.create_task(self.bus.listen(), name="bus")]
        self._sweeper = loop.create_task(self._sweep())
        self.warm_kernels()
        log.info("cluster worker %s at %s (lease %.1fs)", self.me, self.address, self.ttl)

    async def drain(self) -> None:
        """Hand every table over (SIGTERM): stop it between two jobs, release its lease and
        say so on the bus, so another process claims it at once."""
        if self.draining:
            return
        self.draining = True
        with contextlib.suppress(RedisError, OSError):
            await self.leases.withdraw()
        tables = list(self.tables.values())
        await asyncio.gather(*(self.step_down(t, "handed over") for t in tables),
                             return_exceptions=True)
        if tables:
            log.info("handed over %d tables", len(tables))

    async def stop(self) -> None:
        await self.drain()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await super().stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        await self.forwarder.close()

    async def _announce(self) -> None:
        await self.leases.announce({"address": self.address, "machine": self.machine,
                                    "pid": os.getpid()})

    # ------------------------------------------------------------------ owning tables
    def _adopt(self, table: Table) -> Table:
        table.watch = self.bus.table_changed
        table.lost = self._lost
        return table

    def _load(self, row: TableRow) -> Table:
        return self._adopt(super()._load(row))

    def _build(self, table_id: str) -> Table | None:
        table = super()._build(table_id)
        return self._adopt(table) if table is not None else None

    async def create(self, game: str, body: dict[str, Any], host_name: str, *,
                     seed: int | None = None, extra: dict[str, Any] | None = None,
                     player: str | None = None, host_hash: str | None = None
                     ) -> tuple[Table, str]:
        if self.draining:
            raise ProtocolError(UNAVAILABLE, "this server is shutting down; try again")
        table, token = await super().create(game, body, host_name, seed=seed, extra=extra,
                                            player=player, host_hash=host_hash)
        # Nobody else knows the new id yet (the claim loop waits a whole lease period before
        # taking an unheld table); if Redis is away, the next renewal takes the lease.
        with contextlib.suppress(RedisError, OSError):
            await self.leases.claim(table.id)
        self._adopt(table)
        self.bus.table_changed(table)
        return table, token

    def _lost(self, table: Table, why: str) -> None:
        """A write of this table failed (another process stored that step first, or the
        store is down): let it go; whoever holds the lease reloads it from the store."""
        log.warning("table %s: giving it up (%s)", table.id, why)
        if isinstance(table, Table):
            task = asyncio.get_running_loop().create_task(self.step_down(table, why))
            self._stepping.add(task)
            task.add_done_callback(self._stepping.discard)

    async def step_down(self, table: Table, why: str) -> None:
        """Stop serving ``table``: its connections close with 1012 (clients reconnect and
        are routed to whoever owns it next), its lease is released if still ours."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self.held.discard(table.id)
        self.bus.disown(table.id)
        self._leaving.add(table.id)

        async def last_job() -> None:
            # Between two jobs: nothing is half done, and no bot moves after this.
            for handle in table._timers():
                handle.cancel()
            for conn in list(table.conns):
                conn.close(1012)

        with contextlib.suppress(Exception):
            await asyncio.wait_for(table.call(last_job), STOP_WAIT)
        await table.stop_actor()  # jobs queued after it were never acknowledged to anyone
        try:
            with contextlib.suppress(RedisError, OSError):
                await self.leases.release(table.id)
                await self.bus.publish({"kind": "released", "table": table.id, "why": why})
        finally:
            self._leaving.discard(table.id)

    async def _keep(self) -> None:
        """Renew every lease several times a period; let go of the tables someone else took."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            if self.draining:
                continue
            ids = list(self.tables)
            try:
                await self._announce()
                lost = await self.leases.renew(ids)
                for gone in self.held - set(ids):  # finished and swept, or expired
                    await self.leases.release(gone)
                    self.bus.forget(gone)
            except (RedisError, OSError) as exc:
                log.warning("cluster: cannot renew leases (%s); serving on", exc)
                continue
            self.held = set(ids)
            for table_id in lost:
                table = self.tables.get(table_id)
                if table is not None:
                    await self.step_down(table, "another process holds its lease")

    async def _claim_orphans(self) -> None:
        """Find unfinished tables whose owner died, and claim a share of them."""
        while True:
            await asyncio.sleep(self.ttl / 2 * random.uniform(0.8, 1.2))
            if self.draining:
                continue
            try:
                await self._claim_round()
            except (RedisError, OSError, StoreError) as exc:
                log.warning("cluster: cannot look for orphaned tables (%s)", exc)
            except Exception:
                log.exception("cluster: looking for orphaned tables failed")

    async def _claim_round(self) -> None:
        unfinished = await asyncio.to_thread(self.store.unfinished_ids)
        ids = [t for t in unfinished if t not in self.tables and t not in self.damaged]
        owners = await self.leases.owners(ids)
        now = time.monotonic()
        orphans: list[str] = []
        missing: dict[str, float] = {}
        for table_id, owner in zip(ids, owners, strict=True):
            if owner is None:
                missing[table_id] = since = self._missing.get(table_id, now)
                if now - since >= self.ttl:
                    orphans.append(table_id)
        self._missing = missing
        if not orphans:
            return
        # Share them out: the first survivor to look must not take everything.
        share = -(-len(orphans) // max(1, await self.leases.workers()))
        random.shuffle(orphans)
        for table_id in orphans[:share]:
            await self._take(table_id)

    async def _released(self, table_id: str) -> None:
        """Another process handed ``table_id`` over: claim it now if nobody did."""
        if not self.draining and table_id not in self.tables:
            await asyncio.sleep(random.uniform(0, 0.05))  # let the survivors share them
            await self._take(table_id)

    async def _take(self, table_id: str) -> None:
        if table_id in self._claiming or table_id in self._leaving or self.draining:
            return
        self._claiming.add(table_id)
        try:
            if await self.leases.claim(table_id):
                self._missing.pop(table_id, None)
                try:
                    table = await super().get(table_id)
                except ProtocolError:
                    await self.leases.release(table_id)
                else:
                    self.bus.table_changed(table)
        except (RedisError, OSError) as exc:
            log.warning("cluster: cannot claim table %s (%s)", table_id, exc)
        finally:
            self._claiming.discard(table_id)

    # ------------------------------------------------------------------ finding tables
    async def ask_owner(self, table_id: str, path: str) -> tuple[bool, Any]:
        address = await self.route(table_id)
        if address is None:
            return False, None
        try:
            answer = await self.forwarder.http.get(f"{address.rstrip('/')}{path}",
                                                   headers={HOP: "1"})
        except httpx.HTTPError:
            raise ProtocolError(UNAVAILABLE, "the table's process is away") from None
        return True, (answer.json() if answer.status_code == 200 else None)

    async def route(self, table_id: str) -> str | None:
        """Where ``table_id`` is served: ``None`` for here (claimed now if nobody held it),
        else the owner's address. Raises ``unavailable`` while its owner is gone but its
        lease has not run out yet (the client retries)."""
        if table_id in self.tables or table_id in self.damaged or len(table_id) > 64:
            return None
        if self.draining or table_id in self._leaving:
            raise ProtocolError(UNAVAILABLE, "this table is moving between servers; try again")
        try:
            for _ in range(3):
                owner = await self.leases.owner(table_id)
                if owner == self.me:
                    return None
                if owner is None:
                    if await self.leases.claim(table_id):
                        return None
                    continue
                info = await self.leases.worker(owner)
                if info is not None and info.get("address"):
                    return str(info["address"])
                raise ProtocolError(UNAVAILABLE, "this table's server has stopped; it moves "
                                                 "to another in a few seconds")
        except (RedisError, OSError):
            raise ProtocolError(UNAVAILABLE, "the cluster's registry (Redis) cannot be "
                                             "reached; try again") from None
        raise ProtocolError(UNAVAILABLE, "this table is moving between servers; try again")

    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if await self.route(table_id) is not None:
            raise ProtocolError(UNAVAILABLE, "this table is served elsewhere; try again")
        try:
            table = await super().get(table_id)
        except ProtocolError as exc:
            if exc.code == NOT_FOUND or table_id not in self.damaged:
                # Gone, or not loadable now (the database is away): whoever asks next
                # claims it afresh.
                with contextlib.suppress(RedisError, OSError):
                    await self.leases.release(table_id)
            raise
        self.bus.table_changed(table)  # a table claimed from a dead owner: list it again
        return table

    def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """Joinable tables of every process (the bus keeps this list current)."""
        return self.bus.lobby(limit)

    async def quick_seat(self, name: str, client: str, skip: frozenset[str] = frozenset(),
                         player: str | None = None) -> tuple[str, int, str] | None:
        """Quick play across the cluster: the newest card table waiting for players,
        whichever process owns it (that process seats the player, asked as the client's
        own join would be)."""
        for summary in self.bus.lobby(100):
            table_id = str(summary.get("id"))
            kind = self.games.get(str(summary.get("game")))
            if kind is None or not kind.quick_play or summary.get("private") or table_id in skip:
                continue
            try:
                address = await self.route(table_id)
            except ProtocolError:
                continue                    # moving between processes: the next one
            if address is None:
                table = await self.get(table_id)
                token = new_token()
                try:
                    seat = await table.call(table.join, name, None, token_hash(token), player)
                except ProtocolError:
                    continue                # filled or started meanwhile
                return table_id, seat, token
            joined = await self.forwarder.join(address, table_id, name, client)
            if joined is not None:
                return table_id, joined[0], joined[1]
        return None
