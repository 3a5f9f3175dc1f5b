"""Seeds stay on the server until the game is over.

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

from cambio.cards.state import mix64
from cambio.seeds import derive_seed

from .harness import Client, ServerProcess, auth, create_table, start, ws_url

M64 = (1 << 64) - 1


def unmix64(z: int) -> int:
    """The inverse of splitmix64's finalizer (``cambio.cards.state.mix64``)."""
    z = (z ^ (z >> 31) ^ (z >> 62)) & M64
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & M64
    z = (z ^ (z >> 27) ^ (z >> 54)) & M64
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & M64
    z = (z ^ (z >> 30) ^ (z >> 60)) & M64
    return (z - 0x9E3779B97F4A7C15) & M64


def game_seed(kind: str, round1_seed: int) -> int:
    """The game's seed, from which its bots' seeds derive: the board record names it; a card
    match's round seeds are mixed from it (``Match.round_seed``), and the mix inverts."""
    if kind != "cards":
        return round1_seed
    return ((unmix64(round1_seed) - 1) * pow(0x9E3779B1, -1, 1 << 64)) & M64


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
            # The game's own seed and the bots' and delays' seeds derived from it, too.
            round1 = _seeds((await http.get(f"/api/tables/{table}/record?round=1")).text).pop()
            game = game_seed(body["game"], round1)
            assert game < 1 << 63        # derive_seed makes 63-bit seeds
            if body["game"] == "cards":
                assert mix64(game * 0x9E3779B1 + 1) == round1
            derived = {game, derive_seed(game, "delays")} \
                | {derive_seed(game, "bot", s) for s in (0, 1)}
            sent = [json.dumps(m) for m in player.messages + watcher.messages] + mid_game
            for seed in seeds | derived:
                assert not [t for t in sent if str(seed) in t]

    asyncio.run(main())
