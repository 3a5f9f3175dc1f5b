"""PostgreSQL storage through psycopg 3: the store several server processes (on one machine
or many) share.

Commits run in the store's own writer thread, one at a time, while the event loop goes on;
the writes that arrive during a commit are committed together right after it (group commit,
see :mod:`.interface`). With PostgreSQL's default ``synchronous_commit=on`` a commit returns
only once it is flushed to the database server's disk, so an acknowledged action survives
the cambio process being killed, and the database server crashing too.

Reads go through one connection per thread (the event loop's, and each worker thread's), in
autocommit mode, so no read holds a transaction open.

``exclusive`` (a single-process server) holds a session advisory lock for the life of the
store: a second single-process server on the same database is refused, as SQLite's lock file
does. A multi-process server opens it with ``exclusive=False``: which process owns which
table is decided elsewhere (leases), and the actions' primary key makes a second writer of
the same version fail rather than interleave.
"""

from __future__ import annotations

import threading
from itertools import groupby
from operator import itemgetter
from typing import Any, ClassVar

import psycopg
from psycopg.conninfo import conninfo_to_dict

from .interface import Store, StoreError
from .statements import SCHEMA, Statement

LOCK_KEY = 0x63616D62696F  # "cambio": the advisory lock of a single-process server
LOCK_WAIT = 10.0
"""Seconds a single-process server waits for the lock: a server that was just stopped or
killed keeps it until the database server has noticed its connection is gone (usually
milliseconds; longer on a loaded machine), and a restart must not be refused for that."""


def _dialect(text: str) -> str:
    """A statement of :mod:`.statements` with psycopg's placeholders."""
    return text.replace("?", "%s")


class PostgresStore(Store):
    commit_in_thread: ClassVar[bool] = True

    def __init__(self, url: str, *, exclusive: bool = True) -> None:
        super().__init__()
        self.url = url
        self._described = _describe(url)
        self._local = threading.local()
        self._conns: list[psycopg.Connection[Any]] = []
        self._conns_lock = threading.Lock()
        self._lock_conn: psycopg.Connection[Any] | None = None
        try:
            if exclusive:
                self._take_lock()
            conn = self._conn()
            with conn.transaction():
                # Processes starting together must not race to create the same tables.
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY + 1,))
                for statement in SCHEMA:
                    conn.execute(statement)
        except psycopg.Error as exc:
            self._close_all()
            raise StoreError(f"{self._described} cannot be used as the database "
                             f"({str(exc).strip()})") from None

    def _take_lock(self) -> None:
        conn = self._lock_conn = self._connect()
        conn.execute(f"SET lock_timeout = {int(LOCK_WAIT * 1000)}")
        try:
            conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        except psycopg.errors.LockNotAvailable:
            self._close_all()
            raise StoreError(f"another cambio server is using {self._described}; stop it "
                             "first, or give this one another --database") from None
        conn.execute("SET lock_timeout = 0")

    def describe(self) -> str:
        return self._described

    def close(self) -> None:
        super().close()
        self._close_all()

    def _close_all(self) -> None:
        with self._conns_lock:
            conns, self._conns = self._conns, []
        for conn in conns:
            conn.close()
        self._lock_conn = None

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self.url, autocommit=True, application_name="cambio serve")
        with self._conns_lock:
            self._conns.append(conn)
        return conn

    def _conn(self) -> psycopg.Connection[Any]:
        """This thread's connection, opened again if the last one broke (the database
        server restarted; :meth:`_query` and :meth:`_commit` retry on the new one)."""
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            if conn is not None:
                with self._conns_lock:
                    if conn in self._conns:
                        self._conns.remove(conn)
                conn.close()
            conn = self._local.conn = self._connect()
        return conn

    def _query(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        for attempt in (1, 2):
            conn = self._conn()
            try:
                return conn.execute(_dialect(text), params).fetchall()
            except psycopg.OperationalError:
                if attempt == 2 or not (conn.closed or conn.broken):
                    raise
        raise AssertionError("unreachable")

    def _commit(self, statements: list[Statement]) -> None:
        """On the writer thread's own connection. If the database had dropped it (it
        restarted since the last write), once more on a new one, as long as nothing can have
        been committed: a failure during ``COMMIT`` itself leaves it unknown whether the
        write is stored, and that one is not retried (the writer fails, its table halts).

        Consecutive statements with the same text (the actions of many tables, in a busy
        server's commits) go as one ``executemany``, which psycopg sends in one pipeline: a
        few round trips per transaction however many writers share it, instead of one per
        statement (300 actions: 62 ms instead of 1.1 s on a loaded machine)."""
        for attempt in (1, 2):
            conn = self._conn()
            committing = False
            try:
                with conn.transaction():
                    cursor = conn.cursor()
                    for text, run in groupby(statements, key=itemgetter(0)):
                        cursor.executemany(_dialect(text), [params for _, params in run])
                    committing = True
                return
            except psycopg.OperationalError:
                if committing or attempt == 2 or not (conn.closed or conn.broken):
                    raise


def _describe(url: str) -> str:
    """The database's address without its password."""
    try:
        info = conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL database (unreadable URL)"
    user = f"{info['user']}@" if info.get("user") else ""
    host = info.get("host") or "localhost"
    port = f":{info['port']}" if info.get("port") else ""
    return f"postgresql://{user}{host}{port}/{info.get('dbname') or ''}"
