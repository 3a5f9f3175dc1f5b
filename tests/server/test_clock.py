"""The turn clock: a connected but idle player no longer stalls a table.

The bookkeeping (:class:`Decisions`) is tested on a hand-driven time source; the whole thing
on a real server process, driven by the messages it sends (never by timing them).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from cambio.server.clock import Decision, Decisions

from ..support.databases import Database
from .harness import ServerProcess, create_table, join, recv_json, start, ws_url


class FakeTime:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_a_decision_gets_its_seconds_and_another_seats_snap_does_not_restart_it() -> None:
    now = FakeTime()
    d = Decisions(20, strikes=2, now=now)
    assert d.follow(0, 1, 1, version=0, last_seat=None)
    assert d.current == Decision(0, 1, 1, 0) and d.left() == 20
    now.t += 5
    # Seat 1 snaps during seat 0's decision: the same decision, the same deadline.
    assert not d.follow(0, 1, 1, version=1, last_seat=1)
    assert d.left() == 15
    # Seat 0 draws and must now discard or swap: a new decision, a fresh clock.
    assert d.follow(0, 1, 1, version=2, last_seat=0)
    assert d.left() == 20
    # Following again at the same version changes nothing.
    assert not d.follow(0, 1, 1, version=2, last_seat=0)
    # The next seat's turn, then a new round: new decisions.
    assert d.follow(1, 1, 1, version=3, last_seat=0)
    assert d.follow(1, 1, 2, version=0, last_seat=None)
    # Nobody on the clock (a bot decides): stopped.
    assert d.follow(None, 1, 2, version=1, last_seat=1)
    assert d.left() is None and d.current is None


def test_timeouts_in_a_row_mark_away_and_acting_forgives() -> None:
    now = FakeTime()
    d = Decisions(10, strikes=2, now=now)
    d.follow(0, 1, 1, 0, None)
    first = d.current
    assert first is not None
    assert not d.timed_out(first)
    assert not d.timed_out(first)          # a stale timer (already counted) counts nothing
    d.follow(0, 1, 1, 1, 0)
    second = d.current
    assert second is not None
    d.acted(0)                             # the player moved themselves in between
    assert not d.timed_out(second)
    d.follow(0, 1, 1, 2, 0)
    third = d.current
    assert third is not None
    assert d.timed_out(third)              # two in a row: away


def test_no_clock_never_runs() -> None:
    d = Decisions(None, strikes=2, now=FakeTime())
    assert not d.follow(0, 1, 1, 0, None)
    assert d.left() is None
    assert d.message(1, 1, 0)["seat"] is None


@pytest.mark.parametrize("clock", [-1, 259201, 1.5, "30", True])
def test_a_bad_clock_is_refused(server: ServerProcess, clock: Any) -> None:
    r = httpx.post(server.base + "/api/tables", json={"game": "cards", "players": 2,
                                                      "clock": clock})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert "clock" in r.json()["error"]["message"]


@pytest.mark.parametrize("body", [
    {"clock": 3600, "on_timeout": "resign"},
    {"clock": None, "on_timeout": "forfeit"},
    {"clock": 120, "snap_window": 10},
    {"clock": 86400, "snap_window": 61},
    {"clock": 86400, "snap_window": True},
])
def test_bad_correspondence_settings_are_refused(server: ServerProcess,
                                                 body: dict[str, Any]) -> None:
    before = httpx.get(server.base + "/api/tables").json()["tables"]
    r = httpx.post(server.base + "/api/tables", json={"game": "cards", "players": 2, **body})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert httpx.get(server.base + "/api/tables").json()["tables"] == before


def test_a_clock_of_an_hour_or_more_makes_a_correspondence_table(server: ServerProcess
                                                                 ) -> None:
    for body, shown in (({"clock": 3599}, (False, "bot", None)),
                        ({"clock": 3600}, (True, "bot", None)),
                        ({"clock": 259200, "on_timeout": "forfeit", "snap_window": 15},
                         (True, "forfeit", 15))):
        r = httpx.post(server.base + "/api/tables", json={"game": "cards", "players": 2,
                                                          **body})
        summary = httpx.get(f"{server.base}/api/tables/{r.json()['table']}").json()
        assert (summary["correspondence"], summary["on_timeout"],
                summary["snap_window"]) == shown
        assert summary["clock"] == body["clock"] and summary["deadline"] is None
        listed = {t["id"]: t for t in httpx.get(server.base + "/api/tables").json()["tables"]}
        assert listed[r.json()["table"]]["correspondence"] == shown[0]


def test_the_clock_is_in_the_summary(server: ServerProcess) -> None:
    for clock, shown in ((30, 30), (0, None), (None, None)):
        r = httpx.post(server.base + "/api/tables", json={"game": "board", "players": 2,
                                                          "clock": clock})
        table = r.json()["table"]
        assert httpx.get(f"{server.base}/api/tables/{table}").json()["clock"] == shown
    r = httpx.post(server.base + "/api/tables", json={"game": "cards", "players": 2})
    assert httpx.get(f"{server.base}/api/tables/{r.json()['table']}").json()["clock"] is None


def test_idle_player_times_out_bot_plays_then_away_then_back(database: Database) -> None:
    with ServerProcess(database, bot_speed=40.0) as srv:
        asyncio.run(_idle_scenario(srv))


async def _next(ws: Any, pred: Any, what: str, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        msg = await recv_json(ws, 30)
        if pred(msg):
            return msg
    raise AssertionError(f"no {what} in {limit} messages")


async def _idle_scenario(srv: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                         "clock": 1, "rounds": 3})
        table = host["table"]
        bo = await join(http, table, "Bo")
        await start(http, table, host["token"], fill=None)
    async with websockets.connect(ws_url(srv, table, host["token"])) as ann, \
            websockets.connect(ws_url(srv, table, bo["token"])) as bo_ws, \
            websockets.connect(ws_url(srv, table)) as watcher:
        # Bo sits there, connected, and never moves: Ann plays whatever she must.
        async def ann_plays() -> None:
            while True:
                msg = await recv_json(ann, 60)
                view = msg.get("view")
                if msg["type"] in ("state", "update") and view and view["actor"] == 0 \
                        and view["phase"] != "round_over":
                    turn = [a for a in view["legal"] if not a.startswith("snap")
                            and a != "cambio"]
                    if turn:
                        await ann.send(json.dumps({"type": "act", "action": turn[0],
                                                   "version": msg["version"]}))

        player = asyncio.create_task(ann_plays())
        try:
            # Everyone is told when Bo's clock starts, and how long he has.
            clock = await _next(watcher, lambda m: m["type"] == "clock" and m["seat"] == 1,
                                "clock for Bo")
            assert clock["seconds"] == 1 and 0 < clock["left"] <= 1
            # It runs out: his bot plays the decision for him (an update of seat 1) ...
            moved = await _next(bo_ws, lambda m: m["type"] == "update"
                                and m["event"]["seat"] == 1, "Bo's bot move")
            assert moved["version"] >= clock["version"] + 1
            # ... and after two timeouts in a row he is marked away, though connected.
            away = await _next(bo_ws, lambda m: m["type"] == "table"
                               and m["table"]["seats"][1]["away"], "Bo marked away")
            assert away["table"]["seats"][1]["connected"]
            # Marked away, his bot plays on at bot speed: no clock for him any more.
            await _next(bo_ws, lambda m: m["type"] == "update" and m["event"]["seat"] == 1,
                        "Bo's bot playing on")
            # He says he is back: the seat is his again.
            await bo_ws.send(json.dumps({"type": "back"}))
            back = await _next(bo_ws, lambda m: m["type"] == "table"
                               and not m["table"]["seats"][1]["away"], "Bo back")
            assert back["table"]["seats"][1]["connected"]
        finally:
            player.cancel()


def test_no_clock_message_names_a_seat_at_a_table_without_clock(database: Database
                                                                  ) -> None:
    with ServerProcess(database, bot_speed=40.0) as srv:
        asyncio.run(_no_clock(srv))


async def _no_clock(srv: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann"})
        await start(http, host["table"], host["token"], fill="random")
    async with websockets.connect(ws_url(srv, host["table"])) as watcher:
        kinds = [(await recv_json(watcher, 30)) for _ in range(3)]
    assert [m["type"] for m in kinds] == ["welcome", "state", "clock"]
    assert kinds[2]["seat"] is None and kinds[2]["seconds"] is None
