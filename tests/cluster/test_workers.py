"""``cambio serve --workers 2``: two processes behind one port (the front passes each
connection to the process that owns its table), and a worker killed with ``kill -9`` is
started again by the front while the other takes its tables over."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pytest
import redis

from ..support.postgres import PostgresCluster
from ..support.processes import alive, child_pids
from .harness import (
    Node,
    Player,
    bot_table,
    check_stored,
    lease_owners,
    progress,
)
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


async def both_started(redis_url: str) -> dict[str, int]:
    """Wait for both workers (the front answers once one has); their ids and pids."""
    for _ in range(600):
        if len(workers(redis_url)) == 2:
            break
        await asyncio.sleep(0.1)
    started = workers(redis_url)
    assert len(started) == 2
    return started


async def _scenario(node: Node, redis_url: str, database: str) -> None:
    before = await both_started(redis_url)
    players = []
    for i in range(6):
        table, token = await bot_table(node.base, 3)
        players.append(Player(table, token, [node], i))
    # Lobby calls reach the workers in turn: each creates (and owns) some of the tables.
    assert set(owners(redis_url, [p.table for p in players])) == set(before)
    tasks = [asyncio.get_running_loop().create_task(p.run(timeout=180)) for p in players]
    await progress(players)  # mid-game: the kill comes once play is going on
    victim, pid = sorted(before.items())[0]
    os.kill(pid, signal.SIGKILL)
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players)
    assert check_stored(database, players) > 50
    after = workers(redis_url)
    assert len(after) == 2 and victim not in after  # the front started a new one


def test_the_front_killed(redis_server: RedisServer, database: str, tmp_path: Path) -> None:
    """``kill -9`` of the front process: nothing listens on the port any more, and each
    worker, seeing its hand-off channel close, hands its tables over and exits (no
    orphaned process keeps tables nobody can reach). The service manager starts the
    command again; the players reconnect by themselves and every table finishes, with
    every acknowledged action in the store."""
    node = Node(redis_server.url, database, tmp_path, workers=2, lease=3).start()
    orphans: list[int] = []
    try:
        asyncio.run(_front_killed(node, redis_server.url, database, orphans))
    finally:
        node.stop()
        for pid in orphans:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


async def _front_killed(node: Node, redis_url: str, database: str,
                        orphans: list[int]) -> None:
    workers_were = await both_started(redis_url)
    players = []
    for i in range(4):
        table, token = await bot_table(node.base, 3)
        players.append(Player(table, token, [node], 100 + i))
    tasks = [asyncio.get_running_loop().create_task(p.run(timeout=240)) for p in players]
    await progress(players)
    assert node.proc is not None
    orphans += child_pids(node.proc.pid)
    assert len(orphans) == 2
    await asyncio.to_thread(node.kill)
    deadline = time.monotonic() + 120
    while any(alive(pid) for pid in orphans):
        assert time.monotonic() < deadline, "a worker outlived its front"
        await asyncio.sleep(0.1)
    assert not set(lease_owners(redis_url, [p.table for p in players])) & set(workers_were)
    await asyncio.to_thread(node.start)  # the service manager's restart, same port
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players)
    assert check_stored(database, players) > 20


