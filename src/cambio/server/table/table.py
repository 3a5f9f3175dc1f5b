"""The table: one actor that owns its parts and handles every message to it, one at a time.

The parts each hold one concern and know nothing of the table; the table hands each only
what it needs (a :class:`~.timers.Later` that posts to this actor, and callbacks):

- :class:`~.actor.Actor` -- the job queue everything runs on;
- :class:`~.seating.Seating` -- who sits where (:class:`~.seats.Seats`), who is connected
  or away (the core's :class:`~..away.Away`, no I/O, and its timers), the lobby's seat
  changes;
- :class:`~.connections.Connections` -- the open connections, and one message per seat;
- :class:`~.lifecycle.Lifecycle` -- the status and games: deal, rebuild, next round (after
  the core's :class:`~..rounds.RoundPause`), halt;
- :class:`~.bot_timers.BotTimers` -- the bots and when they move;
- :class:`~.turn_clock.TurnClock` -- a seated player's time per decision: the core's
  :class:`~..clock.TableClock` (no I/O) with its timer and its writes;
- :class:`~.races.SnapRaces` -- snap races judged by reaction, and their timer;
- :class:`~.chat_room.ChatRoom` -- the chat, stored, sent to whoever may read it;
- :class:`~.hints.Hints` -- assist mode's searched hints.

Each public coroutine below is one message (a client's, a timer's or the lobby's) and runs as
a job on the actor, so following one action means reading one method here and the parts it
calls. Nobody is told about an action before it is stored, and nobody sees a state that is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from .. import table_core as core
from ..errors import FORBIDDEN, INVALID_TOKEN, SERVER_ERROR, ProtocolError
from ..games import GameKind
from ..kernels import Kernels
from ..rounds import rematch, require_waiting
from ..session import Applied, Session
from ..settings import Settings
from ..store import SeatRow, Statement, Store, TableRow
from .actor import Actor
from .bot_timers import BotTimers
from .chat_room import ChatRoom
from .connection import Conn, dumps
from .connections import Connections
from .hints import Hints
from .lifecycle import Lifecycle, now_iso
from .races import Held, SnapRaces
from .seating import Seating
from .timers import Handle, Job, Later
from .turn_clock import TurnClock

log = logging.getLogger("cambio.server")
T = TypeVar("T")


class Table:
    """A table in memory: its parts, and the handlers of every message it gets."""

    def __init__(self, store: Store, settings: Settings, kinds: Mapping[str, GameKind],
                 row: TableRow, seats: list[SeatRow], kernels: Kernels | None = None, *,
                 later: Later | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 wall: Callable[[], float] | None = None) -> None:
        """``kernels``: the process's bots' kernels (``None``: every bot is built when
        asked for, whatever it compiles). ``later``, ``clock``, ``sleep`` and ``wall`` are
        the table's time: by default the event loop's timers posting to the actor, real
        time, and the wall clock the turn clock's deadlines are read against (shifted by
        ``--time-offset``); the in-process tests hand in a clock they move by hand."""
        self._later_fn = later
        self._wall = wall if wall is not None else lambda: time.time() + settings.time_offset
        # The server's parts a table uses, handed in (not the server: it owns the tables).
        self.store = store
        self.settings = settings
        if row.game not in kinds:  # set aside, saying why: a game served with --game only
            raise ValueError(f"its game {row.game!r} is not served by this process "
                             "(cambio serve --game)")
        self.kind = kinds[row.game]
        low, high = self.kind.seats
        if not low <= row.players <= high:
            raise ValueError(f"its {row.players} players are not {low} to {high}, as its "
                             f"game {row.game!r} seats")
        self.id = row.id
        self.game = row.game
        self.players = row.players
        self.config = row.config
        self.created = row.created
        self.clock = TurnClock(
            row.config, settings.clock_strikes, self._wall, row.id, store, self._later,
            session=lambda: self.match.session, game_no=lambda: self.match.game_no,
            live=lambda: self.match.live(), controls=lambda seat: self.seats.bot_controls(seat),
            send_all=lambda text: self.audience.send_all(text),
            timed_out=lambda seat: self.seating.do(self.away.timed_out(seat)),
            forfeited=lambda seat: self.seating.do(self.away.forfeited(seat)),
            halt=self._halt, play_now=lambda s, seat: self.bots.play_now(s, seat))
        self.correspondence = self.clock.correspondence
        """A clock of an hour or more: players come and go (server/clock.py)."""
        self.actor = Actor(f"table {row.id}", self._halt)
        self.seating = Seating(store, row.id, row.players, seats, self.kind.bots,
                               None if self.correspondence else settings.away_after,
                               self._later, fresh=lambda seat: self.clock.acted(seat),
                               changed=self.broadcast_table, follow=self._schedule,
                               left=self._left)
        self.seats, self.away = self.seating.seats, self.seating.away
        self.audience = Connections(settings.max_spectators)
        self.match = Lifecycle(store, self.kind, row, self._later,
                               settings.round_pause / settings.bot_speed, self._next_round,
                               now=clock)
        self.kernels = kernels
        self.bots = BotTimers(self._later, settings.bot_speed, self.match.live,
                              self.seats.bot_controls, self._schedule, self._bot_played,
                              sleep=sleep, now=clock,
                              pick=kernels.playable if kernels else lambda game, bot: bot)
        self.chat_room = ChatRoom(store, row.id, settings.chat_rate, settings.chat_burst,
                                  bool(row.config.get("spectator_chat")), now_iso,
                                  clock=clock)
        self.hints = Hints(self.game, kernels, self.post, self.hint)
        # Hooks for a server of several processes (server/cluster/node.py).
        self.watch: Callable[[Table], None] | None = None
        """Told whenever the summary may have changed (the cluster's lobby)."""
        self.lost: Callable[[Table, str], None] | None = None
        """Told instead of reloading when a write fails: another process may own the table."""
        # Hooks for the players' results and ratings (server/players/).
        self.finishing: Callable[[Table, Session], Awaitable[list[Statement]]] | None = None
        """Asked, once a game is over, what to store with it (in the same transaction)."""
        self.left: Callable[[Table, int], Awaitable[None]] | None = None
        """Told (as a job of this actor) when a seat's player is marked away for having no
        connection past the away timeout."""
        self.acting: Callable[[Table, int], list[Statement]] | None = None
        """Asked, the first time a seat's player makes a move themselves in a game, what to
        store with that move (in the same transaction)."""
        self._movers: set[tuple[int, int]] = set()
        """``(game_no, seat)`` whose player's own first move this process has stored."""
        gate = core.SnapGate(row.config.get("snap_window")) if self.correspondence else None
        self.races = SnapRaces(settings.snap_race, gate, self._later, clock,
                               self.seats.present_now, lambda: self.audience, self._replay,
                               self._schedule)

    # ------------------------------------------------------------------ the actor
    def _later(self, delay: float, job: Job, *args: Any) -> Handle:
        if self._later_fn is not None:
            return self._later_fn(delay, job, *args)
        return asyncio.get_running_loop().call_later(delay, self.actor.post, job, *args)

    def start_actor(self) -> None:
        self.actor.start()

    def post(self, fn: Job, *args: Any) -> None:
        self.actor.post(fn, *args)

    async def call(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run a job on the actor and wait for its result (lobby calls)."""
        return await self.actor.call(fn, *args)

    async def stop_actor(self) -> None:
        for handle in self._timers():
            handle.cancel()
        self.hints.stop()
        await self.actor.stop()
        self.audience.close_all(1012)

    def _timers(self) -> list[Handle]:
        return (self.bots.handles() + self.seating.handles() + self.match.handles()
                + self.clock.handles() + self.races.handles())

    # ------------------------------------------------------------------ what others read
    @property
    def last_active(self) -> float:
        return self.actor.last_active

    @property
    def status(self) -> str:
        return self.match.status

    @property
    def game_no(self) -> int:
        return self.match.game_no

    @property
    def session(self) -> Session | None:
        return self.match.session

    @property
    def conns(self) -> set[Conn]:
        return self.audience.open

    def seat_for_hash(self, token_hash: str) -> int | None:
        return self.seats.for_hash(token_hash)

    def joinable(self) -> bool:
        """Worth listing in the lobby: a free seat, and a host still there to start the game
        (a waiting table whose host has been away past the timeout is abandoned)."""
        return self.status == "waiting" and self.seats.host_here() and bool(self.seats.empty())

    def summary(self) -> dict[str, Any]:
        created = datetime.fromtimestamp(self.created, UTC).isoformat(timespec="seconds")
        return core.table_summary(self.id, self.game, self.players, self.kind.listing(self.config),
                             self.status, self.seats.public(), self.game_no, self.session,
                             created, self.match.halted, self.config, self.match.history,
                             self.match.next_round_in(), self.clock.on_clock())

    # ------------------------------------------------------------------ telling clients
    def broadcast_table(self) -> None:
        if self.watch is not None:
            self.watch(self)
        if self.audience:
            self.audience.send_all(dumps(core.table_message(self.summary())))

    def _broadcast_state(self) -> None:
        s = self.session
        assert s is not None
        self.audience.send_each_seat(
            lambda seat: dumps(core.state_message(s, seat, self.game_no)))

    def _broadcast_update(self, applied: Applied) -> None:
        s = self.session
        assert s is not None
        self.audience.send_each_seat(
            lambda seat: dumps(core.update_message(s, applied, seat, self.game_no)))

    # ------------------------------------------------------------------ timers
    def _schedule(self) -> None:
        """Bring the bots' timers and the turn clock up to the state (public facts only)."""
        s = self.match.live()
        if s is None:
            self._stop_timers()
            return
        self.bots.follow(s)
        self.clock.follow()

    def _stop_timers(self) -> None:
        self.bots.cancel()
        self.clock.stop()

    def _left(self, seat: int) -> None:
        if self.left is not None:
            self.post(self.left, self, seat)

    async def _finishing(self, s: Session) -> list[Statement]:
        return await self.finishing(self, s) if self.finishing is not None else []

    def restore_stored(self, clock: tuple[int, int, int, int, float] | None,
                       forfeits: list[int]) -> None:
        """What a correspondence table keeps besides its game, read back at a load: its
        clock's decision and the seats that forfeited the current game on time."""
        self.clock.stored = clock
        if self.config.get("on_timeout") == "forfeit":
            for seat in forfeits:  # nobody is told: nobody is at a table being loaded
                self.away.forfeited(seat)

    # ------------------------------------------------------------------ connections
    async def connect(self, conn: Conn) -> None:
        """Admit a connection (``Seats.refusal``: the caps), greet it, tell the others."""
        self.actor.touch()
        refused = self.seats.refusal(conn.seat, self.settings.max_conns_per_seat,
                                     self.audience.spectators_full())
        if refused is not None:
            code, message, close = refused
            conn.error(code, message)
            conn.close(close)
            return
        self.audience.add(conn)
        fx = self.away.connected(conn.seat) if conn.seat is not None else None
        for greeting in core.arrival(conn.seat, self.summary(), self.session, self.game_no):
            conn.send(dumps(greeting))
        if self.session is not None and self.session.round_no:
            conn.send(self.clock.text())
        if fx is not None:  # told after the welcome: its first message is the welcome
            self.seating.do(fx)
        if self.chat_room.reads(conn.seat):
            conn.send(await self.chat_room.log_for(conn.seat))

    async def disconnect(self, conn: Conn) -> None:
        self.actor.touch()
        if not self.audience.discard(conn):
            return
        if conn.seat is not None:
            self.seating.do(self.away.disconnected(conn.seat))

    async def sync(self, conn: Conn, since: int, game_no: int | None, round_no: int | None
                   ) -> None:
        """Catch a reconnecting client up: the updates it missed, or the whole state."""
        s = self.session
        if conn not in self.audience or s is None or not s.round_no:
            return
        for message in core.catch_up(s, conn.seat, since, game_no, round_no, self.game_no,
                                self.settings.catch_up):
            conn.send(dumps(message))

    async def back(self, conn: Conn) -> None:
        """``back``: a player marked away (their clock ran out again and again) takes
        their seat back from the bot."""
        if conn.seat is None or conn not in self.audience:
            return
        self.seating.do(self.away.back(conn.seat))

    async def chat(self, conn: Conn, text: Any, emote: Any, ref: Any) -> None:
        if conn.seat is None or conn not in self.audience:
            conn.error(FORBIDDEN, "spectators cannot chat; join a seat first", ref)
            return
        said = await self.chat_room.say(conn, conn.seat, self.seats[conn.seat].name, text,
                                        emote, ref)
        if said is not None:
            self.audience.send_each_seat(lambda seat: said[0], said[1])

    # ------------------------------------------------------------------ actions
    async def act(self, conn: Conn, text: str, version: int, ref: Any,
                  reaction_ms: int | None = None) -> None:
        self.actor.touch()
        seat, live = conn.seat, self.match.live()
        gated = None if seat is None else self.races.refusal(live, seat, text)
        if gated is not None:
            conn.error(gated.code, gated.message, ref, counts=gated.counts)
            return
        if seat is not None and live is not None \
                and await self.races.held(live, conn, seat, text, version, ref, reaction_ms):
            return
        judged = core.judge_act(self.session, self.status, self.match.halted, seat, text,
                           version, forfeited=seat is not None and self.seats[seat].forfeit)
        if isinstance(judged, core.Refusal):
            conn.error(judged.code, judged.message, ref, counts=judged.counts)
            return
        self.seating.do(self.away.acted(judged.seat))
        await self._accepted(judged, conn, ref)

    async def _bot_played(self, seat: int, text: str) -> None:
        s = self.session
        assert s is not None
        before = s.version
        if self.races.refusal(s, seat, text) is not None:
            return  # a correspondence table's snap window closed before the bot looked
        if await self.races.held(s, None, seat, text, before, None, None) \
                or s.version != before:
            return  # held in a race, or held snaps went first: the bot decides again
        await self._accepted(s.play(seat, text, s.version))

    async def _replay(self, held: Held) -> None:
        """A snap held in a race, applied now that the race is judged: the first valid one
        wins; each later one is judged against the state it finds (the card gone: lost)."""
        conn, seat, text, version, ref = held
        s = self.match.live()
        if conn is not None:
            await self.act(conn, text, version, ref)
        elif s is not None and self.match.halted is None:
            with contextlib.suppress(ProtocolError):  # a bot's lost race: no word
                await self._accepted(s.play(seat, text, s.version))

    async def hint(self, conn: Conn, ref: Any) -> None:
        """Assist mode (table/hints.py)."""
        await self.hints.answer(conn, self.session, self.status, ref,
                                compared=core.compared(self.config))

    async def _accepted(self, applied: Applied, conn: Conn | None = None,
                        ref: Any = None) -> None:
        """Store the action, then tell everyone, then see what comes next."""
        s = self.session
        assert s is not None
        mover = (self.game_no, applied.seat)
        acting = self.acting if conn is not None and mover not in self._movers else None
        extra = acting(self, applied.seat) if acting is not None else []
        # A correspondence decision this action starts is stored with it.
        planned = self.clock.planned()
        if planned is not None:
            extra.append(self.clock.row(planned))
        try:
            await self.match.record(applied, extra)
        except Exception as exc:
            self._halt(f"storing an action failed ({type(exc).__name__}: {exc})")
            if conn is not None:
                conn.error(SERVER_ERROR, "the action could not be stored; nothing changed",
                           ref, counts=False)
            return
        if acting is not None:
            self._movers.add(mover)
        if planned is not None:
            self.clock.kept(planned)
        self._broadcast_update(applied)
        self.races.shown(s.snap_window())
        if s.round_over():
            self._stop_timers()
            await self.match.end_round(self._finishing)
            self.broadcast_table()
        self._schedule()

    async def _next_round(self, game_no: int) -> None:
        if await self.match.next_round(game_no, self.seats.names()):
            self.bots.new_round()
            self._broadcast_state()
            self.broadcast_table()
            self._schedule()

    # ------------------------------------------------------------------ games
    def new_session(self, game_seed: int, game_no: int) -> Session:
        return self.match.new_session(game_seed, game_no)

    def build_game(self) -> tuple[Session, int] | None:
        """The current game rebuilt from storage (a worker thread may run it)."""
        return self.match.build()

    def install_game(self, built: tuple[Session, int] | None) -> None:
        """Make a game from :meth:`build_game` the table's own (on the event loop)."""
        game_seed = self.match.install(built)
        if game_seed is not None and self.session is not None:
            self.bots.seat(self.session, self.seating.bot_names(self.kind.away_bot), game_seed)

    async def after_load(self) -> None:
        """Book a game that ended before the process died but was not stored as finished,
        then arm the timers of the table just loaded (no one is connected yet)."""
        try:
            await self.match.settle_loaded(self._finishing)
        except Exception as exc:  # as a live finish that fails: halted, booked at restart
            self._halt(f"storing the finish of its game failed ({type(exc).__name__}: {exc})")
        self.seating.do(self.away.loaded())
        self.clock.resume()
        self._schedule()

    async def _begin_game(self, game_no: int, statements: list[Any]) -> None:
        """Deal a new game (``start`` or ``again``): store it, then tell everyone."""
        game_seed = await self.match.begin(game_no, statements, self.seats.names())
        watch = self.away.new_game()
        assert self.session is not None
        self.bots.seat(self.session, self.seating.bot_names(self.kind.away_bot), game_seed)
        self._stop_timers()
        self.broadcast_table()
        self._broadcast_state()
        self.seating.do(watch)
        self._schedule()

    def _halt(self, why: str) -> None:
        """Storage failed: stop the table where it was last stored (see
        :meth:`.lifecycle.Lifecycle.halt`) and show it."""
        self.match.halt(why)
        self._stop_timers()
        if self.lost is not None:  # nothing more from this copy: the owner reloads it
            self.lost(self, why)
            return
        try:  # back to what is stored: the action just refused is not
            self.install_game(self.build_game())
        except Exception:
            log.exception("table %s: reloading from storage failed too", self.id)
        else:
            if self.session is not None and self.session.round_no:
                self._broadcast_state()
        self.broadcast_table()

    # ------------------------------------------------------------------ the lobby's calls
    async def joined_host(self) -> None:
        self.seating.do(self.away.watch(0))

    async def expect(self, grace: float) -> None:
        """Play now seated these players for them: a seat nobody opens within ``grace``
        seconds goes to its bot (server/away.py, ``Away.expect``), so nobody waits for a
        player who is not there; one who comes late takes it back, as from away, and has
        not forfeited (a seat nobody ever played makes a rated game void anyway)."""
        self.seating.do(self.away.expect(min(grace, self.settings.away_after)))

    async def join(self, name: str, seat: int | None, token_hash: str,
                   player: str | None = None) -> int:
        require_waiting(self.status)
        taken = await self.seating.join(name, seat, token_hash, player)
        self.broadcast_table()
        return taken

    async def rekey(self, seat: int, token_hash: str) -> None:
        """A new token for a player's own seat (their identity proved it is theirs: another
        device of theirs); the old token stops working, its open connections stay."""
        await self.seating.rekey(seat, token_hash)

    async def set_bot(self, seat: int, bot: str) -> dict[str, Any]:
        require_waiting(self.status)
        await self.seating.set_bot(seat, bot)
        self.broadcast_table()
        return self.summary()

    async def free_seat(self, seat: int) -> dict[str, Any]:
        require_waiting(self.status)
        if await self.seating.free(seat):
            for conn in self.audience.of_seat(seat):
                self.audience.discard(conn)
                conn.error(INVALID_TOKEN, "this token is not a seat of this table (it was "
                                          "freed)")
                conn.close(1008)
        self.broadcast_table()
        return self.summary()

    async def start(self, fill: str | None) -> dict[str, Any]:
        require_waiting(self.status)
        before = self.seats.snapshot()
        filled = self.seating.fill(fill)
        try:
            await self._begin_game(1, self.seating.rows(filled))
        except Exception:
            self.seats.restore(before)
            raise
        return self.summary()

    async def again(self) -> dict[str, Any]:
        """A rematch (server/rounds.py): the next game, the last one's result kept."""
        next_game = rematch(self.status, self.game_no, self.session)
        await self._begin_game(next_game.game_no, [])
        if next_game.done is not None:
            self.match.history.append(next_game.done)
        return self.summary()
