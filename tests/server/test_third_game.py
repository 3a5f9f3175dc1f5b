"""The test-only third game (Nim, tests/support/nim.py) at a real server table.

The server process is started with ``--game tests.support.nim:NIM``; nothing in
``cambio.server`` knows Nim. Tables are created over REST, played to the end over real
WebSockets (two players and a spectator; a player and a bot, across a ``kill -9``), and their
records read back and replayed by the game's own reader.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from typer.testing import CliRunner

from cambio.records.jsonl import parse_record

from ..support.databases import NewDatabase
from ..support.nim import NIM
from .harness import (
    Client,
    ServerProcess,
    auth,
    create_table,
    join,
    post,
    recv_until,
    start,
    ws_url,
)

GAME = ["--game", "tests.support.nim:NIM"]


@pytest.fixture(scope="module")
def nim_server(databases: NewDatabase) -> Iterator[ServerProcess]:
    proc = ServerProcess(databases("nim"), bot_speed=40.0, extra=GAME).start()
    try:
        yield proc
    finally:
        proc.stop()


def plays(messages: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(m["event"]["seat"], m["event"]["action"]) for m in messages
            if m["type"] == "update"]


def check_updates(messages: list[dict[str, Any]], moves: list[int], players: int) -> int:
    """Each update a client got (it may have connected after the first moves) is the
    recorded move of its version, by the seat whose turn it was; its last view has them all."""
    updates = [m for m in messages if m["type"] == "update"]
    for m in updates:
        v = m["version"]
        assert m["event"]["action"] == f"take {moves[v - 1]}"
        assert m["event"]["seat"] == (v - 1) % players
    views = [m["view"] for m in messages if m["type"] in ("state", "update")]
    assert views[-1]["taken"] == moves and views[-1]["pile"] == 0
    return len(updates)


def check_views(messages: list[dict[str, Any]], seat: int | None) -> int:
    """Every view: the game's own fields, and legal actions only in the decider's view."""
    checked = 0
    for m in messages:
        if m["type"] not in ("state", "update"):
            continue
        view = m["view"]
        assert view["game"] == "nim" and view["seat"] == seat
        mine = seat is not None and view["actor"] == seat
        expected = [f"take {n}" for n in range(1, min(view["most"], view["pile"]) + 1)]
        assert view["legal"] == (expected if mine else [])
        assert view["pile"] + sum(view["taken"]) in range(10, 21)
        checked += 1
    return checked


def replayed(record: str) -> Any:
    return NIM.replay(parse_record(record))


def test_the_lobby_offers_the_served_game(nim_server: ServerProcess) -> None:
    with httpx.Client(base_url=nim_server.base, timeout=30) as http:
        bots = http.get("/api/bots").json()
        assert [b["name"] for b in bots["nim"]] == ["random", "perfect"]
        assert {"cards", "board", "nim"} <= set(bots)


def test_two_players_and_a_spectator_play_nim_to_the_end(nim_server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=nim_server.base, timeout=30) as http:
            host = await create_table(http, {"game": "nim", "players": 2, "most": "3",
                                             "name": "Ann"})
            table = host["table"]
            summary = (await http.get(f"/api/tables/{table}")).json()
            assert summary["game"] == "nim" and summary["most"] == "3"
            other = await join(http, table, "Bo")
            await start(http, table, host["token"], fill=None)
            ann = Client(ws_url(nim_server, table, host["token"]), seed=1, play=True)
            bo = Client(ws_url(nim_server, table, other["token"]), seed=2, play=True)
            watcher = Client(ws_url(nim_server, table))
            await asyncio.gather(ann.run(), bo.run(), watcher.run())
            assert ann.status == bo.status == watcher.status == "finished"
            assert not [e for c in (ann, bo) for e in c.errors if e["code"] != "stale"]
            assert check_views(ann.messages, 0) and check_views(bo.messages, 1)
            assert check_views(watcher.messages, None)
            record = (await http.get(f"/api/tables/{table}/record")).text
            result = replayed(record)
            for client in (ann, bo, watcher):
                assert check_updates(client.messages, result.moves, 2) > 0
            # Ann moves first: she sees every update, the last one with the end.
            assert check_updates(ann.messages, result.moves, 2) == len(result.moves)
            last = ann.of_type("update")[-1]
            assert last["event"]["end"] == {"termination": "last_stone",
                                            "winners": [result.winner]}
            summary = (await http.get(f"/api/tables/{table}")).json()
            assert summary["result"]["winners"] == [result.winner]
            assert summary["wins"][result.winner] == 1

    asyncio.run(main())


def test_a_player_and_a_bot_play_on_across_a_kill(databases: NewDatabase) -> None:
    """The table is rebuilt from the store by the generic session after ``kill -9``; a seat's
    record mid-game is the game's own, the full record only comes once it is over."""
    server = ServerProcess(databases("nim-kill"), bot_speed=40.0, extra=GAME).start()

    async def first_move() -> tuple[str, str]:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            host = await create_table(http, {"game": "nim", "players": 2, "name": "Ann"})
            table, token = host["table"], host["token"]
            await start(http, table, token, fill="perfect")
            ann = Client(ws_url(server, table, token), seed=3, play=True)
            await ann.run(until=lambda c: c.version >= 2)   # Ann took, the bot answered
            r = await http.get(f"/api/tables/{table}/record")
            assert r.status_code == 403
            mine = (await http.get(f"/api/tables/{table}/record", headers=auth(token))).text
            lines = [json.loads(line) for line in mine.splitlines()]
            assert lines[0]["bots"][0] == "Ann" and "perfect" in lines[0]["bots"][1]
            seen = [int(a.split()[1]) for _, a in plays(ann.messages)]
            assert [ev["take"] for ev in lines[1:]][:len(seen)] == seen
            return table, token

    async def to_the_end(table: str, token: str) -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann = Client(ws_url(server, table, token), seed=4, play=True)
            await ann.run()
            assert ann.status == "finished"
            assert ann.of_type("state")[0]["version"] >= 2    # the game came back
            result = replayed((await http.get(f"/api/tables/{table}/record")).text)
            assert (await http.get(f"/api/tables/{table}")).json()["result"]["winners"] == \
                [result.winner]

    try:
        table, token = asyncio.run(first_move())
        server.kill()
        server.start()
        asyncio.run(to_the_end(table, token))
    finally:
        server.stop()


