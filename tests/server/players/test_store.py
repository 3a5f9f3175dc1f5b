"""The players' SQL on a real SQLite file: the migration of an empty database, and the
sweep that forgets the players of visits that played nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cambio.server.store import SeatRow, SqliteStore, Statement, Store, TableRow
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


def test_a_transfer_code_redeemed_twice_at_once_signs_in_one_browser(tmp_path: Path) -> None:
    """Two requests with one code, interleaved at the directory's awaits: one browser gets a
    key, the other the answer of a used code."""
    from cambio.server.errors import ProtocolError
    from cambio.server.players.directory import Directory

    store = SqliteStore(tmp_path / "db.sqlite3")

    async def main() -> list[object]:  # the two answers, a key or a refusal
        directory = Directory(store)
        ann, _ = await directory.create("Ann", "10.0.0.1")
        code, _ = await directory.new_transfer(ann)
        return list(await asyncio.gather(directory.redeem(code, "10.0.0.2"),
                                         directory.redeem(code, "10.0.0.3"),
                                         return_exceptions=True))

    try:
        results = asyncio.run(main())
        signed_in = [r for r in results if isinstance(r, tuple)]
        refused = [r for r in results if isinstance(r, ProtocolError)]
        assert len(signed_in) == 1 and len(refused) == 1, results
        assert "no such code" in str(refused[0])
        assert store.read("SELECT count(*) FROM player_keys WHERE kind = 'browser'") == [(2,)]
    finally:
        store.close()


def test_schema_step_2_lists_the_opponents_of_games_rated_before_it(tmp_path: Path) -> None:
    """Players rated before the step keep their place on the leaderboards: the opponents
    of every rated game already booked are listed (players and bots, never oneself; casual
    games are not)."""
    import json
    import sqlite3

    path = tmp_path / "db.sqlite3"
    store = SqliteStore(path)

    def game(table: str, seat: int, player: str, rated: int) -> Statement:
        roster = json.dumps([{"name": "Ann", "player": "_ann"},
                             {"name": "Bo", "player": "_bo"},
                             {"name": "deep bot", "player": "bot:deep"},
                             {"name": "Gone", "player": None}])
        return sql.insert_player_game({
            "table_id": table, "game_no": 1, "seat": seat, "player_id": player,
            "game": "cards", "class": "cards-multi", "rules": "house", "players": roster,
            "place": 1, "result": "{}", "rated": rated, "mu": 25.0, "sigma": 8.0,
            "ended": 1.0})

    async def main() -> None:
        await store.write([game("t1", 0, "_ann", 1), game("t1", 1, "_bo", 1),
                           game("t2", 0, "_ann", 0)])

    try:
        asyncio.run(main())
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        sql.BACKFILLS[2](lambda text, params: db.execute(text, params).fetchall())
        rows = db.execute("SELECT player_id, class, opponent FROM rated_opponents "
                          "ORDER BY player_id, opponent").fetchall()
    assert rows == [("_ann", "cards-multi", "_bo"), ("_ann", "cards-multi", "bot:deep"),
                    ("_bo", "cards-multi", "_ann"), ("_bo", "cards-multi", "bot:deep")]
