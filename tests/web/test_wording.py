"""The table's words: self-snaps, moves of one's own bot, the log's
count, the connection badge; and a hint in the table's terms.

The log is read twice: from a real game whose one-second clock hands Ann's seat to her bot
(every move of her seat is her bot's: never "You drew…"), and from the real client fed
engine views and events (harness.py), where each kind of line is checked word for word."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import Server
from .driver import SIZES, seat_page
from .harness import open_table, show, summary
from .scenes import scenes

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


def feed(page: Page, event: dict[str, Any], view: dict[str, Any], version: int) -> None:
    page.evaluate("([event, view, version]) => window.__ui.update({ version, event, view })",
                  [event, view, version])


@pytest.mark.parametrize("size", list(SIZES))
def test_a_hint_in_the_tables_terms_stays_until_the_decision_is_made(
        browser: Browser, server: Server, size: str) -> None:
    found = scenes(2)
    ctx, page = open_table(browser, server.base, SIZES[size], 2, True)
    try:
        drawn = found["drawn"]
        view, version = drawn["view"], drawn["version"]
        show(page, view, version, summary(2, clock=True))
        swap = next(a for a in view["legal"] if a.startswith("swap "))
        slot = int(swap.split()[1])
        page.evaluate("(a) => window.__ui.showHint({ action: a, score: 3.14, win_share: 0.67 })",
                      swap)
        text = page.locator("#hint-text").text_content() or ""
        held = page.evaluate("() => document.getElementById('held').getAttribute('aria-label')")
        assert held
        assert re.fullmatch(rf"Hint: swap the .+ into your card {slot + 1}\. Expected final "
                            r"score: about 3 \(lower wins\); 67% chance to win\.", text), text
        hinted = page.evaluate("() => [...document.querySelectorAll('.hinted')]"
                               ".map((e) => e.dataset.addr || e.id || e.dataset.action)")
        assert hinted == [f"0.{slot}"], hinted
        # In view: the status line is on screen.
        box = page.locator("#status").bounding_box()
        assert box is not None and box["y"] >= 0
        # Another player's snap changes the version, not the decision: the hint stays.
        feed(page, {"seat": 1, "action": "snap 1.0", "card": "7H", "right": False}, view,
             version + 1)
        assert page.locator("#hint-text").count() == 1
        # Dismissed, it goes; asked again, then the decision made (a new view), it goes.
        page.click("#hint-close")
        assert page.locator("#hint-text").count() == 0
        page.evaluate("() => window.__ui.showHint({ action: 'discard', score: 5, win_share: 0.4 })")
        assert page.locator("#pile.hinted").count() == 1
        assert page.locator(".actions button.hinted[data-action='discard']").count() == 1
        turn = found["turn_start"]
        show(page, turn["view"], version + 2, summary(2, clock=True))
        assert page.locator("#hint-text").count() == 0
        assert page.locator(".hinted").count() == 0
    finally:
        ctx.close()
