"""The table's own handlers, in process: a real table on a real store (SQLite, and a real
PostgreSQL server: the ``database`` fixture), its time a clock the test moves by hand, its
clients :class:`Conn` outboxes the test reads.

Every message a table takes is here -- a client's ``connect``, ``act``, ``sync``, ``hint``,
``back``, ``chat`` and ``disconnect`` (each client frame through the door too:
``test_messages.py``); the lobby's ``join``, ``rekey``, ``set_bot``, ``free_seat``,
``start``, ``again``, ``expect`` and ``joined_host`` -- with the timers' jobs: bot turns,
the turn clock, the away takeover and return, the pause between rounds, snaps and the
rematch. The subprocess tests (``tests/server/test_*.py``) keep what
needs real processes: sockets, restarts, limits."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cambio.server.games import game_kinds
from cambio.server.session import Session
from cambio.server.settings import Settings
from cambio.server.store import SeatRow, Store, TableRow, open_store
from cambio.server.table import Conn, Table

from ...support.databases import Database
from .manual import ManualTimers

TABLE = "tbl1"


class Harness:
    """One table of ``players`` seats: people hold seats ``humans``, nobody the ``empty``
    ones, bots the others."""

    def __init__(self, database: Database, *, humans: tuple[int, ...] = (0, 1), players: int = 2,
                 empty: tuple[int, ...] = (), bot: str = "random", clock: int | None = None,
                 seed: int = 11, config: dict[str, Any] | None = None,
                 **settings: Any) -> None:
        self.timers = ManualTimers()
        self.store = open_store(database.url)
        self.settings = Settings(database=database.url, **settings)
        kinds = game_kinds(())
        extra = config
        _, config = kinds["cards"].config({"players": players,
                                           "rules": {"preset": "rulebook"}})
        config["clock"] = clock
        config.update(extra or {})
        self.row = TableRow(TABLE, "cards", players, config, seed, "waiting", 0, 0.0)
        self.seat_rows = [SeatRow(i, "human", f"P{i}", None, f"hash{i}") if i in humans
                          else SeatRow(i, "empty", "", None, None) if i in empty
                          else SeatRow(i, "bot", "Bot", bot, None) for i in range(players)]
        self.kinds = kinds
        self.table: Table | None = None

    async def open(self) -> Table:
        await self.store.write([Store.insert_table(self.row)]
                               + [Store.put_seat(TABLE, s) for s in self.seat_rows])
        self.table = Table(self.store, self.settings, self.kinds, self.row, self.seat_rows,
                           later=self.timers.later, clock=self.timers.clock,
                           sleep=self.timers.sleep, wall=self.timers.clock)
        return self.table

    async def reload(self) -> Table:
        """The table loaded back from its store, as a restarted server loads it (the
        clients' connections are gone)."""
        old = self.table
        assert old is not None
        for handle in old._timers():
            handle.cancel()
        row = self.store.table(TABLE)
        assert row is not None
        table = Table(self.store, self.settings, self.kinds, row, self.store.seats(TABLE),
                      later=self.timers.later, clock=self.timers.clock,
                      sleep=self.timers.sleep, wall=self.timers.clock)
        table.install_game(table.build_game())
        table.restore_stored(self.store.deadline(TABLE),
                             self.store.forfeits(TABLE, table.game_no))
        self.table = table
        await table.after_load()
        return table

    async def dealt_pair(self) -> tuple[Table, Conn, Conn, Session]:
        """The table dealt, with a connection for each of its two people."""
        table = await self.open()
        a, b = await self.connect(0), await self.connect(1)
        await table.start(None)
        assert table.session is not None
        return table, a, b, table.session

    async def dealt_one(self) -> tuple[Table, Conn, Session]:
        """The table dealt with one person at seat 0 (the other seats are bots')."""
        table = await self.open()
        a = await self.connect(0)
        await table.start(None)
        assert table.session is not None
        return table, a, table.session

    async def connect(self, seat: int | None) -> Conn:
        assert self.table is not None
        conn = Conn(seat)
        await self.table.connect(conn)
        return conn


def drain(conn: Conn) -> list[dict[str, Any]]:
    """Every message queued for ``conn`` since the last look."""
    out = []
    while len(conn.outbox):
        text = conn.outbox.pop()
        if text is not None:
            out.append(json.loads(text))
    return out


def of_type(messages: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == kind]


def run(database: Database, scenario: Callable[[Harness], Awaitable[None]], **kw: Any
        ) -> None:
    h = Harness(database, **kw)

    async def main() -> None:
        try:
            await scenario(h)
        finally:
            h.store.close()

    asyncio.run(main())


def decider(table: Table) -> int:
    s = table.session
    assert s is not None
    seat = s.decider()
    assert seat is not None
    return seat


def a_legal(table: Table, seat: int) -> str:
    s = table.session
    assert s is not None
    legal = [a for a in s.view(seat)["legal"] if not a.startswith("snap")]
    return "draw" if "draw" in legal else str(legal[0])


def test_connect_start_act_and_what_each_seat_and_spectator_hears(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        a, b, watcher = await h.connect(0), await h.connect(1), await h.connect(None)
        for conn, seat in ((a, 0), (b, 1), (watcher, None)):
            welcome = drain(conn)[0]
            assert welcome["type"] == "welcome" and welcome["seat"] == seat
            assert welcome["table"]["status"] == "waiting" and welcome["protocol"] == 2
        summary = await table.start(None)
        assert summary["status"] == "playing" and summary["round"] == 1
        states = {seat: of_type(drain(c), "state")[0] for seat, c in
                  ((0, a), (1, b), (None, watcher))}
        assert states[0]["view"] != states[1]["view"]  # each seat its own view
        seat = decider(table)
        mover = (a, b)[seat]
        await table.act(mover, a_legal(table, seat), 0, "r1")
        # Stored before anyone heard of it.
        assert h.store.actions(TABLE, 1, 1) == [(seat, "draw")]
        updates = {s: of_type(drain(c), "update") for s, c in ((0, a), (1, b),
                                                               (None, watcher))}
        assert all(len(u) == 1 and u[0]["version"] == 1 for u in updates.values())
        assert "card" in updates[seat][0]["event"]          # the drawer sees the card
        assert "card" not in updates[1 - seat][0]["event"]  # nobody else does
        assert "card" not in updates[None][0]["event"]

    run(database, scenario)


def test_refused_actions_change_nothing_and_say_why(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        a, b, watcher = await h.connect(0), await h.connect(1), await h.connect(None)
        await table.act(a, "draw", 0, 1)                      # not dealt yet
        await table.start(None)
        seat = decider(table)
        mover, other = (a, b) if seat == 0 else (b, a)
        for conn in (a, b, watcher):
            drain(conn)
        await table.act(watcher, "draw", 0, 2)
        await table.act(mover, "draw", 5, 3)                  # stale
        await table.act(other, "draw", 0, 4)                  # not its turn
        await table.act(mover, "fly away", 0, 5)
        codes = [(m["code"], m["ref"]) for c in (watcher, mover, other)
                 for m in of_type(drain(c), "error")]
        assert sorted(codes, key=str) == sorted(
            [("forbidden", 2), ("stale", 3), ("illegal", 4), ("illegal", 5)], key=str)
        assert table.session is not None and table.session.version == 0
        assert h.store.actions(TABLE, 1, 1) == []

    run(database, scenario)


def test_not_playing_before_the_deal(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        a = await h.connect(0)
        drain(a)
        await table.act(a, "draw", 0, "x")
        await table.hint(a, "y")
        assert [(m["code"], m["ref"]) for m in of_type(drain(a), "error")] == [
            ("not_playing", "x"), ("not_playing", "y")]

    run(database, scenario)


def test_sync_sends_what_was_missed_or_the_whole_state(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        for _ in range(3):
            seat = decider(table)
            await table.act((a, b)[seat], a_legal(table, seat), s.version, None)
        drain(a)
        await table.sync(a, 1, 1, 1)
        missed = drain(a)
        assert [m["type"] for m in missed] == ["update", "update"]
        assert [m["version"] for m in missed] == [2, 3]
        await table.sync(a, 3, 1, 1)
        assert drain(a) == []                                   # nothing missed
        await table.sync(a, 0, None, None)                      # no game/round: a state
        assert [m["type"] for m in drain(a)] == ["state"]

    run(database, scenario)


def test_chat_is_stored_then_sent_and_spectators_may_not_write(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        a, b, watcher = await h.connect(0), await h.connect(1), await h.connect(None)
        for conn in (a, b, watcher):
            drain(conn)
        await table.chat(a, "hello  there", None, "c1")
        await table.chat(watcher, "hi", None, "c2")
        assert h.store.chat(TABLE, 10)[0]["text"] == "hello there"
        heard = of_type(drain(b), "chat")
        assert [(m["seat"], m["text"], m["name"]) for m in heard] == [(0, "hello there", "P0")]
        seen = drain(watcher)
        assert of_type(seen, "error")[0]["code"] == "forbidden"
        assert of_type(seen, "chat") == []  # spectators do not read this table's chat

    run(database, scenario)


def test_a_bot_seat_plays_a_whole_round_on_the_clock_alone(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, s = await h.dealt_one()
        for _ in range(2000):
            if s.round_over():
                break
            seat = s.decider()
            if seat == 0:
                legal = [x for x in s.view(0)["legal"] if not x.startswith("snap")]
                pick = "cambio" if "cambio" in legal and s.version > 10 else legal[0]
                await table.act(a, pick, s.version, None)
            else:
                before = s.version
                await h.timers.advance(0.5)
                assert s.version >= before
        assert s.round_over() and table.status == "finished"
        bot_moves = [x for x in s.log if x.seat == 1]
        assert bot_moves  # the bot moved, by its timers alone
        assert h.timers.pending() == []  # and every timer is called off at the end
        assert of_type(drain(a), "table")[-1]["table"]["result"]["winners"] is not None

    run(database, scenario, humans=(0,))


def test_snaps_race_in_arrival_order_and_a_lost_race_does_not_count(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        # Play until a card is on the pile: a snap window is open for both seats.
        while s.snap_window() is None:
            seat = decider(table)
            await table.act((a, b)[seat], a_legal(table, seat), s.version, None)
        # Seat 1 snaps first: applied (right or wrong) at the next version, for everyone.
        drain(a), drain(b)
        v = s.version
        await table.act(b, "snap 1.0", v, "s1")
        for conn in (a, b):
            first = of_type(drain(conn), "update")
            assert [(u["version"], u["event"]["action"]) for u in first] == [(v + 1,
                                                                             "snap 1.0")]
        # Seat 0's snap, sent at the same version, is judged against what it finds now:
        # applied next, or refused as illegal -- a lost race, which is play, not abuse.
        await table.act(a, "snap 0.0", v, "s2")
        answer = drain(a)
        applied = of_type(answer, "update")
        if applied:
            assert applied[0]["version"] == v + 2
        else:
            assert of_type(answer, "error")[0]["code"] == "illegal"
        # A snap at no slot at all is illegal, and does not count either.
        await table.act(a, "snap 0.9", s.version, "s3")
        assert of_type(drain(a), "error")[0]["code"] == "illegal"
        assert a.strikes.tokens == a.strikes.burst and a.closing is None

    run(database, scenario)


def test_the_turn_clock_plays_for_a_slow_seat_then_marks_it_away_until_back(
        database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        clocks = of_type(drain(a), "clock")
        assert clocks[-1]["seconds"] == 5 and clocks[-1]["seat"] == decider(table)
        # Both players sit idle: each decision runs out and the seat's bot plays it.
        for _ in range(40):
            await h.timers.advance(1.0)
            if any(x["away"] for x in table.seats.public()):
                break
        away = [x["seat"] for x in table.seats.public() if x["away"]]
        assert away, "two timeouts in a row mark a seat away"
        assert s.version > 0  # the bots played the timed-out decisions
        seat = away[0]
        conn = (a, b)[seat]
        await table.back(conn)
        assert not table.seats.public()[seat]["away"]

    run(database, scenario, clock=5)


def test_a_player_gone_past_the_away_timeout_is_played_by_a_bot(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, b, s = await h.dealt_pair()
        await table.disconnect(b)
        assert table.seats.public()[1]["connected"] is False
        await h.timers.advance(h.settings.away_after + 0.01)
        assert table.seats.public()[1]["away"] is True
        assert any(m["table"]["seats"][1]["away"] for m in of_type(drain(a), "table"))
        # Now seat 1's decisions are its bot's: play seat 0 and let the timers run.
        for _ in range(200):
            if any(x.seat == 1 for x in s.log) or s.round_over():
                break
            if s.decider() == 0:
                await table.act(a, a_legal(table, 0), s.version, None)
            else:
                await h.timers.advance(2.0)
        assert any(x.seat == 1 for x in s.log)
        # The player comes back: the seat is theirs again.
        b2 = await h.connect(1)
        assert table.seats.public()[1]["away"] is False
        assert drain(b2)[0]["type"] == "welcome"

    run(database, scenario, away_after=3.0)


def test_the_lobby_calls_join_set_bot_free_seat_start_and_rematch(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        host = await h.connect(0)
        with pytest.raises(Exception, match="empty"):
            await table.start(None)                       # seat 2 is empty: no fill
        seat = await table.join("Cy", 2, "hash-cy")
        assert seat == 2 and table.seats.public()[2]["name"] == "Cy"
        summary = await table.free_seat(2)
        assert summary["seats"][2]["kind"] == "empty"
        summary = await table.set_bot(2, "random")
        assert summary["seats"][2]["kind"] == "bot"
        with pytest.raises(Exception, match="unknown bot"):
            await table.set_bot(1, "no-such-bot")
        await table.start("random")                      # seat 1 filled with a bot
        assert [x["kind"] for x in table.seats.public()] == ["human", "bot", "bot"]
        with pytest.raises(Exception, match="already started"):
            await table.join("Dee", None, "hash-dee")
        with pytest.raises(Exception, match="not over"):
            await table.again()
        s = table.session
        assert s is not None
        while not s.round_over():
            if s.decider() == 0:
                legal = [x for x in s.view(0)["legal"] if not x.startswith("snap")]
                await table.act(host, "cambio" if "cambio" in legal else legal[0],
                                s.version, None)
            else:
                await h.timers.advance(1.0)
        winners = s.result()["winners"]
        summary = await table.again()
        assert summary["game_no"] == 2 and summary["status"] == "playing"
        assert summary["history"] == [{"game_no": 1, **s.result()}]
        assert summary["history"][0]["winners"] == winners
        assert h.store.game_seed(TABLE, 2) is not None   # the new deal is stored

    run(database, scenario, humans=(0,), players=3, empty=(1, 2))


async def play_round(h: Harness, table: Table, conn: Conn) -> None:
    """Seat 0 (a person) plays the round to its end against the bots' timers."""
    s = table.session
    assert s is not None
    round_no = s.round_no
    for _ in range(2000):
        if s.round_over() or s.round_no != round_no:
            return
        if s.decider() == 0:
            legal = [x for x in s.view(0)["legal"] if not x.startswith("snap")]
            pick = "cambio" if "cambio" in legal and s.version > 10 else legal[0]
            await table.act(conn, pick, s.version, None)
        else:
            await h.timers.advance(0.5)
    raise AssertionError("the round did not end")


def test_a_match_pauses_between_rounds_then_deals_the_next(database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table, a, s = await h.dealt_one()
        await play_round(h, table, a)
        assert s.round_over() and table.status == "playing"
        pause = table.summary()["next_round"]  # counted from the round's last action
        assert 0 < pause <= h.settings.round_pause / h.settings.bot_speed
        drain(a)
        await h.timers.advance(pause - 0.01)
        assert s.round_no == 1 and of_type(drain(a), "state") == []
        await h.timers.advance(0.02)
        # Stored, then dealt and sent: the second round's state, each seat its own.
        assert s.round_no == 2 and [r for r, _ in h.store.rounds(TABLE, 1)] == [1, 2]
        state = of_type(drain(a), "state")[-1]
        assert (state["round"], state["version"]) == (2, 0)
        assert table.summary()["next_round"] is None

    run(database, scenario, humans=(0,), config={"rounds": 2})


def test_rekey_moves_a_seat_to_a_new_token_and_expect_gives_a_grace(
        database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        await table.rekey(1, "newhash")
        assert table.seat_for_hash("newhash") == 1 and table.seat_for_hash("hash1") is None
        assert h.store.seats(TABLE)[1].token_hash == "newhash"
        # Play now's grace: seat 1 never opens the table, so its bot takes it after the
        # grace -- not a player who left (no `left` hook) -- and it is theirs on arrival.
        left: list[int] = []

        async def gone(_: Table, seat: int) -> None:
            left.append(seat)

        table.left = gone
        a = await h.connect(0)
        await table.start(None)
        await table.expect(2.0)
        await h.timers.advance(2.01)
        assert table.seats.public()[1]["away"] is True and left == []
        await h.connect(1)
        assert table.seats.public()[1]["away"] is False
        drain(a)

    run(database, scenario)


def test_a_waiting_tables_host_gone_past_the_timeout_unlists_it_until_back(
        database: Database) -> None:
    async def scenario(h: Harness) -> None:
        table = await h.open()
        left: list[int] = []

        async def gone(_: Table, seat: int) -> None:
            left.append(seat)

        table.left = gone
        await table.joined_host()  # the host created it and has not opened it yet
        assert table.joinable()
        await h.timers.advance(h.settings.away_after - 0.01)
        assert table.joinable()
        await h.timers.advance(0.02)
        assert table.seats[0].away and not table.joinable()
        table.start_actor()  # the hook is told as a job of its own: let it run

        async def flushed() -> None:
            return None

        await table.call(flushed)
        assert left == [0]
        await table.stop_actor()
        await h.connect(0)
        assert not table.seats[0].away and table.joinable()

    run(database, scenario, humans=(0,), empty=(1,), away_after=3.0)


@pytest.mark.parametrize("compared", [{"rated": True}, {"daily": "2026-12-05"}])
def test_no_hint_where_results_are_compared(database: Database,
                                            compared: dict[str, Any]) -> None:
    """A hint is the hard bot choosing the move: at a rated table or the daily deal it
    would buy rating points or a place on the day's table, so it is refused there before
    any search, in the reader's words, and the summary tells the page to offer none."""
    async def scenario(h: Harness) -> None:
        table, a, b, _ = await h.dealt_pair()
        for conn in (a, b):  # the seat to decide and the other: refused before any search
            drain(conn)
            await table.hint(conn, "h")
            errors = of_type(drain(conn), "error")
            assert [(e["code"], e["ref"], e.get("key")) for e in errors] == [
                ("forbidden", "h", "refusal.hintsCompared")]
        summary = table.summary()
        assert (summary["rated"] or summary["daily"]) and summary["hints_off"]

    run(database, scenario, config=compared)
