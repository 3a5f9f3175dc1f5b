"""The reviews' and daily deals' SQL (server/reviews.py, server/daily.py): their tables are
made by a step of the schema's migrations (:data:`.players_sql.MIGRATIONS`), and every
text here runs on SQLite and PostgreSQL alike (:mod:`.statements`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .statements import Statement

Read = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]

MIGRATION = [
    """CREATE TABLE reviews (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    status TEXT NOT NULL,          -- queued, running, done, failed
    worker TEXT,                   -- the process computing it (running)
    started DOUBLE PRECISION,      -- when it began (a process that died: queued again later)
    review TEXT,                   -- JSON, as cambio review --json prints it (done)
    accuracy DOUBLE PRECISION,     -- the seat's accuracy over the round (done; NULL: no decision)
    decisions INTEGER,             -- decisions reviewed (done)
    cpu DOUBLE PRECISION,          -- CPU seconds the review took (done)
    reason TEXT,                   -- why it could not be made (failed)
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, game_no, round_no, seat)
)""",
    "CREATE INDEX reviews_status ON reviews (status, created)",
    """CREATE TABLE daily (
    day TEXT NOT NULL,             -- the UTC date of the deal (YYYY-MM-DD)
    game TEXT NOT NULL,            -- cards or board
    player_id TEXT NOT NULL,
    table_id TEXT NOT NULL,        -- the player's table of that deal
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (day, game, player_id)
)""",
    """CREATE TABLE daily_seeds (
    day TEXT NOT NULL,
    game TEXT NOT NULL,
    seed BIGINT NOT NULL,          -- the day's table seed: secret, never sent
    PRIMARY KEY (day, game)
)""",
]
"""One step of the schema's migrations: reviews, and who played which daily deal where."""


# ---------------------------------------------------------------------- reviews
def queue_review(table_id: str, game_no: int, round_no: int, seat: int,
                 created: float) -> Statement:
    """Ask for a review (nothing if it was asked for already)."""
    return ("INSERT INTO reviews (table_id, game_no, round_no, seat, status, created) "
            "VALUES (?, ?, ?, ?, 'queued', ?) "
            "ON CONFLICT (table_id, game_no, round_no, seat) DO NOTHING",
            (table_id, game_no, round_no, seat, created))


def claim_review(key: tuple[str, int, int, int], worker: str, now: float,
                 stale: float) -> Statement:
    """Take a queued review (or one whose process has not finished it by ``stale``)."""
    return ("UPDATE reviews SET status = 'running', worker = ?, started = ? "
            "WHERE table_id = ? AND game_no = ? AND round_no = ? AND seat = ? AND "
            "(status = 'queued' OR (status = 'running' AND started < ?))",
            (worker, now, *key, stale))


RELEASE_RUNNING: Statement = (
    "UPDATE reviews SET status = 'queued', worker = NULL WHERE status = 'running'", ())
"""Every claimed review back to the queue: for the only process of its database, at its
start (whatever was running was lost with the process before it)."""


def finish_review(key: tuple[str, int, int, int], review: str, accuracy: float | None,
                  decisions: int, cpu: float) -> Statement:
    return ("UPDATE reviews SET status = 'done', review = ?, accuracy = ?, decisions = ?, "
            "cpu = ?, worker = NULL WHERE table_id = ? AND game_no = ? AND round_no = ? "
            "AND seat = ?", (review, accuracy, decisions, cpu, *key))


def fail_review(key: tuple[str, int, int, int], reason: str) -> Statement:
    return ("UPDATE reviews SET status = 'failed', reason = ?, worker = NULL "
            "WHERE table_id = ? AND game_no = ? AND round_no = ? AND seat = ?",
            (reason, *key))


KEY = "table_id = ? AND game_no = ? AND round_no = ? AND seat = ?"
REVIEW = f"SELECT status, worker, review, reason, created FROM reviews WHERE {KEY}"
QUEUED = ("SELECT table_id, game_no, round_no, seat FROM reviews WHERE status = 'queued' "
          "OR (status = 'running' AND started < ?) ORDER BY created, table_id, game_no, "
          "round_no, seat LIMIT ?")
AHEAD = "SELECT COUNT(*) FROM reviews WHERE status = 'queued' AND created < ?"
ACCURACIES = ("SELECT table_id, game_no, seat, SUM(accuracy * decisions), SUM(decisions) "
              "FROM reviews WHERE status = 'done' AND decisions > 0 AND accuracy IS NOT NULL "
              "AND table_id IN ")


def accuracies(read: Read, games: Sequence[tuple[str, int, int]]
               ) -> dict[tuple[str, int, int], float]:
    """The accuracy of each seat's game ``(table, game, seat)`` that has a review: the mean
    over every reviewed decision of its rounds."""
    tables = sorted({t for t, _, _ in games})
    if not tables:
        return {}
    marks = ", ".join("?" for _ in tables)
    found = {}
    for table_id, game_no, seat, total, count in read(
            f"{ACCURACIES}({marks}) GROUP BY table_id, game_no, seat", tuple(tables)):
        if count:
            found[(str(table_id), int(game_no), int(seat))] = float(total) / int(count)
    return {g: found[g] for g in games if g in found}


# ---------------------------------------------------------------------- daily deals
def insert_daily(day: str, game: str, player_id: str, table_id: str,
                 created: float) -> Statement:
    return ("INSERT INTO daily (day, game, player_id, table_id, created) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (day, game, player_id) DO NOTHING",
            (day, game, player_id, table_id, created))


def insert_day_seed(day: str, game: str, seed: int) -> Statement:
    """The day's seed, unless it was drawn already."""
    return ("INSERT INTO daily_seeds (day, game, seed) VALUES (?, ?, ?) "
            "ON CONFLICT (day, game) DO NOTHING", (day, game, seed))


DAY_SEED = "SELECT seed FROM daily_seeds WHERE day = ? AND game = ?"


DAILY_OF = "SELECT table_id FROM daily WHERE day = ? AND game = ? AND player_id = ?"
DAILY_RESULTS = (
    "SELECT d.player_id, d.table_id, p.name, p.shown, t.status, g.place, g.result, g.seat "
    "FROM daily d JOIN players p ON p.id = d.player_id "
    "JOIN tables t ON t.id = d.table_id "
    "LEFT JOIN player_games g ON g.table_id = d.table_id AND g.game_no = 1 "
    "AND g.player_id = d.player_id "
    "WHERE d.day = ? AND d.game = ? ORDER BY d.created LIMIT ?")
DAILY_TABLE = "SELECT day, game, player_id FROM daily WHERE table_id = ?"
