"""Fixtures of the browser tests: a real ``cambio serve`` process and Debian's chromium.

Each server runs on a free port with its own temporary SQLite file, a fixed seed and fast
bots, so games are reproducible and short. Chromium is Debian's (``/usr/bin/chromium``,
installed by ``scripts/install-test-deps.sh``): Playwright's own browser download is not
used.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from ..support.ports import TAKEN, PortTaken, free_port, serving, start_on_a_free_port, with_port

CHROMIUM = os.environ.get("CAMBIO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT_MS = 30_000
"""How long a page may take to show what a test waits for. Passing runs wait far less; the
margin is for a loaded 2-core machine (bots searching, the rest of the suite running)."""
NO_KERNELS = "--no-warm-kernels"
"""The option of a server whose tests seat no bot that needs numba's kernels (hard and master
at cards, hard at dice): loading them from the cache, in the background from the start, took
each server 2 s of CPU (docs/testing.md, "Tiers and times")."""


class Server:
    """A ``python -m cambio.server`` process on a free port."""

    def __init__(self, tmp: Path, name: str, *options: str) -> None:
        self.port = free_port()
        self.log_path = tmp / f"{name}.log"
        self.db = tmp / f"{name}.sqlite3"
        self.cmd = [sys.executable, "-m", "cambio.server", "--host", "127.0.0.1",
                    "--port", str(self.port), "--db", str(self.db), "--rest-rate", "0",
                    "--ws-connect-rate", "0", "--max-conns-per-address", "0",
                    "--log-level", "warning",
                    # no review worker unless a test asks (tests/server/harness.py says why)
                    "--review-workers", "0", *options]
        self.log = self.log_path.open("w")
        start_on_a_free_port(self.start, self._move)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _move(self, port: int) -> None:
        """To another port: another process took this one before the server could bind."""
        self.port = port
        self.cmd = with_port(self.cmd, port)

    def start(self) -> None:
        """Start the process (again, after :meth:`kill`: same port, same database)."""
        self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                text = self.log_path.read_text()
                raise (PortTaken if TAKEN in text else RuntimeError)(f"the server exited: {text}")
            if serving(self.proc.pid, self.port):
                break
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start in 30 s")
            time.sleep(0.1)

    def api(self, method: str, path: str, body: object | None = None,
            token: str | None = None) -> object:
        """A REST call; returns the parsed JSON (or the text of an NDJSON answer)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=10) as res:
            text = res.read().decode()
            if "ndjson" in res.headers.get("Content-Type", ""):
                return text
            return json.loads(text)

    def wait_finished(self, table: str, seconds: float, every: float = 0.05) -> None:
        """Return once ``table``'s summary says ``finished`` (its finish is stored), asking
        every ``every`` seconds; fail after ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            summary = self.api("GET", f"/api/tables/{table}")
            assert isinstance(summary, dict)
            if summary["status"] == "finished":
                return
            assert time.monotonic() < deadline, f"table {table} did not finish in {seconds} s"
            time.sleep(every)

    def finished_record(self, table: str, seconds: float = 30.0) -> str:
        """A finished game's full record, asked for once the finish is stored. The pages
        show the game-ending action before that write (a finish is booked, results and
        ratings, only once stored), and until then the full record is forbidden."""
        self.wait_finished(table, seconds)
        record = self.api("GET", f"/api/tables/{table}/record")
        assert isinstance(record, str)
        return record

    def kill(self) -> None:
        """``kill -9``: no clean shutdown."""
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Players keep their seats across reloads (a long away timeout); rounds follow quickly."""
    srv = Server(tmp_path_factory.mktemp("web"), "server", "--seed", "11",
                 "--bot-speed", "8", "--round-pause", "1", "--away-after", "120")
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def bots_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A human seat with nobody connected is handed to a bot after 1 s: all-bot games (of
    bots that need no kernels: random, easy, memory, greedy)."""
    srv = Server(tmp_path_factory.mktemp("web"), "bots", "--seed", "5", NO_KERNELS,
                 "--bot-speed", "10", "--round-pause", "1", "--away-after", "1")
    yield srv
    srv.stop()


class Chromium:
    """This worker's Playwright and chromium, kept from one browser test to the next.

    Launching them cost about a second of CPU each time (node's driver, chromium's
    processes), once per browser module when they were module fixtures. Playwright's sync API
    runs an asyncio loop in a greenlet that stays the thread's running loop until Playwright
    stops: any other test's ``asyncio.run()`` meanwhile fails ("cannot be called from a
    running event loop"). So they live only while the tests in a row on this worker use them:
    ``pytest_runtest_teardown`` stops them when the next test does not, or there is none."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def playwright(self) -> Playwright:
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        return self._playwright

    def browser(self) -> Browser:
        if self._browser is None or not self._browser.is_connected():
            if not Path(CHROMIUM).exists():
                pytest.fail(f"{CHROMIUM} is missing: run scripts/install-test-deps.sh "
                            "(installs Debian's chromium)")
            self._browser = self.playwright().chromium.launch(executable_path=CHROMIUM,
                                                              args=CHROMIUM_ARGS)
        return self._browser

    def close_contexts(self) -> None:
        """Close the contexts a test left open: their pages would go on polling the server
        and drawing their clocks until chromium stops (closing the browser did that when it
        was a module fixture)."""
        if self._browser is not None and self._browser.is_connected():
            for ctx in self._browser.contexts:
                ctx.close()

    def stop(self) -> None:
        browser, self._browser = self._browser, None
        playwright, self._playwright = self._playwright, None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


CHROMIUM_HERE = Chromium()

USES_CHROMIUM = {"playwright", "browser"}
"""The fixtures whose tests need :data:`CHROMIUM_HERE` running."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's teardown (its module's fixtures too, when the module ends), close what
    it left open, and stop chromium unless the next test on this worker uses it."""
    yield
    if nextitem is None or not USES_CHROMIUM & set(getattr(nextitem, "fixturenames", ())):
        CHROMIUM_HERE.stop()
    else:
        CHROMIUM_HERE.close_contexts()


@pytest.fixture
def playwright() -> Playwright:
    """Function-scoped, so a test never gets one :meth:`Chromium.stop` has closed (a module's
    tests that use chromium and others that do not may run in any order)."""
    return CHROMIUM_HERE.playwright()


@pytest.fixture
def browser() -> Browser:
    return CHROMIUM_HERE.browser()
