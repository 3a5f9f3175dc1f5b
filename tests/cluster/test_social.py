"""Friends, mutes, blocks, reports and bans across a cluster: two processes sharing Redis
and PostgreSQL. A choice made through one process holds at a table the other owns, Play
now (one matchmaker, entries in Redis) never seats a blocked pair queued on different
processes, and a ban from the command line stops chat at every process."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from ..server.harness import recv_until as until
from ..server.social.helpers import queued, say, texts
from ..support.postgres import PostgresCluster
from .harness import Node
from .redis_server import RedisServer

SLOW = 120.0


@pytest.fixture(scope="module")
def two(redis_server: RedisServer, postgres: PostgresCluster,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Node], str]]:
    folder: Path = tmp_path_factory.mktemp("social")
    url = postgres.create_database()
    nodes = [Node(redis_server.url, url, folder / f"n{i}", lease=5,
                  extra=["--away-after", "600", "--queue-wait", "60"]).start()
             for i in range(2)]
    try:
        yield nodes, url
    finally:
        for node in nodes:
            node.stop()


class Person:
    """One browser that calls either process with the same cookie (a load balancer's
    choice)."""

    def __init__(self, nodes: list[Node]) -> None:
        self.via = [httpx.AsyncClient(base_url=n.base, timeout=30) for n in nodes]
        self.id = ""

    async def made(self, name: str) -> Person:
        r = await self.via[0].post("/api/me", json={"name": name})
        assert r.status_code == 201, r.text
        for http in self.via[1:]:
            http.cookies.update(self.via[0].cookies)
        self.id = r.json()["player"]["id"]
        return self

    async def close(self) -> None:
        for http in self.via:
            await http.aclose()


async def matched(http: httpx.AsyncClient, ticket: str) -> dict[str, Any]:
    await http.post("/api/queue/now", json={"ticket": ticket})
    for _ in range(int(SLOW / 0.2)):
        r = await http.get("/api/queue", params={"ticket": ticket})
        assert r.status_code == 200, r.text
        if r.json()["state"] == "matched":
            found: dict[str, Any] = r.json()
            return found
        await asyncio.sleep(0.2)
    raise AssertionError("never matched")


def test_choices_made_through_one_process_hold_at_the_other(
        two: tuple[list[Node], str]) -> None:
    asyncio.run(_across(*two))


async def _across(nodes: list[Node], url: str) -> None:
    ann, bo, cy, dee = [await Person(nodes).made(n) for n in ("Ann", "Bo", "Cy", "Dee")]
    try:
        # A table made through process 0 (its owner), played through both.
        made = (await ann.via[0].post("/api/tables", json={"game": "cards", "players": 2,
                                                           "name": "Ann"})).json()
        table = made["table"]
        joined = (await bo.via[0].post(f"/api/tables/{table}/join", json={"name": "Bo"})
                  ).json()
        r = await ann.via[0].post(f"/api/tables/{table}/start", json={},
                                  headers={"Authorization": f"Bearer {made['token']}"})
        assert r.status_code == 200, r.text
        # Your games through process 1: the owner (process 0) says whose move it is.
        lists = [(await p.via[1].get("/api/players/me/games")).json() for p in (ann, bo)]
        [[mine], [his]] = [x["games"] for x in lists]
        assert mine["table"]["id"] == his["table"]["id"] == table
        assert mine["turn"] == his["turn"] in (0, 1)
        assert [mine["your_move"], his["your_move"]] == [mine["turn"] == 0, his["turn"] == 1]
        assert sorted(x["your_turn"] for x in lists) == [0, 1]
        # Through process 1: Ann follows and mutes Bo.
        assert (await ann.via[1].post(f"/api/players/{bo.id}/follow", json={})
                ).status_code == 200
        assert (await ann.via[1].post(f"/api/players/{bo.id}/mute", json={})
                ).status_code == 200
        [friend] = (await ann.via[0].get("/api/players/me/follows")).json()["players"]
        assert friend["id"] == bo.id and friend["playing"][0]["table"] == table
        ws_ann = f"ws://127.0.0.1:{nodes[1].port}/ws/{table}?token={made['token']}"
        ws_bo = f"ws://127.0.0.1:{nodes[0].port}/ws/{table}?token={joined['token']}"
        async with websockets.connect(ws_ann) as a_ws, websockets.connect(ws_bo) as b_ws:
            await until(a_ws, "chat_log", 20)
            await until(b_ws, "chat_log", 20)
            await say(b_ws, text="rude words")
            assert (await until(b_ws, "chat", 20))["text"] == "rude words"
            await say(a_ws, text="hi")
            assert (await until(b_ws, "chat", 20))["text"] == "hi"
            assert texts(await queued(a_ws)) == ["hi"]
            # A report through process 1: the evidence is the owner's stored chat.
            r = await ann.via[1].post(f"/api/players/{bo.id}/report",
                                      json={"reason": "abuse", "table": table})
            assert r.status_code == 201, r.text
            # A ban from the command line: Bo's next line is refused at the owner.
            done = subprocess.run([sys.executable, "-m", "cambio.cli.main", "admin", "ban",
                                   bo.id, "-r", "abuse", "--db", url], capture_output=True,
                                  text=True, timeout=120, check=False)
            assert done.returncode == 0, done.stderr
            await say(b_ws, text="more", ref="x")
            assert (await until(b_ws, "error", 20))["code"] == "forbidden"
        listed = subprocess.run([sys.executable, "-m", "cambio.cli.main", "admin", "reports",
                                 "--all", "--db", url], capture_output=True, text=True,
                                timeout=120, check=False)
        assert "rude words" in listed.stdout
        # Play now: Cy (process 0) blocks Dee (process 1); queued apart, seated apart.
        assert (await cy.via[1].post(f"/api/players/{dee.id}/block", json={})
                ).status_code == 200
        body = {"game": "cards", "players": 2, "preset": "rulebook", "rated": False}
        tc = (await cy.via[0].post("/api/queue", json=body)).json()
        td = (await dee.via[1].post("/api/queue", json=body)).json()
        mc, md = await asyncio.gather(matched(cy.via[0], tc["ticket"]),
                                      matched(dee.via[1], td["ticket"]))
        assert mc["table"] != md["table"]
    finally:
        for p in (ann, bo, cy, dee):
            await p.close()
