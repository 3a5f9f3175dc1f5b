"""Away seats without I/O (:class:`cambio.server.away.Away`) on a clock the test moves: the
effects it returns are done by a small driver here, as the served table does them -- its
timers set on :class:`ManualTimers` -- so each rule is seen end to end: a seat is away once
its last connection has been gone long enough and its bot takes over, coming back in time
calls that off, a returning player takes the seat back (not after a forfeit), Play now's
grace marks a player who never came, and a correspondence table marks nobody away."""

from __future__ import annotations

import ast
import asyncio
import sys
from pathlib import Path

from cambio.server import away
from cambio.server.away import Away, AwayEffects
from cambio.server.store import SeatRow
from cambio.server.table.seats import Seats

from .manual import ManualTimers, Timer

AWAY_AFTER = 30.0


class Driver:
    """The served table's part of it: the timers, and a log of what it was asked to do."""

    def __init__(self, after: float | None = AWAY_AFTER) -> None:
        rows = [SeatRow(0, "human", "Ann", None, "h0"), SeatRow(1, "bot", "Bot", "easy", None),
                SeatRow(2, "human", "Bo", None, "h2")]
        self.seats = Seats(3, rows)
        self.away = Away(self.seats, after)
        self.timers = ManualTimers()
        self.handles: dict[int, Timer] = {}
        self.told: list[str] = []
        """What the table was asked to do: ``table`` (tell everyone), ``follow`` (bots and
        clock), ``fresh N``, ``left N``."""

    def do(self, fx: AwayEffects) -> AwayEffects:
        for timer in fx.cancel:
            self.handles.pop(timer).cancel()
        for timer, delay in fx.arm:
            self.handles[timer] = self.timers.later(delay, self.fire, timer)
        self.told += (["table"] if fx.changed else []) + (["follow"] if fx.follow else [])
        self.told += [f"fresh {fx.fresh}"] if fx.fresh is not None else []
        self.told += [f"left {fx.left}"] if fx.left is not None else []
        return fx

    async def fire(self, timer: int) -> None:
        self.handles.pop(timer, None)
        self.do(self.away.fired(timer))

    def advance(self, seconds: float) -> None:
        asyncio.run(self.timers.advance(seconds))

    def take(self) -> list[str]:
        told, self.told = self.told, []
        return told


def test_a_seat_is_away_once_its_last_connection_is_gone_long_enough_and_its_bot_plays(
        ) -> None:
    d = Driver()
    d.do(d.away.connected(0))
    d.do(d.away.connected(0))
    assert d.take() == ["table", "follow"]  # only the first tab changes what is shown
    d.do(d.away.disconnected(0))
    assert d.take() == [] and d.handles == {}  # a tab is still open
    d.do(d.away.disconnected(0))
    assert d.take() == ["table"] and len(d.handles) == 1  # the last: the timer starts
    d.advance(AWAY_AFTER - 1)
    assert not d.seats[0].away and d.take() == []
    d.advance(1)
    # Marked away: everyone is told, the bots and the clock follow (its bot takes the
    # seat), and the players' hook hears that the player left.
    assert d.seats[0].away and d.seats.bot_controls(0)
    assert d.take() == ["table", "follow", "left 0"]
    assert d.handles == {}


def test_coming_back_in_time_calls_the_away_timer_off() -> None:
    d = Driver()
    d.do(d.away.watch(0))
    d.advance(AWAY_AFTER - 1)
    d.do(d.away.connected(0))
    d.advance(2 * AWAY_AFTER)
    assert not d.seats[0].away and "left 0" not in d.take()
    assert d.timers.pending() == []


def test_a_returning_player_takes_the_seat_back_from_the_bot() -> None:
    d = Driver()
    d.do(d.away.loaded())  # nobody is connected to a table just loaded
    assert len(d.handles) == 2  # one timer per player, none for the bot's seat
    d.advance(AWAY_AFTER)
    assert d.seats[0].away and d.seats[2].away
    d.take()
    # Connecting again: theirs, shown, the bots and clock follow, their timeouts restart.
    d.do(d.away.connected(0))
    assert not d.seats[0].away and d.take() == ["table", "follow", "fresh 0"]
    # The turn clock marks the seat away again; acting takes it back (connected) ...
    d.do(d.away.timed_out(0))
    assert d.seats[0].away and d.take() == ["table"]
    d.do(d.away.acted(0))
    assert not d.seats[0].away and d.take() == ["table", "fresh 0"]
    # ... and so does `back`, which has the bots and the clock follow at once.
    d.do(d.away.timed_out(0))
    d.take()
    d.do(d.away.back(0))
    assert not d.seats[0].away and d.take() == ["table", "follow", "fresh 0"]
    # Acting with no connection open does not: seat 2 stays its bot's.
    d.do(d.away.acted(2))
    assert d.seats[2].away and d.take() == ["fresh 2"]


def test_a_forfeit_keeps_the_bot_on_the_seat_until_the_next_game() -> None:
    d = Driver()
    d.do(d.away.connected(0))
    d.do(d.away.forfeited(0))
    assert d.seats[0].away and d.seats[0].forfeit
    d.do(d.away.back(0))
    d.do(d.away.disconnected(0))
    d.do(d.away.connected(0))
    assert d.seats[0].away  # neither back nor a new connection undoes a forfeit
    d.do(d.away.new_game())
    assert not d.seats[0].away and not d.seats[0].forfeit


def test_a_new_game_watches_every_player_not_there() -> None:
    d = Driver()
    d.do(d.away.connected(0))
    fx = d.do(d.away.new_game())
    assert [t for t, _ in fx.arm] == list(d.handles) and len(d.handles) == 1  # seat 2 only
    assert d.do(d.away.new_game()).arm == []  # already watched


def test_play_nows_grace_marks_a_player_who_never_came_without_saying_they_left() -> None:
    d = Driver()
    d.do(d.away.connected(0))
    d.take()
    d.do(d.away.expect(5.0))
    d.advance(5.0)
    assert d.seats[2].away and d.take() == ["table", "follow"]  # no "left 2"
    d.do(d.away.connected(2))
    assert not d.seats[2].away


def test_a_freed_seat_needs_no_timer_and_a_replaced_one_does_nothing() -> None:
    d = Driver()
    d.do(d.away.watch(2))
    old = next(iter(d.handles))
    d.do(d.away.watch(2))  # a second join's timer replaces the first
    assert old not in d.handles and len(d.handles) == 1
    assert d.away.fired(old) == AwayEffects()  # a stale firing changes nothing
    d.seats.put(d.seats.freeing(2))
    d.do(d.away.seated(2))
    assert d.handles == {} and d.timers.pending() == []


def test_a_correspondence_table_marks_nobody_away_for_being_gone() -> None:
    d = Driver(after=None)
    d.do(d.away.loaded())
    d.do(d.away.connected(0))
    d.do(d.away.disconnected(0))
    assert d.handles == {} and d.timers.pending() == []
    d.do(d.away.expect(5.0))  # but Play now's grace still applies
    d.advance(5.0)
    assert d.seats[0].away and d.seats[2].away


def test_the_away_rules_import_only_the_standard_library() -> None:
    """Part of the table core: no store, no event loop, nothing the browser lacks."""
    tree = ast.parse(Path(away.__file__).read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {str(node.module).split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and not node.level}
    assert imported and imported <= sys.stdlib_module_names | {"__future__"}
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))
