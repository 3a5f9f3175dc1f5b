"""Quick play from the lobby never seats the host a second time at her own table: she is
sent back to seat 1, keeps the Start button, and her token is unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import NO_KERNELS, Server
from .driver import SIZES, new_page


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: quick play joins any public waiting table."""
    srv = Server(Path(tmp_path_factory.mktemp("quick")), "quick", "--seed", "22", NO_KERNELS,
                 "--bot-speed", "8", "--away-after", "120")
    yield srv
    srv.stop()


@pytest.mark.parametrize("size", list(SIZES))
def test_quick_play_sends_the_host_back_to_her_seat(browser: Browser, quick_server: Server,
                                                     size: str) -> None:
    ctx, page = new_page(browser, SIZES[size])
    try:
        page.goto(quick_server.base + "/")
        page.fill("#name", "Ann")
        page.wait_for_selector(".rule-row", state="attached")
        page.select_option("#players", "3")
        page.click("#create")
        page.wait_for_url("**/t/*")
        table = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#start")
        token = page.evaluate("(t) => localStorage.getItem('cambio:token:' + t)", table)
        assert token
        page.goto(quick_server.base + "/")
        page.wait_for_selector("#quick-play")
        page.click("#quick-play")
        page.wait_for_url(f"**/t/{table}")
        page.wait_for_selector("#start")           # still the host: she may start
        assert page.evaluate("(t) => localStorage.getItem('cambio:token:' + t)", table) \
            == token
        summary = quick_server.api("GET", f"/api/tables/{table}")
        assert isinstance(summary, dict)
        assert [s["kind"] for s in summary["seats"]] == ["human", "empty", "empty"]
        assert page.locator("text=host offline").count() == 0
        # The table goes on: she starts it with bots from the seat she kept.
        page.click("#start")
        page.wait_for_selector(".cards-game[data-version]")
        assert page.locator(".cards-game").get_attribute("data-me") == "0"
    finally:
        ctx.close()