def test_a_server_without_the_game_sets_its_tables_aside(databases: NewDatabase) -> None:
    database = databases("nim-gone")
    with ServerProcess(database, extra=GAME) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        table = http.post("/api/tables", json={"game": "nim", "players": 3}).json()["table"]
    with ServerProcess(database) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        r = http.get(f"/api/tables/{table}")
        assert r.json()["error"]["code"] == "unavailable"
        assert "nim" not in http.get("/api/bots").json()
        r = http.post("/api/tables", json={"game": "nim", "players": 2})
        assert r.status_code == 400 and "'nim'" not in r.json()["error"]["message"]
    assert "its game 'nim' is not served by this process" in database.log.read_text()


def test_bad_input_gets_typed_errors_and_changes_nothing(nim_server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=nim_server.base, timeout=30) as http:
            bodies: list[tuple[dict[str, Any], str]] = [
                ({"players": 1}, "from 2 to 4"), ({"players": 5}, "from 2 to 4"),
                ({"players": 2, "most": "7"}, '"most" must be "3" or "2"'),
                ({"players": 2, "most": 3}, '"most" must be'),
                ({"game": 7}, "'game' must be one of ['board', 'cards', 'nim']")]
            for body, words in bodies:
                r = await post(http, "/api/tables", json={"game": "nim", **body})
                assert r.status_code == 400, body
                assert r.json()["error"]["code"] == "bad_request"
                assert words in r.json()["error"]["message"]
            host = await create_table(http, {"game": "nim", "players": 2, "most": "2"})
            table, token = host["table"], host["token"]
            r = await http.put(f"/api/tables/{table}/seats/1/bot", json={"bot": "memory"},
                               headers=auth(token))
            assert r.status_code == 400 and "perfect" in r.json()["error"]["message"]
            other = await join(http, table, "Bo")
            await start(http, table, token, fill=None)
        async with websockets.connect(ws_url(nim_server, table, token)) as ann, \
                websockets.connect(ws_url(nim_server, table, other["token"])) as bo:
            state = await recv_until(ann, "state")
            await recv_until(bo, "state")
            assert state["version"] == 0 and state["view"]["most"] == 2
            for ws, action, version, code, words in [
                    (ann, "take 3", 0, "illegal", "say 'take N' with N from 1 to 2"),
                    (ann, "take", 0, "illegal", "say 'take N'"),
                    (bo, "take 1", 0, "illegal", "it is seat 0's turn"),
                    (ann, "take 1", 5, "stale", "the current version is 0")]:
                await ws.send(json.dumps({"type": "act", "action": action,
                                          "version": version, "ref": 1}))
                error = await recv_until(ws, "error")
                assert (error["code"], error["ref"]) == (code, 1)
                assert words in error["message"]
            await ann.send(json.dumps({"type": "act", "action": "take 2", "version": 0}))
            update = await recv_until(bo, "update")
            assert update["version"] == 1 and update["event"]["action"] == "take 2"
            assert update["view"]["taken"] == [2] and update["view"]["actor"] == 1

    asyncio.run(main())


def test_serve_refuses_a_game_it_cannot_serve() -> None:
    from cambio.cli.main import app

    runner = CliRunner()
    for target, words in [("nim", "MODULE:ATTRIBUTE"),
                          ("tests.support.nowhere:NIM", "cannot load it"),
                          ("tests.support.nim:NimRules", "not a turn-based game"),
                          ("cambio.games.board:GAME", "is taken")]:
        r = runner.invoke(app, ["serve", "--game", target, "--port", "1"],
                          env={"COLUMNS": "400"})
        assert r.exit_code == 2, (target, r.output)
        assert words in r.output, (target, r.output)
