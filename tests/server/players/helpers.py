"""What the players' server tests share: a browser-like HTTP client (it keeps its cookie),
Play now to the end, and raw reads of every stored text."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from typing import Any

import httpx
import psycopg

from ...support.databases import Database
from ..harness import Client, ServerProcess, ws_url

SLOW = 120.0


def browser(server: ServerProcess, address: str | None = None) -> httpx.AsyncClient:
    """One browser: its own cookie jar, same-origin calls; from the loopback ``address``
    (``127.0.0.x``: another client address as the server sees it) if given."""
    transport = httpx.AsyncHTTPTransport(local_address=address) if address else None
    return httpx.AsyncClient(base_url=server.base, timeout=30, transport=transport)


async def new_player(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    r = await http.post("/api/me", json={"name": name})
    assert r.status_code in (200, 201), r.text
    player: dict[str, Any] = r.json()["player"]
    return player


async def queue(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    r = await http.post("/api/queue", json=body)
    assert r.status_code == 201, r.text
    joined: dict[str, Any] = r.json()
    return joined


async def matched(http: httpx.AsyncClient, ticket: str, now: bool = False) -> dict[str, Any]:
    """Poll the ticket (as the page does) until it is matched."""
    if now:
        r = await http.post("/api/queue/now", json={"ticket": ticket})
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + SLOW
    while time.monotonic() < deadline:
        r = await http.get("/api/queue", params={"ticket": ticket})
        assert r.status_code == 200, r.text
        state: dict[str, Any] = r.json()
        if state["state"] == "matched":
            return state
        await asyncio.sleep(0.2)
    raise AssertionError("never matched")


async def play_to_end(server: ServerProcess, table: str, token: str, seed: int = 1) -> Client:
    client = Client(ws_url(server, table, token), seed=seed, play=True)
    await client.run(timeout=SLOW)
    assert client.status == "finished", client.errors[-3:]
    return client


async def play_now_game(server: ServerProcess, http: httpx.AsyncClient,
                        body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play now against bots, played to the end: the match."""
    joined = await queue(http, {"game": "cards", "players": 2, "preset": "house",
                                **(body or {})})
    match = await matched(http, joined["ticket"], now=True)
    await play_to_end(server, match["table"], joined["token"])
    return {**match, "token": joined["token"]}


def stored_text(database: Database) -> str:
    """Every value of every table of the database, as one text (to look for secrets)."""
    out: list[str] = []
    if database.kind == "sqlite":
        with sqlite3.connect(database.url) as db:
            names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = "
                                              "'table'")]
            for name in names:
                out += [repr(row) for row in db.execute(f"SELECT * FROM {name}")]
        return "\n".join(out)
    with psycopg.connect(database.url, autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE "
                                            "schemaname = 'public'")]
        for name in names:
            out += [repr(row) for row in conn.execute(f"SELECT * FROM {name}")]
    return "\n".join(out)
