"""The players' SQL on a real SQLite file: the migration of an empty database, and the
sweep that forgets the players of visits that played nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cambio.server.store import SeatRow, SqliteStore, Store, TableRow
from cambio.server.store import players_sql as sql


def test_idle_unclaimed_players_are_forgotten_and_nobody_else(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite3")

    async def main() -> None:
        old, recent = 1_000.0, 9_000.0
        await store.write([
            sql.insert_player("_idle", "Lurker", old),
            sql.insert_key("k-idle", "_idle", "browser", None),
            sql.insert_player("_new", "Newcomer", recent),
            sql.insert_player("_sat", "Sitter", old),
            sql.insert_player("_claimed", "Named", old),
            sql.claim_player("_claimed", "named", "Named", "$argon2id$x"),
            Store.insert_table(TableRow("t1", "cards", 2, {}, 1, "waiting", 0, old)),
            Store.put_seat("t1", SeatRow(0, "human", "Sitter", None, "h", "_sat")),
        ])
        await store.write(sql.forget_idle(5_000.0))

    try:
        asyncio.run(main())
        ids = {r[0] for r in store.read("SELECT id FROM players")}
        assert ids == {"_new", "_sat", "_claimed"}
        assert store.read("SELECT key_hash FROM player_keys") == []
        assert store.read("SELECT version FROM schema_version") == [(sql.SCHEMA_VERSION,)]
    finally:
        store.close()
