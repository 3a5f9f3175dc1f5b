"""Soak: bot tables on one server for N minutes; WAL size, memory and latency over time.

One ``cambio serve`` process on a temporary SQLite file. ``--tables`` card tables of four
seats play 20-round matches: the host's seat is handed to the away bot after a second, the
three others are server bots, and a finished table is dealt again at once, so the server
writes actions without pause for the whole run. One spectator per table sends a ``ping``
every 0.2 s; the time to its ``pong`` is the latency (it waits behind whatever the event
loop is doing: commits, replays, other tables). Every ``--sample`` seconds the benchmark
records the WAL file's size, the database file's size, the server's resident memory, the
actions stored so far, and the p50/p99/max of the pings of that interval.

    .venv/bin/python benchmarks/soak.py --minutes 10 --tables 30

At the end: a table of the samples, ``--json`` (every sample) and ``--plot`` (three panels
over time). The run fails (exit 1) if the WAL ever exceeded ``--wal-bound`` MiB (default:
the store's truncate threshold plus the writes of a few seconds; docs/server.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cambio.server.store.sqlite import WAL_LIMIT
from server_load import free_port, rss_mib

ROOT = Path(__file__).resolve().parents[1]
MIB = 1 << 20


def size_mib(path: Path) -> float:
    try:
        return path.stat().st_size / MIB
    except OSError:
        return 0.0


def stored_actions(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as c:
        return int(c.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def keep_dealing(http: httpx.AsyncClient, tables: dict[str, str], stop: asyncio.Event
                       ) -> None:
    """A finished match is dealt again (the host asks), so every table keeps writing."""
    while not stop.is_set():
        for tid, token in tables.items():
            r = await http.get(f"/api/tables/{tid}")
            if r.status_code == 200 and r.json()["status"] == "finished":
                await http.post(f"/api/tables/{tid}/again",
                                headers={"Authorization": f"Bearer {token}"})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 2.0)


async def pinger(url: str, rtts: list[float], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**24) as ws:
        sent: float | None = None

        async def reader() -> None:
            nonlocal sent
            async for raw in ws:
                if sent is not None and '"pong"' in str(raw)[:20]:
                    rtts.append(time.perf_counter() - sent)
                    sent = None

        task = asyncio.create_task(reader())
        try:
            while not stop.is_set():
                if sent is None:
                    sent = time.perf_counter()
                    await ws.send('{"type":"ping"}')
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.2)
        finally:
            task.cancel()


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    tmp = Path(tempfile.mkdtemp(prefix="cambio-soak-"))
    db = tmp / "soak.sqlite3"
    port = free_port()
    cmd = [sys.executable, "-m", "cambio.server", "--port", str(port), "--db", str(db),
           "--bot-speed", str(args.bot_speed), "--away-after", "1", "--round-pause", "0.5",
           "--rest-rate", "0", "--ws-connect-rate", "0", "--max-conns-per-address", "0",
           "--max-sockets-per-address", "0",
           "--seed", str(args.seed), "--log-level", "warning"]
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    samples: list[dict[str, Any]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/bots")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            tables: dict[str, str] = {}
            for _ in range(args.tables):
                host = (await http.post("/api/tables", json={
                    "game": "cards", "players": 4, "rounds": 20,
                    "rules": {"preset": "house"}})).json()
                await http.post(f"/api/tables/{host['table']}/start", json={"fill": "memory"},
                                headers={"Authorization": f"Bearer {host['token']}"})
                tables[host["table"]] = host["token"]
            stop = asyncio.Event()
            rtts: list[float] = []
            tasks = [asyncio.create_task(keep_dealing(http, tables, stop))]
            tasks += [asyncio.create_task(pinger(f"ws://127.0.0.1:{port}/ws/{tid}", rtts, stop))
                      for tid in tables]
            t0 = time.monotonic()
            total = args.minutes * 60.0
            with Progress(TextColumn("[bold]soak[/bold]"), BarColumn(),
                          TextColumn("{task.fields[note]}"), TimeRemainingColumn()) as bar:
                job = bar.add_task("soak", total=total, note="")
                while (elapsed := time.monotonic() - t0) < total:
                    await asyncio.sleep(min(args.sample, total - elapsed))
                    window, rtts[:] = rtts[:], []
                    sample = {
                        "minute": round((time.monotonic() - t0) / 60, 2),
                        "actions": stored_actions(db),
                        "wal_mib": round(size_mib(tmp / "soak.sqlite3-wal"), 2),
                        "db_mib": round(size_mib(db), 2),
                        "rss_mib": round(rss_mib(proc.pid), 1),
                        "pings": len(window),
                        "p50_ms": round(1000 * quantile(window, 0.5), 1),
                        "p99_ms": round(1000 * quantile(window, 0.99), 1),
                        "max_ms": round(1000 * max(window, default=float("nan")), 1),
                    }
                    samples.append(sample)
                    bar.update(job, completed=time.monotonic() - t0,
                               note=f"{sample['actions']} actions · WAL {sample['wal_mib']} MiB"
                                    f" · RSS {sample['rss_mib']} MiB · p99 "
                                    f"{sample['p99_ms']} ms")
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return samples


def report(samples: list[dict[str, Any]], args: argparse.Namespace) -> bool:
    console = Console()
    table = Table(title=f"soak: {args.tables} tables, bot speed {args.bot_speed}")
    for key in samples[0]:
        table.add_column(key, justify="right")
    for s in samples:
        table.add_row(*(str(v) for v in s.values()))
    console.print(table)
    worst = max(s["wal_mib"] for s in samples)
    minutes = samples[-1]["minute"] or 1.0
    rate = samples[-1]["actions"] / minutes / 60
    p99s = [s["p99_ms"] for s in samples if s["pings"]]
    console.print(f"{samples[-1]['actions']} actions in {minutes} min ({rate:.0f}/s); WAL max "
                  f"{worst} MiB (bound {args.wal_bound} MiB); RSS {samples[0]['rss_mib']} -> "
                  f"{samples[-1]['rss_mib']} MiB; p99 median over samples "
                  f"{statistics.median(p99s) if p99s else float('nan')} ms; load "
                  f"{os.getloadavg()[0]:.1f}")
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                         "samples": samples}, indent=1))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        x = [s["minute"] for s in samples]
        fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
        axes[0].plot(x, [s["wal_mib"] for s in samples], label="WAL file")
        axes[0].plot(x, [s["db_mib"] for s in samples], label="database file")
        axes[0].axhline(args.wal_bound, color="grey", linestyle="--", label="WAL bound")
        axes[0].set_ylabel("MiB")
        axes[0].legend()
        axes[1].plot(x, [s["rss_mib"] for s in samples], color="tab:green")
        axes[1].set_ylabel("server RSS, MiB")
        axes[2].plot(x, [s["p50_ms"] for s in samples], label="p50")
        axes[2].plot(x, [s["p99_ms"] for s in samples], label="p99")
        axes[2].set_ylabel("ping, ms")
        axes[2].set_xlabel("minutes")
        axes[2].legend()
        fig.suptitle(f"soak: {args.tables} bot tables, {samples[-1]['actions']} actions")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=90)
    return worst <= args.wal_bound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--bot-speed", type=float, default=20.0,
                        help="the server's --bot-speed: bots' delays divided by this")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wal-bound", type=float, default=WAL_LIMIT / MIB + 8,
                        help="MiB the WAL must stay under (the truncate threshold + 8)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    samples = asyncio.run(run(args))
    if not samples:
        raise SystemExit("no samples: run for longer than --sample seconds")
    raise SystemExit(0 if report(samples, args) else 1)


if __name__ == "__main__":
    main()
