"""Web server load: concurrent card tables of bots over real WebSockets against one server.

One ``cambio serve`` process (its own temporary SQLite file). Each table has three seats:
two are played by bots inside this benchmark, over WebSockets like browsers (a seeded random
policy with bot-like thinking delays, and a snap now and then), and one by a server bot.
Every table is a 20-round match, so it keeps playing. After a warm-up, for ``--seconds``:

* tables held: tables whose clients are all connected and playing;
* actions/s: every accepted action (clients' and server bots'), counted from the updates;
* latency: from a client sending ``act`` to the moment *every* client of that table has
  received the resulting ``update`` (p50, p99, max), over all client actions;
* the server process's CPU share and memory.

    .venv/bin/python benchmarks/server_load.py --tables 1000 --seconds 60 --speed 2

``--workers N`` measures ``cambio serve --workers N --redis … --database postgresql://…``
instead (a throwaway PostgreSQL server and redis-server, started here as the tests start
them), its CPU summed over the front and its workers. ``--knee 1,2`` finds the knee -- the
most tables at p99 <= ``--target`` ms with every table held -- for each of those worker
counts in the same run: table counts grow by ``--step`` from ``--start``, and at each count
every worker count still under the target is measured, back to back, on a fresh server::

    nice -n 10 .venv/bin/python benchmarks/server_load.py --knee 1,2 --seconds 20

(``--knee 0,1,2`` adds the single process on SQLite, ``make run``'s server, as 0.)

Each measurement also reports the CPU-seconds per 1,000 actions of each part -- the server
(with ``--workers N``: the front, and the workers together), PostgreSQL, Redis and this load
generator -- which, unlike the knee, hardly depends on what else runs on the machine.

``--speed`` divides every thinking delay (the server's bots via ``--bot-speed``, and this
benchmark's bots alike): 1 is human-like pace (0.6-1.6 s a move), 2 doubles it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import orjson
import uvloop
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidHandshake
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import WebSocketURI, parse_uri

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Table:
    id: str
    clients: list[Client] = field(default_factory=list)
    pending: dict[tuple[int, int, int], tuple[float, int, str, set[int]]] = field(
        default_factory=dict)
    """(game, round, version) -> (sent at, seat, action, clients that have it)."""
    counted: set[tuple[int, int, int]] = field(default_factory=set)


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    disconnects: int = 0


class Client:
    """One seat's browser stand-in: reads every message, plays its turns after a delay."""

    def __init__(self, table: Table, url: str, seed: int, speed: float, snap_rate: float,
                 stats: Stats) -> None:
        self.table = table
        self.url = url
        self.rng = random.Random(seed)
        self.speed = speed
        self.snap_rate = snap_rate
        self.stats = stats
        self.index = len(table.clients)
        self.seat: int | None = None
        self.ws: Wire | None = None
        self.key: tuple[int, int, int] = (0, 0, -1)
        self.planned: tuple[int, int, int] | None = None
        self.snapped: tuple[int, int, int] | None = None
        self.connected = asyncio.Event()
        self.playing = False

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        wire: Wire | None = None
        try:
            uri = parse_uri(self.url)
            async with asyncio.timeout(60):
                _, wire = await loop.create_connection(lambda: Wire(self, uri), uri.host,
                                                       uri.port)
                await wire.opened
            self.ws = wire
            self.connected.set()
            if not await wire.closed:
                self.stats.disconnects += 1
        except (OSError, InvalidHandshake, TimeoutError):
            self.stats.disconnects += 1
        finally:
            if wire is not None and wire.transport is not None:
                wire.transport.close()
            self.connected.set()
            self.playing = False

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        now = time.perf_counter()
        if kind == "welcome":
            self.seat = msg["seat"]
            return
        if kind == "error":
            code = msg["code"]
            if self.stats.measuring:
                self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
            return
        if kind not in ("state", "update"):
            return
        self.playing = True
        key = (msg["game_no"], msg["round"], msg["version"])
        self.key = key
        t = self.table
        if kind == "update":
            ev = msg["event"]
            if key not in t.counted:
                t.counted.add(key)
                if self.stats.measuring:
                    self.stats.actions += 1
                if len(t.counted) > 64:
                    t.counted.clear()
                    t.counted.add(key)
            pend = t.pending.get(key)
            if pend is not None:
                sent, seat, action, have = pend
                if ev["seat"] == seat and ev["action"] == action:
                    have.add(self.index)
                    if len(have) == len(t.clients):
                        del t.pending[key]
                        if self.stats.measuring:
                            self.stats.latencies.append(now - sent)
                else:
                    del t.pending[key]
        self.plan(msg["view"], key)

    def plan(self, view: dict[str, Any], key: tuple[int, int, int]) -> None:
        if view["phase"] == "round_over":
            return
        legal = view["legal"]
        turn = [a for a in legal if not a.startswith("snap")]
        loop = asyncio.get_running_loop()
        if turn and self.planned != key:
            self.planned = key
            if view["turn_number"] < 4 * view["players"] and len(turn) > 1:
                turn = [a for a in turn if a != "cambio"] or turn
            action = self.rng.choice(turn)
            delay = self.rng.uniform(0.6, 1.6) / self.speed
            loop.call_later(delay, self.send, key, action)
        elif not turn and len(legal) and self.snapped != key[:2] + (len(view["discard"]),) \
                and self.rng.random() < self.snap_rate:
            self.snapped = key[:2] + (len(view["discard"]),)
            action = self.rng.choice(legal)
            loop.call_later(self.rng.uniform(0.3, 2.0) / self.speed, self.send, key, action)

    def send(self, key: tuple[int, int, int], action: str) -> None:
        if self.key != key or self.ws is None:
            return  # the table moved on meanwhile: plan again from the new view
        game_no, round_no, version = key
        self.table.pending[(game_no, round_no, version + 1)] = (
            time.perf_counter(), self.seat if self.seat is not None else -1, action, set())
        self.ws.send(orjson.dumps({"type": "act", "action": action, "version": version}))


