"""Assist mode in the browser: a Hint button shows the hard bot's suggestion for your move."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import Server
from .driver import host_page, play_until, seen, wait_for_game


def test_assist_mode_offers_a_hint_against_the_hard_bot(browser: Browser,
                                                        server: Server) -> None:
    ctx, page, _ = host_page(browser, server.base, players="2")
    page.select_option("#fill-bot", "hard")
    page.click("#start")
    wait_for_game(page)
    play_until({"ann": page}, lambda: seen(page).my_move)
    assert page.locator("#hint").count() == 0  # only in assist mode
    page.check("#assist")
    page.click("#hint")
    # The hint stands in the status line, in the table's words.
    hint = page.wait_for_selector("#hint-text")
    assert hint is not None
    text = hint.inner_text()
    assert text.startswith("Hint: ") and "Expected final score" in text, text
    ctx.close()
