"""Match flow in the page, at laptop and phone size.

Ann's two-round match against a bot plays itself (her one-second turn clock runs out and her
bot plays for her): between the rounds the page counts down to the next deal; at the end the
match-over screen names the match winner, lists both rounds' scores and the totals, and
draws the running totals; "Play again" starts a rematch that keeps the first match.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, ViewportSize

from .conftest import NO_KERNELS, Server
from .driver import LAPTOP, PHONE, horizontal_overflow, seat_page


@pytest.fixture(scope="module")
def slow_rounds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Fast bots, but 3 s between rounds: long enough to read the countdown."""
    srv = Server(tmp_path_factory.mktemp("web"), "match", "--seed", "13", "--bot-speed", "8",
                 NO_KERNELS,
                 "--round-pause", "24", "--away-after", "120")
    yield srv
    srv.stop()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_match_over_screen_then_a_rematch_keeps_the_history(
        browser: Browser, slow_rounds: Server, viewport: ViewportSize) -> None:
    server = slow_rounds
    made = server.api("POST", "/api/tables", {"game": "cards", "players": 2, "name": "Ann",
                                              "clock": 1, "rounds": 2})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    ctx, page = seat_page(browser, server.base, table, token, viewport)
    try:
        page.wait_for_selector(".seats-panel")
        server.api("POST", f"/api/tables/{table}/start", {"fill": "memory"}, token)
        # Between the rounds: a countdown to the next deal.
        page.wait_for_selector("#next-round", timeout=90_000)
        assert "Next round in" in (page.locator("#next-round").text_content() or "")
        # The end of the match.
        page.wait_for_selector("#match-over", timeout=90_000)
        summary = server.api("GET", f"/api/tables/{table}")
        assert isinstance(summary, dict) and summary["status"] == "finished"
        result = summary["result"]
        names = {0: "You", 1: "Medium bot"}
        heading = page.locator("#match-over h2").text_content() or ""
        assert heading.startswith("Match over: ")
        for s in (0, 1):
            assert (names[s] in heading) == (s in result["winners"])
        rows = page.locator("#match-scores tbody tr")
        assert rows.count() == 2
        for k in range(2):
            cells = rows.nth(k).locator("td").all_text_contents()
            assert cells == [str(v) for v in result["scores"][k]]
        assert page.locator("#match-scores tfoot td").all_text_contents() == [
            str(v) for v in result["totals"]]
        assert page.locator("#score-chart polyline").count() == 2
        assert horizontal_overflow(page) <= 0
        # A rematch: the first match stays on the table's page.
        page.click("#again")
        page.wait_for_selector('#match-history li[data-game="1"]', timeout=90_000)
        line = page.locator('#match-history li[data-game="1"]').text_content() or ""
        assert line.startswith("Match 1: Ann ") and str(result["totals"][0]) in line
        assert horizontal_overflow(page) <= 0
    finally:
        ctx.close()
