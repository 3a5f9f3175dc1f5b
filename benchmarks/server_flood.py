"""What a few connections flooding big frames cost another table.

One ``cambio serve`` process (its own temporary SQLite file, the default limits). A player
seated at one table (from 127.0.0.1) sends ``ping`` and waits for its ``pong``, one after
the other, for ``--seconds``: first alone, then while ``--flooders`` anonymous connections
to another table (from 127.0.0.2) send ``--frame`` byte text frames as fast as they can,
reconnecting whenever the server closes them. Reported: the ping's median, p95, p99 and
max in milliseconds, in both phases of the same run, and how many bytes a second the flood
got written (what their sends completed: into the socket's buffers once the server stops
reading them, so after the first second nearly nothing when the server holds them back).

    nice -n 10 .venv/bin/python benchmarks/server_flood.py --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from server_load import free_port

ROOT = Path(__file__).resolve().parents[1]


async def pings(url: str, seconds: float, stop: asyncio.Event | None = None) -> list[float]:
    """Round trips of ``ping`` in ms, back to back, for ``seconds`` (or until ``stop``)."""
    out: list[float] = []
    async with websockets.connect(url, max_size=2**22) as ws:
        async def drain_until_pong() -> None:
            while True:
                if json.loads(await ws.recv()).get("type") == "pong":
                    return

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (stop is not None and stop.is_set()):
            t0 = time.perf_counter()
            await ws.send('{"type":"ping"}')
            await drain_until_pong()
            out.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.06)  # under the 20 messages a second of the rate limit
    return out


async def flooder(url: str, frame: str, stop: asyncio.Event, sent: list[int]) -> None:
    """Big frames as fast as the connection takes them; reconnect when closed."""
    while not stop.is_set():
        try:
            async with websockets.connect(url, max_size=2**22, compression=None,
                                          local_addr=("127.0.0.2", 0)) as ws:
                async def drain() -> None:
                    async for _ in ws:
                        pass

                reader = asyncio.ensure_future(drain())
                try:
                    while not stop.is_set():
                        await ws.send(frame)
                        sent[0] += len(frame)
                finally:
                    reader.cancel()
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            await asyncio.sleep(0.05)


def summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p * len(ms)))]

    return {"pings": len(ms), "median": statistics.median(ms), "p95": pct(0.95),
            "p99": pct(0.99), "max": ms[-1]}


async def main(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="cambio-flood-"))
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cambio.server", "--port", str(port),
                             "--db", str(tmp / "flood.sqlite3"), "--log-level", "warning",
                             *args.server_args], cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/bots")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            mine = (await http.post("/api/tables", json={"game": "cards", "players": 2})).json()
            other = (await http.post("/api/tables", json={"game": "cards", "players": 2})).json()
        player = f"ws://127.0.0.1:{port}/ws/{mine['table']}?token={mine['token']}"
        quiet = summary(await pings(player, args.seconds))
        print(f"alone: {quiet}", file=sys.stderr)
        stop = asyncio.Event()
        sent = [0]
        frame = json.dumps({"type": "chat", "text": "x" * max(0, args.frame - 30)})
        flood = [asyncio.ensure_future(flooder(f"ws://127.0.0.1:{port}/ws/{other['table']}",
                                               frame, stop, sent))
                 for _ in range(args.flooders)]
        await asyncio.sleep(1.0)  # the flood is on
        sent[0] = 0
        t0 = time.monotonic()
        flooded = summary(await pings(player, args.seconds))
        rate = sent[0] / (time.monotonic() - t0)
        stop.set()
        for task in flood:  # a send the server holds back (it stopped reading) never ends
            task.cancel()
        await asyncio.gather(*flood, return_exceptions=True)
        return {"quiet": quiet, "flooded": flooded, "flood_written_mib_per_s": rate / 2**20,
                "flooders": args.flooders, "frame": len(frame)}
    finally:
        proc.terminate()
        proc.wait(10)


def cli() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--flooders", type=int, default=8)
    p.add_argument("--frame", type=int, default=60_000, help="bytes of each flood frame")
    p.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                   help="passed to cambio serve (last)")
    result = asyncio.run(main(p.parse_args()))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    cli()
