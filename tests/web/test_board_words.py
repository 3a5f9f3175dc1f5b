"""The dice game explained: a Rules button on its table opens a rules
page for it; its log says each push in words, the notation beside it; the setup line says
whose dice you adjust."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from .conftest import WAIT_MS, Server
from .driver import SIZES

PUSH = re.compile(r"^(.+) pushed into (row [1-5] from the (left|right)|column [A-E] from the "
                  r"(top|bottom)) \(([a-e][1-5][<>^v])\)")


@pytest.mark.parametrize("size", list(SIZES))
def test_dice_rules_page_and_pushes_in_words(browser: Browser, bots_server: Server,
                                             size: str) -> None:
    made = bots_server.api("POST", "/api/tables", {"game": "board", "players": 2,
                                                   "name": "Ann", "setup": "quick"})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    bots_server.api("POST", f"/api/tables/{table}/start", {"fill": "random"}, token)
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    try:
        # Watching: Ann is away (nobody holds her seat), a bot plays it; both push.
        page.goto(f"{bots_server.base}/t/{table}")
        page.wait_for_selector(".board-game[data-version]")
        rules = page.locator("a.rules-top")
        assert rules.get_attribute("href") == "/rules?game=board"
        page.evaluate("() => { const d = document.querySelector('details.log');"
                      " if (d) d.open = true; }")
        page.wait_for_function("() => [...document.querySelectorAll('.log-list li')]"
                               ".filter((li) => li.textContent.includes(' pushed ')).length >= 2")
        lines = page.locator(".log-list li").all_text_contents()
        pushes = [x for x in lines if " pushed " in x]
        for x in pushes:
            m = PUSH.match(x)
            assert m, x
            file, rank, arrow = m.group(5)[0], m.group(5)[1], m.group(5)[2]
            words = m.group(2)
            assert (f"row {rank}" in words) == (arrow in "<>"), x
            assert (f"column {file.upper()}" in words) == (arrow in "^v"), x
        page.goto(bots_server.base + "/rules?game=board")
        page.wait_for_selector("#board-rules")
        text = page.locator("#board-rules").text_content() or ""
        for part in ("A move", "Winning", "Setup", "a4>"):
            assert part in text, part
    finally:
        ctx.close()
