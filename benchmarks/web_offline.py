"""The offline client's first load and later loads: bytes, and time to the first dealt card.

Starts ``cambio serve`` (a temporary database) behind a throttling TCP proxy (a 4G profile:
every byte the browser gets or sends, from the page, its engine's worker and the service
worker alike, waits its turn on one shared link, plus half a round trip each way, and each
new connection a round trip), then Debian's chromium opens ``/solo`` through the proxy in a
fresh profile and presses **Deal** at once (the page deals as soon as the engine is ready):

* bytes the server sent until the first card is dealt (gzipped where it gzips);
* time from navigation to the first dealt card (``.cards-game[data-version]``), and the
  engine's load (fetching and starting Pyodide and the Python bundle, from when the page
  made the worker: its ``data-engine-ms``);
* the same for a second load of the same profile (the service worker's caches: the engine
  is not downloaded again).

    .venv/bin/python benchmarks/web_offline.py --profile fast4g --repeat 3

Profiles: ``fast4g`` is DevTools' "Fast 4G" (9 Mbit/s down, 1.5 up, 165 ms round trip:
60 ms times DevTools' 2.75); ``slow4g`` is Lighthouse's mobile one (1.6 Mbit/s down,
750 kbit/s up, 562.5 ms). CPU is not throttled: the figures include this machine's speed and
its other load. Needs Pyodide in its cache (``cambio fetch-pyodide``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, sync_playwright

from cambio.server import offline

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The browser tests' server process and chromium settings (as scripts/web_screenshots.py).
from tests.support.ports import free_port  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

PROFILES = {
    "fast4g": {"rtt": 0.165, "down": 9e6 / 8, "up": 1.5e6 / 8},
    "slow4g": {"rtt": 0.5625, "down": 1.6e6 / 8, "up": 750e3 / 8},
}
"""Round trip (s), and bytes per second each way."""


class Link:
    """One direction of the throttled link: bytes leave one after another at ``rate``, and
    arrive half a round trip later."""

    def __init__(self, rate: float, rtt: float) -> None:
        self.rate = rate
        self.half = rtt / 2
        self.free = 0.0
        self.bytes = 0

    def arrival(self, size: int, now: float) -> float:
        self.free = max(self.free, now) + size / self.rate
        self.bytes += size
        return self.free + self.half


class Proxy:
    """A TCP proxy on a free port that throttles everything to ``profile``, in a thread."""

    def __init__(self, upstream: int, profile: dict[str, float]) -> None:
        self.upstream = upstream
        self.rtt = profile["rtt"]
        self.down = Link(profile["down"], self.rtt)
        self.up = Link(profile["up"], self.rtt)
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait()

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", self.port))
        started.set()
        self.loop.run_forever()
        server.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    link: Link) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                at, data = await queue.get()
                if not data:
                    break
                await asyncio.sleep(max(0.0, at - self.loop.time()))
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(deliver())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((link.arrival(len(data), self.loop.time()), data))
        except OSError:
            pass
        queue.put_nowait((0.0, b""))
        await sender

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(self.rtt)  # the TCP handshake
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer, self.up),
                             self._pipe(up_reader, writer, self.down),
                             return_exceptions=True)

    def stop(self) -> None:
        def halt() -> None:
            for task in asyncio.all_tasks(self.loop):
                task.cancel()
            self.loop.call_soon(self.loop.stop)

        self.loop.call_soon_threadsafe(halt)
        self.thread.join(5)


def load_once(ctx: BrowserContext, url: str, proxy: Proxy) -> dict[str, Any]:
    """One visit of the solo page in ``ctx``: seconds to the first dealt card, bytes."""
    before = proxy.down.bytes
    page = ctx.new_page()
    start = time.monotonic()
    page.goto(url, timeout=600_000)
    page.click("#solo-start", timeout=600_000)
    page.wait_for_selector(".cards-game[data-version]", timeout=600_000)
    dealt = time.monotonic() - start
    engine_ms = float(page.get_attribute(".solo-root", "data-engine-ms") or "nan")
    page.close()
    return {"dealt_s": dealt, "engine_s": engine_ms / 1000, "bytes": proxy.down.bytes - before}


def run(profile_name: str, repeat: int) -> dict[str, Any]:
    offline.fetch_pyodide(quiet=True)
    first: list[dict[str, Any]] = []
    later: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), "bench")
        proxy = Proxy(server.port, PROFILES[profile_name])
        # "localhost" is a secure origin (service workers), and chromium does not bypass a
        # proxy for it: it is the proxy itself here, so nothing needs bypassing.
        url = f"http://localhost:{proxy.port}/solo"
        try:
            with sync_playwright() as p:
                for i in range(repeat):
                    ctx = p.chromium.launch_persistent_context(
                        str(Path(tmp) / f"profile-{i}"), executable_path=CHROMIUM,
                        args=CHROMIUM_ARGS)
                    first.append(load_once(ctx, url, proxy))
                    later.append(load_once(ctx, url, proxy))
                    ctx.close()
        finally:
            proxy.stop()
            server.stop()
    return {"profile": profile_name, "repeat": repeat, "first": first, "later": later}


def show(result: dict[str, Any]) -> None:
    print(f"profile {result['profile']}, {result['repeat']} fresh profiles")
    for name in ("first", "later"):
        rows = result[name]
        dealt = [r["dealt_s"] for r in rows]
        engine = [r["engine_s"] for r in rows]
        mb = statistics.median(r["bytes"] for r in rows) / 1e6
        print(f"  {name:5} load: first dealt card {statistics.median(dealt):5.1f} s "
              f"(min {min(dealt):.1f}, max {max(dealt):.1f}); engine start "
              f"{statistics.median(engine):.1f} s; {mb:.2f} MB from the server")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="fast4g")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    result = run(args.profile, args.repeat)
    if args.json:
        print(json.dumps(result))
    show(result)


if __name__ == "__main__":
    main()
