"""Assist-mode hints over the WebSocket: the hard bot's move from the asking seat's view."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from .harness import ServerProcess, recv_until, two_seat_table, ws_url


def test_a_seat_gets_a_legal_hint_and_a_spectator_none(server: ServerProcess) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base) as http:
            table, token0, _ = await two_seat_table(http)
            async with websockets.connect(ws_url(server, table, token0)) as ws, \
                    websockets.connect(ws_url(server, table)) as watcher:
                state = await recv_until(ws, "state")
                assert state["view"]["actor"] == 0  # seat 0 plays first
                await ws.send(json.dumps({"type": "hint", "ref": "h1"}))
                hint = await recv_until(ws, "hint", timeout=30)
                assert hint["ref"] == "h1" and hint["version"] == state["version"]
                assert hint["action"] in state["view"]["legal"]
                assert hint["text"].startswith("hint: ")
                assert 0 <= hint["win_share"] <= 1
                # The same question at the same version gets the same answer.
                await ws.send(json.dumps({"type": "hint", "ref": "h2"}))
                again = await recv_until(ws, "hint", timeout=30)
                assert again["action"] == hint["action"] and again["ref"] == "h2"
                await watcher.send(json.dumps({"type": "hint", "ref": "w"}))
                refused = await recv_until(watcher, "error")
                assert refused["code"] == "forbidden" and refused["ref"] == "w"

    asyncio.run(scenario())


def test_no_hint_when_it_is_not_your_decision(server: ServerProcess) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base) as http:
            table, _, token1 = await two_seat_table(http)
            async with websockets.connect(ws_url(server, table, token1)) as ws:
                await recv_until(ws, "state")
                await ws.send(json.dumps({"type": "hint", "ref": 3}))
                refused = await recv_until(ws, "error", timeout=30)
                assert refused["code"] == "not_playing" and refused["ref"] == 3

    asyncio.run(scenario())
