"""One table: its seats, its connections, and the serial actor that owns its game.

Everything that reads or changes a table runs as a job on the table's own queue, one at a
time (boardgame.io's and lichess's "one serial actor per game"): client actions, bots' moves,
connections coming and going, lobby calls. So two snaps that race are simply applied in
arrival order, and a job that awaits the database (an action being stored) cannot be
overtaken by another job of the same table: nobody is told about an action before it is
stored, and nobody sees a state that is not.

Bots' timing is drawn from the table's own seeded generator, in an order fixed by public
events only: when a bot's turn comes, and when a snap window opens. A bot decides when its
timer fires, so how long it "thinks" never depends on its cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from random import Random
from typing import Any, TypeVar

from .errors import (
    BUSY,
    FORBIDDEN,
    ILLEGAL,
    INVALID_TOKEN,
    NOT_PLAYING,
    SERVER_ERROR,
    STALE,
    ProtocolError,
)
from .games import GameKind
from .limits import TokenBucket
from .mailbox import Mailbox
from .session import Applied, Session, derive
from .settings import Settings
from .store import SeatRow, Store, TableRow

log = logging.getLogger("cambio.server")
T = TypeVar("T")

AWAY_BOT = {"cards": "memory", "board": "greedy"}
"""The bot that plays for a human seat while its player is away."""


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


THINK = 0.3
"""Seconds a searching bot's move takes from its timer, whatever it computed: ``hard``'s p95
decision time is far below (docs/cards-strength.md), and the 0.6 s floor of a bot's delay
leaves room for it."""


class Conn:
    """One client connection as the table sees it: a seat (or ``None``) and an outbox.

    The WebSocket endpoint drains the outbox; the table never awaits a client, so a slow
    client cannot hold up a table. A client whose outbox overflows is dropped (it resyncs
    when it reconnects).
    """

    __slots__ = ("closing", "errors", "limit", "outbox", "seat", "strikes")

    def __init__(self, seat: int | None, limit: int = 2000, max_errors: int = 50,
                 error_window: float = 60.0) -> None:
        self.seat = seat
        self.outbox: Mailbox[str | None] = Mailbox()
        self.closing: int | None = None
        self.errors = 0
        self.limit = limit
        # Errors drain away: a long, honest session that loses snap races now and then is
        # never closed; a burst of bad messages is.
        self.strikes = TokenBucket(max_errors / max(error_window, 1e-9), max_errors)

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if len(self.outbox) >= self.limit:
            self.close(1013)
            return
        self.outbox.put(text)

    def error(self, code: str, message: str, ref: Any = None, counts: bool = True) -> None:
        """Send an ``error``; too many that ``count`` in a short time close the connection
        (1008). A ``stale`` action or a lost snap race is play, not abuse: it does not count.
        """
        self.send(dumps({"type": "error", "code": code, "message": message, "ref": ref}))
        self.errors += 1
        if counts and code != STALE and not self.strikes.take():
            self.close(1008)

    def close(self, code: int) -> None:
        if self.closing is None:
            self.closing = code
            self.outbox.put(None)


@dataclass
class Seat:
    seat: int
    kind: str = "empty"
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    conns: int = 0
    away: bool = False

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)


class Table:
    """A table's state in memory and its actor task."""

    def __init__(self, store: Store, settings: Settings, kinds: Mapping[str, GameKind],
                 row: TableRow, seats: list[SeatRow]) -> None:
        # The server's parts a table uses, handed in (not the server: it owns the tables).
        self.store = store
        self.settings = settings
        self.kind = kinds[row.game]
        self.id = row.id
        self.game = row.game
        self.players = row.players
        self.config = row.config
        self.seed = row.seed
        self.status = row.status
        self.game_no = row.game_no
        self.created = row.created
        self.seats = [Seat(i) for i in range(row.players)]
        for s in seats:
            self.seats[s.seat] = Seat(s.seat, s.kind, s.name, s.bot, s.token_hash)
        self.session: Session | None = None
        self.built: tuple[Session, int] | None = None
        """A game replayed in a worker thread, waiting for :meth:`install_game`."""
        self.halted: str | None = None
        """Why the table stopped (its storage failed); it refuses actions until a restart."""
        self.conns: set[Conn] = set()
        self.spectators = 0
        self.bots: dict[int, Any] = {}
        self.delays = Random(0)
        self.last_hint: tuple[tuple[int, int], dict[str, Any] | None] | None = None
        self.turn_timer: tuple[int, asyncio.TimerHandle] | None = None
        self.poll_timers: dict[int, asyncio.TimerHandle] = {}
        self.polled: dict[int, int | None] = {}
        self.round_timer: asyncio.TimerHandle | None = None
        self.away_timers: dict[int, asyncio.TimerHandle] = {}
        self.last_active = time.monotonic()
        self._queue: Mailbox[Callable[[], Awaitable[None]]] = Mailbox()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ the actor
    def start_actor(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table {self.id}")

    async def stop_actor(self) -> None:
        for handle in self._timers():
            handle.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for conn in list(self.conns):
            conn.close(1012)

    def _timers(self) -> list[asyncio.TimerHandle]:
        out = list(self.poll_timers.values()) + list(self.away_timers.values())
        if self.turn_timer:
            out.append(self.turn_timer[1])
        if self.round_timer:
            out.append(self.round_timer)
        return out

    async def _run(self) -> None:
        while True:
            job = await self._queue.get()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except sqlite3.Error as exc:
                self._halt(f"a write failed ({type(exc).__name__}: {exc})")
            except Exception:
                log.exception("table %s: a job failed", self.id)

    def post(self, fn: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Queue a job; its result is not awaited (client messages, timers)."""
        self._queue.put(lambda: fn(*args))

    async def call(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run a job on the actor and wait for its result (lobby calls)."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        self.last_active = time.monotonic()

        async def job() -> None:
            try:
                result = await fn(*args)
            except BaseException as exc:
                if not fut.done():
                    fut.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
            else:
                if not fut.done():
                    fut.set_result(result)

        self._queue.put(job)
        return await fut

    # ------------------------------------------------------------------ summaries
    def seat_for_hash(self, token_hash: str) -> int | None:
        for s in self.seats:
            if s.kind == "human" and s.token_hash == token_hash:
                return s.seat
        return None

    def joinable(self) -> bool:
        """Worth listing in the lobby: a free seat, and a host still there to start the game
        (a waiting table whose host has been away past the timeout is abandoned)."""
        return self.status == "waiting" and not self.seats[0].away \
            and any(x.kind == "empty" for x in self.seats)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "game": self.game, "players": self.players}
        if self.game == "cards":
            out["rules"] = self.config["rules"]
            out["rounds"] = self.config["rounds"]
        else:
            out["setup"] = self.config["setup"]
            out["rounds"] = 1
        s = self.session
        out.update({
            "status": self.status,
            "host": 0,
            "seats": [{"seat": x.seat, "name": x.name, "kind": x.kind, "bot": x.bot,
                       "connected": x.conns > 0, "away": x.away} for x in self.seats],
            "game_no": self.game_no,
            "round": s.round_no if s is not None else 0,
            "totals": s.totals() if s is not None else None,
            "created": datetime.fromtimestamp(self.created, UTC).isoformat(timespec="seconds"),
            "halted": self.halted,
        })
        return out

    def _round_fields(self) -> dict[str, Any]:
        s = self.session
        return {"game_no": self.game_no, "round": s.round_no if s is not None else 0}

    # ------------------------------------------------------------------ broadcasting
    def broadcast_table(self) -> None:
        if self.conns:
            text = dumps({"type": "table", "table": self.summary()})
            for conn in self.conns:
                conn.send(text)

    def _state_text(self, seat: int | None) -> str:
        s = self.session
        assert s is not None
        return dumps({"type": "state", "version": s.version, **self._round_fields(),
                      "view": s.view(seat), "log": [a.event(self.players, seat) for a in s.log]})

    def _broadcast_state(self) -> None:
        cache: dict[int | None, str] = {}
        for conn in self.conns:
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = self._state_text(conn.seat)
            conn.send(text)

    def _broadcast_update(self, applied: Applied) -> None:
        s = self.session
        assert s is not None
        cache: dict[int | None, str] = {}
        extra = self._round_fields()
        for conn in self.conns:
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = dumps({
                    "type": "update", "version": applied.version, **extra,
                    "event": applied.event(self.players, conn.seat), "view": s.view(conn.seat)})
            conn.send(text)

    # ------------------------------------------------------------------ connections
    async def connect(self, conn: Conn) -> None:
        """Admit a connection. Spectators have their own cap, so however many there are, a
        seated player always gets in (up to a few tabs per seat)."""
        self.last_active = time.monotonic()
        if conn.seat is None:
            if self.spectators >= self.settings.max_spectators:
                conn.error(BUSY, "this table has as many spectators as it takes; try later")
                conn.close(1013)
                return
        elif self.seats[conn.seat].kind != "human":
            # Freed between the token check and now: the token is no longer a seat.
            conn.error(INVALID_TOKEN, "this token is not a seat of this table (it was freed)")
            conn.close(1008)
            return
        elif self.seats[conn.seat].conns >= self.settings.max_conns_per_seat:
            conn.error(BUSY, "this seat has too many open connections; close a tab")
            conn.close(1013)
            return
        self.conns.add(conn)
        changed = False
        if conn.seat is None:
            self.spectators += 1
        else:
            seat = self.seats[conn.seat]
            seat.conns += 1
            timer = self.away_timers.pop(conn.seat, None)
            if timer:
                timer.cancel()
            changed = seat.conns == 1 or seat.away
            seat.away = False
        version = self.session.version if self.session is not None else 0
        conn.send(dumps({"type": "welcome", "seat": conn.seat, "table": self.summary(),
                         "version": version, **self._round_fields()}))
        if self.session is not None and self.session.round_no:
            conn.send(self._state_text(conn.seat))
        if changed:
            self.broadcast_table()
            self._schedule()

    async def disconnect(self, conn: Conn) -> None:
        self.last_active = time.monotonic()
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.seat is None:
            self.spectators -= 1
        else:
            seat = self.seats[conn.seat]
            seat.conns -= 1
            if seat.conns == 0:
                self._arm_away(conn.seat)
                self.broadcast_table()

    def _arm_away(self, seat: int) -> None:
        old = self.away_timers.pop(seat, None)
        if old:
            old.cancel()
        self.away_timers[seat] = asyncio.get_running_loop().call_later(
            self.settings.away_after, self.post, self._away_check, seat)

    async def _away_check(self, seat: int) -> None:
        self.away_timers.pop(seat, None)
        s = self.seats[seat]
        if s.kind == "human" and s.conns == 0 and not s.away:
            s.away = True
            self.broadcast_table()
            self._schedule()

    async def sync(self, conn: Conn, since: int, game_no: int | None, round_no: int | None
                   ) -> None:
        s = self.session
        if conn not in self.conns or s is None or not s.round_no:
            return
        same = game_no == self.game_no and round_no == s.round_no
        missed = s.version - since
        if not same or missed < 0 or missed > self.settings.catch_up:
            conn.send(self._state_text(conn.seat))
            return
        if missed == 0:
            return
        view = s.view(conn.seat)
        extra = self._round_fields()
        for applied in s.log[since:]:
            conn.send(dumps({"type": "update", "version": applied.version, **extra,
                             "event": applied.event(self.players, conn.seat), "view": view}))

    # ------------------------------------------------------------------ acting
    async def act(self, conn: Conn, text: str, version: int, ref: Any) -> None:
        self.last_active = time.monotonic()
        if conn.seat is None:
            conn.error(FORBIDDEN, "spectators cannot act; join a seat first", ref)
            return
        if self.halted is not None:
            conn.error(SERVER_ERROR, f"this table is halted: {self.halted}", ref)
            return
        s = self.session
        if self.status != "playing" or s is None or s.round_over():
            conn.error(NOT_PLAYING, f"the table is {self.status}"
                       + (", between rounds" if self.status == "playing" else ""), ref)
            return
        try:
            applied = s.play(conn.seat, text, version)
        except ProtocolError as exc:
            # A snap that lost a race is refused as illegal: play, not abuse.
            race = exc.code == ILLEGAL and text.lstrip().lower().startswith("snap")
            conn.error(exc.code, exc.message, ref, counts=not race)
            return
        await self._accepted(applied, conn, ref)

    async def hint(self, conn: Conn, ref: Any) -> None:
        """Assist mode: the ``hard`` bot's suggestion for the asking seat, from its own view.

        Searched off the loop; one per seat and version (asking again sends the same)."""
        if conn.seat is None:
            conn.error(FORBIDDEN, "spectators get no hints; join a seat first", ref)
            return
        s = self.session
        ask = getattr(s, "hint", None)
        if self.status != "playing" or s is None or s.round_over() or ask is None:
            conn.error(NOT_PLAYING, "hints are for a card game in play", ref)
            return
        key = (conn.seat, s.version)
        if self.last_hint is None or self.last_hint[0] != key:
            found = await asyncio.get_running_loop().run_in_executor(None, ask, conn.seat)
            self.last_hint = (key, found)
        found = self.last_hint[1]
        if found is None:
            conn.error(NOT_PLAYING, "it is not your decision now", ref)
            return
        conn.send(dumps({"type": "hint", "version": s.version, **found, "ref": ref}))

    async def _accepted(self, applied: Applied, conn: Conn | None = None,
                        ref: Any = None) -> None:
        """Store the action, then tell everyone, then see what comes next."""
        s = self.session
        assert s is not None
        try:
            await self.store.write([Store.insert_action(self.id, self.game_no, s.round_no,
                                                        applied.version, applied.seat,
                                                        applied.text)])
        except Exception as exc:
            self._halt(f"storing an action failed ({type(exc).__name__}: {exc})")
            if conn is not None:
                conn.error(SERVER_ERROR, "the action could not be stored; nothing changed",
                           ref, counts=False)
            return
        self._broadcast_update(applied)
        if s.round_over():
            await self._round_over()
        self._schedule()

    async def _round_over(self) -> None:
        s = self.session
        assert s is not None
        s.finish_round()
        self._cancel_bot_timers()
        if s.game_over():
            self.status = "finished"
            await self.store.write([Store.update_table(self.id, self.status, self.game_no)])
        else:
            self._arm_next_round()
        self.broadcast_table()

    def _arm_next_round(self) -> None:
        delay = self.settings.round_pause / self.settings.bot_speed
        self.round_timer = asyncio.get_running_loop().call_later(
            delay, self.post, self._next_round, self.game_no)

    async def _next_round(self, game_no: int) -> None:
        self.round_timer = None
        s = self.session
        if s is None or game_no != self.game_no or not s.round_over() or s.game_over():
            return
        header = s.next_header(self._names(), now_iso())
        await self.store.write([Store.insert_round(self.id, self.game_no,
                                                   header["match"]["round"], header)])
        s.deal(header)
        self.polled.clear()
        self._broadcast_state()
        self.broadcast_table()
        self._schedule()

    def _names(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for x in self.seats:
            entry: dict[str, Any] = {"name": x.name}
            if x.kind == "bot":
                entry["bot"] = x.bot
            out.append(entry)
        return out

    # ------------------------------------------------------------------ starting games
    def new_session(self, game_seed: int, game_no: int) -> Session:
        return self.kind.session(self.players, self.config, self.id, game_seed, game_no)

    def _setup_bots(self, game_seed: int) -> None:
        s = self.session
        assert s is not None
        self.bots = {}
        for x in self.seats:
            name = x.bot if x.kind == "bot" and x.bot else AWAY_BOT[self.game]
            self.bots[x.seat] = s.make_bot(name, derive(game_seed, "bot", x.seat))
        self.delays = Random(derive(game_seed, "delays"))
        self.polled.clear()

    async def begin_game(self, game_no: int, statements: list[Any]) -> None:
        """Deal a new game (``start`` or ``again``): store it, then tell everyone."""
        game_seed = derive(self.seed, "game", game_no)
        session = self.new_session(game_seed, game_no)
        started = now_iso()
        header = session.next_header(self._names(), started)
        await self.store.write([
            *statements,
            Store.update_table(self.id, "playing", game_no),
            Store.insert_game(self.id, game_no, game_seed, started),
            Store.insert_round(self.id, game_no, 1, header),
        ])
        session.deal(header)
        self.game_no = game_no
        self.session = session
        self.status = "playing"
        self._setup_bots(game_seed)
        self._cancel_bot_timers()
        self.broadcast_table()
        self._broadcast_state()
        for x in self.seats:
            if x.kind == "human" and x.conns == 0 and x.seat not in self.away_timers \
                    and not x.away:
                self._arm_away(x.seat)
        self._schedule()

    def build_game(self) -> tuple[Session, int] | None:
        """The current game rebuilt from storage by replaying every stored action, and its
        seed. Touches nothing of the table, so it may run in a worker thread."""
        if self.game_no == 0:
            return None
        found = self.store.game_seed(self.id, self.game_no)
        if found is None:
            raise RuntimeError(f"table {self.id}: game {self.game_no} is not stored")
        game_seed = found[0]
        session = self.new_session(game_seed, self.game_no)
        for round_no, header in self.store.rounds(self.id, self.game_no):
            session.deal(header)
            for seat, text in self.store.actions(self.id, self.game_no, round_no):
                session.play(seat, text, session.version)
            if session.round_over():
                session.finish_round()
        return session, game_seed

    def install_game(self, built: tuple[Session, int] | None) -> None:
        """Make a game from :meth:`build_game` the table's own (on the event loop)."""
        self.built = None
        if built is None:
            return
        session, game_seed = built
        self.session = session
        self._setup_bots(game_seed)
        if self.status == "playing" and not session.game_over() and session.round_over() \
                and self.halted is None:
            self._arm_next_round()

    def _halt(self, why: str) -> None:
        """Storage failed: stop this table where it was last stored, visibly, instead of
        retrying (a bot would try the same write again and again). A restart resumes it."""
        log.error("table %s is halted: %s", self.id, why)
        self.halted = "storage failed; the table resumes when the server is restarted"
        self._cancel_bot_timers()
        if self.round_timer:
            self.round_timer.cancel()
            self.round_timer = None
        try:  # back to what is stored: the action just refused is not
            self.install_game(self.build_game())
        except Exception:
            log.exception("table %s: reloading from storage failed too", self.id)
        else:
            if self.session is not None and self.session.round_no:
                self._broadcast_state()
        self.broadcast_table()

    async def after_load(self) -> None:
        """Arm the timers of a table just loaded (no one is connected yet)."""
        s = self.session
        if self.status == "playing" and s is not None and s.game_over():
            self.status = "finished"  # it ended just before the process did
            await self.store.write([Store.update_table(self.id, self.status, self.game_no)])
        for x in self.seats:
            if x.kind == "human":
                self._arm_away(x.seat)
        self._schedule()

    # ------------------------------------------------------------------ bots
    def _bot_controls(self, seat: int) -> bool:
        x = self.seats[seat]
        return x.kind == "bot" or (x.kind == "human" and x.away)

    def _cancel_bot_timers(self) -> None:
        if self.turn_timer:
            self.turn_timer[1].cancel()
            self.turn_timer = None
        for handle in self.poll_timers.values():
            handle.cancel()
        self.poll_timers.clear()

    def _think(self, session: Any) -> float:
        """The fixed reply time of a bot that thinks off the loop (0 for the others)."""
        if not getattr(session, "threaded_bots", False):
            return 0.0
        return THINK / self.settings.bot_speed

    def _delay(self, low: float, high: float) -> float:
        return self.delays.uniform(low, high) / self.settings.bot_speed

    def _schedule(self) -> None:
        """Arm the bots' timers the current state calls for (public facts only)."""
        s = self.session
        if self.status != "playing" or s is None or s.round_over() or self.halted is not None:
            self._cancel_bot_timers()
            return
        loop = asyncio.get_running_loop()
        decider = s.decider()
        if decider is not None and self._bot_controls(decider):
            if self.turn_timer is None or self.turn_timer[0] != decider:
                if self.turn_timer:
                    self.turn_timer[1].cancel()
                # A thinking bot's reply comes THINK after its timer fires, however long
                # it thought (see _bot_turn), so the whole delay stays 0.6-1.6 s.
                think = self._think(s)
                handle = loop.call_later(self._delay(0.6, 1.6) - think, self.post,
                                         self._bot_turn, decider)
                self.turn_timer = (decider, handle)
        elif self.turn_timer:
            self.turn_timer[1].cancel()
            self.turn_timer = None
        window = s.snap_window()
        for seat in range(self.players):
            if not self._bot_controls(seat):
                timer = self.poll_timers.pop(seat, None)
                if timer:
                    timer.cancel()
                continue
            if window is None or seat in self.poll_timers or self.polled.get(seat) == window \
                    or not s.can_snap(seat):
                continue
            self.poll_timers[seat] = loop.call_later(self._delay(0.3, 2.0), self.post,
                                                     self._bot_poll, seat)

    async def _bot_turn(self, seat: int) -> None:
        if self.turn_timer is None or self.turn_timer[0] != seat:
            return
        self.turn_timer = None
        s = self.session
        if self.status != "playing" or s is None or s.round_over() \
                or s.decider() != seat or not self._bot_controls(seat):
            self._schedule()
            return
        if getattr(s, "threaded_bots", False):
            # A search bot thinks off the event loop (other tables go on meanwhile); this
            # table's actor waits for it, so nothing changes under its feet. Its reply is
            # padded to THINK seconds, so how long it thought -- which depends on cards
            # only it has seen -- does not show in when it moves.
            loop = asyncio.get_running_loop()
            start = loop.time()
            text = await loop.run_in_executor(None, s.bot_move, self.bots[seat], seat)
            rest = self._think(s) - (loop.time() - start)
            if rest > 0:
                await asyncio.sleep(rest)
        else:
            text = s.bot_move(self.bots[seat], seat)
        if self.halted is not None:  # storage failed while it thought
            return
        applied = s.play(seat, text, s.version)
        self.polled[seat] = None  # what it just did may have shown it a match
        await self._accepted(applied)

    async def _bot_poll(self, seat: int) -> None:
        if self.poll_timers.pop(seat, None) is None:
            return
        s = self.session
        if self.status != "playing" or s is None or s.round_over() \
                or not self._bot_controls(seat):
            return
        window = s.snap_window()
        if window is None or not s.can_snap(seat):
            self._schedule()
            return
        self.polled[seat] = window
        text = s.bot_snap(self.bots[seat], seat)
        if text is None:
            self._schedule()
            return
        applied = s.play(seat, text, s.version)
        await self._accepted(applied)

    # ------------------------------------------------------------------ lobby operations
    async def joined_host(self) -> None:
        self._arm_away(0)

    def _require_waiting(self) -> None:
        if self.status != "waiting":
            raise ProtocolError("conflict", "the game has already started")

    def _check_bot(self, name: str) -> str:
        names = {b["name"] for b in self.kind.bots()}
        key = name.strip().lower() if isinstance(name, str) else ""
        if key not in names:
            raise ProtocolError("bad_request", f"unknown bot {name!r}; bots: {sorted(names)}")
        return key

    async def join(self, name: str, seat: int | None, token_hash: str) -> int:
        self._require_waiting()
        if seat is None:
            free = [x.seat for x in self.seats if x.kind == "empty"]
            if not free:
                raise ProtocolError("conflict", "the table is full")
            seat = free[0]
        if not 0 <= seat < self.players:
            raise ProtocolError("bad_request", f"no seat {seat} at this table")
        if self.seats[seat].kind != "empty":
            raise ProtocolError("conflict", f"seat {seat} is taken")
        x = Seat(seat, "human", name, None, token_hash)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats[seat] = x
        self._arm_away(seat)
        self.broadcast_table()
        return seat

    async def set_bot(self, seat: int, bot: str) -> dict[str, Any]:
        self._require_waiting()
        name = self._check_bot(bot)
        if not 0 <= seat < self.players:
            raise ProtocolError("not_found", f"no seat {seat} at this table")
        if self.seats[seat].kind == "human":
            raise ProtocolError("conflict", f"seat {seat} is taken by a player")
        x = Seat(seat, "bot", f"{name} bot", name, None)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats[seat] = x
        self.broadcast_table()
        return self.summary()

    async def free_seat(self, seat: int) -> dict[str, Any]:
        self._require_waiting()
        if not 0 <= seat < self.players:
            raise ProtocolError("not_found", f"no seat {seat} at this table")
        if seat == 0:
            raise ProtocolError("conflict", "the host's seat cannot be freed")
        old = self.seats[seat]
        x = Seat(seat)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats[seat] = x
        timer = self.away_timers.pop(seat, None)
        if timer:
            timer.cancel()
        for conn in list(self.conns):
            if conn.seat == seat and old.kind == "human":
                self.conns.discard(conn)
                conn.error(INVALID_TOKEN, "this token is not a seat of this table (it was "
                                          "freed)")
                conn.close(1008)
        self.broadcast_table()
        return self.summary()

    async def start(self, fill: str | None) -> dict[str, Any]:
        self._require_waiting()
        statements: list[Any] = []
        empty = [x.seat for x in self.seats if x.kind == "empty"]
        before = list(self.seats)
        if empty:
            if fill is None:
                raise ProtocolError("conflict", f"seats {empty} are empty: add bots, or start "
                                                "with \"fill\"")
            name = self._check_bot(fill)
            for seat in empty:
                x = Seat(seat, "bot", f"{name} bot", name, None)
                self.seats[seat] = x
                statements.append(Store.put_seat(self.id, x.row()))
        try:
            await self.begin_game(1, statements)
        except Exception:
            self.seats = before
            raise
        return self.summary()

    async def again(self) -> dict[str, Any]:
        if self.status != "finished":
            raise ProtocolError("conflict", "the game is not over yet")
        await self.begin_game(self.game_no + 1, [])
        return self.summary()
