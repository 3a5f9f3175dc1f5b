"""Connections coming and going: admitting them (with caps), marking a seat away when its
last connection has been gone for a while, and catching a reconnecting client up."""

from __future__ import annotations

import asyncio
import time

from ..errors import BUSY, INVALID_TOKEN
from .connection import Conn, dumps
from .turn_clock import TurnClocks

PROTOCOL = 2
"""The version of docs/protocol.md this server speaks (sent in ``welcome``)."""


class Connections(TurnClocks):
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
            if seat.away:  # back: the turn clock's timeouts in a row start again
                self.clock.decisions.acted(conn.seat)
            seat.away = False
        version = self.session.version if self.session is not None else 0
        conn.send(dumps({"type": "welcome", "seat": conn.seat, "table": self.summary(),
                         "version": version, **self._round_fields(), "protocol": PROTOCOL}))
        if self.session is not None and self.session.round_no:
            conn.send(self._state_text(conn.seat))
            conn.send(self._clock_text())
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
                             "event": applied.event(conn.seat), "view": view}))
