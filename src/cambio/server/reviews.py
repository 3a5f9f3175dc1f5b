"""Game reviews on the server: queued when a game finishes, computed by a pool of worker
processes, cached in the store, served to whoever may see them (docs/review.md, "On the
server").

- **Queued with the finish.** Every table's ``finishing`` hook (set by
  :meth:`Reviews.hook`, after the players' own) adds a ``queued`` row per round and human
  seat of the game to the transaction that stores the game as finished, so a review is
  asked for exactly when a game is booked, and a restart loses none. A bot seat's review
  is queued the first time someone asks for it.
- **Computed off the event loop.** ``review_workers`` processes (one by default), each at
  nice :data:`NICE`, run :func:`cambio.review.record.review_job` on the round's full record;
  the event loop only reads the record, hands it over and stores the answer. A review is
  claimed in the store before it is computed (``running`` with this process's name), so
  two processes of a cluster never compute one review twice; one whose process died is
  taken again at the next start of a lone server, and in a cluster after :data:`STALE`
  seconds.
- **Cached.** A review is computed once: its JSON, the seat's accuracy and its CPU time stay
  in the ``reviews`` table. It is the same review ``cambio review RECORD --seat N --seed 0``
  prints for the record the replay downloads (same budget): both run one function.
- **Shown to the seat's player only.** A seat's review uses only that seat's view, and is
  served, once the game is over, to the seat's player (their identity cookie or their seat
  token), to anyone for a bot's seat, and, for a daily deal, to a player who has played
  that day's deal themselves (:mod:`.daily`); to anyone else ``403 forbidden``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cambio.records.jsonl import RecordError
from cambio.review.record import review_job

from . import daily
from .errors import FORBIDDEN, NOT_FOUND, ProtocolError, Words
from .lobby import _query_int, bearer, endpoint, seat_param, server_of, table_of
from .players.service import caller_id
from .server import Server
from .session import Session
from .store import Statement, Store
from .store import reviews_sql as sql
from .table import Table

log = logging.getLogger("cambio.server")

GAMES = ("cards", "board")
"""The games a review exists for."""
SEED = 0
"""Every review's seed: ``cambio review``'s default, so the terminal gives the same review."""
NICE = 10
"""How much lower than the event loop the review processes are scheduled."""
POLL = 5.0
"""Seconds between two looks at the queue when nothing wakes the pool (another process's
finished games, reviews left by a process that died)."""
STALE = 600.0
"""Seconds after which a review still ``running`` is taken to be lost with its process."""
RETRY_AFTER = 2
"""Seconds a client is asked to wait before asking again for a review being computed."""

Key = tuple[str, int, int, int]
"""A review: table, game, round, seat."""


PARENT_CHECK = 1.0
"""Seconds between a review process's looks at whether the server that started it is alive."""


