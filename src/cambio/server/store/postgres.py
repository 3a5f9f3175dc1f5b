"""PostgreSQL storage through psycopg 3: the store several server processes (on one machine
or many) share.

Commits run on the event loop through an asynchronous connection, one at a time, while the
loop goes on; the writes that arrive during a commit are committed together right after it
(group commit, see :mod:`.interface`). With PostgreSQL's default ``synchronous_commit=on`` a
commit returns only once it is flushed to the database server's disk, so an acknowledged
action survives the cambio process being killed, and the database server crashing too.

Reads are plain calls, made from worker threads (``asyncio.to_thread``) so that a round trip
never holds up the event loop; each thread reads through its own connection, in autocommit
mode, so no read holds a transaction open.

``exclusive`` (a single-process server) holds a session advisory lock for the life of the
store: a second single-process server on the same database is refused, as SQLite's lock file
does. A multi-process server opens it with ``exclusive=False``: which process owns which
table is decided elsewhere (leases), and the actions' primary key makes a second writer of
the same version fail rather than interleave.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from .interface import Store, StoreError
from .players_sql import migrate
from .statements import SCHEMA, Statement

LOCK_KEY = 0x63616D62696F  # "cambio": the advisory lock of a single-process server
LOCK_WAIT = 10.0
"""Seconds a single-process server waits for the lock: a server that was just stopped or
killed keeps it until the database server has noticed its connection is gone (usually
milliseconds; longer on a loaded machine), and a restart must not be refused for that."""


def _dialect(text: str) -> str:
    """A statement of :mod:`.statements` with psycopg's placeholders."""
    return text.replace("?", "%s")


def _fetch(cursor: psycopg.Cursor[Any]) -> list[tuple[Any, ...]]:
    """The rows of a statement that returns some (DDL returns none)."""
    return cursor.fetchall() if cursor.description is not None else []


class PostgresStore(Store):
    failures = (psycopg.Error,)

    def __init__(self, url: str, *, exclusive: bool = True) -> None:
        super().__init__()
        self.url = url
        self._described = _describe(url)
        self._options = _options(url)
        self._local = threading.local()
        self._conns: list[psycopg.Connection[Any]] = []
        self._conns_lock = threading.Lock()
        self._lock_conn: psycopg.Connection[Any] | None = None
        self._writer: psycopg.AsyncConnection[Any] | None = None
        self._writer_loop: asyncio.AbstractEventLoop | None = None
        try:
            if exclusive:
                self._take_lock()
            conn = self._conn()
            with conn.transaction():
                # Processes starting together must not race to create the same tables.
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY + 1,))
                for statement in SCHEMA:
                    conn.execute(statement)
                migrate(lambda text, params: _fetch(conn.execute(_dialect(text), params)))
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
        writer, self._writer = self._writer, None
        if writer is not None and not writer.closed:
            writer.pgconn.finish()  # closing it is a coroutine; its socket need not wait

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self.url, autocommit=True, **self._options)
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

    async def _writer_conn(self) -> psycopg.AsyncConnection[Any]:
        """The event loop's connection for commits, opened again if the last one broke (or
        belongs to another event loop)."""
        loop = asyncio.get_running_loop()
        conn = self._writer
        if conn is None or conn.closed or conn.broken or self._writer_loop is not loop:
            if conn is not None and not conn.closed:
                conn.pgconn.finish()
            self._writer = None
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                         **self._options)
            self._writer, self._writer_loop = conn, loop
        return conn

    async def _commit_async(self, statements: list[Statement]) -> None:
        """All the statements as one message: bound on the client (psycopg's
        ``mogrify``, which quotes every value) and sent as one simple query, which
        PostgreSQL runs as one transaction, all or nothing. One round trip, and the loop
        waits for the answer without polling: psycopg's pipeline mode (``executemany``) cost
        twice the CPU per commit, most of it polling a socket that is always writable.

        If the connection broke (the database restarted since the last write), once more on
        a new one. Should the first attempt have been committed after all, the retry fails
        on an action's primary key, and the writer is told it failed: never the other way
        round (a write reported stored that is not)."""
        for attempt in (1, 2):
            conn = await self._writer_conn()
            binder = psycopg.AsyncClientCursor(conn)
            text = ";\n".join(binder.mogrify(_dialect(query), params)
                               for query, params in statements)
            try:
                await conn.execute(text)
                return
            except psycopg.OperationalError:
                if attempt == 2 or not (conn.closed or conn.broken):
                    raise


CONNECT_TIMEOUT = 10
"""Seconds to wait for the database to answer a new connection (libpq waits for ever by
default: a database host that vanished would hang a reconnecting table for good), unless
the URL says otherwise."""


def _options(url: str) -> dict[str, Any]:
    options: dict[str, Any] = {"application_name": "cambio serve"}
    try:
        if "connect_timeout" not in conninfo_to_dict(url):
            options["connect_timeout"] = CONNECT_TIMEOUT
    except psycopg.Error:
        pass  # the connection itself says what is wrong with the URL
    return options


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
