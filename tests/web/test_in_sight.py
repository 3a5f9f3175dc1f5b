"""Nothing happens out of sight: with the page scrolled down to the log,
a snap's banner, the status line (where a hint shows) and the clock are on screen; after
a reveal, the next deal (a rematch's "Play again" at the bottom of the results) brings the
page back to the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES
from .harness import open_table, show, summary
from .scenes import scenes

IN_VIEW_JS = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }"""


@pytest.mark.parametrize("size", list(SIZES))
def test_banner_status_and_clock_stay_in_view_and_a_new_deal_returns_to_the_table(
        browser: Browser, server: Server, size: str) -> None:
    found = scenes(4)
    ctx, page = open_table(browser, server.base, {**SIZES[size], "reduced_motion": "reduce"},
                           4, True)
    try:
        snap = found["snap"]
        view = snap["view"]
        log = [{"seat": 1, "action": "draw"}] * 60          # a long log: the page scrolls
        page.evaluate("([view, version, log]) => window.__ui.state({ version, view, log })",
                      [view, snap["version"], log])
        page.evaluate("([s]) => window.__clock.clock({ seat: s, seconds: 60, left: 60 })",
                      [view["actor"]])
        page.evaluate("() => { document.querySelector('details.log').open = true;"
                      " window.__ui.logOpen = true; window.__ui.render(); }")
        # Under the table the chat (here a tall stand-in for it): the page scrolls down.
        page.evaluate("() => { document.querySelector('.chat-host').style.height = '1500px'; }")
        page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
        assert page.evaluate("() => scrollY") > 100, "the page does not scroll at all"
        page.evaluate("([view, version]) => window.__ui.update({ version, view, event: "
                      "{ seat: 1, action: 'snap 2.0', card: '7H', right: false } })",
                      [view, snap["version"] + 1])
        page.wait_for_selector(".banner")
        for sel in (".banner", "#status", "#turn-clock"):
            assert page.evaluate(IN_VIEW_JS, sel), f"{size}: {sel} is out of sight"
        # The reveal, scrolled down to its results; then the next deal: back at the top.
        reveal = found["reveal"]
        show(page, reveal["view"], reveal["version"] + 2, summary(4, clock=True, finished=True))
        page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
        assert page.evaluate("() => scrollY") > 0
        deal = found["deal"]
        show(page, deal["view"], 0, summary(4, clock=True))
        assert page.evaluate("() => scrollY") == 0
        for sel in ("#status", ".seat.mine .grid"):
            assert page.evaluate(IN_VIEW_JS, sel), f"{size}: {sel} is out of sight after the deal"
    finally:
        ctx.close()
