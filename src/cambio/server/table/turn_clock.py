"""The turn clock at a table (see :mod:`cambio.server.clock`): it follows the decision a
seated player must make, tells everyone whose clock runs and how long is left, and when the
time runs out has the seat's bot play that decision -- marking the seat away after too many
timeouts in a row, until its player is back."""

from __future__ import annotations

from ..clock import Decision, TurnClock
from .bot_timers import BotTimers
from .connection import Conn, dumps


class TurnClocks(BotTimers):
    _clock: TurnClock | None = None

    @property
    def clock(self) -> TurnClock:
        if self._clock is None:
            self._clock = TurnClock(self.config.get("clock"), self.settings.clock_strikes)
        return self._clock

    def _send_all(self, text: str) -> None:
        for conn in self.conns:
            conn.send(text)

    def _clock_text(self) -> str:
        s = self.session
        round_no, version = (s.round_no, s.version) if s is not None else (0, 0)
        return dumps(self.clock.decisions.message(self.game_no, round_no, version))

    def _schedule(self) -> None:
        super()._schedule()
        s = self.session
        if self.status != "playing" or s is None or s.round_over() or self.halted is not None:
            return  # stopped with the bots' timers
        decider = s.decider()
        if decider is not None and self._bot_controls(decider):
            decider = None
        last = s.log[-1].seat if s.log else None
        if self.clock.follow(decider, self.game_no, s.round_no, s.version, last, self.post,
                             self._clock_out):
            self._send_all(self._clock_text())

    def _cancel_bot_timers(self) -> None:
        super()._cancel_bot_timers()
        if self.clock.stop():
            self._send_all(self._clock_text())

    async def _clock_out(self, decision: Decision) -> None:
        """A player's time ran out: their bot plays this decision; after too many in a
        row, the seat is marked away (its bot plays on until they are back)."""
        s = self.session
        if self.clock.decisions.current != decision or s is None or self.halted is not None \
                or s.round_over() or s.decider() != decision.seat:
            return
        self.clock.timer = None
        if self.clock.decisions.timed_out(decision):
            self.seats[decision.seat].away = True
            self.broadcast_table()
        self._send_all(self._clock_text())
        await self._bot_play(decision.seat)

    def _present(self, seat: int) -> None:
        """The seat's player did something themselves: their timeouts in a row start
        again, and a seat marked away for them is theirs again."""
        self.clock.decisions.acted(seat)
        x = self.seats[seat]
        if x.away and x.conns > 0:
            x.away = False
            self.broadcast_table()

    async def back(self, conn: Conn) -> None:
        """``back``: a player marked away (their clock ran out again and again) takes
        their seat back from the bot."""
        if conn.seat is None or conn not in self.conns:
            return
        self._present(conn.seat)
        self._schedule()
