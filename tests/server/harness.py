"""A real server process and real WebSocket clients, for the protocol-level tests.

Nothing is mocked: the server is ``python -m cambio.server`` in a subprocess on a free port
with its own database (an SQLite file, or a database in the tests' real PostgreSQL cluster:
:mod:`tests.support.databases`); clients speak JSON over real WebSockets (the ``websockets``
package) and plain HTTP (``httpx``).
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from cambio.server.limits import TokenBucket
from cambio.server.settings import Settings

from ..support.databases import Database
from ..support.ports import TAKEN, PortTaken, free_port, serving, start_on_a_free_port, with_port

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``cambio serve`` in a subprocess; :meth:`kill` is ``kill -9``."""

    def __init__(self, database: Database, *, bot_speed: float = 40.0, away_after: float = 30.0,
                 round_pause: float = 0.5, seed: int | None = 1,
                 extra: list[str] | None = None) -> None:
        """``database``: from the ``database`` or ``databases`` fixture (tests/server/
        conftest.py), never a path of its own, so that every server test runs on both
        stores."""
        self.database = database
        self.port = free_port()
        self.args = [sys.executable, "-m", "cambio.server", "--host", "127.0.0.1",
                     "--port", str(self.port), "--database", self.database.url,
                     "--bot-speed", str(bot_speed),
                     "--away-after", str(away_after), "--round-pause", str(round_pause),
                     "--rest-rate", "0", "--log-level", "warning",
                     # every test client comes from 127.0.0.1: no per-address limits
                     # unless a test sets them (later options win)
                     "--ws-connect-rate", "0", "--max-conns-per-address", "0",
                     # the hard bots' kernels load when a table first seats one, not at
                     # every test server's start (server/kernels.py)
                     "--no-warm-kernels",
                     # no review worker: a finished test game would otherwise start one and
                     # review its rounds (seconds of CPU each); tests/server/test_reviews.py
                     # asks for workers itself
                     "--review-workers", "0", *(extra or [])]
        if seed is not None:
            self.args += ["--seed", str(seed)]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.database.log

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start the process; if another process took its port first, again on another."""
        return start_on_a_free_port(self._start, self._move)

    def _move(self, port: int) -> None:
        self.port = port
        self.args = with_port(self.args, port)

    def _start(self) -> ServerProcess:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.args, cwd=ROOT, stdout=out, stderr=out, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.log.read_text()[-2000:]
                raise (PortTaken if TAKEN in tail else RuntimeError)(f"server exited: {tail}")
            if serving(self.proc.pid, self.port):
                return self
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


# ====================================================================== REST helpers
def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """POST, waiting out the server's per-address REST limit.

    Tests share a server per module and run in a random order, so a test that floods one
    (to see it refuse) can leave the next test's setup calls refused for a moment. Setup is
    not what those tests check; tests that want a 429 call ``http.post`` themselves.
    """
    for _ in range(100):
        r = await http.post(url, **kwargs)
        if r.status_code != 429:
            return r
        await asyncio.sleep(0.2)
    return r


async def create_table(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    r = await post(http, "/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


async def join(http: httpx.AsyncClient, table: str, name: str) -> dict[str, Any]:
    r = await post(http, f"/api/tables/{table}/join", json={"name": name})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def start(http: httpx.AsyncClient, table: str, token: str, fill: str | None) -> None:
    body = {"fill": fill} if fill else {}
    r = await post(http, f"/api/tables/{table}/start", json=body, headers=auth(token))
    assert r.status_code == 200, r.text


async def two_seat_table(http: httpx.AsyncClient, preset: str = "rulebook"
                         ) -> tuple[str, str, str]:
    """A started two-player card table with no bots: ``(table, token 0, token 1)``."""
    host = await create_table(http, {"game": "cards", "players": 2, "name": "Ann",
                                     "rules": {"preset": preset, "overrides": {}}})
    other = await join(http, host["table"], "Bo")
    await start(http, host["table"], host["token"], fill=None)
    return host["table"], host["token"], other["token"]


# ====================================================================== clients
@dataclass
class Client:
    """One WebSocket connection that keeps every message it receives.

    With ``policy`` set it plays its seat: a seeded random choice among its turn's legal
    actions, and now and then a snap (right or wrong: it races the bots). With
    ``flip_pairs`` it sends ``switch``/``look`` with the two addresses in the order the view
    does not offer (both name the same action), and discards every drawn card so that
    powers fire often; ``flipped`` counts those.
    """

    url: str
    seed: int = 0
    play: bool = False
    snap_rate: float = 0.1
    messages: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    version: int = -1
    status: str = ""
    errors: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0
    flip_pairs: bool = False
    flipped: int = 0

    async def run(self, until_finished: bool = True, timeout: float = 60.0,
                  max_messages: int | None = None,
                  until: Callable[[Client], bool] | None = None) -> None:
        """Receive (and play) until the table finishes, ``until(self)`` holds, or
        ``max_messages`` arrived; ``timeout`` only guards against a hang."""
        rng = random.Random(self.seed)
        acted: tuple[int, int, int] | None = None
        # A client that answers every update at once outruns the server's message bucket on
        # a quiet machine (two such clients play faster than 20 actions a second), and a
        # rate-limited action is dropped, so the table would wait for it for ever. Stay
        # under the server's default rate, as a person does by nature.
        limits = Settings()
        pace = TokenBucket(limits.rate * 0.8, limits.burst * 0.8)
        async with websockets.connect(self.url, max_size=2**22) as ws:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
                except TimeoutError:
                    break
                msg = json.loads(raw)
                self.messages.append(msg)
                kind = msg["type"]
                if kind == "welcome":
                    self.seat = msg["seat"]
                    self.status = msg["table"]["status"]
                elif kind == "table":
                    self.status = msg["table"]["status"]
                elif kind == "error":
                    self.errors.append(msg)
                if until_finished and self.status == "finished":
                    break
                if max_messages is not None and len(self.messages) >= max_messages:
                    break
                if until is not None and until(self):
                    break
                if kind not in ("state", "update") or not self.play:
                    continue
                self.version = msg["version"]
                view = msg["view"]
                key = (msg["game_no"], msg["round"], msg["version"])
                if view["phase"] in ("round_over", "over") or acted == key:
                    continue
                legal = view["legal"]
                snaps = [a for a in legal if a.startswith("snap")]
                turn = [a for a in legal if not a.startswith("snap")]
                if view.get("turn_number", 99) < 3 * view["players"] and len(turn) > 1:
                    turn = [a for a in turn if a != "cambio"] or turn
                choice = None
                if snaps and rng.random() < self.snap_rate:
                    choice = rng.choice(snaps)
                elif self.flip_pairs and "discard" in turn:
                    choice = "discard"          # a drawn power card fires: pairs come often
                elif turn:
                    choice = rng.choice(turn)
                if choice is not None:
                    words = choice.split()
                    if self.flip_pairs and words[0] in ("switch", "look") and len(words) == 3:
                        choice = f"{words[0]} {words[2]} {words[1]}"
                        self.flipped += 1
                    acted = key
                    self.sent += 1
                    while not pace.take():
                        await asyncio.sleep(1.0 / pace.rate)
                    await ws.send(json.dumps({"type": "act", "action": choice,
                                              "version": msg["version"], "ref": self.sent}))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]


def ws_url(server: ServerProcess, table: str, token: str | None = None) -> str:
    url = f"{server.ws_base}/ws/{table}"
    return url + (f"?token={token}" if token else "")


async def recv_json(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return data


async def recv_until(ws: Any, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = await recv_json(ws, max(0.01, deadline - time.monotonic()))
        if msg["type"] == kind:
            return msg