class Wire(asyncio.Protocol):
    """One client's WebSocket: ``websockets``' sans-I/O protocol on a transport of the event
    loop. Each message is handed to its client in the transport's callback and each action
    written at once -- no task and no future per message, as the ``websockets`` asyncio
    client has (it cost the load generator about 40% of its CPU), so the generator leaves
    more of the machine to the server it measures."""

    def __init__(self, client: Client, uri: WebSocketURI) -> None:
        self.client = client
        self.protocol = ClientProtocol(uri, max_size=2**22)
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[bool] = loop.create_future()
        """Set when the connection ends: whether it closed normally (1000 or 1001)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if self.protocol.handshake_exc is not None:
                    self.opened.set_exception(self.protocol.handshake_exc)
                else:
                    self.opened.set_result(None)
            elif event.opcode is Opcode.TEXT:
                self.client.on_message(orjson.loads(event.data))
        self._flush()  # pongs, the closing handshake

    def send(self, text: bytes) -> None:
        if self.protocol.state is State.OPEN:
            self.protocol.send_text(text)
            self._flush()

    def _flush(self) -> None:
        assert self.transport is not None
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.transport.write(chunk)
            else:  # the protocol is done with the connection
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.protocol.receive_eof()
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(self.protocol.close_code in (1000, 1001))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_delay(pid: int) -> float:
    """Seconds the process's main thread (the event loop) has waited for a CPU while ready to
    run: how much other programs on the machine got in its way."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def setup_table(http: httpx.AsyncClient, preset: str, sem: asyncio.Semaphore) -> list[str]:
    """A started table (three REST calls); on a dropped connection (a keep-alive connection
    the loaded server closed just as a call went out) a new table is made instead."""
    async with sem:
        for attempt in range(3):
            try:
                return await _setup_table(http, preset)
            except httpx.TransportError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


async def _setup_table(http: httpx.AsyncClient, preset: str) -> list[str]:
    r = await http.post("/api/tables", json={"game": "cards", "players": 3, "rounds": 20,
                                             "name": "a", "rules": {"preset": preset}})
    host = r.json()
    j = (await http.post(f"/api/tables/{host['table']}/join", json={"name": "b"})).json()
    r = await http.post(f"/api/tables/{host['table']}/start", json={"fill": "memory"},
                        headers={"Authorization": f"Bearer {host['token']}"})
    r.raise_for_status()
    return [host["table"], host["token"], j["token"]]


