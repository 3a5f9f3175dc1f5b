"""The web server seats as many card players as the engine allows: one limit,
``cambio.cards.MAX_PLAYERS``, for the engine, the REST lobby and docs/protocol.md."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import httpx
import websockets

from cambio.cards import MAX_PLAYERS, Rules, RulesError

from .harness import ServerProcess, create_table, post, recv_until, start, ws_url

DOCS = Path(__file__).parents[2] / "docs" / "protocol.md"


def body(players: int, preset: str = "rulebook") -> dict[str, object]:
    return {"game": "cards", "players": players, "name": "Ann",
            "rules": {"preset": preset, "overrides": {}}}


def test_the_engine_and_the_docs_say_the_same_limit() -> None:
    Rules.preset("rulebook").check_players(MAX_PLAYERS)
    try:
        Rules.preset("rulebook").check_players(MAX_PLAYERS + 1)
    except RulesError:
        pass
    else:
        raise AssertionError("the engine took one player past MAX_PLAYERS")
    cards = re.search(r'\{"game": "cards", "players": ([^,]+),', DOCS.read_text())
    assert cards is not None and cards.group(1) == f"2-{MAX_PLAYERS}"


def test_a_table_takes_the_engines_limit_and_not_one_more(server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            most = await create_table(http, body(MAX_PLAYERS))
            summary = (await http.get(f"/api/tables/{most['table']}")).json()
            assert len(summary["seats"]) == summary["players"] == MAX_PLAYERS
            over = await post(http, "/api/tables", json=body(MAX_PLAYERS + 1))
            assert over.status_code == 400
            assert over.json()["error"]["code"] == "bad_request"
            assert str(MAX_PLAYERS) in over.json()["error"]["message"]
            # A preset's own limit still holds: wikipedia seats at most 8.
            wiki = await post(http, "/api/tables", json=body(9, "wikipedia"))
            assert wiki.status_code == 400 and "at most 8" in wiki.json()["error"]["message"]

    asyncio.run(main())


def test_a_twelve_seat_table_deals_and_its_bots_play(server: ServerProcess) -> None:
    """Past the lobby form's 8: the engine's tests go to 12 players, and so does a table."""
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            host = await create_table(http, body(12))
            await start(http, host["table"], host["token"], fill="random")
        async with websockets.connect(ws_url(server, host["table"], host["token"])) as ws:
            state = await recv_until(ws, "state")
            view = state["view"]
            assert view["players"] == 12 and len(view["grids"]) == 12
            # Seat 0 (left of the dealer, seat 11) plays its turn out; then the bots play.
            msg = state
            while True:
                turn = [a for a in msg["view"]["legal"]
                        if not a.startswith("snap") and a != "cambio"]
                if turn:
                    await ws.send(json.dumps({"type": "act", "action": turn[0],
                                              "version": msg["version"]}))
                msg = await recv_until(ws, "update")
                if msg["event"]["seat"] != 0:
                    break
            assert msg["version"] >= 2 and msg["event"]["seat"] in range(1, 12)

    asyncio.run(main())
