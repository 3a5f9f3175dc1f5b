"""SQLite storage: one file, one server process (the embedded default of ``cambio serve``).

Commits run on the event loop's thread, grouped per turn of the loop (see
:mod:`.interface`). The database runs in WAL mode with ``synchronous=NORMAL``: a commit is in
the WAL file before ``write`` returns, so it survives the process being killed
(``kill -9``); only a power cut may lose the last commits (a battery-backed disk, or
``synchronous=FULL``, if that matters).
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from .interface import Store, StoreError
from .players_sql import SCHEMA_VERSION, migrate
from .statements import SCHEMA, Statement

log = logging.getLogger("cambio.server")

CHECKPOINT_EVERY = 1.0
"""Seconds between two WAL checkpoints (run by a background thread)."""
WAL_LIMIT = 16 << 20
"""Bytes of WAL file past which the checkpoint thread truncates it (docs/server.md)."""


class SqliteStore(Store):
    """One SQLite file; reads are direct, writes are grouped into shared commits."""

    failures = (sqlite3.Error,)


    def __init__(self, path: Path | str, *, wal_limit: int = WAL_LIMIT,
                 checkpoint_every: float = CHECKPOINT_EVERY, exclusive: bool = True) -> None:
        """``exclusive``: hold ``<path>.lock`` for the life of the store, refusing a second
        server on the same file (a second writer would interleave versions with the first)."""
        super().__init__()
        self.path = str(path)
        self.wal_limit = wal_limit
        self.checkpoint_every = checkpoint_every
        self._lock: int | None = None
        if self.path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                self._lock = _lock_file(self.path + ".lock", self.path)
        try:
            self.db = _connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            # When the log is reset, cut the file back to this size (it never shrinks else).
            self.db.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
            for statement in SCHEMA:
                self.db.execute(statement)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._unlock()
            raise StoreError(f"{self.path} cannot be used as the database ({exc}); restore a "
                             "backup, or move the file aside to start empty") from None
        self._owner = threading.get_ident()
        self._local = threading.local()
        self._cut = False
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

    def describe(self) -> str:
        return self.path

    def _migrate(self) -> None:
        """The players' tables (:mod:`.players_sql`), added to an older file in place, all
        or nothing."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            found = migrate(lambda text, params: db.execute(text, params).fetchall())
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        if found < SCHEMA_VERSION and db.execute("SELECT 1 FROM tables LIMIT 1").fetchone():
            log.info("store: %s upgraded from schema %d to %d", self.path, found,
                     SCHEMA_VERSION)

    def close(self) -> None:
        super().close()
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
            db = self._local.db = _connect(self.path)
        return db

    def _query(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._conn().execute(text, params).fetchall()

    # ------------------------------------------------------------------ writing
    def _after_flush(self) -> None:
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
            for text, params in statements:
                db.execute(text, params)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.text_factory = _text
    return db


def _text(raw: bytes) -> str | bytes:
    """A TEXT value as text, or as its bytes when they are not UTF-8 (a damaged disk, a
    hand edit): sqlite3's own decoding raises on such a value in the middle of a fetch,
    which took the whole read (and the server's start) with it; as bytes, the row's checks
    (:mod:`.rows`) find it damaged and only its table is set aside."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


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
                         "stop it first, or give this one another --database") from None
    return fd
