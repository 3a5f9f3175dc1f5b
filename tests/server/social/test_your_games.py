"""A player's own games and whose move each waits for, and who sits at a table, over REST
against a real server process on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from ..harness import ServerProcess, create_table, recv_until, ws_url
from .helpers import close_all, people, table_of_two

DAY = 86400


async def games(http: httpx.AsyncClient) -> dict[str, Any]:
    r = await http.get("/api/players/me/games")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    data: dict[str, Any] = r.json()
    return data


async def play_until_the_turn_passes(server: ServerProcess, table: str, token: str,
                                     seat: int) -> None:
    """Play the seat's own moves (never a snap) until the game waits for another seat."""
    async with websockets.connect(ws_url(server, table, token)) as ws:
        msg = await recv_until(ws, "state")
        while True:
            view = msg["view"]
            if view.get("actor") != seat or view["phase"] in ("round_over", "over"):
                return
            moves = sorted(a for a in view["legal"] if not a.startswith("snap")
                           and a != "cambio")
            if not moves:
                return
            await ws.send(json.dumps({"type": "act", "action": moves[0],
                                      "version": msg["version"]}))
            msg = await recv_until(ws, "update")


def test_your_games_list_whose_move_it_is_mine_first(server: ServerProcess) -> None:
    async def main() -> None:
        (ann, bo, cy), (a, b, _) = await people(server, "Ann", "Bo", "Cy")
        try:
            waiting = await create_table(ann, {"game": "cards", "players": 3, "name": "Ann"})
            # A correspondence table: a day per move.
            table, ann_token, bo_token = await table_of_two(ann, bo, clock=DAY,
                                                            on_timeout="bot")
            mine, his = await games(ann), await games(bo)
            assert [g["table"]["id"] for g in his["games"]] == [table]
            assert {g["table"]["id"] for g in mine["games"]} == {table, waiting["table"]}
            [ann_game] = [g for g in mine["games"] if g["table"]["id"] == table]
            [bo_game] = his["games"]
            assert (ann_game["seat"], bo_game["seat"]) == (0, 1)
            assert ann_game["link"] == f"/t/{table}"
            turn = ann_game["turn"]
            assert turn in (0, 1) and bo_game["turn"] == turn
            assert [ann_game["your_move"], bo_game["your_move"]] == [turn == 0, turn == 1]
            assert (mine["your_turn"], his["your_turn"]) == (int(turn == 0), int(turn == 1))
            assert ann_game["table"]["correspondence"] and ann_game["table"]["clock"] == DAY
            # The decision's deadline (epoch seconds): a day on, the same in both lists.
            assert ann_game["deadline"] == bo_game["deadline"] > time.time() + DAY - 3600
            # The game in play comes before the table that waits for players.
            assert mine["games"][-1]["table"]["id"] == waiting["table"]
            assert not mine["games"][-1]["your_move"]
            # Public facts only: the summary anyone with the link gets, nothing of a card.
            text = json.dumps(mine)
            assert "hand" not in text and "legal" not in text and "token" not in text
            # The mover plays; the list then says it is the other's move.
            token = ann_token if turn == 0 else bo_token
            await play_until_the_turn_passes(server, table, token, turn)
            mine, his = await games(ann), await games(bo)
            after = 1 - turn
            assert {g["table"]["id"]: g["turn"] for g in mine["games"]}[table] == after
            assert (mine["your_turn"], his["your_turn"]) == (int(after == 0), int(after == 1))
            assert mine["games"][0]["your_move"] == (after == 0)
            # Anyone with the table's id may ask whose decision it waits for.
            r = await cy.get(f"/api/tables/{table}/turn")
            assert r.status_code == 200 and r.json()["turn"] == after
            assert r.json()["table"]["id"] == table
            assert (await cy.get("/api/tables/no-such-table/turn")).status_code == 404
            # Cy holds no seat: nothing listed. A browser with no player: refused.
            assert (await games(cy))["games"] == []
            async with httpx.AsyncClient(base_url=server.base) as stranger:
                r = await stranger.get("/api/players/me/games")
                assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
                # Who sits where (to mute or report a chat line's speaker): anyone with the
                # table's id may read it, as they may watch.
                r = await stranger.get(f"/api/tables/{table}/people")
                assert r.status_code == 200, r.text
                seats = r.json()["seats"]
                assert {k: v["id"] for k, v in seats.items()} == {"0": a["id"], "1": b["id"]}
                assert seats["1"]["name"] == "Bo" and seats["1"]["profile"].startswith("/p/")
                r = await stranger.get("/api/tables/no-such-table/people")
                assert r.status_code == 200 and r.json()["seats"] == {}
        finally:
            await close_all([ann, bo, cy])

    asyncio.run(main())
