"""A finished game is booked exactly once, whatever instant the server process dies at.

A game's end is two writes: the game-ending action, then the finish (the table's
``finished`` status with every seat's result and the players' new ratings, one
transaction). A crash point (``CAMBIO_CRASH_AT``, :mod:`cambio.server.faults`) kills the
real server process with SIGKILL exactly before the first, between the two, or after the
second; the restarted server must then show the game booked once: one result row per seat,
each person's rating moved once and agreeing with their result row. Played to the end both
by two people (rated: they come from two addresses, through a trusted proxy) and by a
person against a bot, on SQLite and PostgreSQL. A store put back in the state a second
booker would see (the table ``playing`` again though the game is booked) books nothing
more, and two bookers of one game at once (PostgreSQL) book it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
import time
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from cambio.server.store import Store, TableRow, open_store
from cambio.server.store import players_sql as sql
from cambio.server.table.lifecycle import finished

from ...support.databases import Database
from ...support.postgres import PostgresCluster
from ..harness import Client, ServerProcess, ws_url
from .helpers import SLOW, matched, new_player, play_to_end, queue

POINTS = ("round-end-action", "game-over", "booked")
"""Before the game-ending action is stored; between it and the finish; after the finish."""
# Everyone established from the start (no provisional period), so the game between two
# newcomers moves both ratings and the booking of each can be checked.
PROXY = ["--forwarded-allow-ips", "127.0.0.1", "--queue-wait", "30",
         "--leaderboard-games", "0", "--leaderboard-opponents", "0"]
HOUSE = {"game": "cards", "players": 2, "preset": "house"}


def person(server: ServerProcess, address: str) -> httpx.AsyncClient:
    """One browser behind the trusted proxy, coming from ``address``."""
    return httpx.AsyncClient(base_url=server.base, timeout=30,
                             headers={"X-Forwarded-For": address})


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("opponent", ["person", "bot"])
def test_a_crash_at_a_games_end_books_it_once(database: Database, point: str, opponent: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    server = ServerProcess(database, bot_speed=40.0, away_after=60.0, round_pause=0.2,
                           extra=PROXY)
    monkeypatch.setenv("CAMBIO_CRASH_AT", point)
    server.start()
    try:
        seats = asyncio.run(_play_until_the_crash(server, opponent))
        assert server.proc is not None
        assert server.proc.wait(SLOW) == -signal.SIGKILL, "the crash point was not reached"
        monkeypatch.delenv("CAMBIO_CRASH_AT")
        server.start()
        asyncio.run(_finish(server, seats))
        table = seats[0]["table"]
        booked = _booking(database, table)
        _check_booked_once(booked, seats)
        if point == "booked":
            # What a second booker sees: the game over and the table still playing (a
            # cluster process that replayed it before the first booking was stored).
            server.stop()
            database.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (table,))
            server.start()
            assert _booking(database, table) == booked
    finally:
        server.stop()


async def _play_until_the_crash(server: ServerProcess, opponent: str) -> list[dict[str, Any]]:
    """Play a rated Play now game until the server dies at its crash point; each person's
    seat (table, token, player id)."""
    browsers = [person(server, f"10.0.0.{i + 1}") for i in range(2 if opponent == "person"
                                                                  else 1)]
    try:
        ids = [(await new_player(http, f"P{i}"))["id"] for i, http in enumerate(browsers)]
        tickets = [await queue(http, HOUSE) for http in browsers]
        found = await asyncio.gather(*(matched(http, t["ticket"], now=opponent == "bot")
                                       for http, t in zip(browsers, tickets, strict=True)))
    finally:
        for http in browsers:
            await http.aclose()
    assert all(m["rated"] for m in found)
    assert len({m["table"] for m in found}) == 1
    seats = [{"table": m["table"], "token": t["token"], "player": pid, "seat": m["seat"]}
             for m, t, pid in zip(found, tickets, ids, strict=True)]
    clients = [Client(ws_url(server, s["table"], s["token"]), seed=7 + i, play=True)
               for i, s in enumerate(seats)]

    async def play(client: Client) -> None:
        with contextlib.suppress(websockets.ConnectionClosed, OSError):
            await client.run(timeout=SLOW)

    await asyncio.gather(*(play(c) for c in clients))
    assert all(c.status != "finished" for c in clients), "the game ended without the crash"
    return seats


async def _finish(server: ServerProcess, seats: list[dict[str, Any]]) -> None:
    """After the restart: each person plays on if the game is not over (the game-ending
    action was not stored), or is told it is finished."""
    await asyncio.gather(*(play_to_end(server, s["table"], s["token"], seed=20 + i)
                           for i, s in enumerate(seats)))


def _booking(database: Database, table: str) -> dict[str, Any]:
    return {
        "status": database.rows("SELECT status, game_no FROM tables WHERE id = ?", (table,)),
        "rows": database.rows("SELECT game_no, seat, player_id, rated, mu, sigma FROM "
                              "player_games WHERE table_id = ? ORDER BY game_no, seat",
                              (table,)),
        "ratings": database.rows("SELECT player_id, class, mu, sigma, games FROM ratings "
                                 "ORDER BY player_id"),
    }


def _check_booked_once(booked: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    assert booked["status"] == [("finished", 1)]
    rows = booked["rows"]
    assert [(r[0], r[1]) for r in rows] == [(1, 0), (1, 1)]  # one row per seat
    people = {s["player"] for s in seats}
    mine = {r[2]: r for r in rows if r[2] in people}
    assert set(mine) == people and all(r[3] == 1 for r in mine.values())  # rated
    # Each person's rating moved once, to the figures of their result row.
    assert booked["ratings"] == sorted((pid, "cards-2", r[4], r[5], 1)
                                       for pid, r in mine.items())


# ---------------------------------------------------------------------- two bookers at once
def finish_statements(table: str, mu: float) -> list[tuple[str, Any]]:
    """What ``Lifecycle.finish`` writes for game 1 of ``table`` with the booking
    ``players.results.finishing`` makes for one rated person (new rating ``mu``) against
    a bot: their rating first, then the result rows."""
    row = {"table_id": table, "game_no": 1, "game": "cards", "class": "cards-2",
           "rules": "house", "players": "[]", "result": "{}", "rated": 1, "sigma": 8.0,
           "ended": 1.0}
    return finished(table, 1, [
        sql.book_rating(table, 1, "_ann", "cards-2", mu, 8.0, 1),
        sql.insert_player_game({**row, "seat": 0, "player_id": "_ann", "place": 1, "mu": mu}),
        sql.insert_player_game({**row, "seat": 1, "player_id": "bot:memory", "place": 2,
                                "mu": None, "rated": 0})])


def run_statements(conn: psycopg.Connection[Any], statements: list[tuple[str, Any]]) -> None:
    for text, params in statements:
        conn.execute(text.replace("?", "%s"), params)


def test_two_processes_booking_one_game_at_once_book_it_once(postgres: PostgresCluster
                                                             ) -> None:
    """A cluster's old and new owner of a table both finish its game at the same moment
    (PostgreSQL, two connections): the second waits for the first's transaction (the
    status comes first and locks the table's row), then finds the game booked and moves
    no rating; the first booker's figures stand."""
    url = postgres.create_database()
    open_store(url, exclusive=False).close()  # the schema
    with psycopg.connect(url, autocommit=True) as setup:
        run_statements(setup, [Store.insert_table(TableRow("t", "cards", 2, {}, 1, "playing",
                                                           1, 0.0))])
    with psycopg.connect(url) as first, psycopg.connect(url) as second:
        run_statements(first, finish_statements("t", 30.0))  # not committed yet

        def book_again() -> None:
            run_statements(second, finish_statements("t", 20.0))
            second.commit()

        other = threading.Thread(target=book_again)
        other.start()
        with psycopg.connect(url, autocommit=True) as watch:  # the second is waiting
            deadline = time.monotonic() + 60  # a guard against a hang, not a timing
            while not watch.execute("SELECT count(*) FROM pg_locks WHERE NOT granted"
                                    ).fetchone()[0]:  # type: ignore[index]
                assert time.monotonic() < deadline and other.is_alive()
                time.sleep(0.01)
        first.commit()
        other.join(60)
        assert not other.is_alive()
    with psycopg.connect(url, autocommit=True) as conn:
        ratings = conn.execute("SELECT player_id, mu, games FROM ratings").fetchall()
        rows = conn.execute("SELECT seat, mu FROM player_games ORDER BY seat").fetchall()
    assert ratings == [("_ann", 30.0, 1)]
    assert rows == [(0, 30.0), (1, None)]
