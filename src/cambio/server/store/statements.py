"""Every SQL text the server runs, written once in the dialect SQLite and PostgreSQL share.

Table code never writes SQL: it asks for a :data:`Statement` here (``insert_action`` and the
rest, also reachable as ``Store.insert_action``) and hands a list of them to
``Store.write``. Parameters are ``?``; the PostgreSQL backend turns them into psycopg's
``%s`` (no statement here holds a literal ``?`` or ``%``). The column types are spelled so
both engines read them the same way: ``BIGINT`` is SQLite's 64-bit INTEGER and PostgreSQL's
int8 (seeds are 63-bit), ``DOUBLE PRECISION`` is REAL to SQLite.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .rows import SeatRow, TableRow

Statement = tuple[str, Sequence[Any]]
"""One SQL text and its parameters."""

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,            -- 'cards' or 'board'
    players INTEGER NOT NULL,
    config TEXT NOT NULL,          -- JSON: rules and rounds, or the setup
    seed BIGINT NOT NULL,          -- the table's secret seed; each game's seed derives from it
    status TEXT NOT NULL,          -- waiting, playing, finished
    game_no INTEGER NOT NULL,      -- the current game (0 before the first start)
    created DOUBLE PRECISION NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS tables_status ON tables (status, created)",
    """CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,            -- human, bot, empty
    name TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT,               -- sha256 of the seat token; the token itself is never stored
    -- player_id TEXT is added by migration 1 (store/players_sql.py)
    PRIMARY KEY (table_id, seat)
)""",
    """CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL REFERENCES tables (id),
    game_no INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    started TEXT NOT NULL,
    PRIMARY KEY (table_id, game_no)
)""",
    """CREATE TABLE IF NOT EXISTS rounds (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    header TEXT NOT NULL,          -- the record header of this round (holds its seed)
    PRIMARY KEY (table_id, game_no, round_no)
)""",
    # The primary key is also the guard between processes: a second writer of the same
    # version of a table (a process that lost its lease and does not know yet) fails.
    """CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    version INTEGER NOT NULL,      -- 1, 2, ... within the round
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, game_no, round_no, version)
)""",
    # A table's chat: plain text as the player typed it, after the server's checks.
    """CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,            -- 1, 2, ... within the table
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,            -- the seat's name when it was said
    text TEXT NOT NULL,
    emote TEXT,                    -- a quick emote's id, or NULL
    at TEXT NOT NULL,              -- ISO 8601, UTC
    PRIMARY KEY (table_id, n)
)""",
]

TABLE_COLUMNS = "id, game, players, config, seed, status, game_no, created"


# ---------------------------------------------------------------------- writes
def insert_table(row: TableRow) -> Statement:
    return (f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.game, row.players, json.dumps(row.config), row.seed, row.status,
             row.game_no, row.created))


def update_table(table_id: str, status: str, game_no: int) -> Statement:
    return ("UPDATE tables SET status = ?, game_no = ? WHERE id = ?",
            (status, game_no, table_id))


def put_seat(table_id: str, s: SeatRow) -> Statement:
    return ("INSERT INTO seats (table_id, seat, kind, name, bot, token_hash, player_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET "
            "kind = excluded.kind, name = excluded.name, bot = excluded.bot, "
            "token_hash = excluded.token_hash, player_id = excluded.player_id",
            (table_id, s.seat, s.kind, s.name, s.bot, s.token_hash, s.player))


def insert_game(table_id: str, game_no: int, seed: int, started: str) -> Statement:
    return ("INSERT INTO games (table_id, game_no, seed, started) VALUES (?, ?, ?, ?)",
            (table_id, game_no, seed, started))


def insert_round(table_id: str, game_no: int, round_no: int,
                 header: dict[str, Any]) -> Statement:
    return ("INSERT INTO rounds (table_id, game_no, round_no, header) VALUES (?, ?, ?, ?)",
            (table_id, game_no, round_no, json.dumps(header)))


def insert_action(table_id: str, game_no: int, round_no: int, version: int, seat: int,
                  action: str) -> Statement:
    return ("INSERT INTO actions (table_id, game_no, round_no, version, seat, action) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, game_no, round_no, version, seat, action))


def insert_chat(table_id: str, n: int, seat: int, name: str, text: str, emote: str | None,
                at: str) -> Statement:
    return ("INSERT INTO chat (table_id, n, seat, name, text, emote, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, n, seat, name, text, emote, at))


def put_deadline(table_id: str, game_no: int, round_no: int, since: int, seat: int,
                 deadline: float) -> Statement:
    """The decision a correspondence table waits for and its deadline (one per table; the
    ``deadlines`` table is a migration of store/players_sql.py)."""
    return ("INSERT INTO deadlines (table_id, game_no, round_no, since, seat, deadline) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
            "game_no = excluded.game_no, round_no = excluded.round_no, "
            "since = excluded.since, seat = excluded.seat, deadline = excluded.deadline",
            (table_id, game_no, round_no, since, seat, deadline))


def delete_table(table_id: str) -> list[Statement]:
    """The statements that remove a table that never started (no games, rounds, actions)."""
    return [("DELETE FROM chat WHERE table_id = ?", (table_id,)),
            ("DELETE FROM seats WHERE table_id = ?", (table_id,)),
            ("DELETE FROM tables WHERE id = ? AND game_no = 0", (table_id,))]


# ---------------------------------------------------------------------- reads
TABLE = f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?"
UNFINISHED = f"SELECT {TABLE_COLUMNS} FROM tables WHERE status != 'finished' ORDER BY created"
UNFINISHED_IDS = "SELECT id FROM tables WHERE status != 'finished'"
WAITING = (f"SELECT {TABLE_COLUMNS} FROM tables t WHERE status = 'waiting' AND EXISTS "
           "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'empty') "
           "ORDER BY created DESC LIMIT ?")
COUNT_TABLES = "SELECT COUNT(*) FROM tables"
SEATS = ("SELECT seat, kind, name, bot, token_hash, player_id FROM seats WHERE table_id = ? "
         "ORDER BY seat")
GAME_SEED = "SELECT seed, started FROM games WHERE table_id = ? AND game_no = ?"
ROUNDS = ("SELECT round_no, header FROM rounds WHERE table_id = ? AND game_no = ? "
          "ORDER BY round_no")
CHAT = ("SELECT n, seat, name, text, emote, at FROM chat WHERE table_id = ? "
        "ORDER BY n DESC LIMIT ?")
DEADLINE = "SELECT game_no, round_no, since, seat, deadline FROM deadlines WHERE table_id = ?"
ACTIONS = ("SELECT version, seat, action FROM actions WHERE table_id = ? AND game_no = ? "
           "AND round_no = ? ORDER BY version")
