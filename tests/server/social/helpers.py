"""What the social server tests share: browsers with a player each, a two-player table
of two browsers, reading a WebSocket's chat, and ``cambio admin``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from typer.testing import CliRunner

from cambio.server.admin import admin_app

from ...support.databases import Database
from ..harness import ServerProcess, create_table, join, recv_json
from ..players.helpers import browser, new_player

STRONG = "correct horse battery staple 1987"
"""A password the server's strength check takes."""

runner = CliRunner()


def admin(database: Database, *args: str, ok: bool = True) -> str:
    """``cambio admin ARGS --db DATABASE`` in this process (typer's runner); its output."""
    result = runner.invoke(admin_app, [*args, "--db", database.url])
    assert (result.exit_code == 0) is ok, result.output
    return result.output


async def people(server: ServerProcess, *names: str
                 ) -> tuple[list[httpx.AsyncClient], list[dict[str, Any]]]:
    """A browser (own cookie jar) and a new player for each name."""
    https = [browser(server) for _ in names]
    made = [await new_player(h, n) for h, n in zip(https, names, strict=True)]
    return https, made


async def close_all(https: list[httpx.AsyncClient]) -> None:
    for h in https:
        await h.aclose()


async def table_of_two(host: httpx.AsyncClient, guest: httpx.AsyncClient,
                       **body: Any) -> tuple[str, str, str]:
    """A card table the two browsers' players sit at (their player ids on the seats),
    started: ``(table, host token, guest token)``."""
    made = await create_table(host, {"game": "cards", "players": 2, "name": "Host", **body})
    joined = await join(guest, made["table"], "Guest")
    r = await host.post(f"/api/tables/{made['table']}/start", json={},
                        headers={"Authorization": f"Bearer {made['token']}"})
    assert r.status_code == 200, r.text
    return made["table"], made["token"], joined["token"]


async def say(ws: Any, **fields: Any) -> None:
    await ws.send(json.dumps({"type": "chat", **fields}))


async def queued(ws: Any) -> list[dict[str, Any]]:
    """The messages already sent to this connection (a ping's pong comes after them)."""
    await ws.send(json.dumps({"type": "ping"}))
    out: list[dict[str, Any]] = []
    while True:
        msg = await recv_json(ws, 20)
        if msg["type"] == "pong":
            return out
        out.append(msg)


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in messages if m["type"] == "chat"]


async def gather(*coros: Any) -> list[Any]:
    return list(await asyncio.gather(*coros))