def _start_worker(server_pid: int) -> None:
    """Run a review process below the event loop's priority (where the platform can), and
    end it when its server is gone. A server killed with kill -9 runs no shutdown, and a pool
    worker waiting for work would wait forever (its call queue's pipe stays open in the
    worker itself), so the worker watches its parent instead."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICE)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(PARENT_CHECK)
        os._exit(0)  # nothing to save: a claimed review is taken back by the next server

    threading.Thread(target=watch, name="review-parent-watch", daemon=True).start()


def reviewable(game: str, players: int) -> str | None:
    """Why a game cannot be reviewed, or ``None`` if it can."""
    if game not in GAMES:
        return "reviews exist for the card and dice games only"
    if game == "board" and players != 2:
        return "only two-player dice games can be reviewed"
    return None


class Reviews:
    """The review pool of one server process (``app.state.reviews``)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.workers = server.settings.review_workers
        self.budget = server.settings.review_budget
        self.depth = server.settings.review_depth
        self.me = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[Key, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        chained = server.table_hooks

        def hooks(table: Table) -> None:
            if chained is not None:
                chained(table)
            self.hook(table)

        server.table_hooks = hooks

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        if self.workers <= 0:
            return
        if self.server.settings.redis is None:  # the database's only process
            await self.server.store.write([sql.RELEASE_RUNNING])
        self._task = asyncio.get_running_loop().create_task(self._run(), name="reviews")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for task in list(self._running.values()):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def pool(self) -> ProcessPoolExecutor:
        """The worker processes, started at the first review (spawned, not forked: a fork of
        a process with threads and a running loop is not safe)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker,
                                             initargs=(os.getpid(),))
        return self._pool

    # ------------------------------------------------------------------ queueing
    def hook(self, table: Table) -> None:
        """Queue the reviews of a finishing game with its finish (same transaction)."""
        inner = table.finishing

        async def finishing(t: Table, session: Session) -> list[Statement]:
            rows = await inner(t, session) if inner is not None else []
            asks = self.asks(t, session.round_no)
            if asks:
                t.post(self._poke)  # a job after this one: once the finish is stored
            return rows + asks

        table.finishing = finishing

    def asks(self, table: Table, rounds: int) -> list[Statement]:
        """The reviews a game that just finished queues: each round of each human seat."""
        if reviewable(table.game, table.players) is not None:
            return []
        now = time.time()
        return [sql.queue_review(table.id, table.game_no, r, x.seat, now)
                for r in range(1, rounds + 1) for x in table.seats if x.kind == "human"]

    async def _poke(self) -> None:
        self._wake.set()

    async def ask(self, key: Key) -> None:
        """Queue one review (nothing if it is queued or made already)."""
        await self.server.store.write([sql.queue_review(*key, time.time())])
        self._wake.set()

    # ------------------------------------------------------------------ the pool
    async def _run(self) -> None:
        while True:
            try:
                await self._fill()
            except Exception as exc:  # the database away: the next look
                log.warning("reviews: the queue could not be read (%s)", type(exc).__name__)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL)
            self._wake.clear()

    async def _fill(self) -> None:
        """Claim and start queued reviews while a worker is free."""
        store = self.server.store
        free = self.workers - len(self._running)
        if free <= 0:
            return
        now = time.time()
        rows = await asyncio.to_thread(store.read, sql.QUEUED,
                                       (now - STALE, free + len(self._running)))
        for row in rows:
            key: Key = (str(row[0]), int(row[1]), int(row[2]), int(row[3]))
            if key in self._running or len(self._running) >= self.workers:
                continue
            await store.write([sql.claim_review(key, self.me, now, now - STALE)])
            found = await asyncio.to_thread(store.read, sql.REVIEW, key)
            if not found or found[0][0] != "running" or found[0][1] != self.me:
                continue  # another process took it
            task = asyncio.get_running_loop().create_task(self._compute(key))
            self._running[key] = task
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        for key, running in list(self._running.items()):
            if running is task:
                del self._running[key]
        self._wake.set()

    async def _compute(self, key: Key) -> None:
        store = self.server.store
        try:
            text = await asyncio.to_thread(self._record, key)
            loop = asyncio.get_running_loop()
            body, cpu = await loop.run_in_executor(self.pool(), review_job, text, key[3],
                                                   self.budget, SEED, self.depth)
        except (RecordError, ValueError) as exc:
            await _quietly(store.write([sql.fail_review(key, str(exc)[:300])]))
            return
        except BrokenProcessPool:
            log.error("reviews: a review process died; the pool starts again")
            self._pool = None
            return  # still running in the store: taken again once stale
        except Exception:
            log.exception("reviews: the review of %s could not be made", key)
            await _quietly(store.write([sql.fail_review(key, "the review could not be "
                                                              "computed")]))
            return
        acc = body.get("accuracy")
        await _quietly(store.write([sql.finish_review(
            key, json.dumps(body), None if acc is None else float(acc),
            len(body.get("decisions") or []), cpu)]))

    def _record(self, key: Key) -> str:
        """A round's full record, read from the store (a worker thread runs it)."""
        table_id, game_no, round_no, _ = key
        store = self.server.store
        row = store.table(table_id)
        if row is None:
            raise RecordError(1, "no such table")
        why = reviewable(row.game, row.players)
        if why is not None:
            raise RecordError(1, why)
        header = dict(store.rounds(table_id, game_no)).get(round_no)
        if header is None:
            raise RecordError(1, "no such round")
        return self.server.games[row.game].record(
            header, store.actions(table_id, game_no, round_no), None)

    # ------------------------------------------------------------------ reading
    def state(self, key: Key) -> dict[str, Any] | None:
        """What the store says of a review (a worker thread runs it): ``None`` if it was
        never asked for."""
        store = self.server.store
        rows = store.read(sql.REVIEW, key)
        if not rows:
            return None
        status, _, review, reason, created = rows[0]
        if status == "done":
            return {"status": "done", "review": json.loads(review)}
        if status == "failed":
            return {"status": "failed", "reason": reason}
        ahead = int(store.read(sql.AHEAD, (created,))[0][0]) if status == "queued" else 0
        return {"status": str(status), "ahead": ahead}


async def _quietly(write: Awaitable[None]) -> None:
    """A review's outcome that cannot be stored now stays ``running``: it is made again
    once stale."""
    try:
        await write
    except Exception as exc:
        log.warning("reviews: an outcome could not be stored (%s)", type(exc).__name__)


def reviews_of(request: Request) -> Reviews:
    found: Reviews = request.app.state.reviews
    return found


# ---------------------------------------------------------------------- who may see
async def may_see(request: Request, table: Table, seat: int) -> bool:
    """Whether the caller may see ``seat``'s review of the table's finished game: a bot's
    seat, the seat's own player (identity cookie or seat token), or a player who has
    played the same daily deal."""
    x = table.seats[seat]
    if x.kind == "bot":
        return True
    h = bearer(request)
    if h is not None and table.seat_for_hash(h) == seat:
        return True
    pid = await caller_id(request)
    if pid is not None and x.player == pid:
        return True
    return pid is not None and await daily.has_played_deal_of(server_of(request), table, pid)


@endpoint
async def seat_review(request: Request) -> Response:
    """``GET /api/tables/{id}/seats/{seat}/review?game=G&round=R``: ``200`` with the
    review once computed, ``202`` with the queue's progress while it is (asked for now if
    it never was), ``403`` for a seat the caller may not see."""
    server = server_of(request)
    table = await table_of(request)
    seat = seat_param(request)
    if not 0 <= seat < table.players:
        raise ProtocolError(NOT_FOUND, "no such seat")
    game_no = _query_int(request, "game", table.game_no)
    round_no = _query_int(request, "round", 1)
    if not 1 <= game_no <= table.game_no:
        raise ProtocolError(NOT_FOUND, "no such game at this table")
    if game_no == table.game_no and table.status != "finished":
        raise ProtocolError("conflict", Words("refusal.reviewAfter",
                                              "a game is reviewed once it is over"))
    why = reviewable(table.game, table.players)
    if why is not None:
        raise ProtocolError("conflict", why)
    if not await may_see(request, table, seat):
        raise ProtocolError(FORBIDDEN, Words(
            "refusal.reviewOwn", "a seat's review is shown only to its player (and a bot's "
                                 "to anyone)"))
    rounds = await asyncio.to_thread(server.store.rounds, table.id, game_no)
    if round_no not in dict(rounds):
        raise ProtocolError(NOT_FOUND, "no such round in this game")
    reviews = reviews_of(request)
    key: Key = (table.id, game_no, round_no, seat)
    state = await asyncio.to_thread(reviews.state, key)
    if state is None:
        await reviews.ask(key)
        state = await asyncio.to_thread(reviews.state, key) or {"status": "queued",
                                                                "ahead": 0}
    where = {"table": table.id, "game": game_no, "round": round_no, "seat": seat,
             "rounds": len(rounds)}
    if state["status"] in ("done", "failed"):
        return JSONResponse({**where, **state}, headers={"Cache-Control": "no-store"})
    return JSONResponse({**where, **state, "workers": reviews.workers}, status_code=202,
                        headers={"Retry-After": str(RETRY_AFTER),
                                 "Cache-Control": "no-store"})


# ---------------------------------------------------------------------- profiles
def with_accuracy(store: Store, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each game of a profile with its seat's accuracy (the mean over the reviewed
    decisions of its rounds; ``None`` until a review is made). A worker thread runs it."""
    found = sql.accuracies(store.read, [(str(g["table"]), int(g["game_no"]), int(g["seat"]))
                                        for g in games])
    out = []
    for g in games:
        acc = found.get((str(g["table"]), int(g["game_no"]), int(g["seat"])))
        out.append({**g, "accuracy": None if acc is None else round(acc, 1)})
    return out


__all__ = ["Reviews", "may_see", "reviewable", "seat_review", "with_accuracy"]
