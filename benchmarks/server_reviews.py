"""What the review pool costs everyone else: the lobby's longest gap while N reviews run.

Two ``cambio serve`` processes in turn on one temporary SQLite file. The first, with no
review worker (``--review-workers 0``), plays ``--tables`` card tables of ``--rounds``
rounds each to the end (the host never comes: after ``--away-after`` its away bot plays
its seat, against ``memory``), and the benchmark then queues the review of seat 1 of every
round: ``tables x rounds`` reviews of rounds played as bots play them. The second serves
the same database with ``--workers`` review processes at the default budget (or
``--budget``): a client polls the lobby (``GET /api/tables``) back to back, 10 ms apart,
for ``--quiet`` seconds with the queue held (the reviews are queued only then), then
while every review runs, until the store holds them all, then as long again (at most
``--control`` seconds) with the pool idle: the control, a window as long as the queue's.
Reported: the lobby's gaps (max, p99, median) in the three windows, each review's CPU
seconds (median, p95, as the worker measured them), the wall time of the queue, the server
process's own CPU seconds meanwhile (its event loop and threads; the workers are other
processes), and the load average.

    nice -n 10 .venv/bin/python benchmarks/server_reviews.py --tables 4 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from server_first_hard import Lobby
from server_load import cpu_seconds, free_port

ROOT = Path(__file__).resolve().parents[1]


class Served:
    """One ``cambio serve`` on the benchmark's database."""

    def __init__(self, db: Path, log: Path, extra: list[str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cambio.server", "--port", str(self.port), "--db",
                 str(db), "--log-level", "warning", "--rest-rate", "0", "--bot-speed", "40",
                 "--round-pause", "0.1", "--no-warm-kernels", *extra],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)

    async def ready(self, http: httpx.AsyncClient) -> None:
        for _ in range(600):
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/api/bots")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


async def play_tables(db: Path, log: Path, tables: int, rounds: int) -> None:
    server = Served(db, log, ["--review-workers", "0", "--away-after", "1"])
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
            await server.ready(http)
            ids = []
            for _ in range(tables):
                host = (await http.post("/api/tables", json={
                    "game": "cards", "players": 2, "rounds": rounds, "name": "Ann",
                    "rules": {"preset": "rulebook", "overrides": {}}})).json()
                r = await http.post(f"/api/tables/{host['table']}/start",
                                    json={"fill": "memory"},
                                    headers={"Authorization": f"Bearer {host['token']}"})
                assert r.status_code == 200, r.text
                ids.append(host["table"])
            deadline = time.monotonic() + 1800
            while ids and time.monotonic() < deadline:
                await asyncio.sleep(1.0)
                ids = [t for t in ids
                       if (await http.get(f"/api/tables/{t}")).json()["status"] != "finished"]
    finally:
        server.stop()


def rows(db: Path, text: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db, timeout=30) as raw:
        return list(raw.execute(text))


async def review_all(db: Path, log: Path, args: argparse.Namespace) -> dict[str, Any]:
    # The bot seat's review of every round, held back (status 'held') while the lobby is
    # measured alone, then queued.
    with sqlite3.connect(db, timeout=30) as raw:
        raw.execute("DELETE FROM reviews")
        raw.execute("INSERT INTO reviews (table_id, game_no, round_no, seat, status, created) "
                    "SELECT table_id, game_no, round_no, 1, 'held', 0 FROM rounds")
    total = rows(db, "SELECT COUNT(*) FROM reviews")[0][0]
    extra = ["--review-workers", str(args.workers)]
    if args.budget:
        extra += ["--review-budget", str(args.budget)]
    server = Served(db, log, extra)
    load_before = os.getloadavg()[0]
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
            await server.ready(http)
            lobby = Lobby(http)
            poller = asyncio.ensure_future(lobby.run())
            t_quiet = time.perf_counter()
            await asyncio.sleep(args.quiet)
            cpu0 = cpu_seconds(server.proc.pid)
            with sqlite3.connect(db, timeout=30) as raw:
                raw.execute("UPDATE reviews SET status = 'queued'")
            t_start = time.perf_counter()
            deadline = time.monotonic() + args.limit
            while time.monotonic() < deadline:
                await asyncio.sleep(0.5)
                done = rows(db, "SELECT COUNT(*) FROM reviews WHERE status IN "
                                "('done', 'failed')")[0][0]
                if done >= total:
                    break
            t_end = time.perf_counter()
            cpu = cpu_seconds(server.proc.pid) - cpu0
            # The control: as long again with the pool idle (the machine's load is not ours
            # to hold still; a window as long as the queue's is what its longest gap is
            # compared with).
            await asyncio.sleep(min(t_end - t_start, args.control))
            t_after = time.perf_counter()
            lobby.stop.set()
            await poller
    finally:
        server.stop()
    cpus = sorted(r[0] for r in rows(db, "SELECT cpu FROM reviews WHERE status = 'done'"))
    failed = rows(db, "SELECT COUNT(*) FROM reviews WHERE status = 'failed'")[0][0]
    decisions = [r[0] for r in rows(db, "SELECT decisions FROM reviews WHERE status = 'done'")]
    return {"reviews": total, "done": len(cpus), "failed": failed, "workers": args.workers,
            "budget": args.budget or "default (4096 rollouts)",
            "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
            "lobby_quiet": lobby.gaps(t_quiet, t_start),
            "lobby_while_reviews_run": lobby.gaps(t_start, t_end),
            "lobby_after_as_long_idle": lobby.gaps(t_end, t_after),
            "review_cpu_s": {"median": round(statistics.median(cpus), 2),
                             "p95": round(cpus[min(len(cpus) - 1,
                                                   int(0.95 * len(cpus)))], 2)}
            if cpus else None,
            "decisions_per_review_median": statistics.median(decisions) if decisions else None,
            "queue_wall_s": round(t_end - t_start, 1),
            "server_process_cpu_s": round(cpu, 2)}


async def main(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="cambio-reviews-"))
    db, log = tmp / "reviews.sqlite3", tmp / "server.log"
    await play_tables(db, log, args.tables, args.rounds)
    return await review_all(db, log, args)


def cli() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--rounds", type=int, default=5, help="rounds of each table's match")
    p.add_argument("--workers", type=int, default=1, help="review processes")
    p.add_argument("--budget", type=int, default=None, help="rollouts per decision")
    p.add_argument("--quiet", type=float, default=30.0, help="seconds of lobby alone first")
    p.add_argument("--limit", type=float, default=1800.0, help="give up after these seconds")
    p.add_argument("--control", type=float, default=600.0,
                   help="most seconds of the idle window measured after the reviews")
    print(json.dumps(asyncio.run(main(p.parse_args())), indent=2))


if __name__ == "__main__":
    cli()
