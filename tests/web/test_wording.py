"""The table's words in a real game: self-snaps, moves of one's own bot, the log's count.

The log is read from a real game whose one-second clock hands Ann's seat to her bot (every
move of her seat is her bot's: never "You drew…"). Each kind of line word for word, and a
hint in the table's terms, are the views' output: tests/js/cards_views.test.js."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES, seat_page

LOG_JS = "() => [...document.querySelectorAll('.log-list li')].map((li) => li.textContent)"


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(Path(tmp_path_factory.mktemp("words")), "words", "--seed", "8",
                 "--bot-speed", "10", "--round-pause", "30", "--away-after", "120")
    yield srv
    srv.stop()


def self_snaps(lines: list[str], names: list[str]) -> list[str]:
    """Lines that name the snapper twice ("Bo snapped Bo's card 1")."""
    return [x for x in lines for n in names if re.search(rf"^{re.escape(n)} snapped "
                                                          rf"{re.escape(n)}'s card", x)]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_real_log_names_your_bot_and_no_self_snap_twice(browser: Browser,
                                                          clock_server: Server,
                                                          size: str) -> None:
    made = clock_server.api("POST", "/api/tables", {"game": "cards", "players": 3,
                                                    "name": "Ann", "clock": 1})
    assert isinstance(made, dict)
    table, token = made["table"], made["token"]
    ctx, page = seat_page(browser, clock_server.base, table, token, SIZES[size]["viewport"])
    try:
        page.wait_for_selector(".seats-panel")
        clock_server.api("POST", f"/api/tables/{table}/start", {"fill": "random"}, token)
        # Ann never touches the page: her one-second clock runs out on every decision.
        page.wait_for_selector(".cards-game[data-phase='round_over']", timeout=120_000)
        page.evaluate("() => { const d = document.querySelector('details.log'); d.open = true; }")
        lines: list[str] = page.evaluate(LOG_JS)
        assert [x for x in lines if x.startswith("Your bot ")], lines
        assert not [x for x in lines if re.match(r"You (drew|swapped|discarded|took|peeked|"
                                                 r"looked|switched|kept|skipped|gave|called)",
                                                 x)], lines
        assert not self_snaps(lines, ["Random bot 2", "Random bot 3", "You"]), lines
        summary_text = page.locator("details.log summary").text_content() or ""
        assert summary_text == f"Log ({len(lines)})", (summary_text, len(lines))
    finally:
        ctx.close()