class Backend:
    """Where the measured server keeps its data: its own SQLite file (0 workers: the
    single-process server of ``make run``), or, for ``--workers N``, a throwaway PostgreSQL
    server and redis-server shared by every measurement of the run (a new database and an
    emptied Redis for each)."""

    def __init__(self) -> None:
        self.postgres: Any = None
        self.redis: Any = None

    def args(self, workers: int, tmp: Path) -> list[str]:
        if workers == 0:
            return ["--db", str(tmp / "bench.sqlite3")]
        if self.postgres is None:
            sys.path.insert(0, str(ROOT))
            from tests.cluster.redis_server import RedisServer
            from tests.support.postgres import PostgresCluster

            self.postgres = PostgresCluster().start()
            self.redis = RedisServer(tmp / "redis").start()
        import redis

        with redis.Redis.from_url(self.redis.url) as client:
            client.flushall()
        return ["--database", self.postgres.create_database(), "--redis", self.redis.url,
                "--workers", str(workers)]

    def close(self) -> None:
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (a front and its workers)."""
    out = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                out += process_tree(int(child))
    return out


def postmaster(folder: Path) -> int | None:
    """The PostgreSQL server's main process (its ``postmaster.pid``), if it runs."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int((folder / "postmaster.pid").read_text().split()[0])
    return None


def parts(pid: int, backend: Backend) -> dict[str, list[int]]:
    """The processes whose CPU is counted, by part: the server (with ``--workers N``, the
    front and its workers apart), and the PostgreSQL server and redis-server it uses."""
    tree = process_tree(pid)
    out = {"server": tree[:1], "workers": tree[1:]}
    if backend.postgres is not None:
        main = postmaster(backend.postgres.data)
        out["postgres"] = process_tree(main) if main is not None else []
    if backend.redis is not None and backend.redis.proc is not None:
        out["redis"] = [backend.redis.proc.pid]
    return out


