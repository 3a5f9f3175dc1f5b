"""The store's WAL stays bounded under steady writes, on a real SQLite file.

The full-size check is ``benchmarks/soak.py`` (16 MiB threshold, half a million actions);
here the same mechanism runs with a 256 KiB threshold and a checkpoint every 50 ms, so a
few seconds of commits cross it many times.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from itertools import pairwise
from pathlib import Path

import psycopg

from cambio.server.store import SeatRow, SqliteStore, Store, StoreFailed, TableRow, open_store

from ..support.databases import Database
from ..support.postgres import PostgresCluster

LIMIT = 256 * 1024


def test_the_wal_is_cut_back_while_writes_go_on(tmp_path: Path) -> None:
    db = tmp_path / "cambio.sqlite3"
    wal = Path(str(db) + "-wal")
    store = SqliteStore(db, wal_limit=LIMIT, checkpoint_every=0.05)
    sizes: list[int] = []

    async def main() -> None:
        # One commit each (two pages of WAL: the row and its index), a few hundred a
        # second like a busy server: about 13 MB of WAL in all.
        for v in range(1, 1501):
            await store.write([Store.insert_action("t", 1, 1, v, v % 4, "snap 1.2" * 8)])
            sizes.append(os.path.getsize(wal) if wal.exists() else 0)
            await asyncio.sleep(0.002)

    try:
        asyncio.run(main())
        assert len(store.actions("t", 1, 1)) == 1500
    finally:
        store.close()
    # Without the cut the file only grows (to the whole 13 MB); with it, it stays within the
    # threshold plus what a few checkpoint intervals write.
    assert max(sizes) < 6 * LIMIT, max(sizes)
    assert sum(1 for a, b in pairwise(sizes) if b < a // 2) >= 3



def test_a_group_commit_fails_only_the_writer_whose_statements_are_bad(
        database: Database) -> None:
    store = open_store(database.url)

    async def main() -> list[BaseException | None]:
        # 40 writers in the same turn of the loop, one action each at its own table, but
        # writer 20 writes writer 0's version again (refused by the primary key, as a second
        # owner of a table would be): the shared commit fails, then each writer's own.
        writes = [store.write([Store.insert_action(f"t{0 if i == 20 else i}", 1, 1, 1, 0,
                                                   f"draw {i}")]) for i in range(40)]
        return await asyncio.gather(*writes, return_exceptions=True)

    try:
        results = asyncio.run(main())
        assert [i for i, r in enumerate(results) if r is not None] == [20]
        assert isinstance(results[20], StoreFailed)
        assert isinstance(results[20].__cause__, sqlite3.IntegrityError | psycopg.IntegrityError)
    finally:
        store.close()
    reread = open_store(database.url)  # what is on disk, through a new connection
    try:
        for i in range(40):
            expected = [] if i == 20 else [(0, f"draw {i}")]
            assert reread.actions(f"t{i}", 1, 1) == expected
    finally:
        reread.close()


def test_the_lobby_lists_waiting_tables_with_a_free_seat(database: Database) -> None:
    store = open_store(database.url)
    rows = [TableRow(f"w{i}", "cards", 2, {"rounds": 1}, 2**62 + i,
                     "playing" if i == 3 else "waiting", 0, 1000.0 + i) for i in range(5)]

    async def main() -> None:
        for row in rows:
            free = "empty" if row.id != "w2" else "bot"  # w2 is full, w3 is playing
            await store.write([Store.insert_table(row),
                               Store.put_seat(row.id, SeatRow(0, "human", "Ann", None, "h")),
                               Store.put_seat(row.id, SeatRow(1, free, "", None, None))])

    try:
        asyncio.run(main())
        waiting, damaged = store.waiting_tables(limit=10)
        assert [t.id for t in waiting] == ["w4", "w1", "w0"] and not damaged
        assert waiting[0] == rows[4]  # 63-bit seeds and the JSON config come back as written
        assert [t.id for t in store.waiting_tables(limit=2)[0]] == ["w4", "w1"]
        assert store.count_tables() == 5
    finally:
        store.close()


def test_postgres_writes_go_on_after_the_database_drops_the_connections(
        postgres: PostgresCluster) -> None:
    url = postgres.create_database()
    store = open_store(url)

    def drop_connections() -> int:
        """What a restart of the database server does to the store's connections."""
        with psycopg.connect(url, autocommit=True) as admin:
            rows = admin.execute(
                "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE "
                "datname = current_database() AND pid <> pg_backend_pid()").fetchall()
        return sum(1 for (done,) in rows if done)

    async def main() -> int:
        dropped = 0
        for version in range(1, 5):
            if version == 3:
                dropped = drop_connections()
            await store.write([Store.insert_action("t", 1, 1, version, 0, "draw")])
        return dropped

    try:
        # the writer's and the reader's connections (and the single-server lock's) were
        # dropped between two writes: the next write and read open new ones
        assert asyncio.run(main()) >= 2
        assert store.actions("t", 1, 1) == [(0, "draw")] * 4
    finally:
        store.close()
