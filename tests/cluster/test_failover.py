"""Fail-over, with real processes: a cluster of server processes on one Redis
and one PostgreSQL database, players that reconnect by themselves, and failures.

- 20 ``kill -9``s of a random process under bot load and human actions: every action a
  player saw acknowledged is in the store, every table resumes and finishes, and the rated
  games among them (two people; a person against a bot) are each booked once.
- Redis restarted (empty) mid-game, three times: play goes on, nothing acknowledged lost.
- SIGTERM: the process hands its tables over (well before their leases could have run out)
  and exits cleanly; nothing acknowledged lost.
- A correspondence table's deadline outlives its owner: ``kill -9`` the process that owns
  it and the one that takes it over keeps the same deadline; kill that one in turn and the
  deadline runs out on the next owner (its clock two days on: ``--time-offset``, no
  waiting), which plays the move for the seat's bot or forfeits the seat, as the table
  chose.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from cambio.server.store import open_store

from ..support.postgres import PostgresCluster
from .harness import (
    Node,
    Player,
    bot_table,
    check_booked_once,
    check_stored,
    lease_owners,
    owner_ids,
    play_now_seat,
    progress,
)
from .redis_server import RedisServer

TABLES = 6
PRESETS = ("rulebook", "house", "wikipedia")


@pytest.fixture
def database(postgres: PostgresCluster) -> str:
    return postgres.create_database()


async def play(nodes: list[Node], tables: int, rounds: int, seed: int
               ) -> tuple[list[Player], list[asyncio.Task[None]]]:
    players = []
    for i in range(tables):
        node = nodes[i % len(nodes)]
        table, token = await bot_table(node.base, rounds, PRESETS[i % 3])
        players.append(Player(table, token, nodes, seed * 1000 + i))
    tasks = [asyncio.get_running_loop().create_task(p.run(timeout=240)) for p in players]
    return players, tasks


def test_twenty_kill_9s(redis_server: RedisServer, database: str, tmp_path: Path) -> None:
    nodes = [Node(redis_server.url, database, tmp_path / f"n{i}",
                  extra=["--forwarded-allow-ips", "127.0.0.1", "--queue-wait", "30",
                         "--leaderboard-games", "0", "--leaderboard-opponents", "0"]).start()
             for i in range(3)]
    try:
        asyncio.run(_kills(nodes, random.Random(8)))
    finally:
        for node in nodes:
            node.stop()
    # (checked inside; the store is read once every table is finished)


async def _kills(nodes: list[Node], rng: random.Random) -> None:
    """Keep TABLES tables in play (a finished one is replaced) while killing a random
    process every half second or so; a killed process is started again at once, as a
    service manager would, and may be killed again as soon as it answers."""
    players: list[Player] = []
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()

    async def top_up() -> None:
        while sum(not p.finished for p in players) < TABLES:
            node = rng.choice([n for n in nodes if n.ready])
            table, token = await bot_table(node.base, 3, PRESETS[len(players) % 3])
            players.append(Player(table, token, nodes, 1000 + len(players)))
            tasks.append(loop.create_task(players[-1].run(timeout=300)))

    # Two rated Play now games among them: two people (from two addresses), and a person
    # against a bot. Whenever a kill falls, each finished game must be booked once.
    pair = await asyncio.gather(play_now_seat(nodes[0], "10.0.0.1", False),
                                play_now_seat(nodes[1], "10.0.0.2", False))
    rated = [*pair, await play_now_seat(nodes[2], "10.0.0.3", True)]
    for s in rated:
        players.append(Player(s["table"], s["token"], nodes, 500 + len(players)))
        tasks.append(loop.create_task(players[-1].run(timeout=300)))

    restarts: list[asyncio.Task[Node]] = []
    t0 = time.monotonic()
    kills = 0
    await top_up()
    while kills < 20:
        await asyncio.sleep(rng.uniform(0.3, 0.8))
        await top_up()
        for restart in restarts:  # a node that cannot start again ends the test at once
            if restart.done() and (error := restart.exception()) is not None:
                raise AssertionError(f"a killed node did not start again: {error}")
        live = [n for n in nodes if n.ready]
        if len(live) < 2:  # leave one standing: a load balancer needs somewhere to go
            continue
        victim = rng.choice(live)
        victim.kill()
        kills += 1
        restarts.append(loop.create_task(asyncio.to_thread(victim.start)))
    print(f"20 kills in {time.monotonic() - t0:.1f}s over {len(players)} tables")
    await asyncio.gather(*restarts)
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players), [p.table for p in players if not p.finished]
    # Every kill cut some players off: they reconnected by themselves, to a live process.
    assert sum(p.connections for p in players) > len(players)
    database = nodes[0].args[nodes[0].args.index("--database") + 1]
    checked = check_stored(database, players)
    print(f"all finished after {time.monotonic() - t0:.1f}s; {checked} acknowledged actions "
          f"checked; {sum(p.connections for p in players)} connections")
    assert checked > 100
    people: dict[str, set[str]] = {}
    for s in rated:
        people.setdefault(s["table"], set()).add(s["player"])
    for table, ids in people.items():
        check_booked_once(database, table, ids)


def test_redis_restarted_mid_game(tmp_path: Path, database: str) -> None:
    redis = RedisServer(tmp_path / "redis").start()
    nodes = [Node(redis.url, database, tmp_path / f"n{i}").start() for i in range(2)]
    try:
        asyncio.run(_redis_restarts(nodes, redis, database))
    finally:
        for node in nodes:
            node.stop()
        redis.stop()


async def _redis_restarts(nodes: list[Node], redis: RedisServer, database: str) -> None:
    players, tasks = await play(nodes, 4, rounds=5, seed=2)
    for _ in range(3):
        await progress(players)
        await asyncio.to_thread(redis.restart)  # comes back empty: no leases, no lobby
        await progress(players)  # play goes on (or recovers) by itself
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players)
    assert check_stored(database, players) > 50


def test_sigterm_hands_tables_over(redis_server: RedisServer, database: str,
                                   tmp_path: Path) -> None:
    # Leases of 60 s: a table that moves within seconds was handed over, not left to expire.
    nodes = [Node(redis_server.url, database, tmp_path / f"n{i}", lease=60).start()
             for i in range(2)]
    try:
        asyncio.run(_drain(nodes, redis_server.url, database))
    finally:
        for node in nodes:
            node.stop()


async def _drain(nodes: list[Node], redis_url: str, database: str) -> None:
    players, tasks = await play(nodes, 4, rounds=4, seed=3)
    await progress(players)
    leaving = await asyncio.to_thread(owner_ids, redis_url, nodes[0])
    code = await asyncio.to_thread(nodes[0].terminate)
    assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once it is done
    # Handed over, not left to expire: no lease of the 60 s leases still names it.
    owners = await asyncio.to_thread(lease_owners, redis_url, [p.table for p in players])
    assert leaving and not leaving & set(owners)
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players)
    assert check_stored(database, players) > 20


def test_postgres_down_and_back(redis_server: RedisServer, tmp_path: Path) -> None:
    """The database stops as in a crash and comes back on its own: actions that cannot be
    stored are refused (the table steps down and its clients reconnect; nothing is
    acknowledged meanwhile), and once it is back every table resumes from what is stored
    and finishes, with every acknowledged action in the store."""
    postgres = PostgresCluster().start()  # its own: the session's serves other tests
    try:
        database = postgres.create_database()
        nodes = [Node(redis_server.url, database, tmp_path / f"n{i}", lease=2).start()
                 for i in range(2)]
        try:
            asyncio.run(_database_outage(nodes, postgres, database))
        finally:
            for node in nodes:
                node.stop()
    finally:
        postgres.stop()


async def _database_outage(nodes: list[Node], postgres: PostgresCluster,
                           database: str) -> None:
    players, tasks = await play(nodes, 4, rounds=4, seed=4)
    await progress(players)
    acked = {p.table: dict(p.acked) for p in players}
    reconnects = sum(p.connections for p in players)
    await asyncio.to_thread(postgres.halt)
    # Refused, visibly: an action that could not be stored is answered with an error, or
    # its table steps down and the player reconnects.
    deadline = time.monotonic() + 120
    while not any(p.errors for p in players) and \
            sum(p.connections for p in players) == reconnects:
        assert time.monotonic() < deadline, "nobody was told the database is down"
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)  # a while down: reconnections and claims fail meanwhile
    await asyncio.to_thread(postgres.resume)
    await asyncio.gather(*tasks)
    assert all(p.finished for p in players)
    assert check_stored(database, players) > sum(len(a) for a in acked.values())
    for p in players:  # what was acknowledged before the outage is still as it was shown
        assert acked[p.table].items() <= p.acked.items()


DAY = 24 * 3600


def correspondence_table(base: str, on_timeout: str) -> tuple[str, dict[str, Any]]:
    """A 2-player correspondence card table (a day per decision) of two people, started;
    its id and summary."""
    with httpx.Client(base_url=base, timeout=30) as http:
        made = http.post("/api/tables", json={"game": "cards", "players": 2, "name": "Ann",
                                              "clock": DAY, "on_timeout": on_timeout}).json()
        table = made["table"]
        r = http.post(f"/api/tables/{table}/join", json={"name": "Bo"})
        assert r.status_code == 200, r.text
        r = http.post(f"/api/tables/{table}/start", json={"fill": None},
                      headers={"Authorization": f"Bearer {made['token']}"})
        assert r.status_code == 200, r.text
        summary: dict[str, Any] = http.get(f"/api/tables/{table}").json()
    return table, summary


def stored_deadline(database: str, table: str, deadline: float) -> None:
    """Wait until ``deadline`` (as a summary gives it: to the millisecond) is in the store:
    a deal's first deadline is written just after the deal (every later one with the move
    that starts it)."""
    store = open_store(database, exclusive=False)
    try:
        until = time.monotonic() + 60
        while abs((store.deadline(table) or (0, 0, 0, 0, 0.0))[4] - deadline) > 0.001:
            assert time.monotonic() < until, "the deal's deadline was never stored"
            time.sleep(0.1)
    finally:
        store.close()


def owned_by(redis_url: str, node: Node, tables: list[str],
             ready: Callable[[dict[str, Any]], bool] = lambda s: True
             ) -> list[dict[str, Any]]:
    """Once ``node`` holds every one of ``tables`` (it claims them: asked for them, or by
    its claim loop once their dead owner's leases ran out) and each summary it gives is
    ``ready``: those summaries."""
    deadline = time.monotonic() + 120
    with httpx.Client(base_url=node.base, timeout=30) as http:
        while True:
            assert time.monotonic() < deadline, "the live process never took the tables"
            answers = [http.get(f"/api/tables/{t}") for t in tables]
            mine = owner_ids(redis_url, node)
            if all(a.status_code == 200 for a in answers) and \
                    set(lease_owners(redis_url, tables)) <= mine and \
                    all(ready(a.json()) for a in answers):
                return [a.json() for a in answers]
            time.sleep(0.2)


def test_a_correspondence_deadline_outlives_its_owner(
        redis_server: RedisServer, database: str, tmp_path: Path) -> None:
    a = Node(redis_server.url, database, tmp_path / "a").start()
    b = Node(redis_server.url, database, tmp_path / "b")
    try:
        b.start()
        made = [correspondence_table(a.base, how) for how in ("bot", "forfeit")]
        tables = [table for table, _ in made]
        first = [(s["deadline_seat"], s["deadline"]) for _, s in made]
        for table, (_, deadline) in zip(tables, first, strict=True):
            stored_deadline(database, table, deadline)
        assert set(lease_owners(redis_server.url, tables)) <= owner_ids(redis_server.url, a)
        # The owner dies: the other process takes the tables over with the same deadlines
        # (loaded from the store), not a fresh day each.
        a.kill()
        kept = owned_by(redis_server.url, b, tables)
        assert [(s["deadline_seat"], s["deadline"]) for s in kept] == first
        assert not any(seat["forfeit"] for s in kept for seat in s["seats"])
        # It dies too, and the first comes back two days on: the deadlines ran out while
        # nobody served the tables, so the new owner lets them run out at once.
        a.args += ["--time-offset", str(2 * DAY)]
        a.start()
        b.kill()
        was = {table: deadline for table, (_, deadline) in zip(tables, first, strict=True)}
        late = owned_by(redis_server.url, a, tables,
                        lambda s: (s["deadline"] or 0) > was[s["id"]] + DAY)
    finally:
        for node in (a, b):
            node.stop()
    (seat, _), (lost, _) = first
    # "bot": the seat's bot made that one move (stored), and the seat's next decision has a
    # day of its own from the new owner's clock; the player was not marked away.
    store = open_store(database, exclusive=False)
    try:
        assert store.actions(tables[0], 1, 1)[0][0] == seat
        assert store.forfeits(tables[0], 1) == []
        # "forfeit": the seat lost the game on time, stored, and shown.
        assert store.forfeits(tables[1], 1) == [lost]
    finally:
        store.close()
    assert late[0]["deadline_seat"] == seat and not late[0]["seats"][seat]["away"]
    assert late[1]["seats"][lost]["forfeit"] is True
