"""Players behind one address: anonymous connections from the players'
own address -- a reconnect loop emptying the connection-rate bucket, and the cap of open
anonymous connections held full -- never keep a seat's connection out; a wrong token still
costs what an anonymous connection costs."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import websockets

from ..support.databases import Database
from .harness import ServerProcess, recv_json, two_seat_table, ws_url

ANON_CAP = 8
SEATS = 20


async def first(url: str) -> dict[str, Any]:
    async with websockets.connect(url) as ws:
        return await recv_json(ws, timeout=30)


async def reconnect_loop(url: str, busy: asyncio.Event, stop: asyncio.Event) -> int:
    """Connect, read the first message, drop, again; until told to stop (or 5,000 times)."""
    refused = 0
    for _ in range(5000):
        if stop.is_set():
            break
        msg = await first(url)
        if msg.get("code") == "busy":
            refused += 1
            busy.set()
    return refused


def test_anonymous_floods_from_the_players_address_never_refuse_a_seat(
        database: Database) -> None:
    server = ServerProcess(database, extra=["--ws-connect-rate", "2",
                                            "--max-conns-per-address", str(ANON_CAP)])
    with server:
        async def main() -> None:
            async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
                tables = [await two_seat_table(http) for _ in range(SEATS // 2)]
            seats = [(table, token) for table, t0, t1 in tables for token in (t0, t1)]
            spectate = ws_url(server, tables[0][0])
            held = [await websockets.connect(spectate) for _ in range(ANON_CAP)]
            try:
                for ws in held:  # the anonymous cap is full
                    assert (await recv_json(ws))["type"] == "welcome"
                busy, stop = asyncio.Event(), asyncio.Event()
                loop = asyncio.ensure_future(reconnect_loop(spectate, busy, stop))
                await busy.wait()  # the bucket is empty (or the cap refused it)
                answers = [await first(ws_url(server, table, token))
                           for table, token in seats]
                wrong = await first(ws_url(server, tables[0][0], "not-a-seat-token"))
                stop.set()
                refused = await loop
            finally:
                for ws in held:
                    await ws.close()
            assert [a["type"] for a in answers] == ["welcome"] * SEATS
            assert sorted({a["seat"] for a in answers}) == [0, 1]
            assert refused > 0
            assert wrong["type"] == "error" and wrong["code"] == "busy", wrong

        asyncio.run(main())
