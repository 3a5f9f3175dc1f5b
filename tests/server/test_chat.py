"""Table chat: seated players talk, spectators read only where the
table allows it, text stays text, fast talkers are slowed down, and the chat survives a
restart (it is stored with the table)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from ..support.databases import Database
from .harness import ServerProcess, create_table, join, recv_json, start, ws_url

MARKUP = "<b>bold</b> <img src=x onerror=alert(1)> & \u202eevil\u202c\tend"
SHOWN = "<b>bold</b> <img src=x onerror=alert(1)> & evil end"


async def _until(ws: Any, kind: str, limit: int = 60) -> dict[str, Any]:
    for _ in range(limit):
        msg = await recv_json(ws, 20)
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind}")


async def _say(ws: Any, **fields: Any) -> None:
    await ws.send(json.dumps({"type": "chat", **fields}))


async def _seen_types(ws: Any) -> list[str]:
    """The types of the messages already queued for this connection (a ping's pong comes
    after them)."""
    await ws.send(json.dumps({"type": "ping"}))
    kinds: list[str] = []
    while True:
        msg = await recv_json(ws, 20)
        if msg["type"] == "pong":
            return kinds
        kinds.append(msg["type"])


@pytest.mark.parametrize("spectators_read", [False, True], ids=["players-only", "open"])
def test_chat_reaches_who_may_read_it_and_survives_a_restart(database: Database,
                                                             spectators_read: bool) -> None:
    srv = ServerProcess(database, bot_speed=40.0)
    with srv:
        asyncio.run(_scenario(srv, spectators_read))


async def _scenario(srv: ServerProcess, spectators_read: bool) -> None:
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
        host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                         "spectator_chat": spectators_read})
        table = host["table"]
        bo = await join(http, table, "Bo")
        summary = (await http.get(f"/api/tables/{table}")).json()
        assert summary["spectator_chat"] is spectators_read
        await start(http, table, host["token"], fill=None)
    async with websockets.connect(ws_url(srv, table, host["token"])) as ann, \
            websockets.connect(ws_url(srv, table, bo["token"])) as bo_ws, \
            websockets.connect(ws_url(srv, table)) as watcher:
        assert (await _until(ann, "chat_log"))["lines"] == []
        await _until(bo_ws, "chat_log")
        await _until(watcher, "clock")          # the last message of a connection's start
        await _say(ann, text=MARKUP, ref="c1")
        line = await _until(bo_ws, "chat")
        assert (line["seat"], line["name"], line["text"], line["emote"]) == (0, "Ann", SHOWN,
                                                                            None)
        assert (await _until(ann, "chat"))["text"] == SHOWN
        await _say(bo_ws, emote="gg")
        assert (await _until(ann, "chat"))["text"] == "Good game!"
        assert (await _until(bo_ws, "chat"))["emote"] == "gg"     # his own, back
        # The spectator reads it only where the table allows it, and may never write.
        kinds = await _seen_types(watcher)
        assert kinds.count("chat") == (2 if spectators_read else 0)
        await _say(watcher, text="hello")
        assert (await _until(watcher, "error"))["code"] == "forbidden"
        # Bad messages: refused, nothing said.
        for bad in ({"text": "x" * 201}, {"text": " \n "}, {"emote": "rude"}, {"text": 5}):
            await _say(ann, **bad)
            assert (await _until(ann, "error"))["code"] == "bad_message"
        # Talking too fast: the bucket (5, one taken by the emote, refilled by one every
        # 2 s) runs dry; the connection stays open.
        for i in range(7):
            await _say(bo_ws, text=f"spam {i}")
        answers: list[dict[str, Any]] = []
        while len(answers) < 7:       # each gets said (a chat) or refused (an error)
            msg = await recv_json(bo_ws, 20)
            if msg["type"] in ("chat", "error"):
                answers.append(msg)
        said = sum(m["type"] == "chat" for m in answers)
        assert 4 <= said <= 5
        assert {m["code"] for m in answers if m["type"] == "error"} == {"rate_limited"}
    # Stored with the table: a restart (kill -9) keeps it.
    srv.kill()
    srv.start()
    async with websockets.connect(ws_url(srv, table, bo["token"])) as bo_ws, \
            websockets.connect(ws_url(srv, table)) as watcher:
        log = (await _until(bo_ws, "chat_log"))["lines"]
        assert [x["text"] for x in log] == [SHOWN, "Good game!"] + [f"spam {i}"
                                                                     for i in range(said)]
        assert [x["n"] for x in log] == list(range(1, 3 + said))
        await _until(watcher, "clock")
        kinds = await _seen_types(watcher)
        assert ("chat_log" in kinds) is spectators_read


def test_a_bad_spectator_chat_setting_is_refused(server: ServerProcess) -> None:
    r = httpx.post(server.base + "/api/tables", json={"game": "cards", "players": 2,
                                                      "spectator_chat": "yes"})
    assert r.status_code == 400 and "spectator_chat" in r.json()["error"]["message"]
