"""The lobby and a card table on a phone: 390×844, touch only, a whole round against a bot.

Everything is done with taps. At every step the page must fit the screen's width (no
sideways scrolling of the page), and everything one can tap must be at least 44 px square.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page

from .conftest import Server
from .driver import new_page, play_until, seen, wait_for_game

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                         "is_mobile": True, "device_scale_factor": 2}

LAYOUT_JS = """() => {
  const W = document.documentElement.clientWidth;
  const bad = [];
  const tappable = document.querySelectorAll(
    'button:not(:disabled), a.button, select, input[type=text], input[type=number],'
    + ' label.seg, label.preset, details > summary, .card.target, .card.snappable');
  for (const el of tappable) {
    const r = el.getBoundingClientRect();
    if (!el.offsetParent && el.tagName !== 'SUMMARY') continue;   // not shown
    if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
    const name = (el.dataset.action || el.dataset.addr || el.id || el.textContent || el.tagName)
      .trim().slice(0, 30);
    // The layout size: a card turning over (a transform) is still that big to a finger.
    const w = el.offsetWidth, h = el.offsetHeight;
    if (w < 44 || h < 44) bad.push(`${name}: ${w}x${h}`);
    const scroller = el.closest('.opponents');
    if (!scroller && (r.left < -1 || r.right > W + 1)) {
      bad.push(`${name}: off screen ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  if (document.documentElement.scrollWidth > W) {
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > W + 1 && !el.closest('.opponents')) {
        const at = `${Math.round(r.left)}..${Math.round(r.right)}`;
        bad.push(`too wide: ${el.tagName}.${el.className} ${at}`);
      }
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: W, bad};
}"""


def check_layout(page: Page, where: str) -> None:
    got: dict[str, Any] = page.evaluate(LAYOUT_JS)
    assert got["scroll"] <= got["width"], f"{where}: the page scrolls sideways ({got})"
    assert not got["bad"], f"{where}: {got['bad']}"


def test_lobby_and_a_card_table_are_usable_on_a_phone(browser: Browser, server: Server
                                                      ) -> None:
    ctx, page = new_page(browser, PHONE)
    page.goto(server.base + "/")
    page.wait_for_selector(".rule-row", state="attached")
    check_layout(page, "lobby")
    page.locator("#name").tap()
    page.keyboard.type("Pia")
    page.locator("label[for=preset-house]").tap()
    page.locator("details.house summary").tap()          # the house rules open …
    page.wait_for_selector(".rule-row", state="visible")
    check_layout(page, "lobby with house rules")
    page.locator("#rule-lock_caller").tap()              # … and one is changed
    assert "1 changed" in page.inner_text("#rule-count")
    page.locator("#create").tap()
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".seats-panel")
    check_layout(page, "waiting room")

    # Another phone finds the table in the lobby's list, with a Join button to tap.
    other, lobby = new_page(browser, PHONE)
    lobby.goto(server.base + "/")
    lobby.wait_for_selector(f'.table-row[data-table="{table}"] button:has-text("Join")')
    check_layout(lobby, "lobby with a table")
    other.close()

    page.locator('.seat-row[data-seat="1"] .add-bot').tap()
    page.wait_for_selector('.seat-row[data-seat="1"][data-kind="bot"]')
    page.locator("#start").tap()
    wait_for_game(page)
    check_layout(page, "the deal")
    assert seen(page).me == "0"
    rules = server.api("GET", f"/api/tables/{table}")
    assert isinstance(rules, dict)
    assert rules["rules"] == {"preset": "house", "overrides": {"lock_caller": True}}

    checked = 0

    def done() -> bool:
        nonlocal checked
        s = seen(page)
        if s.my_move and checked < 12:
            check_layout(page, f"version {s.version}, {s.phase}")
            checked += 1
        return s.phase == "round_over"

    play_until({"ann": page}, done, call_after=6, touch=True)
    page.wait_for_selector("#results")
    check_layout(page, "the reveal")
    assert page.locator("#results tbody tr").count() == 2
    assert checked >= 3

    # The dice board on the same phone: the board fits, and a push takes two taps (the
    # first shows the line it would push, the second pushes).
    page.goto(server.base + "/")
    page.locator("label[for=game-board]").tap()
    page.locator("#create").tap()
    page.wait_for_selector(".seats-panel")
    page.select_option("#fill-bot", "greedy")
    page.locator("#start").tap()
    page.wait_for_function(
        "() => { const r = document.querySelector('.board-game');"
        " return r && r.dataset.actor === r.dataset.me; }")
    check_layout(page, "the board")
    arrow = page.locator(".board-game .arrow:not(:disabled)").first
    move = arrow.get_attribute("data-move")
    v = int(page.get_attribute(".board-game", "data-version") or "0")
    arrow.tap()
    page.wait_for_selector(f'.arrow.armed[data-move="{move}"]')
    assert page.locator(".die.preview").count() == 5
    # The prompt says the push in words ("into column B from the bottom"), not "b1^".
    prompt = page.inner_text(".board-game #status")
    assert move is not None
    assert prompt.startswith("Push into ") and move not in prompt, prompt
    assert page.get_attribute(".board-game", "data-version") == str(v), "not pushed yet"
    check_layout(page, "the board, a push previewed")
    page.locator(f'.arrow.armed[data-move="{move}"]').tap()
    page.wait_for_function(
        "(v) => Number(document.querySelector('.board-game').dataset.version) > v", arg=v)
    ctx.close()
