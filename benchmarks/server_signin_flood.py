"""What a flood of wrong sign-ins costs the people already playing, and one signing in.

One ``cambio serve`` process (its own temporary SQLite file, default limits). A player seated
at a table (from 127.0.0.1) sends ``ping`` and waits for its ``pong``, back to back; a
claimed account signs in with its right password (from a fresh address each time). First
alone for ``--seconds``; then while ``--addresses`` loopback addresses (127.0.0.10 and up)
each send ``--per-address`` wrong sign-ins at once, each at a username of its own -- under
every per-address and per-username limit, the shape of an attacker who spreads out. A
person's sign-in starts a second into the flood. Reported: the ping's median, p95 and max in
ms alone and during the flood, the sign-in's seconds alone and during, the flood's answers
by HTTP status, how long until the last was answered, and the server's CPU-seconds.
``--insist`` re-sends every guess the budget refused until it is checked, so that all of
them cost their hash (as on a server without the budget).

``--src DIR`` serves another checkout's ``src`` (the "before" figures: a worktree of main,
``git worktree add /tmp/main-before main`` with the compiled engine copied in).

    nice -n 10 .venv/bin/python benchmarks/server_signin_flood.py --seconds 10 [--insist]
    nice -n 10 .venv/bin/python benchmarks/server_signin_flood.py --src /tmp/main-before/src
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from server_flood import pings, summary
from server_load import cpu_seconds, free_port

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "a passphrase nobody guesses"


def client(base: str, address: str = "127.0.0.1") -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base, timeout=600,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def sign_in(http: httpx.AsyncClient) -> tuple[float, int]:
    """Seconds a sign-in with the right password took, and its status."""
    t0 = time.perf_counter()
    r = await http.post("/api/login", json={"username": "honest", "password": PASSWORD})
    return time.perf_counter() - t0, r.status_code


async def flood(clients: list[httpx.AsyncClient], each: int, insist: bool
                ) -> tuple[dict[int, int], float]:
    """Every wrong sign-in at once; the answers by status, and seconds to the last. With
    ``insist`` a guess refused for the budget (503) is sent again at once (an attacker
    ignores Retry-After) until it is checked: every guess then costs its hash."""
    t0 = time.perf_counter()

    async def one(http: httpx.AsyncClient, n: int) -> int:
        while True:
            try:
                r = await http.post("/api/login", json={"username": f"{id(http)}-{n}",
                                                        "password": "wrong password"})
            except httpx.HTTPError:
                return 0
            if r.status_code != 503 or not insist:
                return r.status_code
            await asyncio.sleep(0.01)

    codes = await asyncio.gather(*(one(http, n) for http in clients for n in range(each)))
    return dict(collections.Counter(codes)), time.perf_counter() - t0


async def main(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="cambio-signin-"))
    port = free_port()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    proc = subprocess.Popen([sys.executable, "-m", "cambio.server", "--port", str(port),
                             "--db", str(tmp / "flood.sqlite3"), "--log-level", "warning",
                             *args.server_args], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        async with client(base) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/bots")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            await http.post("/api/me", json={"name": "Honest"})
            r = await http.post("/api/me/claim", json={"username": "honest",
                                                       "password": PASSWORD})
            assert r.status_code == 200, r.text
            mine = (await http.post("/api/tables", json={"game": "cards", "players": 2})).json()
        player = f"ws://127.0.0.1:{port}/ws/{mine['table']}?token={mine['token']}"
        quiet = summary(await pings(player, args.seconds))
        # Every client made before the flood: making 200 at once would stall this process
        # (each builds an SSL context), not the server.
        people = [client(base, f"127.0.0.{200 + i}") for i in range(4)]
        guessers = [client(base, f"127.0.0.{10 + a}") for a in range(args.addresses)]
        alone = [await sign_in(http) for http in people[:3]]
        over = asyncio.Event()
        ping_task = asyncio.ensure_future(pings(player, 3600, over))
        await asyncio.sleep(1.0)
        cpu0 = cpu_seconds(proc.pid)
        attack = asyncio.ensure_future(flood(guessers, args.per_address, args.insist))
        await asyncio.sleep(1.0)
        during = await sign_in(people[3])
        codes, flood_seconds = await attack
        over.set()
        flooded = summary(await ping_task)
        cpu = cpu_seconds(proc.pid) - cpu0
        for http in people + guessers:
            await http.aclose()
        return {"server": args.src or "this checkout", "quiet_ping_ms": quiet,
                "sign_in_alone_s": [round(s, 3) for s, _ in alone],
                "sign_in_during_flood_s": round(during[0], 3),
                "sign_in_during_flood_status": during[1],
                "flood": {"addresses": args.addresses, "each": args.per_address,
                          "insist": args.insist,
                          "answers_by_status": codes, "seconds_to_last": flood_seconds},
                "server_cpu_s_during_flood": cpu, "flooded_ping_ms": flooded}
    finally:
        proc.terminate()
        proc.wait(10)


def cli() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0, help="the quiet ping phase")
    p.add_argument("--addresses", type=int, default=20)
    p.add_argument("--per-address", type=int, default=10)
    p.add_argument("--insist", action="store_true",
                   help="re-send each guess refused with 503 until it is checked")
    p.add_argument("--src", help="serve this src directory instead (a checkout of main)")
    p.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                   help="passed to cambio serve (last)")
    result = asyncio.run(main(p.parse_args()))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    cli()
