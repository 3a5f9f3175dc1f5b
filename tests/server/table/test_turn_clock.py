"""The table's turn clock on a clock the test moves: it arms one timer per decision, a new
decision re-arms it, stopping calls it off, and too many timeouts in a row mark a seat."""

from __future__ import annotations

import asyncio

from cambio.server.clock import Decision
from cambio.server.table.turn_clock import TurnClock

from .manual import ManualTimers


def clock(timers: ManualTimers, fired: list[Decision], seconds: float | None = 10
          ) -> TurnClock:
    async def on_timeout(decision: Decision) -> None:
        fired.append(decision)

    return TurnClock(seconds, 2, timers.later, on_timeout, now=timers.clock)


def test_the_timer_fires_at_the_deadline_for_the_decision_on_the_clock() -> None:
    timers, fired = ManualTimers(), list[Decision]()
    c = clock(timers, fired)
    assert c.follow(1, 1, 1, 0, None)
    assert c.message(1, 1, 0)["seat"] == 1 and c.message(1, 1, 0)["left"] == 10
    asyncio.run(timers.advance(9.5))
    assert fired == [] and c.message(1, 1, 0)["left"] == 0.5
    asyncio.run(timers.advance(0.5))
    assert fired == [Decision(1, 1, 1, 0)] and c.running(fired[0])


def test_a_new_decision_rearms_and_stop_calls_it_off() -> None:
    timers, fired = ManualTimers(), list[Decision]()
    c = clock(timers, fired)
    c.follow(0, 1, 1, 0, None)
    asyncio.run(timers.advance(6))
    assert not c.follow(0, 1, 1, 1, 1)  # another seat's snap: the same decision goes on
    assert c.follow(1, 1, 1, 2, 0)  # seat 1 decides now: its own ten seconds
    asyncio.run(timers.advance(6))
    assert fired == []
    assert c.stop() and not c.stop()
    asyncio.run(timers.advance(60))
    assert fired == [] and c.handles() == []


def test_timeouts_in_a_row_mark_the_seat_until_it_acts() -> None:
    timers, fired = ManualTimers(), list[Decision]()
    c = clock(timers, fired)
    c.follow(0, 1, 1, 0, None)
    asyncio.run(timers.advance(10))
    assert not c.ran_out(fired[-1])  # the first timeout: not away yet
    c.follow(0, 1, 1, 1, 0)
    asyncio.run(timers.advance(10))
    assert c.ran_out(fired[-1])  # the second in a row
    c.acted(0)
    c.follow(0, 1, 1, 2, 0)
    asyncio.run(timers.advance(10))
    assert not c.ran_out(fired[-1])


def test_a_table_without_a_clock_arms_nothing() -> None:
    timers, fired = ManualTimers(), list[Decision]()
    c = clock(timers, fired, seconds=None)
    assert not c.follow(0, 1, 1, 0, None)
    assert c.handles() == [] and timers.pending() == []
