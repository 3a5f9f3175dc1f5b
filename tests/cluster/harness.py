"""Real cluster processes and real players for the cluster tests.

A :class:`Node` is ``cambio serve --redis … --database …`` on its own port, as a machine
behind a load balancer would run it; :meth:`Node.kill` is ``kill -9``, :meth:`Node.start`
brings it back on the same port (as a service manager would). A :class:`Player` is one
seat's browser stand-in: it connects to any live node (the load balancer's choice),
plays random legal moves at once, reconnects by itself whenever its connection drops, and
remembers every action it was told about: what it saw acknowledged.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import websockets

from cambio.server.store import open_store

from ..support.ports import free_port, serving
from ..support.processes import child_pids

ROOT = Path(__file__).resolve().parents[2]
Key = tuple[int, int, int]
"""(game, round, version) of one action."""


class Node:
    def __init__(self, redis_url: str, database: str, folder: Path, *, lease: float = 1.0,
                 workers: int = 1, extra: list[str] | None = None) -> None:
        self.port = free_port()
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / f"node-{self.port}.log"
        self.args = [sys.executable, "-m", "cambio.server", "--host", "127.0.0.1",
                     "--port", str(self.port), "--database", database, "--redis", redis_url,
                     "--lease-ttl", str(lease), "--workers", str(workers),
                     "--bot-speed", "20", "--round-pause", "0.2", "--away-after", "1",
                     "--rest-rate", "0", "--ws-connect-rate", "0",
                     "--max-conns-per-address", "0", "--log-level", "warning",
                     "--no-warm-kernels",
                     # no review worker unless a test asks (tests/server/harness.py says why)
                     "--review-workers", "0", *(extra or [])]
        self.proc: subprocess.Popen[bytes] | None = None
        self.ready = False
        """Started and answering (not being started or killed)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def up(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> Node:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.args, cwd=ROOT, stdout=out, stderr=out, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"node exited: {self.log.read_text()[-3000:]}")
            if serving(self.proc.pid, self.port):
                self.ready = True
                return self
            time.sleep(0.05)
        raise RuntimeError("node did not start")

    def kill(self) -> None:
        """``kill -9``: no shutdown code runs, nothing is handed over."""
        assert self.proc is not None
        self.ready = False
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self, timeout: float = 60) -> int:
        """SIGTERM, and the exit code once it has handed its tables over."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def bot_table(base: str, rounds: int, preset: str = "rulebook") -> tuple[str, str]:
    """A 3-seat card table started with two memory bots; the host's (table, token)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/tables", json={"game": "cards", "players": 3, "name": "H",
                                                 "rounds": rounds,
                                                 "rules": {"preset": preset}})
        assert r.status_code == 201, r.text
        made = r.json()
        r = await http.post(f"/api/tables/{made['table']}/start", json={"fill": "memory"},
                            headers={"Authorization": f"Bearer {made['token']}"})
        assert r.status_code == 200, r.text
        return made["table"], made["token"]


