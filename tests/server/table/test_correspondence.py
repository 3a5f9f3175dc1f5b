"""Correspondence tables in process: a clock of hours or days per decision, its deadline
stored with the move that starts it and kept across a reload, a missed deadline handed to
the seat's bot or forfeited, nobody marked away for being offline, and the snap window a
correspondence card table offers (docs/rules.md). A real table on a real store (SQLite and
PostgreSQL), its time a clock the test moves by hand."""

from __future__ import annotations

from typing import Any

from cambio.server.table import Table

from ...support.databases import Database
from .test_table import TABLE, Harness, a_legal, decider, drain, of_type, run

DAY = 24 * 3600


async def play_to_discard(h: Harness, table: Table, conns: tuple[Any, ...]) -> None:
    """Play until a card is on the pile and a snap window is open."""
    s = table.session
    assert s is not None
    while s.snap_window() is None:
        seat = decider(table)
        await table.act(conns[seat], a_legal(table, seat), s.version, None)


def test_a_deadline_is_stored_with_its_move_and_a_reload_keeps_it(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        await h.timers.advance(0)  # the deal's first decision is stored on its own
        summary = table.summary()
        assert summary["correspondence"] is True and summary["clock"] == DAY
        assert summary["on_timeout"] == "bot" and summary["snap_window"] is None
        first = decider(table)
        assert summary["deadline_seat"] == first and summary["deadline"] == DAY
        assert h.store.deadline(TABLE) == (1, 1, 0, first, DAY)
        # An hour later the decider draws: it must decide again, with a fresh day, and that
        # deadline is stored in the draw's own transaction.
        await h.timers.advance(3600)
        await table.act((a, b)[first], "draw", s.version, None)
        assert h.store.actions(TABLE, 1, 1) == [(first, "draw")]
        assert h.store.deadline(TABLE) == (1, 1, 1, first, 3600 + DAY)
        clock = of_type(drain((a, b)[1 - first]), "clock")[-1]
        assert clock["deadline"] == 3600 + DAY and clock["seat"] == first
        # Nobody is marked away for being offline: players come and go over days.
        await table.disconnect(a)
        await table.disconnect(b)
        await h.timers.advance(12 * 3600)
        assert not any(x["away"] for x in table.seats.public())
        # A restart half a day later: the same decision, the same deadline (not a fresh day).
        table = await h.reload()
        assert table.summary()["deadline"] == 3600 + DAY
        assert table.clock.core.decisions.left() == DAY - 12 * 3600
        assert h.store.deadline(TABLE) == (1, 1, 1, first, 3600 + DAY)
        # The deadline passes: the seat's bot plays that one move, and only that one.
        loaded = table.session
        assert loaded is not None
        await h.timers.advance(DAY)
        assert len(loaded.log) >= 2 and loaded.log[1].seat == first
        assert not table.seats.public()[first]["away"]  # no strikes at a correspondence table
        assert table.clock.core.decisions.current is not None  # the next decision is on the clock

    run(database, scenario, clock=DAY)


def test_the_deals_deadline_is_told_only_once_it_is_stored(database: Database) -> None:
    """A deadline players were told is one a restart keeps: the deal's first decision has
    no action's write to carry its deadline, so it is stored on its own, and only then sent
    (a kill -9 between the two would otherwise give a fresh day after one was promised)."""
    async def scenario(h: Harness) -> None:
        table, a, b, _ = await h.dealt_pair()
        told = [m for m in of_type(drain(a) + drain(b), "clock") if m["deadline"] is not None]
        assert told == [] and h.store.deadline(TABLE) is None
        assert table.clock.handles() == []  # no timer runs for an untold deadline
        await h.timers.advance(0)
        first = decider(table)
        assert h.store.deadline(TABLE) == (1, 1, 0, first, DAY)
        for conn in (a, b):
            clock = of_type(drain(conn), "clock")[-1]
            assert (clock["seat"], clock["deadline"]) == (first, DAY)
        assert len(table.clock.handles()) == 1

    run(database, scenario, clock=DAY)


def test_a_reload_after_the_deadline_plays_the_move_at_once(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, *_ = await h.dealt_pair()
        await h.timers.advance(0)
        first = decider(table)
        # The server is down past the deadline: loaded again, the move is the bot's at once.
        h.timers.now += 2 * 3600
        table = await h.reload()
        s2 = table.session
        assert s2 is not None and s2.version == 0
        await h.timers.advance(5)
        assert s2.version >= 1 and s2.log[0].seat == first

    run(database, scenario, clock=3600)


def test_a_missed_deadline_forfeits_where_the_table_says_so(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        await h.timers.advance(0)
        late = decider(table)
        await h.timers.advance(3600 + 1)
        # Stored first, shown to everyone, and the seat's bot plays on.
        assert h.store.forfeits(TABLE, 1) == [late]
        seats = table.summary()["seats"]
        assert seats[late]["forfeit"] is True and seats[late]["away"] is True
        assert of_type(drain((a, b)[1 - late]), "table")[-1]["table"]["seats"][late]["forfeit"]
        assert s.log and s.log[0].seat == late
        # The player cannot take the seat back: not by acting, not by `back`, not by coming.
        await h.timers.advance(10)  # the bot's own turns
        conn = (a, b)[late]
        drain(conn)
        await table.act(conn, "draw", s.version, "r")
        assert of_type(drain(conn), "error")[0]["code"] == "forbidden"
        await table.back(conn)
        await h.connect(late)
        assert table.summary()["seats"][late]["forfeit"] is True
        # A reload keeps it.
        table = await h.reload()
        assert table.summary()["seats"][late]["forfeit"] is True

    run(database, scenario, clock=3600, config={"on_timeout": "forfeit"})


def test_a_correspondence_card_table_takes_no_snaps_unless_it_said(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        await play_to_discard(h, table, (a, b))
        drain(b)
        await table.act(b, "snap 1.0", s.version, "s")
        error = of_type(drain(b), "error")[0]
        assert error["code"] == "illegal" and "no snaps" in error["message"]
        assert b.strikes.tokens == b.strikes.burst  # play, not abuse

    run(database, scenario, clock=DAY)


def test_a_snap_window_opens_for_whoever_is_there_and_closes_on_time(
        database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        await play_to_discard(h, table, (a, b))
        # Both were connected at the discard: a snap within the window is judged by the
        # engine (applied, right or wrong).
        v = s.version
        await h.timers.advance(5)
        await table.act(b, "snap 1.0", v, "s1")
        assert s.version == v + 1 and s.log[-1].text == "snap 1.0"
        # Seat 0's next discard, with seat 1 gone: its window is not seat 1's, even once back.
        drain(a)
        await table.disconnect(b)
        opened = False
        while not opened:  # until seat 0 discards (seat 1 comes only for its own moves)
            seat, window = decider(table), s.snap_window()
            conn = a if seat == 0 else await h.connect(1)
            await table.act(conn, a_legal(table, seat), s.version, None)
            if seat == 1:
                await table.disconnect(conn)
            opened = seat == 0 and s.snap_window() not in (None, window)
        back = await h.connect(1)
        drain(back)
        await table.act(back, "snap 1.1", s.version, "s2")
        assert "were at the table" in of_type(drain(back), "error")[0]["message"]
        # Seat 0 was there, but the window closes after its seconds: play goes on.
        await h.timers.advance(11)
        drain(a)
        await table.act(a, "snap 0.0", s.version, "s3")
        assert "closed" in of_type(drain(a), "error")[0]["message"]

    run(database, scenario, clock=DAY, config={"snap_window": 10})
