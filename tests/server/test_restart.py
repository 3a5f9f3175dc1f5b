"""Durability: a server killed with SIGKILL mid-game resumes every table where it was.

Also: a player who is gone past the away timeout is played by a bot until they return.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from ..support.databases import Database
from .harness import (
    Client,
    ServerProcess,
    create_table,
    join,
    recv_json,
    recv_until,
    start,
    two_seat_table,
    ws_url,
)


async def opening(url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    async with websockets.connect(url) as ws:
        welcome = await recv_until(ws, "welcome")
        state = await recv_until(ws, "state")
        return welcome, state


async def play_some(url: str, count: int) -> dict[str, Any]:
    """Play ``count`` turn actions for the seat (first legal non-snap, non-cambio)."""
    last: dict[str, Any] = {}
    async with websockets.connect(url) as ws:
        await recv_until(ws, "welcome")
        msg = await recv_until(ws, "state")
        played = 0
        while True:
            last = msg
            legal = [a for a in msg["view"]["legal"]
                     if not a.startswith("snap") and a != "cambio"]
            if played >= count or not legal:
                return last
            await ws.send(json.dumps({"type": "act", "action": legal[0],
                                      "version": msg["version"]}))
            msg = await recv_until(ws, "update")
            played += 1


def test_sigkill_mid_game_then_every_table_resumes(database: Database) -> None:
    with ServerProcess(database, bot_speed=20.0, away_after=60.0,
                       round_pause=0.3) as server:
        asyncio.run(_restart_scenario(server))


async def _restart_scenario(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        # A: two people, no bots: nothing moves unless they act.
        a_table, a_token, a1_token = await two_seat_table(http)
        # B: bots playing with the host (a test client), watched by a spectator.
        bots = []
        hosts = {}
        for preset in ("rulebook", "house", "wikipedia"):
            b = await create_table(http, {"game": "cards", "players": 3, "name": "Host",
                                          "rounds": 2,
                                          "rules": {"preset": preset, "overrides": {}}})
            await start(http, b["table"], b["token"], fill="memory")
            bots.append(b["table"])
            hosts[b["table"]] = b["token"]
        # C: still waiting, with a joined player.
        c = await create_table(http, {"game": "cards", "players": 3, "name": "Cat"})
        c1 = await join(http, c["table"], "Dan")
        waiting_before = (await http.get(f"/api/tables/{c['table']}")).json()

    # A: a few actions by each seat; remember the last version and views they were sent.
    urls = {0: ws_url(server, a_table, a_token), 1: ws_url(server, a_table, a1_token)}
    for _ in range(3):
        for seat in (0, 1):
            await play_some(urls[seat], 3)
    acknowledged = {seat: await opening(url) for seat, url in urls.items()}
    version_a = acknowledged[0][1]["version"]
    assert version_a > 0

    # B: watch until the bots are well into the game, then kill the server mid-play.
    watchers = [Client(ws_url(server, t)) for t in bots]
    players = [Client(ws_url(server, t, hosts[t]), seed=i, play=True)
               for i, t in enumerate(bots)]
    await asyncio.gather(*(w.run(until_finished=False, timeout=20, max_messages=25)
                           for w in watchers + players))
    seen = {}
    for table, w in zip(bots, watchers, strict=True):
        updates = w.of_type("update")
        assert updates, f"table {table} did not move"
        seen[table] = updates[-1]
    server.kill()

    server.start()
    # A: the same version, views and log come back to each seat.
    for seat, url in urls.items():
        welcome, state = await opening(url)
        assert welcome["seat"] == seat
        assert state["version"] == version_a
        assert state["view"] == acknowledged[seat][1]["view"]
        assert state["log"] == acknowledged[seat][1]["log"]
    # B: every update sent before the kill was stored: the log starts with it.
    checked = 0
    for table in bots:
        last = seen[table]
        _, state = await opening(ws_url(server, table))
        if (state["game_no"], state["round"]) == (last["game_no"], last["round"]):
            assert state["version"] >= last["version"]
            assert state["log"][last["version"] - 1] == last["event"]
            checked += 1
    assert checked
    # ... and the bots go on to the end.
    finishers = [Client(ws_url(server, t, hosts[t]), seed=9, play=True) for t in bots]
    await asyncio.gather(*(f.run(timeout=90) for f in finishers))
    assert all(f.status == "finished" for f in finishers)
    # C: still waiting, same seats; the joined player's token still works.
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        assert (await http.get(f"/api/tables/{c['table']}")).json()["seats"] == \
            waiting_before["seats"]
    welcome, _ = await _welcome_only(ws_url(server, c["table"], c1["token"]))
    assert welcome["seat"] == 1 and welcome["table"]["status"] == "waiting"


async def _welcome_only(url: str) -> tuple[dict[str, Any], None]:
    async with websockets.connect(url) as ws:
        return await recv_until(ws, "welcome"), None


def test_away_player_is_played_by_a_bot_until_back(database: Database) -> None:
    with ServerProcess(database, bot_speed=20.0, away_after=1.0) as server:
        asyncio.run(_away_scenario(server))


async def _away_scenario(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        table, token, bo_token = await two_seat_table(http, "house")
    url0 = ws_url(server, table, token)
    async with websockets.connect(url0) as ws:
        await recv_until(ws, "state")
        # Seat 1 never connects: after the timeout it is marked away and a bot plays it,
        # while seat 0 (connected) is not played by anyone but its player.
        deadline = time.monotonic() + 10
        away = False
        while time.monotonic() < deadline and not away:
            msg = await recv_until(ws, "table")
            away = msg["table"]["seats"][1]["away"]
        assert away and not msg["table"]["seats"][0]["away"]
    # Seat 0 plays its turns; seat 1's turns are played by the bot.
    def seats_moved(c: Client) -> set[int]:
        return {m["event"]["seat"] for m in c.of_type("update")}

    client = Client(url0, seed=3, play=True)
    await client.run(until_finished=False, timeout=60, until=lambda c: seats_moved(c) == {0, 1})
    assert seats_moved(client) == {0, 1}
    # Seat 1 comes back: no longer away.
    async with websockets.connect(ws_url(server, table, bo_token)) as ws:
        welcome = await recv_until(ws, "welcome")
        assert welcome["table"]["seats"][1] == {**welcome["table"]["seats"][1],
                                                "connected": True, "away": False}


def test_a_correspondence_deadline_survives_kill_9(database: Database) -> None:
    """A correspondence table's deadline is stored with the move that starts it: a restart
    (``kill -9``) keeps it instead of giving the player a fresh day, and a restart past it
    (``--time-offset``: the test's own clock, no waiting) hands that move to the bot."""
    with ServerProcess(database, bot_speed=20.0) as server:
        asyncio.run(_correspondence_scenario(server))


async def _correspondence_scenario(server: ServerProcess) -> None:
    day = 24 * 3600
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                         "clock": day, "on_timeout": "bot"})
        table = host["table"]
        other = await join(http, table, "Bo")
        await start(http, table, host["token"], fill=None)
        tokens = [host["token"], other["token"]]
        summary = (await http.get(f"/api/tables/{table}")).json()
    assert summary["correspondence"] is True and summary["on_timeout"] == "bot"
    seat = summary["deadline_seat"]
    # The seat on the clock draws: acknowledged, so stored with its new decision's deadline.
    async with websockets.connect(ws_url(server, table, tokens[seat])) as ws:
        await recv_until(ws, "state")
        await ws.send(json.dumps({"type": "act", "action": "draw", "version": 0}))
        await recv_until(ws, "update")
        clock = await recv_until(ws, "clock")
    deadline = clock["deadline"]
    assert clock["seat"] == seat and deadline is not None
    server.kill()

    server.start()
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        again = (await http.get(f"/api/tables/{table}")).json()
    assert (again["deadline_seat"], again["deadline"]) == (seat, deadline)
    server.kill()

    # Two days on: the deadline passed while the server was down; loaded, the seat's bot
    # plays that move at once, and only that one (the next decision gets its own day).
    server.args += ["--time-offset", str(2 * day)]
    server.start()
    async with websockets.connect(ws_url(server, table, tokens[1 - seat])) as ws:
        state = await recv_until(ws, "state")
        second = state["log"][1] if state["version"] >= 2 else None
        while second is None:
            msg = await recv_json(ws)
            if msg["type"] == "update" and msg["version"] == 2:
                second = msg["event"]
    assert second["seat"] == seat
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        after = (await http.get(f"/api/tables/{table}")).json()
    assert not after["seats"][seat]["away"]
    assert after["deadline"] is not None and after["deadline"] > deadline + day


