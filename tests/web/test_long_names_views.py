"""40-character names on a 390 px phone in the views test_long_names.py does not open.

test_long_names.py plays a match as a seated player (the lobby, the waiting room, the table
in a match, the reveal). Here the same names go through the other views: a spectator watching
a match to its end, the match's replay, and the dice board game (seated and watching). In
each, the page must not scroll sideways ("no horizontal scroll at 390 px
with 40-character names in every view").
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from cambio.server.lobby import MAX_NAME

from .conftest import Server
from .driver import new_page
from .test_phone import PHONE, check_layout

HOST = "H" * MAX_NAME
GUEST = ("Gwendolyn" * 5)[:MAX_NAME]


def bot_table(srv: Server, body: dict[str, Any]) -> str:
    """A started table whose two named seats nobody opens (the server hands them to bots
    after a second) and whose other seats are bots; its id."""
    made = srv.api("POST", "/api/tables", {**body, "name": HOST})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    srv.api("POST", f"/api/tables/{table}/join", {"name": GUEST})
    srv.api("POST", f"/api/tables/{table}/start", {"fill": "random"}, token)
    return str(table)


def test_spectator_and_replay_with_long_names_fit_a_phone(browser: Browser,
                                                          bots_server: Server) -> None:
    srv = bots_server
    table = bot_table(srv, {"game": "cards", "players": 3, "rounds": 2,
                            "rules": {"preset": "house", "overrides": {}}})
    ctx, page = new_page(browser, PHONE)
    page.goto(f"{srv.base}/t/{table}")
    page.wait_for_selector("#spectating")
    page.wait_for_selector(".cards-game[data-phase]")
    check_layout(page, "spectator, first round")
    page.wait_for_selector('.cards-game[data-round="2"]', timeout=120_000)
    check_layout(page, "spectator, second round")
    page.wait_for_selector("#replay-link", timeout=120_000)
    check_layout(page, "spectator, the match is over")
    # The match-over panel wrote "null" where a table has no earlier games yet.
    assert "null" not in page.inner_text("#results")

    page.goto(f"{srv.base}/r/{table}")
    page.wait_for_selector(".replay-table")
    check_layout(page, "replay, first event")
    page.keyboard.press("End")
    page.wait_for_timeout(100)
    check_layout(page, "replay, last event")
    ctx.close()


def test_board_game_with_long_names_fits_a_phone(browser: Browser, bots_server: Server
                                                 ) -> None:
    srv = bots_server
    ctx, page = new_page(browser, PHONE)
    page.goto(srv.base + "/")
    page.wait_for_selector(".rule-row", state="attached")
    page.locator("#name").fill(HOST)
    page.locator("label[for=game-board]").tap()
    page.locator("label[for=bplayers-3]").tap()
    page.locator("#create").tap()
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    srv.api("POST", f"/api/tables/{table}/join", {"name": GUEST})
    page.wait_for_selector('.seat-row[data-seat="1"][data-kind="human"]')
    check_layout(page, "board waiting room")
    page.select_option("#fill-bot", "random")
    page.locator("#start").tap()
    page.wait_for_selector(".board-game[data-version]")
    check_layout(page, "board, seated")

    _, watcher = new_page(browser, PHONE)
    watcher.goto(f"{srv.base}/t/{table}")
    watcher.wait_for_selector(".board-game[data-version]")
    check_layout(watcher, "board, watching")
    watcher.context.close()
    ctx.close()
