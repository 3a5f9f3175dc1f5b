"""The Hint button (assist mode) says it is working until the hint comes (the first one after
a server start took seconds, with nothing to show it was asked). The
table is the layout harness's, whose hint request goes nowhere: the wait is as long as the
test likes, with no timing involved."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES
from .harness import open_table, show, summary
from .scenes import scenes


def test_the_hint_button_is_busy_until_the_hint(browser: Browser, server: Server) -> None:
    scene = scenes(2)["turn_start"]
    ctx, page = open_table(browser, server.base, SIZES["phone"], 2, False)
    try:
        show(page, scene["view"], scene["version"], summary(2, clock=False))
        page.check("#assist")
        assert page.is_enabled("#hint") and page.inner_text("#hint") == "Hint"
        page.click("#hint")
        assert page.is_disabled("#hint") and page.get_attribute("#hint", "aria-busy") == "true"
        assert page.inner_text("#hint") == "Thinking…"
        action = scene["view"]["legal"][0]
        page.evaluate("(a) => window.__ui.showHint({ action: a, score: 9, win_share: 0.5 })",
                      action)
        assert page.inner_text("#hint-text").startswith("Hint: ")
        assert page.is_enabled("#hint")
    finally:
        ctx.close()
