"""The protocol and leak tests of ``tests/server/test_play.py`` on two cluster processes
(Redis + PostgreSQL): every table is created through one process and played through the
other, so every WebSocket -- players and spectators -- is relayed to the table's owner,
and every message each client received is still checked against a replay of the stored
record (:mod:`tests.server.leaks`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cambio.records.jsonl import parse_record

from ..server.harness import Client, ServerProcess, create_table, start, ws_url
from ..server.test_play import CASES, play_table
from ..server.test_third_game import check_updates
from ..support.databases import Database
from ..support.nim import NIM
from ..support.postgres import PostgresCluster
from .harness import Node, owner_pid
from .redis_server import RedisServer


@pytest.fixture(scope="module")
def pair(redis_server: RedisServer, postgres: PostgresCluster,
         tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Node, ServerProcess, str]]:
    """Two cluster processes; the second as the WebSocket address the clients use (a
    ServerProcess that is never started: only its port is used)."""
    folder: Path = tmp_path_factory.mktemp("pair")
    url = postgres.create_database()
    nodes = [Node(redis_server.url, url, folder / f"n{i}", lease=5,
                  extra=["--bot-speed", "40", "--round-pause", "0.3", "--away-after", "30",
                         "--seed", "1", "--game", "tests.support.nim:NIM"]).start()
             for i in range(2)]
    relay = ServerProcess(Database("postgres", url, folder))
    relay.port = nodes[1].port
    try:
        yield nodes[0], relay, redis_server.url
    finally:
        for node in nodes:
            node.stop()


def test_a_served_game_is_relayed_like_the_built_in_ones(
        pair: tuple[Node, ServerProcess, str]) -> None:
    """Both processes were started with ``--game``: a Nim table created through one is
    played, watched and read back through the other."""
    owner, relay, redis_url = pair

    async def main() -> None:
        async with httpx.AsyncClient(base_url=owner.base, timeout=30) as http:
            host = await create_table(http, {"game": "nim", "players": 2, "name": "Ann"})
            table = host["table"]
            await start(http, table, host["token"], fill="perfect")
        ann = Client(ws_url(relay, table, host["token"]), seed=5, play=True)
        watcher = Client(ws_url(relay, table))
        await asyncio.gather(ann.run(), watcher.run())
        assert ann.status == watcher.status == "finished"
        async with httpx.AsyncClient(base_url=relay.base, timeout=30) as http:
            result = NIM.replay(parse_record((await http.get(
                f"/api/tables/{table}/record")).text))
        for client in (ann, watcher):
            assert check_updates(client.messages, result.moves, 2) > 0
        assert owner.proc is not None
        assert owner_pid(redis_url, table) == owner.proc.pid  # relayed, not moved

    asyncio.run(main())


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}p-{c[2]}h" for c in CASES])
def test_relayed_tables_never_leak(pair: tuple[Node, ServerProcess, str],
                                   case: tuple[str, int, int, int, str]) -> None:
    owner, relay, redis_url = pair
    preset, players, humans, rounds, bot = case

    async def main() -> None:
        async with httpx.AsyncClient(base_url=owner.base, timeout=30) as http:
            out = await play_table(relay, http, preset=preset, players=players,
                                   humans=humans, rounds=rounds, bot=bot,
                                   seed=sum(map(ord, preset)) + players)
            assert out["checked"] > 10
            assert out["summary"]["status"] == "finished"
            assert owner.proc is not None
            assert owner_pid(redis_url, out["table"]) == owner.proc.pid  # relayed, not moved

    asyncio.run(main())


def test_quick_play_and_the_lobby_span_the_cluster(pair: tuple[Node, ServerProcess, str]
                                                   ) -> None:
    """A table waiting for players on one process is listed, and taken by quick play, on
    the other; a private one is neither."""
    owner, relay, redis_url = pair

    async def main() -> None:
        async with httpx.AsyncClient(base_url=owner.base, timeout=30) as here, \
                httpx.AsyncClient(base_url=relay.base, timeout=30) as there:
            secret = (await here.post("/api/tables", json={
                "game": "cards", "players": 2, "private": True})).json()["table"]
            public = (await here.post("/api/tables", json={
                "game": "cards", "players": 2})).json()["table"]
            listed: list[str] = []
            for _ in range(600):  # the other process hears of it through Redis
                listed = [t["id"] for t in (await there.get("/api/tables")).json()["tables"]]
                if public in listed:
                    break
                await asyncio.sleep(0.1)
            assert public in listed and secret not in listed
            assert owner.proc is not None
            assert owner_pid(redis_url, public) == owner.proc.pid
            r = await there.post("/api/quickplay", json={"name": "Quick"})
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["table"] == public and got["seat"] == 1 and not got["started"]
            # The seat is real: its token is the player's at the owner.
            summary = (await here.get(f"/api/tables/{public}")).json()
            assert summary["seats"][1]["name"] == "Quick"
            r = await here.delete(f"/api/tables/{public}/seats/1",
                                  headers={"Authorization": f"Bearer {got['token']}"})
            assert r.status_code == 200, r.text

    asyncio.run(main())
