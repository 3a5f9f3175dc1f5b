"""The two stores a test server can run on, behind one small class: what ``--database`` gets,
where the server's log goes, and raw access from outside the server (the way a disk, an
operator or another process would touch the data) for the damage tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

BACKENDS = ("sqlite", "postgres")


@dataclass(frozen=True)
class Database:
    kind: str
    """``sqlite`` or ``postgres``."""
    url: str
    """The server's ``--database``."""
    folder: Path
    """Where the server's log (and, for SQLite, the file) lives."""

    @property
    def log(self) -> Path:
        """The server's log: beside the SQLite file, or in the folder."""
        if self.kind == "sqlite":
            return Path(self.url).with_suffix(".log")
        return self.folder / "cambio.log"

    def execute(self, text: str, params: tuple[Any, ...] = ()) -> None:
        """One statement (``?`` parameters), committed, on a connection of its own."""
        if self.kind == "sqlite":
            with sqlite3.connect(self.url, timeout=10) as raw:
                raw.execute(text, params)
            return
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(text.replace("?", "%s"), params)

    def rows(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of one query (``?`` parameters), read on a connection of its own."""
        if self.kind == "sqlite":
            with sqlite3.connect(self.url, timeout=10) as raw:
                return list(raw.execute(text, params))
        with psycopg.connect(self.url, autocommit=True) as conn:
            return list(conn.execute(text.replace("?", "%s"), params))

    def refuse_inserts(self, table: str, message: str) -> None:
        """From now on every insert into ``table`` fails (a full disk or a revoked file
        would too)."""
        if self.kind == "sqlite":
            self.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON {table} "
                         f"BEGIN SELECT RAISE(ABORT, '{message}'); END")
            return
        self.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                     f"$$ BEGIN RAISE EXCEPTION '{message}'; END $$")
        self.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON {table} "
                     "FOR EACH ROW EXECUTE FUNCTION refuse()")


NewDatabase = Callable[[str], Database]
"""The ``databases`` fixture: a new empty database of the run's store, named for its folder."""


def sqlite_database(folder: Path, name: str = "cambio.sqlite3") -> Database:
    return Database("sqlite", str(folder / name), folder)
