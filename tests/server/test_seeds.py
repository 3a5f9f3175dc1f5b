"""Seeds stay on the server until the game is over (issue 11, bug 6).

Every bot's seed derives from the game's seed, and so does every deck: a player who knew it
mid-game could predict the bots' moves (someone predicted five MCTS moves of five from the
board record) and the cards. These tests play whole games while collecting everything a
player and a spectator are sent, and every record the player may fetch mid-game; once the
game is over, the full record names the seeds, and none of them appeared before.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from .harness import Client, ServerProcess, auth, create_table, start, ws_url


async def _collect_records(http: httpx.AsyncClient, table: str, token: str,
                           out: list[str], done: asyncio.Event) -> None:
    """Fetch the seat's records (every round so far) until the game is over."""
    while not done.is_set():
        summary = (await http.get(f"/api/tables/{table}")).json()
        if summary["status"] == "finished":
            return
        fetched = [await http.get(f"/api/tables/{table}/record?round={k}",
                                  headers=auth(token))
                   for k in range(1, max(1, summary["round"]) + 1)]
        # Kept only if the game was still on after they were fetched (once it is over, the
        # full record is everyone's).
        if (await http.get(f"/api/tables/{table}")).json()["status"] == "playing":
            out += [r.text for r in fetched if r.status_code == 200]
        # Without a seat token, nothing before the end.
        assert (await http.get(f"/api/tables/{table}/record")).status_code in (403, 200)
        await asyncio.sleep(0.05)


def _seeds(record: str) -> set[int]:
    header = json.loads(record.splitlines()[0])
    return {header["seed"]} if "seed" in header else set()


CASES: list[tuple[str, dict[str, Any], str]] = [
    ("board", {"game": "board", "players": 2, "setup": "quick"}, "mcts"),
    ("board-full", {"game": "board", "players": 2, "setup": "full"}, "greedy"),
    ("cards", {"game": "cards", "players": 2, "rounds": 2,
               "rules": {"preset": "house", "overrides": {}}}, "memory"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_no_seed_reaches_a_player_before_the_game_is_over(
        server: ServerProcess, case: tuple[str, dict[str, Any], str]) -> None:
    _, body, bot = case

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            host = await create_table(http, {**body, "name": "Ann"})
            table, token = host["table"], host["token"]
            await start(http, table, token, fill=bot)
            player = Client(ws_url(server, table, token), seed=5, play=True)
            watcher = Client(ws_url(server, table))
            mid_game: list[str] = []
            done = asyncio.Event()
            fetcher = asyncio.create_task(
                _collect_records(http, table, token, mid_game, done))
            await asyncio.gather(player.run(timeout=120), watcher.run(timeout=120))
            done.set()
            await fetcher
            assert player.status == "finished"
            assert mid_game, "no record was fetched during the game"
            # A player's records during the game name no seed ...
            assert not [r for r in mid_game if _seeds(r)]
            # ... the full records, once it is over, do; none was ever sent before.
            rounds = int((await http.get(f"/api/tables/{table}/record")).headers[
                "X-Cambio-Rounds"])
            seeds: set[int] = set()
            for k in range(1, rounds + 1):
                seeds |= _seeds((await http.get(f"/api/tables/{table}/record?round={k}")).text)
            assert seeds
            sent = [json.dumps(m) for m in player.messages + watcher.messages] + mid_game
            for seed in seeds:
                assert not [t for t in sent if str(seed) in t]

    asyncio.run(main())
