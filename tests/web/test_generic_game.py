"""A game the browser has no UI of its own for is playable in it: the server is started with
``--game tests.support.nim:NIM`` (the test-only Nim), the lobby offers Nim, Ann creates a
table against a bot, plays it to the end on the generic UI (the view's fields, the legal
actions as buttons), and steps through its replay, with no console error on any page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .conftest import NO_KERNELS, Server
from .driver import new_page

ROOT = "#generic-game"


@pytest.fixture(scope="module")
def nim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web"), "nim", "--seed", "3", "--bot-speed", "8",
                 NO_KERNELS,
                 "--game", "tests.support.nim:NIM")
    yield srv
    srv.stop()


def test_nim_is_created_from_the_lobby_and_played_to_the_end(browser: Browser,
                                                             nim_server: Server) -> None:
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(nim_server.base + "/")
        page.fill("#name", "Ann")
        page.click("label[for=game-nim]")
        page.click("label[for=option-most-2]")
        page.click("#create")
        page.wait_for_url("**/t/*")
        table = page.url.rsplit("/", 1)[1]
        # The table page draws its title after the URL changes: wait for it, not the URL.
        page.wait_for_selector("#title:has-text('nim')")
        assert "nim" in page.inner_text("#title")
        page.wait_for_selector(".seats-panel")
        page.select_option("#bot-1", "perfect")
        page.click('.seat-row[data-seat="1"] .add-bot')
        page.wait_for_selector('.seat-row[data-seat="1"][data-kind="bot"]')
        page.click("#start")
        page.wait_for_selector(f"{ROOT}[data-version]")

        mine = 0
        while True:
            page.wait_for_function(
                "() => { const r = document.querySelector('#generic-game');"
                " return r && (r.dataset.over === '1' || (r.dataset.actor === '0'"
                " && document.querySelector('#generic-actions button'))); }")
            root = page.locator(ROOT)
            if root.get_attribute("data-over") == "1":
                break
            # Taking is at most two stones (the table's option): the view's legal actions.
            labels = page.locator("#generic-actions button").all_inner_texts()
            assert labels and set(labels) <= {"take 1", "take 2"}
            version = int(root.get_attribute("data-version") or "0")
            page.locator("#generic-actions button").first.click()
            page.wait_for_function(
                "(v) => Number(document.querySelector('#generic-game').dataset.version) > v",
                arg=version)
            mine += 1
            assert mine < 20, "the game does not end"
        assert mine > 0
        assert page.inner_text("#generic-status").endswith(("win!", "wins!"))
        summary = nim_server.api("GET", f"/api/tables/{table}")
        assert isinstance(summary, dict) and summary["status"] == "finished"
        assert page.inner_text('dd[data-key="pile"]') == "0"

        # The replay: the engine's views, drawn generically, from the deal to the end.
        page.goto(f"{nim_server.base}/r/{table}")
        page.wait_for_selector("#replay-step")
        page.click("#replay-last")
        assert page.inner_text('.replay-table dd[data-key="pile"]') == "0"
        page.click("#replay-first")
        assert int(page.inner_text('.replay-table dd[data-key="pile"]')) > 0
        assert errors == [], errors
    finally:
        ctx.close()
