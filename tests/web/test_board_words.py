"""The dice game explained: a Rules button on its table opens a rules page for it.

The log's words for each push (the notation beside them) and the setup's lines are the
views' output, unit-tested in tests/js/board_views.test.js."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES, new_page


@pytest.mark.parametrize("size", list(SIZES))
def test_dice_rules_page(browser: Browser, bots_server: Server, size: str) -> None:
    made = bots_server.api("POST", "/api/tables", {"game": "board", "players": 2,
                                                   "name": "Ann", "setup": "quick"})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    bots_server.api("POST", f"/api/tables/{table}/start", {"fill": "random"}, token)
    ctx, page = new_page(browser, SIZES[size])
    try:
        # Watching: Ann is away (nobody holds her seat), a bot plays it.
        page.goto(f"{bots_server.base}/t/{table}")
        page.wait_for_selector(".board-game[data-version]")
        rules = page.locator("a.rules-top")
        assert rules.get_attribute("href") == "/rules?game=board"
        page.goto(bots_server.base + "/rules?game=board")
        page.wait_for_selector("#board-rules")
        text = page.locator("#board-rules").text_content() or ""
        for part in ("A move", "Winning", "Setup", "a4>"):
            assert part in text, part
    finally:
        ctx.close()
