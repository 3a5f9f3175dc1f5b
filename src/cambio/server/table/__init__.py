"""One table: its seats, its connections, and the serial actor that owns its game.

:class:`Table` is built up in layers, one module each, every layer using only those below:

- :mod:`.actor` -- the serial job queue every change of the table runs on;
- :mod:`.state` -- the table's fields (seats, game, timers) and its public summary;
- :mod:`.broadcasting` -- telling connections what changed, one view per seat;
- :mod:`.bot_timers` -- when bots move (seeded delays, public events only);
- :mod:`.turn_clock` -- the turn clock: a seated player's time per decision, then their bot;
- :mod:`.connections` -- admitting connections, away seats, catching up reconnects;
- :mod:`.chat_room` -- the table's chat: stored, sent to whoever may read it;
- :mod:`.acting` -- players' actions and hints, round ends, the next deal;
- :mod:`.lifecycle` -- dealing a game, rebuilding it from storage, halting on a failed write;
- :mod:`.lobby_calls` -- seats, bots, start and again, as the lobby asks.

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

from .bot_timers import AWAY_BOT, THINK
from .connection import Conn, dumps
from .lobby_calls import LobbyCalls
from .state import Seat

__all__ = ["AWAY_BOT", "THINK", "Conn", "Seat", "Table", "dumps"]


class Table(LobbyCalls):
    """A table's state in memory and its actor task."""

    async def stop_actor(self) -> None:
        for handle in self._timers():
            handle.cancel()
        await self._stop_task()
        for conn in list(self.conns):
            conn.close(1012)

    def _timers(self) -> list[asyncio.TimerHandle]:
        out = list(self.poll_timers.values()) + list(self.away_timers.values())
        if self.turn_timer:
            out.append(self.turn_timer[1])
        if self.round_timer:
            out.append(self.round_timer)
        if self.clock.timer:
            out.append(self.clock.timer)
        return out
