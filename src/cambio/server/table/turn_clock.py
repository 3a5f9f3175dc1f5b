"""The turn clock on the event loop: the table core's :class:`~cambio.server.clock.TableClock`
(which decides everything and does nothing) driven with the table's one clock timer and its
store. Told the table moved, it does the :class:`~cambio.server.clock.ClockEffects` the core
returns, in their order: store (a correspondence deadline, a forfeit; a failed write halts
the table and stops there), mark a seat away, send the ``clock`` message to everyone, call
the timer off and set it again, and have the seat's bot play a decision that ran out."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..clock import ClockEffects, Deadline, Decision, Forfeit, TableClock, Target
from ..session import Session
from ..store import Statement, Store
from .connection import dumps
from .timers import Handle, Later

Stored = tuple[int, int, int, int, float]
"""A correspondence table's stored decision: ``(game_no, round_no, since, seat, deadline)``."""


class TurnClock:
    """One table's turn clock. Handed what it needs of the table: ``session()`` and
    ``game_no()`` (the current game), ``live()`` (the session while a round is played,
    else ``None``), ``controls(seat)`` (a bot plays the seat), ``send_all(text)``,
    ``timed_out(seat)`` and ``forfeited(seat)`` (the seat is marked away, or lost the game
    on time), ``halt(why)``, and ``play_now(session, seat)`` (the seat's bot plays its
    decision)."""

    def __init__(self, config: dict[str, Any], strikes: int, wall: Callable[[], float],
                 table_id: str, store: Store, later: Later, *,
                 session: Callable[[], Session | None], game_no: Callable[[], int],
                 live: Callable[[], Session | None], controls: Callable[[int], bool],
                 send_all: Callable[[str], None],
                 timed_out: Callable[[int], None], forfeited: Callable[[int], None],
                 halt: Callable[[str], None],
                 play_now: Callable[[Session, int], Awaitable[None]]) -> None:
        self.core = TableClock(config, strikes, wall)
        self._id = table_id
        self._store = store
        self._later = later
        self._session = session
        self._game_no = game_no
        self._live = live
        self._controls = controls
        self._send_all = send_all
        self._timed_out = timed_out
        self._forfeited = forfeited
        self._halt = halt
        self._play_now = play_now
        self._timer: Handle | None = None
        self.stored: Stored | None = None
        """The decision a correspondence table's clock ran for when it was stored, read
        back at a load until :meth:`resume` takes it."""

    @property
    def correspondence(self) -> bool:
        """A clock of an hour or more: players come and go (server/clock.py)."""
        return self.core.correspondence

    def _target(self) -> Target:
        """What the clock follows: the deciding seat unless a bot plays it, the game, round
        and version, and who acted last."""
        s = self._session()
        if s is None:
            return None, self._game_no(), 0, 0, None
        decider = s.decider()
        if decider is not None and self._controls(decider):
            decider = None
        return (decider, self._game_no(), s.round_no, s.version,
                s.log[-1].seat if s.log else None)

    def text(self) -> str:
        """The ``clock`` message as it stands."""
        return dumps(self.core.message(self._target()))

    def handles(self) -> list[Handle]:
        return [self._timer] if self._timer is not None else []

    def acted(self, seat: int) -> None:
        self.core.acted(seat)

    def on_clock(self) -> tuple[int, float] | None:
        return self.core.on_clock()

    # ------------------------------------------------------------------ following the table
    def follow(self) -> None:
        """The table moved: a new decision is told, timed and (correspondence) stored."""
        fx = self.core.follow(self._target())
        if fx.store:  # a deal's or a load's decision: no action's write carried it
            self._later(0, self._store_then_tell, fx)
        else:
            self._now(fx)

    def stop(self) -> None:
        """No decision on the clock any more (the round is over, the table halted)."""
        self._now(self.core.stop(self._target()))

    def resume(self) -> None:
        """A loaded correspondence table keeps its stored decision's deadline if it is
        still the one waited for (``TableClock.resume``)."""
        s, stored = self._live(), self.stored
        self.stored = None
        if s is not None:
            self._now(self.core.resume(stored, self._target(), [a.seat for a in s.log]))

    def planned(self) -> Deadline | None:
        """The deadline to store with the action just applied (the correspondence decision
        it starts): :meth:`row` it into that write, then :meth:`kept` it."""
        return self.core.planned(self._target())

    def kept(self, stored: Deadline) -> None:
        self.core.kept([stored])

    def row(self, item: Deadline | Forfeit) -> Statement:
        if isinstance(item, Forfeit):
            return Store.insert_forfeit(self._id, self._target()[1], item.seat)
        d = item.decision
        return Store.put_deadline(self._id, d.game_no, d.round_no, d.since, d.seat, item.at)

    # ------------------------------------------------------------------ doing what it says
    def _now(self, fx: ClockEffects) -> None:
        """Do what the clock asks that needs no write: away, tell, (re)set its timer."""
        if fx.away is not None:
            self._timed_out(fx.away)
        if fx.send is not None:
            self._send_all(dumps(fx.send))
        if fx.cancel and self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if fx.arm is not None:
            self._timer = self._later(fx.arm[1], self._out, fx.arm[0])

    async def _write(self, items: list[Deadline | Forfeit]) -> bool:
        """Store what the clock asks (a deadline, a forfeit), then take it in; ``False``
        (and the table halted) if the write failed."""
        try:
            await self._store.write([self.row(x) for x in items])
        except Exception as exc:
            self._halt(f"storing the turn clock failed ({type(exc).__name__}: {exc})")
            return False
        self.core.kept(items)
        for x in items:
            if isinstance(x, Forfeit):
                self._forfeited(x.seat)
        return True

    async def _store_then_tell(self, fx: ClockEffects) -> None:
        """A deadline stored on its own, then told and timed: a deadline players were told
        is one a restart keeps. Nothing happens if its decision is over by now (an action's
        write stored the next one, and its own follow told it)."""
        if not all(isinstance(x, Deadline) and x.decision == self.core.decisions.current
                   for x in fx.store):
            return
        if await self._write(fx.store):
            self._now(fx)

    async def _out(self, decision: Decision) -> None:
        """A player's time ran out: what the clock says: their bot plays this decision;
        the seat may be marked away, or forfeit the game."""
        s = self._live()
        if s is None:
            return
        fx = self.core.fired(decision, self._target())
        if fx.store and not await self._write(fx.store):
            return
        self._now(fx)
        if fx.bot is not None:
            await self._play_now(s, fx.bot)
