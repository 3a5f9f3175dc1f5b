"""Exactly-once booking in a cluster (Redis + PostgreSQL, two processes): a process dies
between the two writes of a game's end (the game-ending action stored, the finish not), and
the process that claims its table books the game, once.

Both processes run with the crash point ``game-over`` (:mod:`cambio.server.faults`), so
the live end of every game kills the process that owns its table, after the action and
before the finish. A service manager stand-in starts a dead process again at once. Two
rated Play now games are played meanwhile, one between two people (from two addresses,
through a trusted proxy) and one of a person against a bot; the players reconnect by
themselves. Every game must end booked once: one result row per seat, each person's
rating moved once and agreeing with their row.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..support.postgres import PostgresCluster
from .harness import Node, Player, check_booked_once, play_now_seat
from .redis_server import RedisServer

SLOW = 180.0


@pytest.fixture
def nodes(redis_server: RedisServer, postgres: PostgresCluster, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Node]]:
    monkeypatch.setenv("CAMBIO_CRASH_AT", "game-over")
    url = postgres.create_database()
    started = [Node(redis_server.url, url, tmp_path / f"n{i}",
                    extra=["--bot-speed", "40", "--away-after", "60", "--queue-wait", "30",
                           "--forwarded-allow-ips", "127.0.0.1",
                           # established from the start: both people's ratings move
                           "--leaderboard-games", "0", "--leaderboard-opponents", "0"]
                    ).start() for i in range(2)]
    try:
        yield started
    finally:
        for node in started:
            node.stop()


def test_a_process_dying_at_a_games_end_leaves_it_booked_once(nodes: list[Node]) -> None:
    database = nodes[0].args[nodes[0].args.index("--database") + 1]
    seats, crashes = asyncio.run(_games(nodes))
    print(f"{crashes} processes died at a game's end")
    assert crashes >= 1, "no process died at a game's end"
    for table, people in seats.items():
        check_booked_once(database, table, people)


async def _games(nodes: list[Node]) -> tuple[dict[str, set[str]], int]:
    people = await asyncio.gather(play_now_seat(nodes[0], "10.0.0.1", False),
                                  play_now_seat(nodes[1], "10.0.0.2", False))
    alone = await play_now_seat(nodes[1], "10.0.0.3", True)
    assert people[0]["table"] == people[1]["table"] != alone["table"]
    seated = [*people, alone]
    players = [Player(s["table"], s["token"], nodes, seed=i) for i, s in enumerate(seated)]
    playing = asyncio.gather(*(p.run(timeout=SLOW) for p in players))
    crashes = 0
    while not playing.done():  # the service manager: a dead process is started again
        for node in nodes:
            if node.proc is not None and node.proc.poll() is not None and node.ready:
                node.ready = False
                assert node.proc.returncode == -signal.SIGKILL, node.log.read_text()[-2000:]
                crashes += 1
                await asyncio.to_thread(node.start)
        await asyncio.sleep(0.1)
    await playing
    assert all(p.finished for p in players)
    seats: dict[str, set[str]] = {}
    for s in seated:
        seats.setdefault(s["table"], set()).add(s["player"])
    return seats, crashes
