"""A Hint button, with or without assist mode, shows the hard bot's suggestion for your move."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import Server
from .driver import host_page, play_until, seen, wait_for_game


def test_a_hint_from_the_hard_bot(browser: Browser, server: Server) -> None:
    ctx, page, _ = host_page(browser, server.base, players="2")
    page.select_option("#fill-bot", "hard")
    page.click("#start")
    wait_for_game(page)
    play_until({"ann": page}, lambda: seen(page).my_move)
    assert not page.is_checked("#assist")     # a hint needs no assist mode
    page.click("#hint")
    # The hint stands in the status line (issue 22, item 4), in the table's words.
    hint = page.wait_for_selector("#hint-text")
    assert hint is not None
    text = hint.inner_text()
    assert text.startswith("Hint: ") and "Expected final score" in text, text
    ctx.close()
