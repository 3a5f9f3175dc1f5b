"""A database made by main before players existed (commit 74d297f, see
``tests/server/data/make_old_db.py``) upgrades in place on start, on both stores: its
tables load and play on, its seats take players, and the players' tables exist."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import psycopg

from cambio.server.store.players_sql import SCHEMA_VERSION

from ...support.databases import Database
from ..harness import ServerProcess
from .helpers import browser, new_player, play_now_game

OLD = Path(__file__).resolve().parents[1] / "data" / "main-74d297f.sqlite3"
FINISHED, WAITING, PLAYING = "_sXimyzK", "Mfl2ewyd", "I1iX-3Gt"


def put_old_database(database: Database) -> None:
    """The old file as it is (SQLite), or its schema and rows copied as they are
    (PostgreSQL: the schema's SQL was written for both engines)."""
    if database.kind == "sqlite":
        shutil.copy(OLD, database.url)
        return
    with sqlite3.connect(OLD) as old, psycopg.connect(database.url, autocommit=True) as new:
        ddl = [r[0] for r in old.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT "
                                         "NULL AND type IN ('table', 'index') ORDER BY "
                                         "type DESC, rowid")]
        for text in ddl:
            new.execute(text)
        for (name,) in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            rows = old.execute(f"SELECT * FROM {name}").fetchall()
            for row in rows:
                marks = ", ".join("%s" for _ in row)
                new.execute(f"INSERT INTO {name} VALUES ({marks})", row)


def schema_version(database: Database) -> list[tuple[int]]:
    if database.kind == "sqlite":
        with sqlite3.connect(database.url) as db:
            return db.execute("SELECT version FROM schema_version").fetchall()
    with psycopg.connect(database.url, autocommit=True) as conn:
        return conn.execute("SELECT version FROM schema_version").fetchall()


def test_a_database_of_main_upgrades_in_place(database: Database) -> None:
    put_old_database(database)
    server = ServerProcess(database, bot_speed=40.0, round_pause=0.2,
                           extra=["--queue-wait", "30"])
    with server:
        asyncio.run(_upgraded(server))
    assert schema_version(database) == [(SCHEMA_VERSION,)]
    with server:  # started again: nothing to migrate, all still there
        asyncio.run(_again(server))
    assert schema_version(database) == [(SCHEMA_VERSION,)]


async def _upgraded(server: ServerProcess) -> None:
    async with browser(server) as http:
        # the old tables load: the finished game's record, the game in play, the waiting one
        r = await http.get(f"/api/tables/{FINISHED}/record")
        assert r.status_code == 200 and "Old Ann" in r.text
        playing = (await http.get(f"/api/tables/{PLAYING}")).json()
        assert playing["status"] in ("playing", "finished") and playing["rated"] is False
        waiting = (await http.get(f"/api/tables/{WAITING}")).json()
        assert waiting["status"] == "waiting"
        # a player joins the old waiting table, and their seat is theirs
        me = await new_player(http, "New Nia")
        r = await http.post(f"/api/tables/{WAITING}/join", json={"name": "New Nia"})
        assert r.status_code == 200, r.text
        # and Play now works on the upgraded database
        await play_now_game(server, http)
        profile = (await http.get(f"/api/players/{me['id']}")).json()
        assert len(profile["games"]) == 1 and "cards-2" in profile["ratings"]


async def _again(server: ServerProcess) -> None:
    async with browser(server) as http:
        summary = (await http.get(f"/api/tables/{WAITING}")).json()
        assert [s["name"] for s in summary["seats"]] == ["Old Bob", "Old Cy", "New Nia"]
        r = await http.get(f"/api/tables/{FINISHED}/record")
        assert r.status_code == 200