class Player:
    def __init__(self, table: str, token: str, nodes: list[Node], seed: int) -> None:
        self.table = table
        self.token = token
        self.nodes = nodes
        self.rng = random.Random(seed)
        self.acked: dict[Key, tuple[int, str]] = {}
        """Every action this player was told about: (game, round, version) -> (seat, text)."""
        self.finished = False
        self.connections = 0
        self.acted = 0
        self.errors: list[str] = []
        """The codes of the errors the server sent this player."""

    async def run(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.finished and time.monotonic() < deadline:
            live = [n for n in self.nodes if n.up()] or self.nodes
            node = self.rng.choice(live)
            url = f"ws://127.0.0.1:{node.port}/ws/{self.table}?token={self.token}"
            try:
                async with websockets.connect(url, open_timeout=5, close_timeout=1,
                                              ping_interval=None) as ws:
                    self.connections += 1
                    await self._play(ws)
            except (OSError, TimeoutError, websockets.ConnectionClosed,
                    websockets.InvalidStatus, websockets.InvalidHandshake):
                pass
            if not self.finished:
                await asyncio.sleep(self.rng.uniform(0.05, 0.3))

    async def _play(self, ws: Any) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind in ("welcome", "table"):
                if msg["table"]["status"] == "finished":
                    self.finished = True
                    return
            elif kind == "error":
                self.errors.append(msg["code"])
            elif kind == "update":
                key = (msg["game_no"], msg["round"], msg["version"])
                self.acked[key] = (msg["event"]["seat"], msg["event"]["action"])
            if kind in ("state", "update"):
                view = msg["view"]
                turn = [a for a in view["legal"] if not a.startswith("snap")]
                if view["phase"] != "round_over" and turn:
                    if view["turn_number"] < 4 * view["players"] and len(turn) > 1:
                        turn = [a for a in turn if a != "cambio"] or turn
                    await ws.send(json.dumps({"type": "act", "version": msg["version"],
                                              "action": self.rng.choice(turn)}))
                    self.acted += 1


async def progress(players: list[Player], more: int = 10) -> None:
    """Wait until the players have seen ``more`` actions more (or every table finished);
    however slow the machine, play must get there by itself."""
    target = sum(len(p.acked) for p in players) + more
    deadline = time.monotonic() + 120
    while sum(len(p.acked) for p in players) < target and not all(p.finished for p in players):
        assert time.monotonic() < deadline, "play did not go on"
        await asyncio.sleep(0.1)


def owner_pid(redis_url: str, table: str) -> int | None:
    """The pid of the process holding ``table``'s lease (from its presence record)."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        owner = client.get(f"cambio:lease:{table}")
        if not isinstance(owner, bytes):
            return None
        raw = client.get(f"cambio:worker:{owner.decode()}")
    return int(json.loads(raw)["pid"]) if isinstance(raw, bytes) else None


def lease_owners(redis_url: str, tables: list[str]) -> list[str | None]:
    """The worker ids holding ``tables``' leases (None: nobody)."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        values = client.mget([f"cambio:lease:{t}" for t in tables])
    return [v.decode() if isinstance(v, bytes) else None for v in values]


def owner_ids(redis_url: str, node: Node) -> set[str]:
    """The worker ids of ``node``'s processes (from their presence records)."""
    import redis

    assert node.proc is not None
    pids = {node.proc.pid, *child_pids(node.proc.pid)}
    out = set()
    with redis.Redis.from_url(redis_url) as client:
        for key in client.scan_iter(match="cambio:worker:*"):
            raw = client.get(key)
            if isinstance(raw, bytes) and json.loads(raw)["pid"] in pids:
                out.add(key.decode().removeprefix("cambio:worker:"))
    return out


def check_stored(database: str, players: list[Player]) -> int:
    """Every action a player saw acknowledged is in the store, as it was shown, and every
    table is finished there. Returns how many acknowledged actions were checked."""
    store = open_store(database, exclusive=False)
    checked = 0
    try:
        for p in players:
            row = store.table(p.table)
            assert row is not None and row.status == "finished", (p.table, row)
            rounds: dict[tuple[int, int], list[tuple[int, str]]] = {}
            for (game, rnd, version), (seat, text) in sorted(p.acked.items()):
                stored = rounds.get((game, rnd))
                if stored is None:
                    stored = rounds[(game, rnd)] = store.actions(p.table, game, rnd)
                assert version <= len(stored), (p.table, game, rnd, version, len(stored))
                assert stored[version - 1] == (seat, text), (p.table, game, rnd, version)
                checked += 1
    finally:
        store.close()
    return checked


HOUSE = {"game": "cards", "players": 2, "preset": "house"}


async def play_now_seat(node: Node, address: str, now: bool) -> dict[str, Any]:
    """A person from ``address`` (the node trusts 127.0.0.1 as a proxy:
    ``--forwarded-allow-ips``) joins Play now's rated queue on ``node`` for a 2-player card
    game (bots at once with ``now``): their table, seat token and player id once matched."""
    async with httpx.AsyncClient(base_url=node.base, timeout=30,
                                 headers={"X-Forwarded-For": address}) as http:
        r = await http.post("/api/me", json={"name": address})
        assert r.status_code in (200, 201), r.text
        player = r.json()["player"]["id"]
        r = await http.post("/api/queue", json=HOUSE)
        assert r.status_code == 201, r.text
        joined = r.json()
        if now:
            r = await http.post("/api/queue/now", json={"ticket": joined["ticket"]})
            assert r.status_code == 200, r.text
        for _ in range(600):
            r = await http.get("/api/queue", params={"ticket": joined["ticket"]})
            assert r.status_code == 200, r.text
            state = r.json()
            if state["state"] == "matched":
                assert state["rated"] is True
                return {"table": state["table"], "token": joined["token"], "player": player}
            await asyncio.sleep(0.2)
    raise AssertionError("never matched")


def check_booked_once(database: str, table: str, people: set[str]) -> None:
    """Game 1 of ``table`` is finished and booked once: one result row per seat, each of
    ``people`` rated, their rating moved once (one game) to the figures of their row."""
    with psycopg.connect(database, autocommit=True) as conn:
        status = conn.execute("SELECT status, game_no FROM tables WHERE id = %s",
                              (table,)).fetchall()
        rows = conn.execute("SELECT game_no, seat, player_id, rated, mu, sigma FROM "
                            "player_games WHERE table_id = %s ORDER BY seat",
                            (table,)).fetchall()
        ratings = conn.execute("SELECT player_id, mu, sigma, games FROM ratings WHERE "
                               "player_id = ANY(%s) ORDER BY player_id",
                               (sorted(people),)).fetchall()
    assert status == [("finished", 1)]
    assert [(r[0], r[1]) for r in rows] == [(1, 0), (1, 1)], rows
    mine = {r[2]: r for r in rows if r[2] in people}
    assert set(mine) == people and all(r[3] == 1 for r in mine.values())
    assert ratings == sorted((pid, r[4], r[5], 1) for pid, r in mine.items())
