"""The storage interface of the server, and what every backend shares: group commit, the
reads and their checks.

The actions are the source of truth: a game's state is rebuilt by replaying them through the
engine (as ``cambio replay`` does), so nothing derived needs to be stored exactly.

**Acknowledged means durable.** Writers ``await`` :meth:`Store.write`; it returns only once
their statements are committed, and raises if they are not. A table's actor tells its clients
about an action only after that, so a client never sees an action the store could lose to the
server process dying. Statements of writers that ask while a commit is being prepared (or
running) are committed together in one transaction (group commit), then all of them are woken;
if the shared transaction fails, each writer's statements are committed on their own, so only
the writer whose statements are bad fails.

A backend says how to commit a list of statements and how to run a query. SQLite commits on
the event loop's thread (a write to a local file, well under a millisecond); PostgreSQL
overrides :meth:`Store._commit_async` to commit on the event loop without blocking it (a
round trip and the server's flush), and writes that arrive meanwhile wait for the next
commit, all together. (A writer thread did this before; handing each commit to it and back
cost more CPU per action than the commit itself, most of it in the GIL hand-over.)

Whatever fails in the backend (``sqlite3.Error``, ``psycopg.Error``) reaches the rest of the
server as :class:`StoreFailed`, with the backend's exception as its ``__cause__``.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar

from ..server_messages import ChatLine
from . import players_sql
from . import statements as sql
from .rows import (
    DamagedRow,
    SeatRow,
    TableRow,
    action_rows,
    chat_rows,
    deadline_row,
    game_row,
    round_rows,
    seat_rows,
    table_row,
)
from .statements import Statement

log = logging.getLogger("cambio.server")


class StoreError(Exception):
    """The database cannot be used (damaged, unreachable, locked by another server): a
    message for the operator, not a traceback."""


class StoreFailed(StoreError):
    """One read or write failed (the database server went away, a constraint refused a
    row). A failed write stored nothing, except when the connection broke during ``COMMIT``
    itself: then nobody can know, and the writer was not told it succeeded either."""


class Store(ABC):
    """Tables, seats (token hashes only), games, rounds and every accepted action.

    Reads are plain calls (from the event loop, or from a worker thread: each thread reads
    through its own connection); writes are ``await store.write([statements])``."""

    failures: ClassVar[tuple[type[Exception], ...]] = ()
    """The backend's own exceptions, raised to the server as :class:`StoreFailed`."""

    # The statements, reachable from table code as ``Store.insert_action(...)`` and so on.
    insert_table = staticmethod(sql.insert_table)
    update_table = staticmethod(sql.update_table)
    put_seat = staticmethod(sql.put_seat)
    insert_game = staticmethod(sql.insert_game)
    insert_round = staticmethod(sql.insert_round)
    insert_action = staticmethod(sql.insert_action)
    delete_table = staticmethod(sql.delete_table)
    insert_chat = staticmethod(sql.insert_chat)
    put_deadline = staticmethod(sql.put_deadline)
    insert_forfeit = staticmethod(players_sql.insert_forfeit)

    def __init__(self) -> None:
        self.commits = 0
        """Transactions committed so far (each holds the writes of one or more writers)."""
        self._batch: list[tuple[list[Statement], asyncio.Future[None]]] = []
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ backend
    @abstractmethod
    def describe(self) -> str:
        """The database in words for logs and messages (never with a password)."""

    def _commit(self, statements: list[Statement]) -> None:
        """Run ``statements`` in one transaction and commit it; roll back and raise if any
        fails. A backend implements this or :meth:`_commit_async`."""
        raise NotImplementedError

    @abstractmethod
    def _query(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of one query, read through this thread's own connection."""

    async def _commit_async(self, statements: list[Statement]) -> None:
        """:meth:`_commit`, for the event loop: a backend whose commits wait on a network
        round trip awaits it here instead."""
        self._commit(statements)

    def _after_flush(self) -> None:
        """Housekeeping between two commits, on the event loop's thread (SQLite cuts its
        WAL here)."""
        return None

    def close(self) -> None:
        return None

    # ------------------------------------------------------------------ writing
    async def write(self, statements: Iterable[Statement]) -> None:
        """Commit ``statements`` atomically (with whatever else is waiting); raise
        :class:`StoreFailed` if it fails."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._batch.append((list(statements), fut))
        if not self._flushing:
            self._flushing = True
            self._flusher = loop.create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        """Commit what is waiting, then what arrived during that commit, and so on."""
        try:
            while self._batch:
                batch, self._batch = self._batch, []
                try:
                    results = await self._commit_grouped([stmts for stmts, _ in batch])
                except BaseException:  # cancelled: the loop is closing
                    _settle(batch, [StoreFailed("the store closed")] * len(batch))
                    raise
                _settle(batch, results)
        finally:
            self._flushing = False

    async def _commit_grouped(self, groups: list[list[Statement]]) -> list[Exception | None]:
        """Commit every writer's statements in one transaction; if that fails, each
        writer's on its own. One result per writer: ``None``, or why it failed."""
        try:
            await self._commit_async([s for stmts in groups for s in stmts])
        except Exception:  # whatever it is, each writer then learns its own outcome
            results: list[Exception | None] = []
            for stmts in groups:
                try:
                    await self._commit_async(stmts)
                except Exception as exc:
                    log.warning("store: a write failed (%s: %s)", type(exc).__name__,
                                str(exc).strip()[:200])
                    results.append(self._failed(exc))
                else:
                    self.commits += 1
                    results.append(None)
            return results
        self.commits += 1
        self._after_flush()
        return [None] * len(groups)

    def _failed(self, exc: Exception) -> Exception:
        if isinstance(exc, self.failures):
            failed = StoreFailed(f"{self.describe()}: {type(exc).__name__}: "
                                 f"{str(exc).strip()[:300]}")
            failed.__cause__ = exc
            return failed
        return exc

    def read(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of one query of another module's SQL (:mod:`.players_sql`); the
        backend's failures raise :class:`StoreFailed`."""
        return self._rows(text, params)

    def _rows(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._query(text, params)
        except self.failures as exc:
            raise self._failed(exc) from exc

    # ------------------------------------------------------------------ reading
    def table(self, table_id: str) -> TableRow | None:
        rows = self._rows(sql.TABLE, (table_id,))
        return table_row(rows[0]) if rows else None

    def unfinished_tables(self) -> tuple[list[TableRow], dict[str, str]]:
        """The tables to load at start (waiting or playing, oldest first), and the ids of
        those whose row is damaged (why)."""
        return self._checked_tables(self._rows(sql.UNFINISHED))

    def unfinished_ids(self) -> list[str]:
        """The ids alone (a cluster process's look for orphaned tables, every few seconds:
        reading and checking every row each time cost more than the look itself)."""
        return [str(r[0]) for r in self._rows(sql.UNFINISHED_IDS)]

    def waiting_tables(self, limit: int = 100) -> tuple[list[TableRow], dict[str, str]]:
        """Waiting tables with an empty seat, newest first (the lobby of a server whose
        tables live in several processes), and the damaged ones among them (why)."""
        return self._checked_tables(self._rows(sql.WAITING, (limit,)))

    @staticmethod
    def _checked_tables(rows: list[tuple[Any, ...]]
                        ) -> tuple[list[TableRow], dict[str, str]]:
        good: list[TableRow] = []
        damaged: dict[str, str] = {}
        for r in rows:
            try:
                good.append(table_row(r))
            except DamagedRow as exc:
                damaged[str(r[0])] = str(exc)
        return good, damaged

    def count_tables(self) -> int:
        return int(self._rows(sql.COUNT_TABLES)[0][0])

    def seats(self, table_id: str) -> list[SeatRow]:
        return seat_rows(table_id, self._rows(sql.SEATS, (table_id,)))

    def game_seed(self, table_id: str, game_no: int) -> tuple[int, str] | None:
        rows = self._rows(sql.GAME_SEED, (table_id, game_no))
        return game_row(table_id, game_no, rows[0]) if rows else None

    def rounds(self, table_id: str, game_no: int) -> list[tuple[int, dict[str, Any]]]:
        return round_rows(table_id, game_no, self._rows(sql.ROUNDS, (table_id, game_no)))

    def actions(self, table_id: str, game_no: int, round_no: int) -> list[tuple[int, str]]:
        """``(seat, action text)`` in version order."""
        return action_rows(table_id, self._rows(sql.ACTIONS, (table_id, game_no, round_no)))

    def deadline(self, table_id: str) -> tuple[int, int, int, int, float] | None:
        """The stored decision of a correspondence table's clock: ``(game_no, round_no,
        since, seat, deadline)``."""
        rows = self._rows(sql.DEADLINE, (table_id,))
        return deadline_row(table_id, rows[0]) if rows else None

    def forfeits(self, table_id: str, game_no: int) -> list[int]:
        """The seats that forfeited game ``game_no`` (left a rated game, or missed a
        deadline at a table that forfeits)."""
        return sorted(int(r[0]) for r in self._rows(players_sql.FORFEITS, (table_id, game_no)))

    def chat(self, table_id: str, limit: int) -> list[ChatLine]:
        """The table's last ``limit`` chat lines, oldest first."""
        return chat_rows(table_id, self._rows(sql.CHAT, (table_id, limit)))[::-1]


def _settle(batch: list[tuple[list[Statement], asyncio.Future[None]]],
            results: list[Exception | None]) -> None:
    for (_, fut), error in zip(batch, results, strict=True):
        if fut.done():
            continue
        if error is None:
            fut.set_result(None)
        else:
            fut.set_exception(error)
