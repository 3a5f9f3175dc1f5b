"""Store commits: how the two backends carry the writes of many busy tables, in one run.

For each backend (SQLite on a temporary file; PostgreSQL in a throwaway cluster started here
with ``fsync=on`` as in production, or ``--postgres URL``) and each table count: that many
simulated tables in one event loop (uvloop, as ``cambio serve``), each storing one action
after another with a random pause (exponential, mean ``--pace`` seconds: a busy bot table
moves about every 0.5-1 s), through the real ``Store.write`` with its group commit. For
``--seconds`` after a second of warm-up it counts:

* actions/s stored, and commits/s (how many writers share one transaction);
* write latency: from ``await store.write`` to its return (what every action waits before
  clients are told), p50 and p99;
* loop lag: how late a 10 ms timer fires, p99 — what a commit costs every *other* table
  (SQLite commits on the event loop; PostgreSQL in a writer thread).

    .venv/bin/python benchmarks/store_commits.py --tables 100,1000,3000 --seconds 10 --repeat 3

Each figure is the mean over ``--repeat`` runs with its 95% interval (Student's t); the
backends take turns within each repeat, so a change in the machine's other load falls on
both alike. The absolute figures move with that load: compare backends within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import uvloop
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cambio.server.store import Store, open_store

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.support.postgres import PostgresCluster  # noqa: E402  (the throwaway cluster)


@dataclass
class Result:
    backend: str
    tables: int
    actions_per_s: float
    commits_per_s: float
    p50_ms: float
    p99_ms: float
    lag_p99_ms: float
    errors: int


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


async def load(store: Store, tables: int, seconds: float, pace: float, seed: int, tag: str
               ) -> tuple[list[float], list[float], int, int, int]:
    """Latencies and loop lags (seconds) measured, actions, commits and errors counted."""
    rng = random.Random(seed)
    latencies: list[float] = []
    lags: list[float] = []
    counts = {"actions": 0, "errors": 0}
    measuring = False
    stop = False

    async def table(n: int) -> None:
        version = 0
        while not stop:
            await asyncio.sleep(rng.expovariate(1 / pace) if pace > 0 else 0)
            version += 1
            t0 = time.perf_counter()
            try:
                await store.write([Store.insert_action(f"{tag}-{n}", 1, 1, version, n % 4,
                                                       "draw")])
            except Exception:
                counts["errors"] += 1
                continue
            if measuring:
                latencies.append(time.perf_counter() - t0)
                counts["actions"] += 1

    async def ticker() -> None:
        while not stop:
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            if measuring:
                lags.append(time.perf_counter() - t0 - 0.01)

    tasks = [asyncio.create_task(table(n)) for n in range(tables)]
    tasks.append(asyncio.create_task(ticker()))
    await asyncio.sleep(1.0)
    measuring = True
    commits0 = store.commits
    await asyncio.sleep(seconds)
    measuring = False
    commits = store.commits - commits0
    stop = True
    await asyncio.gather(*tasks)
    return latencies, lags, counts["actions"], commits, counts["errors"]


def run_one(backend: str, database: str, tables: int, seconds: float, pace: float,
            seed: int, tag: str) -> Result:
    """One run on a database; ``tag`` names its tables (runs may share a database)."""
    store = open_store(database)
    try:
        latencies, lags, actions, commits, errors = uvloop.run(
            load(store, tables, seconds, pace, seed, tag))
    finally:
        store.close()
    return Result(backend, tables, actions / seconds, commits / seconds,
                  1000 * quantile(latencies, 0.50), 1000 * quantile(latencies, 0.99),
                  1000 * quantile(lags, 0.99), errors)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default="100,1000,3000",
                   help="comma-separated table counts")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--pace", type=float, default=0.5,
                   help="mean seconds between two actions of one table (0: no pause)")
    p.add_argument("--backends", default="sqlite,postgres")
    p.add_argument("--postgres", default=None,
                   help="an existing PostgreSQL database URL (default: a throwaway cluster)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each configuration")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    counts = [int(x) for x in args.tables.split(",")]
    backends = args.backends.split(",")
    cluster = None
    if "postgres" in backends and args.postgres is None:
        cluster = PostgresCluster(fsync=True).start()
    results: list[Result] = []
    try:
        with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as bar:
            task = bar.add_task("store commits",
                                total=len(counts) * len(backends) * args.repeat)
            runs = [(tables, r, backend) for tables in counts for r in range(args.repeat)
                    for backend in backends]
            for i, (tables, r, backend) in enumerate(runs):
                if backend == "sqlite":
                    database = str(Path(tmp) / f"bench{i}.sqlite3")
                elif args.postgres is not None:
                    database = args.postgres
                else:
                    assert cluster is not None
                    database = cluster.create_database("bench")
                results.append(run_one(backend, database, tables, args.seconds, args.pace,
                                       args.seed + r, f"run{i}"))
                bar.advance(task)
    finally:
        if cluster is not None:
            cluster.stop()
    if args.json:
        print(json.dumps([r.__dict__ for r in results], indent=1))
        return
    out = Table(title=f"Store commits: {args.seconds:g} s per run, a table's pace "
                      f"{args.pace:g} s on average; mean ± 95% interval of {args.repeat} runs")
    for column in ("backend", "tables", "actions/s", "commits/s", "writes/commit",
                   "write p50 ms", "write p99 ms", "loop lag p99 ms", "errors"):
        out.add_column(column, justify="left" if column == "backend" else "right")
    for tables in counts:
        for backend in backends:
            rs = [r for r in results if r.tables == tables and r.backend == backend]
            per = [r.actions_per_s / r.commits_per_s for r in rs if r.commits_per_s]
            out.add_row(backend, str(tables), interval([r.actions_per_s for r in rs], 0),
                        interval([r.commits_per_s for r in rs], 0), interval(per, 1),
                        interval([r.p50_ms for r in rs], 2), interval([r.p99_ms for r in rs], 1),
                        interval([r.lag_p99_ms for r in rs], 1), str(sum(r.errors for r in rs)))
    Console(width=160).print(out)


T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
"""Student's t for a two-sided 95% interval, by degrees of freedom (1.96 past 9)."""


def interval(values: list[float], digits: int) -> str:
    """``mean ± half-width`` of a 95% interval (just the mean for one value)."""
    if not values:
        return "-"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:,.{digits}f}"
    half = T95.get(len(values) - 1, 1.96) * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:,.{digits}f} ± {half:,.{digits}f}"


if __name__ == "__main__":
    main()
