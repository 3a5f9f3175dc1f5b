"""``cambio serve --workers 2``: two processes behind one port (the front passes each
connection to the process that owns its table), and a worker killed with ``kill -9`` is
started again by the front while the other takes its tables over."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import pytest
import redis

from ..support.postgres import PostgresCluster
from .harness import Node, Player, bot_table, check_stored
from .redis_server import RedisServer


@pytest.fixture
def database(postgres: PostgresCluster) -> str:
    return postgres.create_database()


def workers(url: str) -> dict[str, int]:
    """Live workers: id -> pid (their presence records in Redis)."""
    client = redis.Redis.from_url(url)
    try:
        out = {}
        for key in client.scan_iter(match="cambio:worker:*"):
            raw = client.get(key)
            if raw is not None:
                out[key.decode().removeprefix("cambio:worker:")] = json.loads(raw)["pid"]
        return out
    finally:
        client.close()


def owners(url: str, tables: list[str]) -> list[str | None]:
    client = redis.Redis.from_url(url)
    try:
        values = client.mget([f"cambio:lease:{t}" for t in tables])
        return [v.decode() if isinstance(v, bytes) else v for v in values]
    finally:
        client.close()


def test_two_workers_one_port(redis_server: RedisServer, database: str,
                              tmp_path: Path) -> None:
    # Leases of 3 s: on a loaded machine a worker's renewals may come late; 1 s would let
    # its presence lapse now and then (tables would move, correctly but needlessly).
    node = Node(redis_server.url, database, tmp_path, workers=2, lease=3).start()
    try:
        asyncio.run(_scenario(node, redis_server.url, database))
    finally:
        node.stop()


async def _scenario(node: Node, redis_url: str, database: str) -> None:
    for _ in range(600):  # both workers have started (the front answers once one has)
        if len(workers(redis_url)) == 2:
            break
        await asyncio.sleep(0.1)
    before = workers(redis_url)
    assert len(before) == 2
    players = []
    for i in range(6):
        table, token = await bot_table(node.base, 3)
        players.append(Player(table, token, [node], i))
    # Lobby calls reach the workers in turn: each creates (and owns) some of the tables.
    assert set(owners(redis_url, [p.table for p in players])) == set(before)
    tasks = [asyncio.get_running_loop().create_task(p.run(timeout=180)) for p in players]
    await asyncio.sleep(2)
    victim, pid = sorted(before.items())[0]
    os.kill(pid, signal.SIGKILL)
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players)
    assert check_stored(database, players) > 50
    after = workers(redis_url)
    assert len(after) == 2 and victim not in after  # the front started a new one
