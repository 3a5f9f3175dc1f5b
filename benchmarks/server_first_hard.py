"""What the first hard tables of a fresh server cost everyone else: the lobby's longest gap.

One ``cambio serve`` process (its own temporary SQLite file). A client polls the lobby
(``GET /api/tables``) back to back, 10 ms apart, from start to end; the gap is the time
between two answers. After ``--quiet`` seconds of that, two tables start at once: a card
table against ``hard`` and a dice table against ``native`` (Hard), each with a person who
plays the first legal action whenever it is their turn. The run ends when each table's bot
has made ``--moves`` moves and, on a server that loads its kernels in the background
(``kernels: ... ready`` in its log), once both families are ready and each bot has moved
``--moves`` times more (or its game is over). Reported: the lobby's gaps (max, p99,
median) before and while the tables start, each table's seconds to its bot's first move,
how long the kernels took, the server's CPU-seconds, and the load average.

``--cache DIR`` is numba's cache for the server (``NUMBA_CACHE_DIR``): an empty one is a
cold cache (the kernels compile), the same one again a warm cache. ``--src DIR`` serves
another checkout's ``src`` (the "before" figures: a worktree of main).

    nice -n 10 .venv/bin/python benchmarks/server_first_hard.py --cache /tmp/cold-1  # cold
    nice -n 10 .venv/bin/python benchmarks/server_first_hard.py --cache /tmp/cold-1  # warm
    nice -n 10 .venv/bin/python benchmarks/server_first_hard.py --cache /tmp/cold-2 \\
        --src /tmp/main-before/src
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from server_load import cpu_seconds, free_port

ROOT = Path(__file__).resolve().parents[1]
TABLES = {"cards": ({"game": "cards", "players": 2, "rounds": 20}, "hard"),
          "board": ({"game": "board", "players": 2}, "native")}


class Lobby:
    """Polls the lobby back to back and keeps the time of each answer."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.answers: list[float] = []
        self.stop = asyncio.Event()

    async def run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(httpx.HTTPError):
                await self.http.get("/api/tables")
                self.answers.append(time.perf_counter())
            await asyncio.sleep(0.01)

    def gaps(self, start: float, end: float) -> dict[str, float]:
        times = [t for t in self.answers if start <= t <= end]
        gaps = sorted(b - a for a, b in itertools.pairwise(times))
        if not gaps:
            return {}
        return {"answers": len(times), "max_ms": gaps[-1] * 1000,
                "p99_ms": gaps[min(len(gaps) - 1, int(0.99 * len(gaps)))] * 1000,
                "median_ms": statistics.median(gaps) * 1000}


async def person(url: str, bot_moves: list[float], over: asyncio.Event,
                 stop: asyncio.Event) -> None:
    """Play seat 0 (the first legal action that is not a snap), note when seat 1 moves, and
    set ``over`` when the game ends."""
    async with websockets.connect(url, max_size=2**22) as ws:
        acted = None
        last: dict[str, Any] | None = None
        tries = 0
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            kind = msg.get("type")
            if kind == "update" and msg["event"]["seat"] == 1:
                bot_moves.append(time.perf_counter())
            if kind == "table" and msg["table"]["status"] == "finished":
                over.set()
            if kind == "error" and last is not None:  # refused (a race): another action
                msg, acted, tries = last, None, tries + 1
            elif kind not in ("state", "update"):
                continue
            legal = [a for a in msg["view"].get("legal", []) if not a.startswith("snap")]
            key = (msg.get("game_no"), msg.get("round"), msg["version"])
            if legal and key != acted:
                acted, last = key, msg
                await ws.send(json.dumps({"type": "act", "action": legal[tries % len(legal)],
                                          "version": msg["version"]}))


def ready(log: Path) -> bool | None:
    """Both families loaded (``None``: this server loads no kernels in the background)."""
    text = log.read_text(errors="replace")
    if "kernels:" not in text:
        return None
    return "kernels: rollouts ready" in text and "kernels: board ready" in text


async def main(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="cambio-first-hard-"))
    port = free_port()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(args.cache).resolve()))
    Path(args.cache).mkdir(parents=True, exist_ok=True)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    log = tmp / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cambio.server", "--port", str(port),
                                 "--db", str(tmp / "hard.sqlite3"), "--log-level", "info",
                                 *args.server_args], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    load_before = os.getloadavg()[0]
    try:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/bots")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            lobby = Lobby(http)
            poller = asyncio.ensure_future(lobby.run())
            t_quiet = time.perf_counter()
            await asyncio.sleep(args.quiet)
            cpu0 = cpu_seconds(proc.pid)
            t_start = time.perf_counter()
            moves: dict[str, list[float]] = {}
            over: dict[str, asyncio.Event] = {}
            stop = asyncio.Event()
            players = []
            async with httpx.AsyncClient(base_url=base, timeout=120) as host_http:
                for game, (body, bot) in TABLES.items():
                    host = (await host_http.post("/api/tables",
                                                 json={**body, "name": "Ann"})).json()
                    r = await host_http.post(f"/api/tables/{host['table']}/start",
                                             json={"fill": bot}, headers={
                                                 "Authorization": f"Bearer {host['token']}"})
                    assert r.status_code == 200, r.text
                    moves[game] = []
                    over[game] = asyncio.Event()
                    url = f"ws://127.0.0.1:{port}/ws/{host['table']}?token={host['token']}"
                    players.append(asyncio.ensure_future(person(url, moves[game], over[game],
                                                                stop)))
            t_ready = None
            needed = args.moves
            deadline = time.monotonic() + args.limit
            while time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                if t_ready is None and ready(log):
                    t_ready = time.perf_counter()
                    needed = min(len(m) for m in moves.values()) + args.moves
                if all(len(m) >= needed or over[g].is_set() for g, m in moves.items()) \
                        and ready(log) is not False:
                    break
            t_end = time.perf_counter()
            stop.set()
            lobby.stop.set()
            await asyncio.gather(poller, *players, return_exceptions=True)
            cpu = cpu_seconds(proc.pid)
        return {"server": args.src or "this checkout", "cache": args.cache,
                "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
                "lobby_quiet": lobby.gaps(t_quiet, t_start),
                "lobby_while_hard_tables_start": lobby.gaps(t_start, t_end),
                "first_bot_move_s": {g: round(m[0] - t_start, 2) if m else None
                                     for g, m in moves.items()},
                "bot_moves": {g: len(m) for g, m in moves.items()},
                "kernels_ready_s": round(t_ready - t_start, 1) if t_ready else None,
                "window_s": round(t_end - t_start, 1),
                "server_cpu_s": round(cpu - cpu0, 1)}
    finally:
        proc.terminate()
        proc.wait(30)


def cli() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True, help="numba's cache directory for the server")
    p.add_argument("--quiet", type=float, default=5.0, help="seconds of lobby alone first")
    p.add_argument("--moves", type=int, default=3, help="bot moves each table waits for")
    p.add_argument("--limit", type=float, default=900.0, help="give up after these seconds")
    p.add_argument("--src", help="serve this src directory instead (a checkout of main)")
    p.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                   help="passed to cambio serve (last)")
    print(json.dumps(asyncio.run(main(p.parse_args())), indent=2))


if __name__ == "__main__":
    cli()
