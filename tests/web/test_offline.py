"""The installable app and solo play with no network, in Debian's chromium.

Servers of this module's own (one is killed: nothing can reach it), one browser. The
lobby is installable (chromium's own criteria, over CDP); the solo page loads the engine
once, then with the browser offline *and* the server gone the page still opens, plays a
whole round against two bots and saves its record, which ``cambio replay`` replays to the
same scores, and which the server's engine (CPython, compiled where it is) plays to the
same messages the page got from Pyodide. ``cambio build-web`` output, served by
``python -m http.server``, plays a round too.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright

from cambio.cards import Rules
from cambio.records.jsonl import parse_record
from cambio.server import offline
from tests.support.cards_table import card_session

from ..support.ports import free_port
from .conftest import CHROMIUM, CHROMIUM_ARGS, NO_KERNELS, WAIT_MS, Server
from .driver import new_page, open_page, play_until, wait_async
from .test_cards_game import grids

ENGINE_MS = 90_000
"""Loading Pyodide (13.5 MB) and starting Python: seconds alone, more on a loaded machine."""
SEED = 2026
FINISHED = ".solo-root[data-status=finished]"


@pytest.fixture(scope="module")
def pyodide() -> Path:
    """Pyodide in its cache (downloaded from the npm registry the first time)."""
    return offline.fetch_pyodide(quiet=True)


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory, pyodide: Path) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("offline"), "offline", "--seed", "3", NO_KERNELS)
    yield srv
    srv.stop()


def wait_engine(page: Page) -> None:
    page.wait_for_selector(".solo-root[data-engine=ready], .solo-root[data-engine=failed]",
                           timeout=ENGINE_MS)
    assert page.get_attribute(".solo-root", "data-engine") == "ready", \
        page.text_content("#engine-status")


def deal(page: Page, bot: str = "random", bots: str = "2") -> None:
    page.select_option("#solo-opponents", bots)
    page.select_option("#solo-bot", bot)
    page.click("#solo-start")
    page.wait_for_selector(".cards-game[data-version]")


def play_round(page: Page) -> None:
    play_until({"ann": page}, lambda: page.locator(FINISHED).count() > 0, call_after=3)


def last_end(page: Page) -> dict[str, Any]:
    messages: list[dict[str, Any]] = page.evaluate("() => window.cambioSolo.messages")
    ends = [m["event"]["end"] for m in messages if m["type"] == "update" and "end" in m["event"]]
    assert len(ends) == 1
    end: dict[str, Any] = ends[0]
    return end


def test_the_lobby_is_installable(playwright: Playwright, own_server: Server,
                                  tmp_path: Path) -> None:
    # A persistent profile: chromium never offers to install from an incognito one.
    ctx = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = open_page(ctx)
        page.goto(own_server.base + "/")
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        cdp = ctx.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest["errors"], manifest["errors"]
        data = json.loads(manifest["data"])
        assert data["display"] == "standalone" and data["theme_color"]
        sizes = {(i["sizes"], i.get("purpose", "any")) for i in data["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
        # The worker's cache is this build's.
        keys = page.evaluate("() => caches.keys()")
        assert f"cambio-{offline.build_id()}" in keys
        # The installed app has its lobby keep the engine (solo offline without ever having
        # opened /solo); here asked for directly, as a browser tab is not "installed".
        assert page.evaluate("() => import('/static/offline/pwa.js').then((m) => m.keepEngine())")
        kept = page.evaluate("""async (name) => {
          const cache = await caches.open(name);
          return Promise.all((await cache.keys()).map(async (r) =>
            [r.url.split('/').pop(), (await (await cache.match(r)).arrayBuffer()).byteLength]));
        }""", f"cambio-engine-{offline.PYODIDE_PATH}")
        folder = offline.pyodide_dir()
        assert folder is not None
        assert dict(kept) == {n: (folder / n).stat().st_size for n in offline.PYODIDE_FILES}
    finally:
        ctx.close()


def test_a_solo_round_with_no_network_and_no_server(browser: Browser, pyodide: Path,
                                                    tmp_path: Path) -> None:
    # killed below: this test's own
    own_server = Server(tmp_path, "solo", "--seed", "4", NO_KERNELS)
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860},
                                   "accept_downloads": True})
    try:
        url = f"{own_server.base}/solo?speed=100&seed={SEED}"
        page.goto(url)
        wait_engine(page)   # the first load: the engine comes from the server, and is kept
        # Offline: the browser's network off, and the server gone for good.
        ctx.set_offline(True)
        own_server.kill()
        # The lobby cannot work offline: it lands on the solo page, which says so.
        page.goto(own_server.base + "/")
        assert page.url == own_server.base + "/solo?offline=1"
        assert "You are offline" in page.inner_text("#offline-note")
        page.goto(url)
        wait_engine(page)
        deal(page)
        # The buttons under the table are only buttons (a missing one once showed as "null").
        assert page.inner_text(".solo-actions").split() == ["Save", "the", "record", "New", "game"]
        play_round(page)
        assert "null" not in page.inner_text(".solo-actions")
        with page.expect_download() as download:
            page.click("#export")
        path = tmp_path / "solo.jsonl"
        download.value.save_as(path)
        end = last_end(page)
        # The replay viewer, offline too, in a tab of its own, steps to the same end.
        with ctx.expect_page() as opened:
            page.click("#solo-replay")
        replay = opened.value
        replay.wait_for_selector("#replay-step")
        assert replay.inner_text("#replay-step").startswith("0 /")
        replay.click("#replay-last")
        total = replay.inner_text("#replay-step").split("/")[1].strip()
        assert replay.inner_text("#replay-step").startswith(f"{total} /")
        shown = grids(replay)
        assert [shown[str(s)] for s in range(3)] == end["grids"]
        replay.close()
        settings = page.evaluate("() => window.cambioSolo.settings")
        messages = page.evaluate("() => window.cambioSolo.messages")
    finally:
        ctx.close()
        own_server.stop()

    # The saved record replays to the same scores.
    done = subprocess.run([sys.executable, "-m", "cambio.cli.main", "replay", "--json",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    replayed = json.loads(done.stdout)
    assert replayed["validated"] and replayed["over"]
    assert replayed["scores"] == end["scores"] and replayed["winners"] == end["winners"]

    # The server's engine, from the same seed and the same actions, makes the same game:
    # every view and event the page got from Pyodide, the same.
    record = parse_record(path.read_text())
    assert settings["seed"] == SEED and len(record.header["players"]) == 3
    session = card_session(Rules.from_json(record.header["rules"]), 3, SEED, 1, f"solo-{SEED}")
    session.deal(record.header)
    states = [m for m in messages if m["type"] == "state"]
    assert states[0]["view"] == session.view(0)
    for msg in (m for m in messages if m["type"] == "update"):
        applied = session.play(msg["event"]["seat"], msg["event"]["action"], session.version)
        assert (applied.event(0), session.view(0)) == (msg["event"], msg["view"])
    assert session.round_over()


RELOAD_JS = """async (protocol) => {
  const { TableConnection } = await import('/static/conn.js');
  let welcomed = false;
  const noop = () => {};
  const conn = new TableConnection('x', null, {
    welcome: () => { welcomed = true; }, status: noop, state: noop,
  });
  conn.receive({ type: 'welcome', seat: null, protocol });
  return welcomed ? 'stayed' : 'reloading';
}"""


def test_a_page_meeting_another_protocol_reloads_once(browser: Browser,
                                                      own_server: Server) -> None:
    ctx, page = new_page(browser, {})
    try:
        page.goto(own_server.base + "/")
        assert page.evaluate(RELOAD_JS, 2) == "stayed"        # this client's own version
        page.evaluate("() => { window.__before = 1; }")
        with page.expect_navigation():
            assert page.evaluate(RELOAD_JS, 3) == "reloading"
        assert page.evaluate("() => window.__before") is None   # a fresh page
        # The same answer again (a server that really is another version): no reload loop.
        assert page.evaluate(RELOAD_JS, 3) == "stayed"
    finally:
        ctx.close()


def build_site(out: Path) -> None:
    built = subprocess.run([sys.executable, "-m", "cambio.cli.main", "build-web", str(out)],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr


def serve_folder(out: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m http.server`` on ``out``: the process and its address."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                             "127.0.0.1", "--directory", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/", timeout=1):
                return proc, base
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError("python -m http.server did not start") from None
            time.sleep(0.1)


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory, pyodide: Path) -> Iterator[str]:
    """``cambio build-web`` output served by ``python -m http.server``."""
    out = tmp_path_factory.mktemp("site")
    build_site(out)
    proc, base = serve_folder(out)
    yield base
    proc.terminate()
    proc.wait(10)


def test_a_release_replaces_the_cache(browser: Browser, pyodide: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out)
    proc, base = serve_folder(out)
    ctx, page = new_page(browser, {})
    try:
        # A page that does not load the engine; the worker registered as the lobby does.
        page.goto(base + "/static/offline/replay.html?local=1")
        page.evaluate("() => navigator.serviceWorker.register('/sw.js')")
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        build = offline.build_id()
        assert f"cambio-{build}" in page.evaluate("() => caches.keys()")
        # The next release: another build, a file changed.
        sw = out / "sw.js"
        sw.write_text(sw.read_text().replace(json.dumps(build), json.dumps(f"{build}-next")))
        css = out / "static" / "app.css"
        css.write_text(css.read_text() + "\n/* the next release */\n")
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        deadline = time.monotonic() + WAIT_MS / 1000
        while page.evaluate("() => caches.keys()").count(f"cambio-{build}") \
                or f"cambio-{build}-next" not in page.evaluate("() => caches.keys()"):
            assert time.monotonic() < deadline, page.evaluate("() => caches.keys()")
            page.wait_for_timeout(100)
        # The page is the new worker's at once, and gets the new file (from its cache).
        wait_async(page, "() => fetch('../app.css').then((r) => r.text())"
                         ".then((t) => t.includes('next release'))")
    finally:
        ctx.close()
        proc.terminate()
        proc.wait(10)


def test_the_static_build_plays_a_solo_round(browser: Browser, static_site: str) -> None:
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}})
    try:
        page.goto(static_site + "/?speed=100")
        assert "Multiplayer needs a Cambio server" in page.inner_text("#solo-setup")
        wait_engine(page)
        deal(page, bot="expert", bots="1")
        play_round(page)
        end = last_end(page)
        assert len(end["scores"]) == 2
        assert page.locator("#export:not([disabled])").count() == 1
    finally:
        ctx.close()
