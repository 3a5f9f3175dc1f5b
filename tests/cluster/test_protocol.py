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

from ..server.harness import ServerProcess
from ..server.test_play import CASES, play_table
from ..support.databases import Database
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
                         "--seed", "1"]).start() for i in range(2)]
    relay = ServerProcess(Database("postgres", url, folder))
    relay.port = nodes[1].port
    try:
        yield nodes[0], relay, redis_server.url
    finally:
        for node in nodes:
            node.stop()


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
