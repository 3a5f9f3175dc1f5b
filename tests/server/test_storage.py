"""Damaged storage: clear messages, damaged tables set aside while the
rest are served, one single-process server per database, and a failing write halts its
table visibly instead of looping.

Each test damages the real database of a real server process (an SQLite file, or a
database of the tests' PostgreSQL cluster), from outside, the way a disk, an operator or a
second process would.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from ..support.databases import Database
from .harness import ServerProcess, auth, create_table, recv_json, recv_until, start, ws_url


def bot_table(base: str, token_out: list[str] | None = None, game: str = "cards") -> str:
    """A started table (a card match, or a dice game): the host plus a random bot."""
    body = {"game": "cards", "players": 2, "rounds": 20} if game == "cards" else \
        {"game": game, "players": 2}

    async def main() -> str:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            host = await create_table(http, body)
            await start(http, host["table"], host["token"], fill="random")
            if token_out is not None:
                token_out.append(host["token"])
            return str(host["table"])

    return asyncio.run(main())


def wait_for(check: Any, what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def refused_start(db: Database) -> subprocess.CompletedProcess[str]:
    proc = ServerProcess(db)
    return subprocess.run(proc.args, capture_output=True, text=True, timeout=60)


def test_an_unusable_database_gets_a_message_not_a_traceback(database: Database) -> None:
    if database.kind == "sqlite":
        Path(database.url).write_bytes(b"this is not a database, it is a shopping list\n" * 200)
    else:  # a database the PostgreSQL server does not have
        database = replace(database, url=database.url + "_missing")
    done = refused_start(database)
    assert done.returncode == 2
    assert "cannot be used as the database" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_second_server_on_the_same_database_is_refused(database: Database) -> None:
    with ServerProcess(database) as first:
        table = bot_table(first.base)
        done = refused_start(database)
        assert done.returncode == 2
        assert "another cambio server is using" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        assert httpx.get(f"{first.base}/api/tables/{table}").status_code == 200


def test_damaged_rows_set_their_table_aside_and_the_rest_are_served(database: Database
                                                                    ) -> None:
    server = ServerProcess(database, bot_speed=100.0, away_after=1.0, round_pause=0.1)
    with server:
        tables = {name: bot_table(server.base) for name in ("row", "seat", "round", "fine")}
        tables["players"] = bot_table(server.base, game="board")

        def moved() -> bool:
            return all(httpx.get(f"{server.base}/api/tables/{t}").json()["status"] != "waiting"
                       for t in tables.values())

        wait_for(moved, "every table to be dealt")
    database.execute("UPDATE tables SET config = '{' WHERE id = ?", (tables["row"],))
    database.execute("UPDATE seats SET kind = 'ghost' WHERE table_id = ? AND seat = 1",
                     (tables["seat"],))
    database.execute("UPDATE rounds SET header = 'nope' WHERE table_id = ?", (tables["round"],))
    # A sane number for a store, but more players than the dice game seats.
    database.execute("UPDATE tables SET players = 4 WHERE id = ?", (tables["players"],))
    with server:  # the same database again: the server starts and serves the fine table
        for name in ("row", "seat", "round", "players"):
            r = httpx.get(f"{server.base}/api/tables/{tables[name]}")
            assert r.status_code == 503, (name, r.text)
            assert r.json()["error"]["code"] == "unavailable"
        assert httpx.get(f"{server.base}/api/tables/{tables['fine']}").status_code == 200

        async def socket() -> dict[str, Any]:
            async with websockets.connect(ws_url(server, tables["seat"])) as ws:
                msg = await recv_json(ws)
                with pytest.raises(ConnectionClosed) as closed:
                    await recv_json(ws)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
                return msg

        assert asyncio.run(socket())["code"] == "unavailable"
    log = server.log.read_text()
    assert log.count("is set aside") >= 4
    assert "its 4 players are not 2 to 3, as its game 'board' seats" in log
    assert "Traceback" not in log


def test_a_failing_write_between_rounds_halts_the_table_too(database: Database) -> None:
    """Not only an action's write: the next round's (a job of the table's own, no client
    waiting on it) halts the table as visibly when it fails, on either store. (On
    PostgreSQL it used to be logged as a failed job, and the table waited between rounds
    for ever.)"""
    with ServerProcess(database, bot_speed=40.0, away_after=1.0, round_pause=0.1) as server:
        table = bot_table(server.base)
        database.refuse_inserts("rounds", "no room")  # round 1 is stored already

        async def watch() -> dict[str, Any]:
            async with websockets.connect(ws_url(server, table)) as ws:
                while True:
                    msg = await recv_json(ws, timeout=60)
                    if msg["type"] == "table" and msg["table"]["halted"]:
                        return dict(msg["table"])

        summary = asyncio.run(watch())
        assert "storage failed" in summary["halted"] and summary["round"] == 1
    log = server.log.read_text()
    assert f"table {table} is halted" in log and "a job failed" not in log


def test_a_failing_write_halts_the_table_visibly_once(database: Database) -> None:
    with ServerProcess(database, bot_speed=20.0, away_after=1.0, round_pause=0.1) as server:
        tokens: list[str] = []
        table = bot_table(server.base, tokens)

        async def watch() -> tuple[int, dict[str, Any]]:
            async with websockets.connect(ws_url(server, table)) as ws:
                state = await recv_until(ws, "state")
                # A write that fails from now on (a full disk, a revoked file would too).
                database.refuse_inserts("actions", "no room")
                while True:
                    msg = await recv_json(ws, timeout=30)
                    if msg["type"] == "table" and msg["table"]["halted"]:
                        return state["version"], msg["table"]

        _, summary = asyncio.run(watch())
        assert "storage failed" in summary["halted"]
        time.sleep(1.5)  # bots would have moved (and failed) many times by now

        async def act() -> dict[str, Any]:
            async with websockets.connect(ws_url(server, table, tokens[0])) as ws:
                welcome = await recv_until(ws, "welcome")
                assert welcome["table"]["halted"]
                await ws.send('{"type": "act", "action": "draw", "version": 0}')
                return await recv_until(ws, "error")

        assert asyncio.run(act())["code"] == "server_error"
        r = httpx.get(f"{server.base}/api/tables/{table}", headers=auth(tokens[0]))
        assert r.json()["halted"]
    log = server.log.read_text()
    assert log.count(f"table {table} is halted") == 1
