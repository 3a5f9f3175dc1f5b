"""The page rides out a server crash, and a match of two rounds runs to its totals.

Mid-round the server process is killed with SIGKILL: the page says it is reconnecting,
and once a new process is up on the same port and database the page reconnects by itself
(backoff), resyncs to the same version, and play goes on. The match's second round is dealt
by itself, the totals add up, and the replay viewer offers both rounds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .conftest import NO_KERNELS, WAIT_MS, Server
from .driver import host_page, play_until, seen, wait_for_game


@pytest.fixture
def crash_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The reveal stays up for 24 / 8 = 3 s before the next round is dealt.
    srv = Server(tmp_path_factory.mktemp("web"), "crash", "--seed", "21", NO_KERNELS,
                 "--bot-speed", "8", "--round-pause", "24", "--away-after", "120")
    yield srv
    srv.stop()


ROUND_COLUMN = "#results > .scores tbody td:nth-child({})"
"""A column of the round's own score table (the match-over screen has another)."""

def test_the_page_reconnects_after_a_crash_and_a_match_runs_to_its_totals(
        browser: Browser, crash_server: Server) -> None:
    srv = crash_server
    ctx, page, table = host_page(browser, srv.base, preset="rulebook", rounds="2")
    page.select_option("#fill-bot", "medium")
    page.click("#start")
    wait_for_game(page)
    pages = {"ann": page}
    play_until(pages, lambda: seen(page).version >= 4 and seen(page).my_move)

    # --- kill -9 mid-round: the page notices, and comes back by itself
    version = seen(page).version
    srv.kill()
    page.wait_for_selector(".badge.conn-offline")
    srv.start()
    page.wait_for_selector(".badge.conn-open", timeout=WAIT_MS)
    page.wait_for_function(
        "(v) => Number(document.querySelector('.cards-game').dataset.version) >= v", arg=version)
    assert seen(page).me == "0"
    # A page opened only now sees the same table as the page that lived through the crash
    # (a bot's snap may have moved both on since: it is real time).
    fresh = ctx.new_page()
    fresh.goto(f"{srv.base}/t/{table}")
    wait_for_game(fresh)
    fresh.wait_for_function(
        "(v) => Number(document.querySelector('.cards-game').dataset.version) === v",
        arg=seen(page).version)
    assert seen(fresh).me == "0"                          # the same browser: the same seat
    fresh.close()

    # --- round 1 to the end, then round 2 is dealt by itself
    play_until(pages, lambda: seen(page).phase == "round_over", call_after=2)
    page.wait_for_selector("#results")
    assert "next round" in page.inner_text("#results").lower()
    first = [int(x) for x in page.locator(ROUND_COLUMN.format(3)).all_inner_texts()]
    page.wait_for_selector('.cards-game[data-round="2"]:not([data-phase="round_over"])',
                           timeout=WAIT_MS)
    assert seen(page).version <= 3
    play_until(pages, lambda: seen(page).phase == "round_over", call_after=2)
    page.wait_for_selector("#results th:has-text('Total')")
    page.wait_for_selector("#again")                       # the match is over: the host may
    second = [int(x) for x in page.locator(ROUND_COLUMN.format(3)).all_inner_texts()]
    totals = [int(x) for x in page.locator(ROUND_COLUMN.format(4)).all_inner_texts()]
    assert totals == [a + b for a, b in zip(first, second, strict=True)]
    summary = srv.api("GET", f"/api/tables/{table}")
    assert isinstance(summary, dict)
    assert summary["totals"] == totals and summary["status"] == "finished"

    # --- the replay viewer offers both rounds
    page.click("#replay-link")
    page.wait_for_selector("#round-pick")
    assert page.locator("#round-pick option").count() == 2
    page.select_option("#round-pick", "1")
    page.wait_for_url("**round=1*")
    page.wait_for_selector("#replay-step")
    assert page.input_value("#round-pick") == "1"
    ctx.close()
