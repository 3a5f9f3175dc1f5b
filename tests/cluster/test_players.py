"""Play now across a cluster: two processes sharing Redis and PostgreSQL; players queueing
on different processes are paired at one table, each polls its ticket on its own process,
and the game's history and ratings are the same whichever process answers. A ticket whose
page never polled is seated with nobody; a player matched who never comes has a bot take
the seat within the seat grace, their ticket dropped, and the game rated for nobody."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ..server.harness import Client
from ..support.postgres import PostgresCluster
from .harness import Node
from .redis_server import RedisServer

SLOW = 120.0


@pytest.fixture(scope="module")
def two(redis_server: RedisServer, postgres: PostgresCluster,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    folder: Path = tmp_path_factory.mktemp("players")
    url = postgres.create_database()
    nodes = [Node(redis_server.url, url, folder / f"n{i}", lease=5,
                  extra=["--bot-speed", "40", "--round-pause", "0.3", "--away-after", "600",
                         "--queue-wait", "60", "--seat-grace", "1"]).start()
             for i in range(2)]
    try:
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def test_players_queueing_on_different_processes_are_paired(two: list[Node]) -> None:
    asyncio.run(_paired(two))


async def _ticket(http: httpx.AsyncClient, name: str, players: object,
                  preset: str = "wikipedia") -> dict[str, str]:
    r = await http.post("/api/queue", json={"game": "cards", "players": players,
                                            "preset": preset, "name": name})
    assert r.status_code == 201, r.text
    joined: dict[str, str] = r.json()
    return joined


async def _matched(http: httpx.AsyncClient, ticket: str) -> dict[str, object]:
    for _ in range(int(SLOW / 0.2)):
        r = await http.get("/api/queue", params={"ticket": ticket})
        assert r.status_code == 200, r.text
        if r.json()["state"] == "matched":
            found: dict[str, object] = r.json()
            return found
        await asyncio.sleep(0.2)
    raise AssertionError("never matched")


async def _paired(nodes: list[Node]) -> None:
    a_node, b_node = nodes
    async with httpx.AsyncClient(base_url=a_node.base, timeout=30) as ann, \
            httpx.AsyncClient(base_url=b_node.base, timeout=30) as bo:
        a = await _ticket(ann, "Ann", 2)
        b = await _ticket(bo, "Bo", "any")
        ma, mb = await asyncio.gather(_matched(ann, a["ticket"]), _matched(bo, b["ticket"]))
        assert ma["table"] == mb["table"] and {ma["seat"], mb["seat"]} == {0, 1}
        table = str(ma["table"])
        # each plays through its own process (one of them relayed to the owner)
        clients = [Client(f"ws://127.0.0.1:{node.port}/ws/{table}?token={t['token']}",
                          seed=i, play=True)
                   for i, (node, t) in enumerate(((a_node, a), (b_node, b)))]
        await asyncio.gather(*(c.run(timeout=SLOW) for c in clients))
        assert all(c.status == "finished" for c in clients)
        # the history is the same from either process
        me = (await ann.get("/api/me")).json()["player"]
        for http in (ann, bo):
            profile = (await http.get(f"/api/players/{me['id']}")).json()
            assert [g["table"] for g in profile["games"]] == [table]
            names = [p["name"] for p in profile["games"][0]["players"]]
            assert sorted(names) == ["Ann", "Bo"]


def _from(node: Node, address: str) -> httpx.AsyncClient:
    """A browser at another client address (the loopback's 127.0.0.x)."""
    return httpx.AsyncClient(base_url=node.base, timeout=30,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


def test_only_players_who_are_there_are_seated_and_rated(two: list[Node]) -> None:
    asyncio.run(_there(two))


async def _there(nodes: list[Node]) -> None:
    a_node, b_node = nodes
    async with _from(b_node, "127.0.0.2") as ghost, _from(b_node, "127.0.0.3") as bo, \
            _from(a_node, "127.0.0.4") as ann:
        # a ticket whose page never polls: when Ann stops waiting, bots sit with her, not it
        await _ticket(ghost, "Ghost", 2, "rulebook")
        a = await _ticket(ann, "Ann", 2, "rulebook")
        r = await ann.post("/api/queue/now", json={"ticket": a["ticket"]})
        assert r.status_code == 200, r.text
        first = await _matched(ann, a["ticket"])
        summary = (await ann.get(f"/api/tables/{first['table']}")).json()
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
        # Bo (on the other process) is there when matched, then never comes to the table
        b = await _ticket(bo, "Bo", 2, "rulebook")
        a = await _ticket(ann, "Ann", 2, "rulebook")
        match = (await asyncio.gather(_matched(ann, a["ticket"]),
                                      _matched(bo, b["ticket"])))[0]
        table = str(match["table"])
        summary = (await ann.get(f"/api/tables/{table}")).json()
        assert [s["name"] for s in summary["seats"]] == ["Bo", "Ann"]
        client = Client(f"ws://127.0.0.1:{a_node.port}/ws/{table}?token={a['token']}",
                        seed=3, play=True)
        await client.run(timeout=SLOW)
        assert client.status == "finished"
        assert [m for m in client.of_type("update") if m["event"]["seat"] == 0]
        r = await bo.get("/api/queue", params={"ticket": b["ticket"]})
        assert r.status_code == 409 and "did not come" in r.json()["error"]["message"]
        for http in (ann, bo):
            me = (await http.get("/api/me")).json()["player"]
            profile = (await http.get(f"/api/players/{me['id']}")).json()
            game = next(g for g in profile["games"] if g["table"] == table)
            assert game["rated"] is False and game["void"] == "a player never made a move"
            assert profile["ratings"] == {}
