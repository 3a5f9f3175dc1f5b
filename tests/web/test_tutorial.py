"""The first-game tutorial (issue 22, item 6): "Learn to play" in the lobby starts a guided
round against the Easy bot; the status line says what to do at each step (the opening peek,
the draw, the drawn card); it can be skipped, and started again from the lobby."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import WAIT_MS, Server
from .driver import SIZES, seen, wait_for_game, wait_version


@pytest.mark.parametrize("size", list(SIZES))
def test_learn_to_play_guides_can_be_skipped_and_replayed(browser: Browser, server: Server,
                                                          size: str) -> None:
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(server.base + "/")
        page.fill("#name", "Ann")
        page.click("#tutorial")
        page.wait_for_url("**/t/*")
        first = page.url
        wait_for_game(page)
        summary = server.api("GET", "/api/tables/" + first.rsplit("/", 1)[1])
        assert isinstance(summary, dict)
        assert [s["bot"] for s in summary["seats"]] == [None, "easy"]
        assert summary["private"] is True and summary["clock"] is None
        tip = page.locator("#coach-text").text_content() or ""
        assert tip.startswith("Tutorial: your bottom two cards"), tip
        page.wait_for_function("() => document.querySelector('.cards-game').dataset.actor"
                               " === document.querySelector('.cards-game').dataset.me")
        s = seen(page)
        page.click(".actions button[data-action='draw']")
        wait_version(page, s.version)
        page.wait_for_selector("#coach-text:has-text('swap the new card in')")
        page.click("#coach-skip")
        assert page.locator("#coach-text").count() == 0
        assert page.locator("#status").text_content()
        # Replayed from the lobby: a new guided table.
        page.goto(server.base + "/")
        page.click("#tutorial")
        page.wait_for_url(lambda url: url != first and "/t/" in url)
        wait_for_game(page)
        page.wait_for_selector("#coach-text")
    finally:
        ctx.close()
