"""SQLite storage: tables, seats (token hashes only), games, rounds and every accepted action.

The actions are the source of truth: a game's state is rebuilt by replaying them through the
engine (as ``cambio replay`` does), so nothing derived needs to be stored exactly.

**Save before broadcast, cheaply.** Writers ``await`` :meth:`Store.write`; the statements of
every writer that asks within one turn of the event loop are committed in one transaction
(group commit), then all of them are woken. A table's actor only tells its clients about an
action after its ``await`` returns, so a client never sees an action that is not on disk.
The database runs in WAL mode with ``synchronous=NORMAL``: a commit is in the WAL file
before ``write`` returns, so it survives the process being killed (``kill -9``); only a power
cut may lose the last commits (``--db`` on a battery-backed disk, or ``synchronous=FULL``,
if that matters).
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("cambio.server")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,            -- 'cards' or 'board'
    players INTEGER NOT NULL,
    config TEXT NOT NULL,          -- JSON: rules and rounds, or the setup
    seed INTEGER NOT NULL,         -- the table's secret seed; each game's seed derives from it
    status TEXT NOT NULL,          -- waiting, playing, finished
    game_no INTEGER NOT NULL,      -- the current game (0 before the first start)
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables (status, created);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,            -- human, bot, empty
    name TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT,               -- sha256 of the seat token; the token itself is never stored
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL REFERENCES tables (id),
    game_no INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    started TEXT NOT NULL,
    PRIMARY KEY (table_id, game_no)
);
CREATE TABLE IF NOT EXISTS rounds (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    header TEXT NOT NULL,          -- the record header of this round (holds its seed)
    PRIMARY KEY (table_id, game_no, round_no)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    version INTEGER NOT NULL,      -- 1, 2, ... within the round
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, game_no, round_no, version)
);
"""

Statement = tuple[str, Sequence[Any]]
CHECKPOINT_EVERY = 1.0
"""Seconds between two WAL checkpoints (run by a background thread)."""
WAL_LIMIT = 16 << 20
"""Bytes of WAL file past which the checkpoint thread truncates it (docs/server.md)."""


class StoreError(Exception):
    """The database cannot be used (damaged, locked by another server): a message for the
    operator, not a traceback."""


class DamagedRow(Exception):
    """A stored row that cannot be read back; its table is set aside (quarantined)."""


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    config: dict[str, Any]
    seed: int
    status: str
    game_no: int
    created: float


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    bot: str | None
    token_hash: str | None


