"""The turn clock in the page, at laptop and phone size.

Ann sits at a five-second clock against a bot and does nothing: the page counts her time
down and says "Your turn" in the tab title; when her time runs out her bot plays for her
(the log shows her bot's moves), and after two timeouts in a row the page says a bot is playing
for her, with an "I'm back" button that gives her the seat back.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize

from .conftest import Server
from .driver import LAPTOP, PHONE, SIZES, horizontal_overflow, seat_page, wait_for_game
from .harness import open_table

MY_LOG_LINES = """() => [...document.querySelectorAll('.cards-game .log-list li')]
  .filter((li) => li.textContent.startsWith('Your bot ')).length"""
"""Her bot's moves: the log says "Your bot drew a card", never "You drew…"."""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_clock_runs_out_a_bot_plays_then_i_am_back(browser: Browser, server: Server,
                                                       viewport: ViewportSize) -> None:
    made = server.api("POST", "/api/tables", {"game": "cards", "players": 2, "name": "Ann",
                                              "clock": 5, "rounds": 5})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    ctx, page = seat_page(browser, server.base, table, token, viewport)
    try:
        # Started once her page is there, so that it sees her first decision's clock.
        page.wait_for_selector(".seats-panel")
        server.api("POST", f"/api/tables/{table}/start", {"fill": "random"}, token)
        wait_for_game(page)
        # Her turn: the countdown is hers, and the tab title says so.
        page.wait_for_selector('#turn-clock.mine[data-seat="0"]')
        assert page.locator("#turn-clock .who").text_content() == "Your move"
        page.wait_for_function("() => document.title.startsWith('● Your turn')")
        assert 0 <= int(page.locator("#turn-clock").get_attribute("data-left") or "-1") <= 5
        # She does nothing: her bot plays her decisions, then the seat is marked away.
        page.wait_for_selector("#away-bar")
        page.wait_for_function(f"() => ({MY_LOG_LINES})() >= 2")
        assert "a bot is playing for you" in (page.locator("#away-bar").text_content() or "")
        assert horizontal_overflow(page) <= 0
        # She is back: the bar goes, and her next decision is on her clock again.
        page.click("#im-back")
        page.wait_for_selector("#away-bar", state="detached")
        page.wait_for_selector('#turn-clock.mine[data-seat="0"]')
    finally:
        ctx.close()


KEEPS_THE_BUTTON = """() => {
  const s = window.__summary;
  s.seats[0].away = true;
  window.__clock.clock({ seat: 1, seconds: 5, left: 5 });
  const button = document.getElementById('im-back');
  const seen = [];
  for (const msg of [{ seat: null, left: null }, { seat: 0, seconds: 5, left: 5 },
                     { seat: null, left: null }, { seat: 1, seconds: 5, left: 4 }]) {
    window.__clock.clock(msg);
    seen.push([document.getElementById('im-back') === button, button.isConnected,
               !!document.getElementById('turn-clock')]);
  }
  return seen;
}"""


def test_the_i_am_back_button_is_one_node_while_the_countdown_comes_and_goes(
        browser: Browser, server: Server) -> None:
    """The bar's button is the node a finger is on: the countdown above it disappears between
    decisions and comes back, and the button must not be made anew each time (the CI run of
    2026-12-04 lost a click to "element was detached from the DOM" for 30 s)."""
    ctx, page = open_table(browser, server.base, SIZES["laptop"], 2, clock=True)
    try:
        seen = page.evaluate(KEEPS_THE_BUTTON)
        assert seen == [[True, True, False], [True, True, True],
                        [True, True, False], [True, True, True]]
    finally:
        ctx.close()
