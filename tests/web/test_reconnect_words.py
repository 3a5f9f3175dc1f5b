"""The connection badge says what is happening and when the page tries next: killed, the
server leaves the page "connection lost · reconnecting in N s" (or
"now"), then "reconnecting… (try N)"; back, it says "online"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import NO_KERNELS, WAIT_MS, Server
from .driver import SIZES, bot_game

OFFLINE = re.compile(r"^(connection lost|server restarting) · reconnecting (in \d+ s|now)$")


@pytest.fixture
def lone_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(Path(tmp_path_factory.mktemp("conn")), "conn", "--seed", "4", NO_KERNELS,
                 "--bot-speed", "8", "--away-after", "120")
    yield srv
    srv.stop()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_badge_says_why_and_when_it_retries(browser: Browser, lone_server: Server,
                                                size: str) -> None:
    ctx, page = bot_game(browser, lone_server.base, size)
    try:
        page.wait_for_selector(".badge.conn-open")
        # Every text the badge shows while the server is down, as the page shows it.
        page.evaluate("() => { window.__conn = []; new MutationObserver(() => {"
                      " const b = document.getElementById('conn');"
                      " if (b) window.__conn.push(b.textContent);"
                      " const right = [...document.querySelectorAll('.topbar button,"
                      " .topbar a.button'), document.documentElement]"
                      "   .map((e) => Math.max(e.getBoundingClientRect().right, e.scrollWidth));"
                      " window.__right = Math.max(window.__right || 0, ...right); })"
                      ".observe(document.getElementById('badges'),"
                      " { childList: true, subtree: true, characterData: true }); }")
        lone_server.kill()
        page.wait_for_selector(".badge.conn-offline")
        page.wait_for_function("() => window.__conn.some((t) =>"
                               " t.startsWith('reconnecting… (try '))", timeout=WAIT_MS)
        texts: list[str] = page.evaluate("() => window.__conn")
        offline = [t for t in texts if not t.startswith("reconnecting")]
        assert offline and all(OFFLINE.match(t) for t in offline), texts
        assert all(re.match(r"^reconnecting… \(try \d+\)$", t) for t in texts
                   if t.startswith("reconnecting")), texts
        width = SIZES[size]["viewport"]["width"]
        right = page.evaluate("() => window.__right")
        assert right <= width + 1, f"the top bar reaches {right} px of {width}: {texts}"
        lone_server.start()
        page.wait_for_selector(".badge.conn-open", timeout=WAIT_MS)
        assert page.locator("#conn").text_content() == "online"
    finally:
        ctx.close()
