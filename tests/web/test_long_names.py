"""40-character names without spaces on a 390 px phone.

Such a name widened the page to 401 px in the lobby, 487 px in the waiting room and 670 px
at the table (your own cards and the Draw button cut off). Every view must fit the screen's
width: the lobby with the table listed, the waiting room, the deal, a turn and the reveal.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page

from cambio.server.lobby import MAX_NAME

from .conftest import Server
from .driver import new_page, open_page, play_until, seen, wait_for_game
from .test_phone import PHONE, check_layout

HOST = "H" * MAX_NAME
GUEST = "Gwendolyn" * 5


HEADS_JS = """() => [...document.querySelectorAll('.opponents .seat-head')].map((head) => {
  const name = head.querySelector('.seat-name');
  const total = head.querySelector('.seat-total');
  return {name: name.textContent, nameWidth: name.getBoundingClientRect().width,
          total: total ? total.textContent : null,
          totalLines: total ? total.getClientRects().length : 0,
          totalHeight: total ? total.getBoundingClientRect().height : 0,
          lineHeight: parseFloat(getComputedStyle(total || name).lineHeight) || 20};
})"""


WATCH_TOASTS_JS = """
window.__toasts = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1 || !n.classList.contains('toast')) continue;
    window.__toasts.push({text: n.textContent, line: n.parentNode.id,
                          position: getComputedStyle(n.parentNode).position});
  }
}).observe(document, {subtree: true, childList: true});
"""
"""Every toast the page shows, where it was put (it may be gone before a test looks)."""

TOAST_JS = """() => {
  const t = document.querySelector('#notices .toast');
  if (!t) return null;
  const r = t.getBoundingClientRect();
  const covers = [...document.querySelectorAll(
      '.topbar, .topbar *, #status, .actions button, .seat.mine, .seat.mine .card')]
    .filter((e) => {
      const o = e.getBoundingClientRect();
      return o.width && o.height && r.left < o.right && o.left < r.right
        && r.top < o.bottom && o.top < r.bottom;
    }).map((e) => e.id || e.className || e.tagName);
  return {text: t.textContent, covers,
          status: document.getElementById('status').getBoundingClientRect().top + scrollY};
}"""

STATUS_TOP_JS = "() => document.getElementById('status').getBoundingClientRect().top + scrollY"
"""Where the status line is on the page (not on the screen: a tap may scroll)."""


def check_toasts(page: Page) -> None:
    """Toasts on a phone ("The game starts!" covered the top bar): they go
    into the notice line, in the flow of the page, so they cover nothing (the top bar, the
    status line, the buttons, one's cards); the line keeps its height, so the table does not
    move when one comes or goes."""
    wait_for_game(page)
    shown: list[dict[str, Any]] = page.evaluate("window.__toasts")
    start = [t for t in shown if "The game starts" in t["text"]]
    assert start and start[0]["line"] == "notices" and start[0]["position"] == "static", shown
    page.wait_for_function("() => !document.querySelector('#notices .toast')")
    before = page.evaluate(STATUS_TOP_JS)
    page.locator(".topbar .invite").tap()           # "Invite link copied." (or the link)
    toast: dict[str, Any] = page.wait_for_function(TOAST_JS).json_value()
    assert not toast["covers"], f"the toast covers {toast['covers']}"
    assert toast["status"] == before, "the table moved when the toast came"
    page.wait_for_function("() => !document.querySelector('#notices .toast')")
    assert page.evaluate(STATUS_TOP_JS) == before, "the table moved when the toast went"


def check_heads(page: Page, where: str) -> None:
    """Opponents' headers in a match: a readable part of the name (not one letter), and
    the match total on one line (it wrapped onto three)."""
    heads: list[dict[str, Any]] = page.evaluate(HEADS_JS)
    assert len(heads) == 2, f"{where}: {heads}"
    for head in heads:
        assert head["nameWidth"] >= 80, f"{where}: a name squeezed: {head}"
        assert head["total"] is not None and "total 0" in head["total"], f"{where}: {head}"
        assert head["totalHeight"] < 1.6 * head["lineHeight"], f"{where}: total wraps: {head}"


def test_forty_character_names_never_widen_a_phone_page(browser: Browser,
                                                        bots_server: Server) -> None:
    srv = bots_server
    ctx, page = new_page(browser, PHONE, WATCH_TOASTS_JS)
    page.goto(srv.base + "/")
    page.wait_for_selector(".rule-row", state="attached")
    page.locator("#name").press_sequentially(HOST + "XYZ")     # the field stops at 40
    assert page.input_value("#name") == HOST
    page.select_option("#players", "3")
    page.select_option("#rounds", "2")            # a match: seat headers show the totals
    page.locator("#create").tap()
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    # A second person joins but never opens the table: the server hands the seat to a bot
    # after a second, and the name stays on the seat.
    srv.api("POST", f"/api/tables/{table}/join", {"name": GUEST[:MAX_NAME]})
    page.wait_for_selector(".seats-panel")
    page.wait_for_selector('.seat-row[data-seat="1"][data-kind="human"]')
    check_layout(page, "waiting room")

    lobby = open_page(ctx)
    lobby.goto(srv.base + "/")
    lobby.wait_for_selector(f'.table-row[data-table="{table}"]')
    check_layout(lobby, "lobby listing the table")
    lobby.close()

    page.select_option("#fill-bot", "random")
    page.locator("#start").tap()
    check_toasts(page)
    check_layout(page, "the deal")
    check_heads(page, "the deal")
    checked = 0

    def done() -> bool:
        nonlocal checked
        s = seen(page)
        if s.my_move and checked < 3:
            check_layout(page, f"version {s.version}, {s.phase}")
            check_heads(page, f"version {s.version}, {s.phase}")
            checked += 1
        # The match's last reveal stays (between rounds it shows for a second only, and a
        # loaded machine may look too late): play both rounds.
        return s.phase == "round_over" and page.locator("#replay-link").count() > 0

    play_until({"ann": page}, done, call_after=4)
    page.wait_for_selector("#results")
    check_layout(page, "the reveal")
    assert checked >= 1
    ctx.close()
