"""A table's seats on their own: connections per seat, and the lobby's seat changes checked
before anything is stored (when a seat is away: tests/server/table/test_away.py)."""

from __future__ import annotations

import pytest

from cambio.server.errors import BUSY, INVALID_TOKEN, ProtocolError
from cambio.server.store import SeatRow
from cambio.server.table.seats import Seats


def seats() -> Seats:
    rows = [SeatRow(0, "human", "Ann", None, "h0"), SeatRow(1, "bot", "easy bot", "easy", None)]
    return Seats(3, rows)


def test_the_lobby_changes_are_checked_before_they_are_made() -> None:
    s = seats()
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
    s.put(s.freeing(2))
    assert s[2].kind == "empty"
    assert [(x.seat, x.name) for x in s.filling("random", "Random bot")] == [(2, "Random bot")]


def test_a_snapshot_restores_a_start_that_failed() -> None:
    s = seats()
    before = s.snapshot()
    for x in s.filling("random", "Random bot"):
        s.put(x)
    assert s.empty() == []
    s.restore(before)
    assert s.empty() == [2]


def test_connections_are_refused_for_freed_seats_and_past_the_caps() -> None:
    s = seats()
    assert s.refusal(1, 8) == (INVALID_TOKEN, "this token is not a seat of this table "
                                              "(it was freed)", 1008)
    assert s.refusal(0, 2) is None
    s[0].conns = 2
    refused = s.refusal(0, 2)
    assert refused is not None and refused[0] == BUSY and refused[2] == 1013
    assert s.refusal(None, 2) is None  # a spectator: only their own cap counts
    assert s.refusal(None, 2, spectators_full=True) == (
        BUSY, "this table has as many spectators as it takes; try later", 1013)


def test_what_the_seats_show_holds_no_token() -> None:
    s = seats()
    assert s.names() == [{"name": "Ann"}, {"name": "easy bot", "bot": "easy"}, {"name": ""}]
    assert "h0" not in repr(s.public())
