"""One table: the serial actor that owns its game, and the parts it is made of.

:class:`Table` (:mod:`.table`) is one actor holding small parts, each in its own module with a
narrow interface and no reference back to the table (only the callbacks it is handed):
:mod:`.actor` (the job queue), :mod:`.seating` (the :mod:`.seats`, who is away, the lobby's
seat changes), :mod:`.connections`, :mod:`.lifecycle` (the games: deal, rebuild, next round,
halt), :mod:`.bot_timers`, :mod:`.turn_clock`, :mod:`.races` (snap races), :mod:`.chat_room`
and :mod:`.hints`. What they decide without I/O is the table core's:
:mod:`cambio.server.table_core`, :mod:`cambio.server.clock`, :mod:`cambio.server.away` and
:mod:`cambio.server.rounds` each say what to store, send and time, and the part does it (the
offline solo table drives the pieces a solo round has: acceptance, the bots' plan, the
round's end). :mod:`.timers` is how the parts ask for work later,
:mod:`.connection` one client as the table sees it.

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

from .bot_timers import THINK
from .connection import Conn, dumps
from .seats import Seat
from .table import Table

__all__ = ["THINK", "Conn", "Seat", "Table", "dumps"]