class Store:
    """One SQLite file; reads are direct, writes are grouped into shared commits."""

    def __init__(self, path: Path | str, *, wal_limit: int = WAL_LIMIT,
                 checkpoint_every: float = CHECKPOINT_EVERY) -> None:
        self.path = str(path)
        self.wal_limit = wal_limit
        self.checkpoint_every = checkpoint_every
        self._lock: int | None = None
        if self.path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._lock = _lock_file(self.path + ".lock", self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            # When the log is reset, cut the file back to this size (it never shrinks else).
            self.db.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            self._unlock()
            raise StoreError(f"{self.path} cannot be used as the database ({exc}); restore a "
                             "backup, or move the file aside to start empty") from None
        self._owner = threading.get_ident()
        self._local = threading.local()
        self._cut = False
        self._batch: list[tuple[list[Statement], asyncio.Future[None]]] = []
        self._flushing = False
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.path != ":memory:":
            # A checkpoint copies the WAL into the database file and syncs it to disk: tens
            # to hundreds of milliseconds that would stall every table if a commit on the
            # event loop did it. A thread does it instead, without blocking writers.
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(target=self._checkpoints, daemon=True,
                                                  name="sqlite checkpoints")
            self._checkpointer.start()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        self.db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the lock
            self._lock = None

    def _checkpoints(self) -> None:
        """Keep the WAL small: copy it into the database every second (``PASSIVE``: never
        waits for writers), and once the file has grown past ``wal_limit`` ask the writer
        to cut it (:meth:`_cut_wal`). Under steady load a passive checkpoint is never
        followed by a moment with nothing new in the log, so without the cut the file only
        grows; and this thread cannot cut it itself, because a writer that commits
        without pause never leaves it the write lock (it starved for seconds in tests)."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        wal = self.path + "-wal"
        failing = False
        try:
            while not self._stop.wait(self.checkpoint_every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    if _size(wal) > self.wal_limit:
                        self._cut = True
                    failing = False
                except sqlite3.Error as exc:
                    if not failing:  # once per outage, not once a second
                        log.error("store: checkpoint failed: %s", exc)
                    failing = True
        finally:
            db.close()

    def _conn(self) -> sqlite3.Connection:
        """The connection for reads on this thread: the writer's on the event loop's thread,
        a private one on a worker thread (replays of finished tables, record downloads), so
        a worker never reads through the connection a commit is using."""
        if threading.get_ident() == self._owner:
            return self.db
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = sqlite3.connect(self.path, isolation_level=None,
                                                  check_same_thread=False)
        return db

    # ------------------------------------------------------------------ writing
    async def write(self, statements: Iterable[Statement]) -> None:
        """Commit ``statements`` atomically (with whatever else is waiting); raise if it fails."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._batch.append((list(statements), fut))
        if not self._flushing:
            self._flushing = True
            loop.call_soon(self._flush)
        await fut

    def _flush(self) -> None:
        batch, self._batch = self._batch, []
        self._flushing = False
        try:
            self._commit([s for stmts, _ in batch for s in stmts])
        except sqlite3.Error:
            # One writer's statements broke the shared transaction: commit each on its own
            # so only that writer fails.
            for stmts, fut in batch:
                try:
                    self._commit(stmts)
                except sqlite3.Error as exc:
                    log.exception("store: a write failed")
                    if not fut.done():
                        fut.set_exception(exc)
                else:
                    if not fut.done():
                        fut.set_result(None)
            return
        for _, fut in batch:
            if not fut.done():
                fut.set_result(None)
        if self._cut:
            self._cut_wal()

    def _cut_wal(self) -> None:
        """Between two commits, on the writer's thread: copy what the last passive
        checkpoint left (about a second of writes) into the database, start the log over and
        cut the file to nothing (``TRUNCATE``). Waits at most 50 ms for readers; if they are
        still there, the next commit tries again."""
        self._cut = False
        db = self.db
        try:
            db.execute("PRAGMA busy_timeout=50")
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if busy:
                self._cut = True
        except sqlite3.Error as exc:
            log.error("store: cutting the WAL failed: %s", exc)
        finally:
            db.execute("PRAGMA busy_timeout=5000")

    def _commit(self, statements: list[Statement]) -> None:
        db = self.db
        db.execute("BEGIN")
        try:
            for sql, params in statements:
                db.execute(sql, params)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ------------------------------------------------------------------ statements
    @staticmethod
    def insert_table(row: TableRow) -> Statement:
        return ("INSERT INTO tables (id, game, players, config, seed, status, game_no, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.players, json.dumps(row.config), row.seed, row.status,
                 row.game_no, row.created))

    @staticmethod
    def update_table(table_id: str, status: str, game_no: int) -> Statement:
        return ("UPDATE tables SET status = ?, game_no = ? WHERE id = ?",
                (status, game_no, table_id))

    @staticmethod
    def put_seat(table_id: str, s: SeatRow) -> Statement:
        return ("INSERT OR REPLACE INTO seats (table_id, seat, kind, name, bot, token_hash) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, s.seat, s.kind, s.name, s.bot, s.token_hash))

    @staticmethod
    def insert_game(table_id: str, game_no: int, seed: int, started: str) -> Statement:
        return ("INSERT INTO games (table_id, game_no, seed, started) VALUES (?, ?, ?, ?)",
                (table_id, game_no, seed, started))

    @staticmethod
    def insert_round(table_id: str, game_no: int, round_no: int,
                     header: dict[str, Any]) -> Statement:
        return ("INSERT INTO rounds (table_id, game_no, round_no, header) VALUES (?, ?, ?, ?)",
                (table_id, game_no, round_no, json.dumps(header)))

    @staticmethod
    def insert_action(table_id: str, game_no: int, round_no: int, version: int, seat: int,
                      action: str) -> Statement:
        return ("INSERT INTO actions (table_id, game_no, round_no, version, seat, action) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, game_no, round_no, version, seat, action))

    # ------------------------------------------------------------------ reading
    def table(self, table_id: str) -> TableRow | None:
        row = self._conn().execute(
            "SELECT id, game, players, config, seed, status, game_no, created FROM tables "
            "WHERE id = ?", (table_id,)).fetchone()
        return _table_row(row) if row else None

    def unfinished_tables(self) -> tuple[list[TableRow], dict[str, str]]:
        """The tables to load at start, and the ids of those whose row is damaged (why)."""
        rows = self.db.execute(
            "SELECT id, game, players, config, seed, status, game_no, created FROM tables "
            "WHERE status != 'finished' ORDER BY created").fetchall()
        good: list[TableRow] = []
        damaged: dict[str, str] = {}
        for r in rows:
            try:
                good.append(_table_row(r))
            except DamagedRow as exc:
                damaged[str(r[0])] = str(exc)
        return good, damaged

    def delete_table(self, table_id: str) -> list[Statement]:
        """The statements that remove a table that never started (no games, rounds, actions)."""
        return [("DELETE FROM seats WHERE table_id = ?", (table_id,)),
                ("DELETE FROM tables WHERE id = ? AND game_no = 0", (table_id,))]

    def seats(self, table_id: str) -> list[SeatRow]:
        rows = self._conn().execute(
            "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = ? "
            "ORDER BY seat", (table_id,)).fetchall()
        out: list[SeatRow] = []
        for r in rows:
            seat, kind, name, bot, th = r
            if not (isinstance(seat, int) and 0 <= seat < 64 and kind in ("human", "bot", "empty")
                    and isinstance(name, str) and (bot is None or isinstance(bot, str))
                    and (th is None or isinstance(th, str))):
                raise DamagedRow(f"table {table_id}: seat row {r!r:.80} is damaged")
            out.append(SeatRow(seat, kind, name, bot, th))
        return out

    def game_seed(self, table_id: str, game_no: int) -> tuple[int, str] | None:
        row = self._conn().execute(
            "SELECT seed, started FROM games WHERE table_id = ? AND game_no = ?",
            (table_id, game_no)).fetchone()
        return (int(row[0]), str(row[1])) if row else None

    def rounds(self, table_id: str, game_no: int) -> list[tuple[int, dict[str, Any]]]:
        rows = self._conn().execute(
            "SELECT round_no, header FROM rounds WHERE table_id = ? AND game_no = ? "
            "ORDER BY round_no", (table_id, game_no)).fetchall()
        out: list[tuple[int, dict[str, Any]]] = []
        for round_no, header in rows:
            parsed = _json(header) if isinstance(header, str) else None
            if not isinstance(round_no, int) or not isinstance(parsed, dict):
                raise DamagedRow(f"table {table_id}: round {round_no!r:.20} of game {game_no} "
                                 "is damaged")
            out.append((round_no, parsed))
        return out

    def actions(self, table_id: str, game_no: int, round_no: int) -> list[tuple[int, str]]:
        """``(seat, action text)`` in version order."""
        rows = self._conn().execute(
            "SELECT version, seat, action FROM actions WHERE table_id = ? AND game_no = ? "
            "AND round_no = ? ORDER BY version", (table_id, game_no, round_no)).fetchall()
        out: list[tuple[int, str]] = []
        for i, (version, seat, action) in enumerate(rows, start=1):
            if version != i:
                raise DamagedRow(f"table {table_id}: action versions have a gap at {i}")
            if not isinstance(seat, int) or not isinstance(action, str):
                raise DamagedRow(f"table {table_id}: action {i} is damaged")
            out.append((seat, action))
        return out


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _table_row(r: tuple[Any, ...]) -> TableRow:
    """A ``tables`` row, checked: a damaged one raises :class:`DamagedRow`."""
    config = _json(r[3]) if isinstance(r[3], str) else None
    ok = (isinstance(r[0], str) and r[1] in ("cards", "board") and isinstance(r[2], int)
          and 2 <= r[2] <= 64 and isinstance(config, dict) and isinstance(r[4], int)
          and r[5] in ("waiting", "playing", "finished") and isinstance(r[6], int)
          and r[6] >= 0 and isinstance(r[7], int | float))
    if not ok or not isinstance(config, dict):
        raise DamagedRow(f"table {r[0]!r:.40}: its row is damaged")
    return TableRow(id=r[0], game=r[1], players=r[2], config=config, seed=r[4], status=r[5],
                    game_no=r[6], created=float(r[7]))


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _lock_file(lock_path: str, db_path: str) -> int:
    """Hold an exclusive lock beside the database for the life of the process: a second
    server on the same file would interleave versions with the first."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreError(f"another cambio server is using {db_path} (it holds {lock_path}); "
                         "stop it first, or give this one another --db") from None
    return fd
