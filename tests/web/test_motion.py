"""Cards travel, at laptop and phone size, and never show a hidden face.

A player plays turns against a bot while the page records every flying card it makes (a
copy that travels from where a card was to where it went). There must be flights (a draw:
deck to hand; a discard or swap: to the pile), and each one shows either a card back or the
very card its destination shows at that moment (the pile's top or the hand, both public), so
no flight shows a face the table would not. None is left behind. With the browser asking for
reduced motion (Playwright's emulation) nothing flies.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES, bot_game, play_until, seen

WATCH_FLIGHTS_JS = """
window.__flights = [];
const corner = (el) => (el && el.querySelector('.corner.tl') || {}).textContent || null;
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1 || !n.classList.contains('ghost-card')) continue;
    window.__flights.push({
      face: corner(n), down: n.classList.contains('down'), code: n.dataset.code || null,
      pile: corner(document.getElementById('pile')),
      held: corner(document.getElementById('held')),
    });
  }
}).observe(document, {subtree: true, childList: true});
"""


def play_some(browser: Browser, server: Server, size: str, reduced: bool) -> list[Any]:
    # A memory bot, not a random one, so the round lasts (a random bot may call Cambio at once).
    ctx, page = bot_game(browser, server.base, size, init_script=WATCH_FLIGHTS_JS, bot="medium",
                         reduced_motion="reduce" if reduced else "no-preference")

    def done() -> bool:
        s = seen(page)
        return s.phase == "round_over" or s.version >= 12

    moves = play_until({"ann": page}, done)
    assert moves >= 2
    # Every flight ends (a loaded machine may still be animating the bot's last move): a card
    # left behind never goes, and the wait times out.
    page.wait_for_function("document.querySelectorAll('.ghost-card').length === 0",
                           timeout=15_000)
    flights: list[Any] = page.evaluate("window.__flights")
    ctx.close()
    return flights


@pytest.mark.parametrize("size", list(SIZES))
def test_cards_travel_and_show_no_hidden_face(browser: Browser, server: Server,
                                              size: str) -> None:
    flights = play_some(browser, server, size, reduced=False)
    assert len(flights) >= 3, flights
    assert any(f["down"] for f in flights), "no card back flew (a draw)"
    assert any(f["face"] for f in flights), "no card flew to the pile"
    for f in flights:
        assert f["code"] is None, f"a flying card carries its code: {f}"
        if f["down"]:
            assert f["face"] is None, f
        else:
            assert f["face"] in (f["pile"], f["held"]), \
                f"a flight shows {f['face']}, the pile shows {f['pile']}, the hand {f['held']}"


@pytest.mark.parametrize("size", list(SIZES))
def test_nothing_flies_with_reduced_motion(browser: Browser, server: Server, size: str
                                           ) -> None:
    assert play_some(browser, server, size, reduced=True) == []
