"""Players who come back, in a real browser: a new visitor types a name, presses
Play now, plays a rated game against bots and finds it on their profile with its replay and
a rating; a player claimed with a password on one browser signs in on another and sees the
same history; two players pressing Play now within seconds land at one table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from cambio.server.players.queue import STALE

from .conftest import NO_KERNELS, WAIT_MS, Server
from .driver import SIZES, new_page, step

GAME_S = 180.0


@pytest.fixture(scope="module")
def players_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Play now waits 30 s for people (a test shortens it), a decision left for 5 s goes to
    the seat's bot and marks the seat away (so a game plays on while the page watches, once
    it has made the move of its own that makes the game count)."""
    srv = Server(Path(tmp_path_factory.mktemp("players")), "players", "--seed", "25", NO_KERNELS,
                 "--bot-speed", "20", "--round-pause", "0.3", "--away-after", "120",
                 "--turn-clock", "5", "--clock-strikes", "1", "--queue-wait", "30")
    yield srv
    srv.stop()


def context(browser: Browser) -> tuple[BrowserContext, Page]:
    return new_page(browser, SIZES["laptop"])


def play_now_with_bots(page: Page, server: Server, name: str) -> str:
    """From the lobby: type a name, Play now, stop waiting for people; the game's table."""
    page.goto(server.base + "/")
    page.fill("#name", name)
    page.click("#play-now")
    page.wait_for_selector("#play-now-bots")
    page.click("#play-now-bots")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".cards-game[data-version]")
    # one move of her own (a rated game whose player never moved counts for nobody)
    deadline = time.monotonic() + WAIT_MS / 1000
    while not step(page):  # "": not her move yet (the bot's, or a snap got in first)
        assert time.monotonic() < deadline, "no move of her own came"
        page.wait_for_timeout(50)
    server.wait_finished(table, GAME_S, every=0.5)
    return table


def open_profile(page: Page, server: Server) -> None:
    page.goto(server.base + "/")
    page.click("#account summary")
    page.click("#my-profile")
    page.wait_for_selector("#games")


def test_a_new_visitor_plays_a_rated_game_and_finds_it_on_their_profile(
        browser: Browser, players_server: Server) -> None:
    ctx, page = context(browser)
    try:
        table = play_now_with_bots(page, players_server, "Nia")
        summary = players_server.api("GET", f"/api/tables/{table}")
        assert isinstance(summary, dict) and summary["rated"] is True
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
        open_profile(page, players_server)
        assert page.text_content("#profile-name") == "Nia"
        row = page.locator(f"#games tr[data-table='{table}']")
        assert row.get_attribute("data-status") == "finished"
        figure = page.text_content("#ratings .rating-card[data-class='cards-2'] .rating")
        assert figure is not None and float(figure) < 25
        # A first rating says it is provisional, and one point draws no chart.
        card = "#ratings .rating-card[data-class='cards-2']"
        assert (page.text_content(f"{card} .rating-figure") or "").startswith("Provisional: ")
        assert page.locator("#ratings svg.rating-chart").count() == 0
        row.locator("a.replay").click()
        page.wait_for_url(f"**/r/{table}*")
        page.wait_for_selector("#replay-slider, #replay-missing")
        assert page.locator("#replay-missing").count() == 0
        assert "Nia" in (page.text_content("main") or "")
        # one rated game: provisional, so not listed; the page says what counts
        page.goto(players_server.base + "/leaderboard?class=cards-2")
        policy = page.text_content("#rating-policy") or ""
        assert "5 rated games that counted, against 3 different opponents" in policy
        assert "made moves of their own" in policy
        assert "Nia" not in (page.text_content("#leaderboard") or "")
    finally:
        ctx.close()


def test_a_claimed_player_signs_in_elsewhere_and_sees_the_same_history(
        browser: Browser, players_server: Server) -> None:
    ctx, page = context(browser)
    try:
        table = play_now_with_bots(page, players_server, "Cleo")
        page.goto(players_server.base + "/")
        page.click("#account summary")
        page.fill("#claim-username", "cleo")
        page.fill("#claim-password", "a long secret")
        page.click("#claim")
        page.wait_for_selector("#account-who:has-text('Signed in as cleo')")
    finally:
        ctx.close()
    other, page = context(browser)
    try:
        page.goto(players_server.base + "/")
        page.click("#account summary")
        page.fill("#login-username", "Cleo")
        page.fill("#login-password", "a long secret")
        page.click("#login")
        page.wait_for_selector("#account-who:has-text('Signed in as cleo')")
        page.click("#my-profile")
        page.wait_for_selector(f"#games tr[data-table='{table}']")
        assert page.url.endswith("/p/cleo")
        assert page.text_content("#profile-name") == "Cleo"
    finally:
        other.close()


def test_closing_the_page_leaves_the_queue(browser: Browser, players_server: Server) -> None:
    """The page says DELETE as it goes (a keepalive request, which a browser may drop); a
    ticket nobody polls goes stale within 10 s anyway. Either way, the next player of that
    kind does not meet the page that left."""
    (ctx_a, ann), (ctx_b, bo) = context(browser), context(browser)
    try:
        for page, name in ((ann, "Ann"), (bo, "Bo")):
            page.goto(players_server.base + "/")
            page.fill("#name", name)
            page.select_option("#now-preset", "wikipedia")  # nobody else waits for it
        ann.click("#play-now")
        ann.wait_for_selector("#play-now-wait")
        ann.goto("about:blank")                  # the page goes away: Ann leaves the queue
        time.sleep(STALE + 1)
        bo.click("#play-now")
        bo.wait_for_selector("#play-now-status:has-text('bots join')")
        time.sleep(1.0)                          # (were Ann still queued, Bo would be seated)
        assert bo.url.endswith("/") and bo.locator("#play-now-wait").count() == 1
        bo.click("#play-now-cancel")
        bo.wait_for_selector("#play-now")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_two_players_pressing_play_now_meet_at_one_table(
        browser: Browser, players_server: Server) -> None:
    (ctx_a, ann), (ctx_b, bo) = context(browser), context(browser)
    try:
        for page, name in ((ann, "Ann"), (bo, "Bo")):
            page.goto(players_server.base + "/")
            page.fill("#name", name)
        ann.click("#play-now")
        bo.click("#play-now")
        ann.wait_for_url("**/t/*")
        bo.wait_for_url("**/t/*")
        assert ann.url == bo.url
        table = ann.url.rsplit("/", 1)[1]
        summary = players_server.api("GET", f"/api/tables/{table}")
        assert isinstance(summary, dict)
        assert [s["name"] for s in summary["seats"]] in (["Ann", "Bo"], ["Bo", "Ann"])
    finally:
        ctx_a.close()
        ctx_b.close()
