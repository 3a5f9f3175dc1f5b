"""Where the server keeps tables, seats, games, rounds and actions: one interface
(:class:`Store`, in :mod:`.interface`), two backends.

- :mod:`.sqlite` — one file, one process: the embedded default (``make run``).
- :mod:`.postgres` — PostgreSQL through psycopg 3: one database shared by several server
  processes, on one machine or many.

Every SQL text is in :mod:`.statements`, in the dialect both engines share; the rows read
back are checked in :mod:`.rows`. ``cambio serve --database`` takes either kind of address
(:func:`open_store`); docs/server.md says what each guarantees.
"""

from __future__ import annotations

from cambio.extras import needs

from .interface import Store, StoreError, StoreFailed
from .rows import DamagedRow, SeatRow, TableRow
from .sqlite import SqliteStore
from .statements import Statement

__all__ = ["DamagedRow", "SeatRow", "SqliteStore", "Statement", "Store", "StoreError",
           "StoreFailed", "TableRow", "is_postgres", "open_store"]


def is_postgres(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def sqlite_path(database: str) -> str:
    """The file of an SQLite address: a path, or ``sqlite:PATH`` (``sqlite:///abs/path``
    too)."""
    if database.startswith("sqlite:"):
        rest = database.removeprefix("sqlite:")
        return "/" + rest.lstrip("/") if rest.startswith("///") else rest.removeprefix("//")
    return database


def open_store(database: str, *, exclusive: bool = True) -> Store:
    """The store at ``database``: a ``postgresql://`` URL, or an SQLite file.

    ``exclusive`` refuses a second server on the same database (a single-process server);
    processes that share one database open it with ``exclusive=False``. Raises
    :class:`StoreError` with a message for the operator when it cannot be used."""
    if is_postgres(database):
        with needs("postgres", "a PostgreSQL --database"):
            from .postgres import PostgresStore  # psycopg is loaded only when it is used

        return PostgresStore(database, exclusive=exclusive)
    return SqliteStore(sqlite_path(database), exclusive=exclusive)
