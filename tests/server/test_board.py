"""Board tables over real WebSockets: bots and a client play to the end, quick and full setup.

The board game hides nothing, so the check is that every view and event agrees with the
stored record replayed through the engine (position, whose choice it is, legal moves only
for that seat, the same for spectators).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from cambio.board import Board, Rules
from cambio.board.setup import Setup
from cambio.board.state import position_string
from cambio.records.board import replay
from cambio.records.jsonl import parse_record

from .harness import Client, ServerProcess, create_table, start, ws_url


def positions(record_text: str) -> tuple[list[str], list[tuple[int, str]], list[list[str]]]:
    """Per version: the position, the (seat, action) that led there, the chooser's legal."""
    rec = parse_record(record_text)
    replay(rec)  # validates the whole record
    rules = Rules.from_json(rec.header["rules"])
    setup: Setup | None = None
    board: Board | None = None
    if rec.header.get("start") and not any("setup" in ev for ev in rec.events):
        board = Board(rules, rec.header["start"])
    else:
        setup = Setup(rules)
    snaps: list[str] = []
    acts: list[tuple[int, str]] = []
    legal: list[list[str]] = []

    def snap() -> None:
        if board is not None:
            snaps.append(board.position())
            legal.append([board.move_text(m) for m in board.legal_moves()])
        else:
            assert setup is not None
            snaps.append(position_string(tuple(setup.owners), 0, rules.size, 0))
            legal.append(setup.legal_actions())

    for ev in rec.events:
        if "setup" in ev:
            assert setup is not None
            step = ev["setup"]
            if step.split()[0] in ("neutral", "own"):
                if not snaps:
                    snap()
                acts.append((setup.current_player(), step))
                setup.apply(step)
                if setup.is_done():
                    board = setup.board()
                snap()
            else:
                setup.apply(step)
                if setup.is_done():
                    board = setup.board()
        elif "move" in ev:
            assert board is not None
            if not snaps:
                snap()
            acts.append((ev["seat"], ev["move"]))
            board.play(ev["move"])
            snap()
    return snaps, acts, legal


def check_board_messages(messages: list[dict[str, Any]], seat: int | None, record: str) -> int:
    snaps, acts, legal = positions(record)
    checked = 0
    for msg in messages:
        if msg["type"] not in ("state", "update"):
            continue
        v = msg["version"]
        view = msg["view"]
        assert view["position"] == snaps[v]
        mine = view["actor"] == seat and seat is not None
        assert view["legal"] == (legal[v] if mine else [])
        if msg["type"] == "update":
            assert (msg["event"]["seat"], msg["event"]["action"]) == acts[v - 1]
        checked += 1
    return checked


CASES = [(2, "quick", "greedy"), (2, "full", "alphabeta"), (3, "full", "mcts"),
         (3, "quick", "random")]


@pytest.mark.parametrize("case", CASES, ids=[f"{p}p-{s}-{b}" for p, s, b in CASES])
def test_board_tables_to_the_end(server: ServerProcess, case: tuple[int, str, str]) -> None:
    players, setup, bot = case

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            host = await create_table(http, {"game": "board", "players": players,
                                             "setup": setup, "name": "Ann"})
            table = host["table"]
            await start(http, table, host["token"], fill=bot)
            player = Client(ws_url(server, table, host["token"]), seed=players, play=True)
            watcher = Client(ws_url(server, table))
            await asyncio.gather(player.run(timeout=120), watcher.run(timeout=120))
            assert player.status == watcher.status == "finished"
            record = (await http.get(f"/api/tables/{table}/record")).text
            final = parse_record(record)
            assert "end" in final.events[-1]
            assert check_board_messages(player.messages, 0, record) > 3
            assert check_board_messages(watcher.messages, None, record) > 3
            assert not [e for e in player.errors if e["code"] != "stale"], player.errors

    asyncio.run(main())


def test_board_lobby_rules(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        bots = http.get("/api/bots").json()["board"]
        # Weakest first by measured Elo (docs/board-strength.md: mcts:300 677, greedy 763).
        assert [b["name"] for b in bots][:3] == ["random", "mcts", "greedy"]
        assert http.post("/api/tables", json={"game": "board", "players": 4}).status_code == 400
        assert http.post("/api/tables", json={"game": "board", "players": 2,
                                              "setup": "slow"}).status_code == 400
        r = http.post("/api/tables", json={"game": "board", "players": 3, "setup": "full"})
        summary = http.get(f"/api/tables/{r.json()['table']}").json()
        assert summary["setup"] == "full" and summary["players"] == 3
        assert http.put(f"/api/tables/{r.json()['table']}/seats/1/bot", json={"bot": "memory"},
                        headers={"Authorization": f"Bearer {r.json()['token']}"}
                        ).status_code == 400
