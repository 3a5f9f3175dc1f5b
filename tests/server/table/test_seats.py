"""A table's seats on their own, on a clock the test moves: away timers, connections per
seat, and the lobby's seat changes checked before anything is stored."""

from __future__ import annotations

import asyncio

import pytest

from cambio.server.errors import BUSY, INVALID_TOKEN, ProtocolError
from cambio.server.store import SeatRow
from cambio.server.table.seats import Seats

from .manual import ManualTimers

AWAY_AFTER = 30.0


def seats(timers: ManualTimers, away: list[int]) -> Seats:
    rows = [SeatRow(0, "human", "Ann", None, "h0"), SeatRow(1, "bot", "easy bot", "easy", None)]
    return Seats(3, rows, AWAY_AFTER, timers.later, away.append)


def test_a_seat_is_away_only_once_its_last_connection_has_been_gone_long_enough() -> None:
    timers, away = ManualTimers(), list[int]()
    s = seats(timers, away)
    assert s.arrived(0) == (True, False)
    assert s.arrived(0) == (False, False)  # a second tab changes nothing shown
    assert not s.left(0)
    assert s.left(0)  # the last one: the away timer starts
    asyncio.run(timers.advance(AWAY_AFTER - 1))
    assert not s[0].away and away == []
    asyncio.run(timers.advance(1))
    assert s[0].away and away == [0]
    assert s.bot_controls(0)
    assert s.arrived(0) == (True, True)  # back: shown, and the clock's strikes restart
    assert not s.bot_controls(0) and not s.handles()


def test_coming_back_in_time_cancels_the_away_timer() -> None:
    timers, away = ManualTimers(), list[int]()
    s = seats(timers, away)
    s.arm_away(0)
    asyncio.run(timers.advance(AWAY_AFTER - 1))
    s.arrived(0)
    asyncio.run(timers.advance(2 * AWAY_AFTER))
    assert not s[0].away and away == []


def test_a_player_acting_takes_an_away_seat_back_only_when_connected() -> None:
    timers, away = ManualTimers(), list[int]()
    s = seats(timers, away)
    s.timed_out(0)
    assert not s.present(0)  # nobody connected: the bot plays on
    s[0].conns = 1
    assert s.present(0) and not s[0].away
    assert not s.present(0)


def test_the_lobby_changes_are_checked_before_they_are_made() -> None:
    timers, away = ManualTimers(), list[int]()
    s = seats(timers, away)
    joined = s.joining("Bo", None, "h2")
    assert (joined.seat, joined.kind, joined.name) == (2, "human", "Bo")
    assert s[2].kind == "empty"  # not made until the table has stored it
    s.put(joined)
    assert s.for_hash("h2") == 2 and s.empty() == []
    with pytest.raises(ProtocolError, match="full"):
        s.joining("Cy", None, "h3")
    with pytest.raises(ProtocolError, match="no seat 3"):
        s.joining("Cy", 3, "h3")
    with pytest.raises(ProtocolError, match="taken by a player"):
        s.bot_seat(2, "easy", "Easy bot")
    with pytest.raises(ProtocolError, match="host's seat"):
        s.freeing(0)
    s.arm_away(2)
    s.put(s.freeing(2))
    assert s[2].kind == "empty" and s.handles() == []  # a freed player's timer goes
    assert [(x.seat, x.name) for x in s.filling("random", "Random bot")] == [(2, "Random bot")]


def test_a_snapshot_restores_a_start_that_failed() -> None:
    s = seats(ManualTimers(), [])
    before = s.snapshot()
    for x in s.filling("random", "Random bot"):
        s.put(x)
    assert s.empty() == []
    s.restore(before)
    assert s.empty() == [2]


def test_connections_are_refused_for_freed_seats_and_past_the_cap() -> None:
    s = seats(ManualTimers(), [])
    assert s.refusal(1, 8) == (INVALID_TOKEN, "this token is not a seat of this table "
                                              "(it was freed)", 1008)
    assert s.refusal(0, 2) is None
    s.arrived(0)
    s.arrived(0)
    refused = s.refusal(0, 2)
    assert refused is not None and refused[0] == BUSY and refused[2] == 1013


def test_what_the_seats_show_holds_no_token() -> None:
    s = seats(ManualTimers(), [])
    assert s.names() == [{"name": "Ann"}, {"name": "easy bot", "bot": "easy"}, {"name": ""}]
    assert "h0" not in repr(s.public())
