"""The table: one actor that owns its parts and handles every message to it, one at a time.

The parts each hold one concern and know nothing of the table; the table hands each only
what it needs (a :class:`~.timers.Later` that posts to this actor, and callbacks):

- :class:`~.actor.Actor` -- the job queue everything runs on;
- :class:`~.seats.Seats` -- who sits where, who is connected or away;
- :class:`~.connections.Connections` -- the open connections, and one message per seat;
- :class:`~.lifecycle.Lifecycle` -- the status and games: deal, rebuild, next round, halt;
- :class:`~.bot_timers.BotTimers` -- the bots and when they move;
- :class:`~..clock.TableClock` -- a seated player's time per decision (no I/O: it returns
  what to store, send and time, and the table does it);
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

from ..clock import ClockEffects, Deadline, Decision, Forfeit, TableClock, Target
from ..errors import (
    BUSY,
    FORBIDDEN,
    INVALID_TOKEN,
    SERVER_ERROR,
    ProtocolError,
    Words,
)
from ..faults import crash_point
from ..games import GameKind
from ..kernels import Kernels
from ..server_messages import ChatLine
from ..session import Applied, Session
from ..settings import Settings
from ..snap_race import Referee, reaction_key
from ..store import SeatRow, Statement, Store, TableRow
from ..table_core import (
    Refusal,
    SnapGate,
    arrival,
    catch_up,
    judge_act,
    snap_refusal,
    state_message,
    table_message,
    table_summary,
    update_message,
)
from .actor import Actor
from .bot_timers import BotTimers
from .chat_room import ChatRoom
from .connection import Conn, dumps
from .connections import Connections
from .hints import Hints
from .lifecycle import Lifecycle, now_iso
from .seats import Seats
from .timers import Handle, Job, Later

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
        self._clock = clock
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
        self.clock = TableClock(row.config, settings.clock_strikes, self._wall)
        self.correspondence = self.clock.correspondence
        """A clock of an hour or more: players come and go (server/clock.py)."""
        self._clock_timer: Handle | None = None
        self.actor = Actor(f"table {row.id}", self._halt)
        self.seats = Seats(row.players, seats,
                           None if self.correspondence else settings.away_after,
                           self._later, self._away)
        self.audience = Connections(settings.max_spectators)
        self.match = Lifecycle(store, self.kind, row, self._later,
                               settings.round_pause / settings.bot_speed, self._next_round,
                               now=clock)
        self.kernels = kernels
        self.bots = BotTimers(self._later, settings.bot_speed, self.match.live,
                              self.seats.bot_controls, self._schedule, self._bot_played,
                              sleep=sleep, now=clock,
                              pick=kernels.playable if kernels else lambda game, bot: bot)
        self.gate = SnapGate(row.config.get("snap_window")) if self.correspondence else None
        self.stored_clock: tuple[int, int, int, int, float] | None = None
        """The decision a correspondence table's clock ran for when it was stored (read
        back at a load): ``(game_no, round_no, since, seat, deadline)``."""
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
        self._expected: set[int] = set()
        """Seats given a grace to arrive (:meth:`expect`) whose player has not come yet."""
        self.races: Referee[tuple[Conn | None, int, str, int, Any]] = Referee(
            settings.snap_race)
        """Snap races judged by reaction (server/snap_race.py): ``(conn or None for a bot,
        seat, text, version, ref)`` held while a race is collected."""
        self._race_timers: list[Handle] = []

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
        return (self.bots.handles() + self.seats.handles() + self.match.handles()
                + ([self._clock_timer] if self._clock_timer else []) + self._race_timers)

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

    @property
    def history(self) -> list[dict[str, Any]]:
        return self.match.history

    @history.setter
    def history(self, results: list[dict[str, Any]]) -> None:
        self.match.history = results

    @property
    def chat_log(self) -> list[ChatLine]:
        return self.chat_room.lines

    @chat_log.setter
    def chat_log(self, lines: list[ChatLine]) -> None:
        self.chat_room.lines = lines

    @property
    def built(self) -> tuple[Session, int] | None:
        return self.match.built

    @built.setter
    def built(self, built: tuple[Session, int] | None) -> None:
        self.match.built = built

    def seat_for_hash(self, token_hash: str) -> int | None:
        return self.seats.for_hash(token_hash)

    def joinable(self) -> bool:
        """Worth listing in the lobby: a free seat, and a host still there to start the game
        (a waiting table whose host has been away past the timeout is abandoned)."""
        return self.status == "waiting" and self.seats.host_here() and bool(self.seats.empty())

    def summary(self) -> dict[str, Any]:
        created = datetime.fromtimestamp(self.created, UTC).isoformat(timespec="seconds")
        return table_summary(self.id, self.game, self.players, self.kind.listing(self.config),
                             self.status, self.seats.public(), self.game_no, self.session,
                             created, self.match.halted, self.config, self.history,
                             self.match.next_round_in(), self.clock.on_clock())

    # ------------------------------------------------------------------ telling clients
    def broadcast_table(self) -> None:
        if self.watch is not None:
            self.watch(self)
        if self.audience:
            self.audience.send_all(dumps(table_message(self.summary())))

    def _state_text(self, seat: int | None) -> str:
        s = self.session
        assert s is not None
        return dumps(state_message(s, seat, self.game_no))

    def _broadcast_state(self) -> None:
        self.audience.send_each_seat(self._state_text)

    def _broadcast_update(self, applied: Applied) -> None:
        s = self.session
        assert s is not None
        self.audience.send_each_seat(
            lambda seat: dumps(update_message(s, applied, seat, self.game_no)))

    def _clock_text(self) -> str:
        return dumps(self.clock.message(self._target()))

    # ------------------------------------------------------------------ timers
    def _schedule(self) -> None:
        """Bring the bots' timers and the turn clock up to the state (public facts only)."""
        s = self.match.live()
        if s is None:
            self._stop_timers()
            return
        self.bots.follow(s)
        fx = self.clock.follow(self._target())
        if fx.store:  # a deal's or a load's decision: no action's write carried it
            self._later(0, self._store_current, fx.store)
            fx.store = []
        self._clock_now(fx)

    def _target(self) -> Target:
        """What the turn clock follows: the deciding seat unless a bot plays it, the game,
        round and version, and who acted last."""
        s = self.session
        if s is None:
            return None, self.game_no, 0, 0, None
        decider = s.decider()
        if decider is not None and self.seats.bot_controls(decider):
            decider = None
        return decider, self.game_no, s.round_no, s.version, s.log[-1].seat if s.log else None

    def _clock_now(self, fx: ClockEffects) -> None:
        """Do what the clock asks that needs no write: away, tell, (re)set its timer."""
        if fx.away is not None:
            self.seats.timed_out(fx.away)
            self.broadcast_table()
        if fx.send is not None:
            self.audience.send_all(dumps(fx.send))
        if fx.cancel and self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        if fx.arm is not None:
            self._clock_timer = self._later(fx.arm[1], self._clock_out, fx.arm[0])

    def _clock_row(self, item: Deadline | Forfeit) -> Statement:
        if isinstance(item, Forfeit):
            return Store.insert_forfeit(self.id, self.game_no, item.seat)
        d = item.decision
        return Store.put_deadline(self.id, d.game_no, d.round_no, d.since, d.seat, item.at)

    async def _store_clock(self, items: list[Deadline | Forfeit]) -> bool:
        """Store what the clock asks (a deadline, a forfeit), then take it in; ``False``
        (and the table halted) if the write failed."""
        try:
            await self.store.write([self._clock_row(x) for x in items])
        except Exception as exc:
            self._halt(f"storing the turn clock failed ({type(exc).__name__}: {exc})")
            return False
        self.clock.kept(items)
        for x in items:
            if isinstance(x, Forfeit):
                self.seats.forfeited(x.seat)
                self.broadcast_table()
        return True

    async def _store_current(self, items: list[Deadline | Forfeit]) -> None:
        """A deadline stored on its own, unless its decision is over by now (an action's
        write stored the next one)."""
        if all(isinstance(x, Deadline) and x.decision == self.clock.decisions.current
               for x in items):
            await self._store_clock(items)

    def _resume_clock(self) -> None:
        """A loaded correspondence table keeps its stored decision's deadline if it is
        still the one waited for (server/clock.py, ``TableClock.resume``)."""
        s, stored = self.match.live(), self.stored_clock
        self.stored_clock = None
        if s is not None:
            self._clock_now(self.clock.resume(stored, self._target(), [a.seat for a in s.log]))

    def _stop_timers(self) -> None:
        self.bots.cancel()
        self._clock_now(self.clock.stop(self._target()))

    def _bot_names(self) -> list[str]:
        return [x.bot if x.kind == "bot" and x.bot else self.kind.away_bot
                for x in self.seats]

    def _away(self, seat: int) -> None:
        self.broadcast_table()
        self._schedule()
        if seat in self._expected:  # never came: not a player who left (no forfeit)
            self._expected.discard(seat)
        elif self.left is not None:
            self.post(self.left, self, seat)

    async def _finishing(self, s: Session) -> list[Statement]:
        return await self.finishing(self, s) if self.finishing is not None else []

    async def _clock_out(self, decision: Decision) -> None:
        """A player's time ran out: what the clock says (server/clock.py): their bot plays
        this decision; the seat may be marked away, or forfeit the game."""
        s = self.match.live()
        if s is None:
            return
        fx = self.clock.fired(decision, self._target())
        if fx.store and not await self._store_clock(fx.store):
            return
        self._clock_now(fx)
        if fx.bot is not None:
            await self.bots.play_now(s, fx.bot)

    def restore_stored(self, clock: tuple[int, int, int, int, float] | None,
                       forfeits: list[int]) -> None:
        """What a correspondence table keeps besides its game, read back at a load: its
        clock's decision and the seats that forfeited the current game on time."""
        self.stored_clock = clock
        if self.config.get("on_timeout") == "forfeit":
            for seat in forfeits:
                self.seats.forfeited(seat)

    def _present(self, seat: int) -> None:
        """The seat's player did something themselves: their timeouts in a row start
        again, and a seat marked away for them is theirs again."""
        self.clock.acted(seat)
        if self.seats.present(seat):
            self.broadcast_table()

    # ------------------------------------------------------------------ connections
    async def connect(self, conn: Conn) -> None:
        """Admit a connection. Spectators have their own cap, so however many there are, a
        seated player always gets in (up to a few tabs per seat)."""
        self.actor.touch()
        if conn.seat is None:
            if self.audience.spectators_full():
                conn.error(BUSY, "this table has as many spectators as it takes; try later")
                conn.close(1013)
                return
        else:
            refused = self.seats.refusal(conn.seat, self.settings.max_conns_per_seat)
            if refused is not None:
                code, message, close = refused
                conn.error(code, message)
                conn.close(close)
                return
        self.audience.add(conn)
        changed = False
        if conn.seat is not None:
            self._expected.discard(conn.seat)
            changed, was_away = self.seats.arrived(conn.seat)
            if was_away:  # back: the turn clock's timeouts in a row start again
                self.clock.acted(conn.seat)
        for greeting in arrival(conn.seat, self.summary(), self.session, self.game_no):
            conn.send(dumps(greeting))
        if self.session is not None and self.session.round_no:
            conn.send(self._clock_text())
        if changed:
            self.broadcast_table()
            self._schedule()
        if self.chat_room.reads(conn.seat):
            conn.send(await self.chat_room.log_for(conn.seat))

    async def disconnect(self, conn: Conn) -> None:
        self.actor.touch()
        if not self.audience.discard(conn):
            return
        if conn.seat is not None and self.seats.left(conn.seat):
            self.broadcast_table()

    async def sync(self, conn: Conn, since: int, game_no: int | None, round_no: int | None
                   ) -> None:
        """Catch a reconnecting client up: the updates it missed, or the whole state."""
        s = self.session
        if conn not in self.audience or s is None or not s.round_no:
            return
        for message in catch_up(s, conn.seat, since, game_no, round_no, self.game_no,
                                self.settings.catch_up):
            conn.send(dumps(message))

    async def back(self, conn: Conn) -> None:
        """``back``: a player marked away (their clock ran out again and again) takes
        their seat back from the bot."""
        if conn.seat is None or conn not in self.audience:
            return
        self._present(conn.seat)
        self._schedule()

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
        seat = conn.seat
        gated = None if seat is None else \
            snap_refusal(self.gate, self.match.live(), seat, text, self._clock())
        if gated is not None:
            conn.error(gated.code, gated.message, ref, counts=gated.counts)
            return
        if seat is not None and self.match.live() is not None \
                and await self._held(conn, seat, text, version, ref, reaction_ms):
            return
        judged = judge_act(self.session, self.status, self.match.halted, seat, text,
                           version, forfeited=seat is not None and self.seats[seat].forfeit)
        if isinstance(judged, Refusal):
            conn.error(judged.code, judged.message, ref, counts=judged.counts)
            return
        self._present(judged.seat)
        await self._accepted(judged, conn, ref)

    async def _bot_played(self, seat: int, text: str) -> None:
        s = self.session
        assert s is not None
        before = s.version
        if snap_refusal(self.gate, s, seat, text, self._clock()) is not None:
            return  # a correspondence table's snap window closed before the bot looked
        if await self._held(None, seat, text, before, None, None) or s.version != before:
            return  # held in a race, or held snaps went first: the bot decides again
        await self._accepted(s.play(seat, text, s.version))

    async def _held(self, conn: Conn | None, seat: int, text: str, version: int, ref: Any,
                    reaction_ms: int | None) -> bool:
        """A snap joins (or opens) a race judged by reaction, if another seat reports
        reactions; any other action first settles the race being collected (the snaps that
        came before it go before it). ``True``: held, the race's end applies it."""
        s = self.session
        assert s is not None
        if not s.is_snap(text):
            if self.races.race is not None:
                await self._judge_race()
            return False
        now = self._clock()
        window = s.snap_window()
        rivals = [c.latency for c in self.audience
                  if c.seat is not None and c.seat != seat and c.latency.reports]
        key = reaction_key(self.races.elapsed_ms(window, now),
                           conn.latency.rtt_ms if conn is not None else 0.0, reaction_ms)
        opens = self.races.race is None
        if not self.races.take(window, (conn, seat, text, version, ref), key, bool(rivals)):
            return False
        if opens:
            self._race_timers = [self._later(self.races.wait(r.rtt_ms for r in rivals),
                                             self._judge_race)]
        return True

    async def _judge_race(self) -> None:
        """Apply the race's snaps by their keys: the first valid one wins; each later one
        is judged against the state it finds (the card gone: a lost race)."""
        for handle in self._race_timers:
            handle.cancel()
        self._race_timers = []
        self.races.judging = True
        try:
            for conn, seat, text, version, ref in self.races.close():
                s = self.match.live()
                if conn is not None:
                    await self.act(conn, text, version, ref)
                elif s is not None and self.match.halted is None:
                    with contextlib.suppress(ProtocolError):  # a bot's lost race: no word
                        await self._accepted(s.play(seat, text, s.version))
        finally:
            self.races.judging = False
        self._schedule()

    async def hint(self, conn: Conn, ref: Any) -> None:
        """Assist mode (table/hints.py)."""
        await self.hints.answer(conn, self.session, self.status, ref)

    async def _accepted(self, applied: Applied, conn: Conn | None = None,
                        ref: Any = None) -> None:
        """Store the action, then tell everyone, then see what comes next."""
        s = self.session
        assert s is not None
        mover = (self.game_no, applied.seat)
        acting = self.acting if conn is not None and mover not in self._movers else None
        extra = acting(self, applied.seat) if acting is not None else []
        # A correspondence decision this action starts is stored with it.
        planned = self.clock.planned(self._target())
        if planned is not None:
            extra.append(self._clock_row(planned))
        if s.round_over():
            crash_point("round-end-action")
        try:
            await self.store.write([Store.insert_action(self.id, self.game_no, s.round_no,
                                                        applied.version, applied.seat,
                                                        applied.text), *extra])
        except Exception as exc:
            self._halt(f"storing an action failed ({type(exc).__name__}: {exc})")
            if conn is not None:
                conn.error(SERVER_ERROR, "the action could not be stored; nothing changed",
                           ref, counts=False)
            return
        if acting is not None:
            self._movers.add(mover)
        if planned is not None:
            self.clock.kept([planned])
        self._broadcast_update(applied)
        self.races.shown(s.snap_window(), self._clock())
        if self.gate is not None:
            self.gate.follow(s.snap_window(), self._clock(), self.seats.present_now)
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
            self.bots.seat(self.session, self._bot_names(), game_seed)

    async def after_load(self) -> None:
        """Book a game that ended before the process died but was not stored as finished,
        then arm the timers of the table just loaded (no one is connected yet)."""
        try:
            await self.match.settle_loaded(self._finishing)
        except Exception as exc:  # as a live finish that fails: halted, booked at restart
            self._halt(f"storing the finish of its game failed ({type(exc).__name__}: {exc})")
        self.seats.arm_all()
        self._resume_clock()
        self._schedule()

    async def _begin_game(self, game_no: int, statements: list[Any]) -> None:
        """Deal a new game (``start`` or ``again``): store it, then tell everyone."""
        game_seed = await self.match.begin(game_no, statements, self.seats.names())
        self.seats.new_game()
        assert self.session is not None
        self.bots.seat(self.session, self._bot_names(), game_seed)
        self._stop_timers()
        self.broadcast_table()
        self._broadcast_state()
        self.seats.arm_unwatched()
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
        self.seats.arm_away(0)

    async def expect(self, grace: float) -> None:
        """The server seated these players for them (Play now): a seat nobody has connected
        to within ``grace`` seconds is marked away then -- its bot plays it, as for a player
        gone past the away timeout -- so the others never wait for a player who is not
        there. The player who comes late takes the seat back, as from away, and has not
        forfeited (a seat nobody ever played makes a rated game void anyway)."""
        for x in self.seats:
            if x.kind == "human" and x.conns == 0 and not x.away:
                self._expected.add(x.seat)
                self.seats.arm_away(x.seat, min(grace, self.settings.away_after))

    def _require_waiting(self) -> None:
        if self.status != "waiting":
            raise ProtocolError("conflict", Words("refusal.started",
                                                  "the game has already started"))

    def _check_bot(self, name: str) -> str:
        names = {b["name"] for b in self.kind.bots()}
        key = name.strip() if isinstance(name, str) else ""
        key = key.lower() if key.lower() in names else key  # served bots keep their case
        if key not in names:
            raise ProtocolError("bad_request", f"unknown bot {name!r}; bots: {sorted(names)}")
        return key

    def _bot_name(self, bot: str) -> str:
        """A bot's seat name: the one name the lobby and its profile show ("Medium bot")."""
        entry = next((b for b in self.kind.bots() if b["name"] == bot), {})
        return f"{entry.get('display') or bot} bot"

    async def join(self, name: str, seat: int | None, token_hash: str,
                   player: str | None = None) -> int:
        self._require_waiting()
        x = self.seats.joining(name, seat, token_hash, player)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats.put(x)
        self.seats.arm_away(x.seat)
        self.broadcast_table()
        return x.seat

    async def rekey(self, seat: int, token_hash: str) -> None:
        """A new token for a player's own seat (their identity proved it is theirs: another
        device of theirs); the old token stops working, its open connections stay."""
        x = self.seats[seat]
        if x.kind != "human":
            raise ProtocolError("conflict", f"seat {seat} is not a player's")
        row = x.row()
        row.token_hash = token_hash
        await self.store.write([Store.put_seat(self.id, row)])
        x.token_hash = token_hash

    async def set_bot(self, seat: int, bot: str) -> dict[str, Any]:
        self._require_waiting()
        name = self._check_bot(bot)
        x = self.seats.bot_seat(seat, name, self._bot_name(name))
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats.put(x)
        self.broadcast_table()
        return self.summary()

    async def free_seat(self, seat: int) -> dict[str, Any]:
        self._require_waiting()
        x = self.seats.freeing(seat)
        was_player = self.seats[seat].kind == "human"
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats.put(x)
        if was_player:
            for conn in self.audience.of_seat(seat):
                self.audience.discard(conn)
                conn.error(INVALID_TOKEN, "this token is not a seat of this table (it was "
                                          "freed)")
                conn.close(1008)
        self.broadcast_table()
        return self.summary()

    async def start(self, fill: str | None) -> dict[str, Any]:
        self._require_waiting()
        empty = self.seats.empty()
        before = self.seats.snapshot()
        filled = []
        if empty:
            if fill is None:
                raise ProtocolError("conflict", Words(
                    "refusal.seatsEmpty", f"seats {empty} are empty: add bots, or start "
                                          "with \"fill\""))
            bot = self._check_bot(fill)
            filled = self.seats.filling(bot, self._bot_name(bot))
            for x in filled:
                self.seats.put(x)
        try:
            await self._begin_game(1, [Store.put_seat(self.id, x.row()) for x in filled])
        except Exception:
            self.seats.restore(before)
            raise
        return self.summary()

    async def again(self) -> dict[str, Any]:
        if self.status != "finished":
            raise ProtocolError("conflict", Words("refusal.notOver", "the game is not over yet"))
        old = self.session
        done = {"game_no": self.game_no, **old.result()} if old is not None \
            and old.game_over() else None
        await self._begin_game(self.game_no + 1, [])
        if done is not None:  # the rematch keeps the history
            self.history.append(done)
        return self.summary()