def cpu_by_part(processes: dict[str, list[int]]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for part, pids in processes.items():
        totals[part] = 0.0
        for p in pids:
            with contextlib.suppress(OSError, IndexError, ValueError):
                totals[part] += cpu_seconds(p)
    return totals


def tree_sum(pid: int, measure: Any) -> float:
    total = 0.0
    for p in process_tree(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += measure(p)
    return total


async def run(args: argparse.Namespace, backend: Backend | None = None) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="cambio-bench-"))
    port = free_port()
    backend = backend or Backend()
    store_args = backend.args(args.workers, tmp) if not args.attach else []
    server_cmd = [sys.executable, "-m", "cambio.server", "--port", str(port),
                  *store_args, "--bot-speed", str(args.speed),
                  "--away-after", "3600", "--round-pause", "2", "--rest-rate", "0",
                  # one machine plays every client: no per-address limits
                  "--ws-connect-rate", "0", "--max-conns-per-address", "0",
                  "--max-sockets-per-address", "0",
                  "--seed", str(args.seed), "--log-level", "warning"]
    if args.attach:  # a server started by hand (a profiler, another machine's settings)
        port = args.attach
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1e6)"])
        pid = args.attach_pid or proc.pid
    else:
        proc = subprocess.Popen(server_cmd, cwd=ROOT)
        pid = proc.pid
    stats = Stats()
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(300):
                try:
                    if (await http.get("/api/bots")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            sem = asyncio.Semaphore(16)
            presets = ("rulebook", "house", "wikipedia")
            t0 = time.perf_counter()
            made = await asyncio.gather(*(setup_table(http, presets[i % 3], sem)
                                          for i in range(args.tables)))
            print(f"created {len(made)} tables in {time.perf_counter() - t0:.1f}s",
                  file=sys.stderr)
        tables: list[Table] = []
        tasks = []
        for i, (tid, t0_token, t1_token) in enumerate(made):
            table = Table(tid)
            for k, token in enumerate((t0_token, t1_token)):
                c = Client(table, f"ws://127.0.0.1:{port}/ws/{tid}?token={token}",
                           args.seed * 100_000 + 2 * i + k, args.speed, args.snap_rate, stats)
                table.clients.append(c)
            tables.append(table)
        t0 = time.perf_counter()
        for i in range(0, len(tables), 50):
            for table in tables[i:i + 50]:
                for c in table.clients:
                    tasks.append(asyncio.get_running_loop().create_task(c.run()))
            await asyncio.gather(*(c.connected.wait() for t in tables[i:i + 50]
                                   for c in t.clients))
        print(f"connected {2 * len(tables)} clients in {time.perf_counter() - t0:.1f}s",
              file=sys.stderr)
        # The load generator's own garbage-collector pauses would count as server latency:
        # no cyclic GC in this process while measuring (it runs for a minute at most).
        gc.collect()
        gc.freeze()
        gc.disable()
        await asyncio.sleep(args.warmup)
        held_before = sum(all(c.playing for c in t.clients) for t in tables)
        stats.measuring = True
        measured = parts(pid, backend)  # PostgreSQL's connections are up by now
        actions0 = stats.actions
        by_part0 = cpu_by_part(measured)
        cpu0, w0, mine0 = tree_sum(pid, cpu_seconds), time.perf_counter(), time.process_time()
        wait0 = tree_sum(pid, run_delay)
        await asyncio.sleep(args.seconds)
        cpu1, w1, mine1 = tree_sum(pid, cpu_seconds), time.perf_counter(), time.process_time()
        wait1 = tree_sum(pid, run_delay)
        by_part1 = cpu_by_part(measured)
        actions = stats.actions - actions0
        stats.measuring = False
        held = sum(all(c.playing for c in t.clients) for t in tables)
        rss = tree_sum(pid, rss_mib)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            for p in reversed(process_tree(proc.pid)):
                with contextlib.suppress(OSError):
                    os.kill(p, 9)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    elapsed = w1 - w0
    return {
        "workers": args.workers, "tables": args.tables,
        "tables_held": min(held, held_before), "seconds": elapsed,
        "speed": args.speed, "actions_per_s": stats.actions / elapsed,
        "client_actions_measured": len(lat), "p50_ms": pct(0.50), "p99_ms": pct(0.99),
        "max_ms": lat[-1] * 1000 if lat else float("nan"),
        "server_cpu": (cpu1 - cpu0) / elapsed, "server_rss_mib": rss,
        "server_waited_for_cpu": (wait1 - wait0) / elapsed,
        "clients_cpu": (mine1 - mine0) / elapsed, "load_avg_1m": os.getloadavg()[0],
        # CPU-seconds per 1,000 actions, by process: how much work an action costs each
        # part, whatever else runs on the machine (the knee itself depends on that).
        "cpu_s_per_1000_actions": {
            **{part: 1000 * (by_part1[part] - by_part0[part]) / max(1, actions)
               for part in by_part1},
            "load generator": 1000 * (mine1 - mine0) / max(1, actions)},
        "errors": stats.errors, "disconnects": stats.disconnects,
    }


def passes(result: dict[str, Any], target: float) -> bool:
    """Under the target at p99, with every table held (no client dropped)."""
    return bool(result["p99_ms"] <= target and result["tables_held"] >= result["tables"]
                and result["client_actions_measured"] > 0)


async def knee(args: argparse.Namespace) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The knee of each worker count, measured in turns at each table count."""
    counts = [int(w) for w in args.knee.split(",")]
    best = dict.fromkeys(counts, 0)
    alive = list(counts)
    points: list[dict[str, Any]] = []
    backend = Backend()
    tables = float(args.start)
    try:
        while alive and tables <= args.max:
            for workers in list(alive):
                point = argparse.Namespace(**{**vars(args), "tables": int(tables),
                                              "workers": workers})
                tries = [await run(point, backend) for _ in range(args.repeat)]
                result = min(tries, key=lambda r: (not passes(r, args.target), r["p99_ms"]))
                points.append(result)
                ok = passes(result, args.target)
                print(f"workers {workers} tables {int(tables)}: p99 {result['p99_ms']:.1f} ms, "
                      f"held {result['tables_held']}, load {result['load_avg_1m']:.1f} -> "
                      f"{'pass' if ok else 'over'}", file=sys.stderr)
                if ok:
                    best[workers] = int(tables)
                else:
                    alive.remove(workers)
            tables *= args.step
    finally:
        backend.close()
    return points, best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--workers", type=int, default=0,
                   help="0: one process on SQLite; N: --workers N on PostgreSQL and Redis")
    p.add_argument("--knee", default="",
                   help="comma-separated worker counts whose knee to find in this run (0,1,2)")
    p.add_argument("--target", type=float, default=50.0, help="the knee's p99 bound, ms")
    p.add_argument("--start", type=int, default=200, help="first table count of --knee")
    p.add_argument("--step", type=float, default=1.25, help="table count growth of --knee")
    p.add_argument("--max", type=int, default=5000, help="last table count of --knee")
    p.add_argument("--repeat", type=int, default=1,
                   help="--knee: measure each point this many times and keep the best (other "
                   "load on the machine only ever adds latency)")
    p.add_argument("--plot", type=Path, default=None, help="--knee: p99 against tables")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--speed", type=float, default=2.0)
    p.add_argument("--snap-rate", type=float, default=0.05,
                   help="chance a client snaps a random slot in a window it sees")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--attach", type=int, default=0,
                   help="use a server already listening on this port instead of starting one")
    p.add_argument("--attach-pid", type=int, default=0, help="its process id (for CPU)")
    args = p.parse_args()
    from rich.console import Console

    from cambio.sim.report import results_table

    if args.knee:
        points, best = uvloop.run(knee(args))
        if args.plot:
            plot_knee(points, args.target, args.plot)
        if args.json:
            print(json.dumps({"points": points, "knee": best}))
            return
        rows = [[r["workers"], r["tables"], r["tables_held"], f"{r['p50_ms']:.1f}",
                 f"{r['p99_ms']:.1f}", f"{r['actions_per_s']:.0f}", f"{r['server_cpu']:.2f}",
                 f"{r['clients_cpu']:.2f}", f"{serving_cost(r):.3f}",
                 f"{r['cpu_s_per_1000_actions']['load generator']:.3f}",
                 f"{r['load_avg_1m']:.1f}"] for r in points]
        Console().print(results_table("Web server load: the knee", [
            "workers", "tables", "held", "p50 ms", "p99 ms", "actions/s", "server CPU",
            "clients CPU", "serving CPU s/1k actions", "clients CPU s/1k actions",
            "load 1m"], rows))
        base = best.get(min(best), 0)
        for workers, tables in best.items():
            ratio = f" ({tables / base:.2f}x {min(best)} worker(s))" if base else ""
            print(f"knee, {workers} worker(s): {tables} tables at p99 <= {args.target:g} ms"
                  f"{ratio}")
        return
    backend = Backend()
    try:
        result = uvloop.run(run(args, backend))
    finally:
        backend.close()  # the throwaway PostgreSQL server and redis-server of --workers
    if args.json:
        print(json.dumps(result))
        return
    rows = [[k, v] for k, v in result.items()]
    Console().print(results_table("Web server load", ["measure", "value"], rows))


def serving_cost(result: dict[str, Any]) -> float:
    """CPU-seconds per 1,000 actions of everything that serves: the server's processes,
    and PostgreSQL's and Redis's when they are used."""
    return float(sum(v for k, v in result["cpu_s_per_1000_actions"].items()
                     if k != "load generator"))


def plot_knee(points: list[dict[str, Any]], target: float, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for workers in sorted({r["workers"] for r in points}):
        mine = [r for r in points if r["workers"] == workers]
        label = "1 process, SQLite" if workers == 0 else f"--workers {workers}"
        ax.plot([r["tables"] for r in mine], [r["p99_ms"] for r in mine], "o-", label=label)
    ax.axhline(target, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("bot tables")
    ax.set_ylabel("p99 action latency (ms)")
    ax.set_yscale("log")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
