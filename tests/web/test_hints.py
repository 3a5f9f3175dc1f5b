"""Assist mode in the browser: a Hint button shows the hard bot's suggestion for your move."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import WAIT_MS, Server
from .driver import play_until, seen, wait_for_game


def test_assist_mode_offers_a_hint_against_the_hard_bot(browser: Browser,
                                                        server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    page.select_option("#players", "2")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.select_option("#fill-bot", "hard")
    page.click("#start")
    wait_for_game(page)
    play_until({"ann": page}, lambda: seen(page).my_move)
    assert page.locator("#hint").count() == 0  # only in assist mode
    page.check("#assist")
    page.click("#hint")
    toast = page.wait_for_selector(".toast:has-text('hint: ')")
    assert toast is not None
    text = toast.inner_text()
    assert "expected final score" in text or text.strip().startswith("hint: ")
    ctx.close()