def test_a_waiting_correspondence_table_waits_days_not_the_waiting_ttl(
        database: Database) -> None:
    """Friends come to a correspondence table over days: it is not deleted after
    ``--waiting-ttl`` as an ordinary waiting table is, but ``--correspondence-waiting-ttl``
    (7 days) after it was created, by the stored creation time, so restarts (``kill -9``)
    neither reset nor shorten that; ``0`` keeps it for ever."""
    day = 24 * 3600
    server = ServerProcess(database, extra=["--waiting-ttl", "1"])
    base = server.args[:]

    def status(http: httpx.Client, table: str) -> int:
        return http.get(f"/api/tables/{table}").status_code

    with server, httpx.Client(base_url=server.base, timeout=30) as http:
        # Made first, so it has been idle longer than the ordinary table below.
        friends = http.post("/api/tables", json={"game": "cards", "players": 3,
                                                 "name": "Ann", "clock": day}).json()["table"]
        ordinary = http.post("/api/tables", json={"game": "cards", "players": 3,
                                                  "name": "Bo"}).json()["table"]
        deadline = time.monotonic() + 30
        while status(http, ordinary) != 404:
            assert time.monotonic() < deadline, "the ordinary waiting table never expired"
            time.sleep(0.1)
        assert status(http, friends) == 200
        listed = [t["id"] for t in http.get("/api/tables").json()["tables"]]
        assert friends in listed

    def restarted(*extra: str) -> int:
        server.args = [*base, *extra]
        with server, httpx.Client(base_url=server.base, timeout=30) as http:
            code = status(http, friends)
            server.kill()
            return code

    assert restarted("--time-offset", str(6 * day)) == 200
    assert restarted("--time-offset", str(8 * day), "--correspondence-waiting-ttl", "0") == 200
    assert restarted("--time-offset", str(8 * day)) == 404
    assert database.rows("SELECT id FROM tables") == []
