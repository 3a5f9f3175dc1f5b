"""The review and the daily deal in the browser, on one real server with a review worker (a
small budget, so a round's review takes seconds): two players play the day's card deal from
the daily page (their seats handed to a bot once they leave the table), the same deal for
both; each then sees the day's results and the other's replay with its review -- labels,
chart and the jumps to the costliest decisions, at phone and laptop sizes with no sideways
scroll -- the profile shows the game's accuracy, and a player who has not played the deal is
told plainly that the seat's review is not theirs to see."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import Server
from .driver import horizontal_overflow, new_page
from .test_fit import VIEWPORTS

DAY = "2026-12-05"
SIGN = {"best": "★", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
FINISH_S = 240.0
"""How long two bot-played rounds and their reviews may take on a loaded machine."""


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One review worker at the smallest budget; a seat left alone goes to a bot at once."""
    srv = Server(Path(tmp_path_factory.mktemp("web")), "review", "--seed", "3",
                 "--bot-speed", "40", "--round-pause", "0.2", "--away-after", "1",
                 "--review-workers", "1", "--review-budget", "16", "--daily-date", DAY)
    yield srv
    srv.stop()


def player(browser: Browser, base: str, name: str,
           size: str = "laptop") -> tuple[BrowserContext, Page]:
    ctx, page = new_page(browser, VIEWPORTS[size])
    page.goto(base + "/")
    page.wait_for_selector("#daily-link a")
    page.evaluate("(name) => fetch('/api/me', {method: 'POST', headers: {'Content-Type': "
                  "'application/json'}, body: JSON.stringify({name})})", name)
    return ctx, page


def play_daily(page: Page) -> str:
    """Start the day's card deal from the daily page, then leave the table to a bot."""
    page.click("#daily-link a")
    page.wait_for_selector("#daily-play-cards")
    page.click("#daily-play-cards")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.goto("about:blank")
    return table


def daily(page: Page, base: str, until: str) -> Any:
    """The daily page, reloaded until ``until`` shows (the bots finish the games)."""
    deadline = time.monotonic() + FINISH_S
    while True:
        page.goto(base + "/daily")
        page.wait_for_selector("#daily-cards")
        if page.locator(until).count():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{until} never showed: {page.inner_text('#daily-cards')}")
        page.wait_for_timeout(1000)


def review_shown(page: Page) -> dict[str, Any]:
    """What the review panel shows, measured."""
    shown: dict[str, Any] = page.evaluate("""() => {
      const rows = [...document.querySelectorAll('#review-moves li')];
      const chart = document.querySelector('#review-chart').getBoundingClientRect();
      return {
        labels: rows.map((li) => li.dataset.label),
        signs: rows.map((li) => li.querySelector('.review-label .sign').textContent),
        dots: document.querySelectorAll('#review-chart circle').length,
        line: document.querySelector('#review-chart path.line').getAttribute('d'),
        chart: [chart.left, chart.right, chart.width, chart.height],
        jumps: [...document.querySelectorAll('#review-jumps button')]
          .map((b) => Number(b.dataset.step)),
        vw: document.documentElement.clientWidth,
      };
    }""")
    return shown


def test_daily_deal_and_its_reviews(browser: Browser, review_server: Server) -> None:
    base = review_server.base
    ann_ctx, ann = player(browser, base, "Ann")
    bo_ctx, bo = player(browser, base, "Bo", "phone")
    cy_ctx, cy = player(browser, base, "Cy", "small")
    try:
        a = play_daily(ann)
        b = play_daily(bo)
        assert a != b
        daily(ann, base, "#daily-mine-cards")
        daily(bo, base, "#daily-mine-cards")
        # the same deal for both: the replays' first frames deal the same cards
        frames = [review_server.api("GET", f"/api/tables/{t}/frames?game=1") for t in (a, b)]
        deals = [f["frames"][0]["view"]["grids"] for f in frames]  # type: ignore[index]
        assert deals[0] == deals[1]

        # Cy has not played: the results, no replays, and a plain word on the review
        daily(cy, base, "#daily-results-cards")
        assert cy.locator("#daily-cards a.daily-replay").count() == 0
        assert cy.locator("#daily-results-cards tbody tr").count() == 2
        cy.goto(f"{base}/r/{a}?game=1&seat=0")
        cy.wait_for_selector("#review-forbidden")
        assert horizontal_overflow(cy) <= 0

        # Ann opens Bo's game from the day's table: his seat's review, labelled and charted
        daily(ann, base, "#daily-cards a.daily-replay")
        daily(bo, base, "#daily-cards a.daily-replay")
        assert horizontal_overflow(bo) <= 0
        assert ann.locator("#daily-cards a.daily-replay").count() == 2
        ann.click("#daily-cards tr:not(.mine) a.daily-replay")
        ann.wait_for_url(f"**/r/{b}?*seat=0*")
        ann.wait_for_selector("#review-moves li", timeout=FINISH_S * 1000)
        for size in ("laptop", "phone", "small"):
            ann.set_viewport_size(VIEWPORTS[size]["viewport"])
            shown = review_shown(ann)
            assert shown["labels"] and set(shown["labels"]) <= set(SIGN), size
            assert shown["signs"] == [SIGN[x] for x in shown["labels"]], size
            assert shown["dots"] == len(shown["labels"]), size
            assert re.fullmatch(r"M[\d.]+ [\d.]+( L[\d.]+ [\d.]+)*", shown["line"]), size
            left, right, width, height = shown["chart"]
            assert left >= 0 and right <= shown["vw"] and width > 200 and height > 50, size
            assert horizontal_overflow(ann) <= 0, size
        # laptop: the review beside the table, not under it
        ann.set_viewport_size(VIEWPORTS["laptop"]["viewport"])
        beside = ann.evaluate("""() => {
          const t = document.querySelector('.replay-board').getBoundingClientRect();
          const r = document.querySelector('#review').getBoundingClientRect();
          return r.left >= t.right - 1;
        }""")
        assert beside

        # each jump goes to its decision: the step, its label and, if not the best, the
        # better move in words
        jumps = review_shown(ann)["jumps"]
        assert 1 <= len(jumps) <= 3
        for i, step in enumerate(jumps):
            ann.click(f"#review-jumps button >> nth={i}")
            ann.wait_for_function(
                "(s) => document.getElementById('app').dataset.step === String(s)", arg=step)
            row = ann.locator(f"#review-moves li[data-step='{step}']")
            assert row.get_attribute("aria-current") == "step"
            label = row.get_attribute("data-label")
            now = ann.inner_text("#review-now")
            assert now.startswith(f"Move {step + 1} {SIGN[str(label)]}"), now
            # the decision's words sit above the table, so a phone sees both at once
            assert ann.evaluate("""() => document.querySelector('#review-now')
              .compareDocumentPosition(document.querySelector('.replay-board')) & 4""")
            if label != "best":
                assert ann.locator("#review-better").inner_text().startswith("Better: ")

        # the profile: the game's accuracy and the mean
        ann.goto(f"{base}/daily")
        ann.click("#daily-cards tr.mine td:nth-child(2) a")
        ann.wait_for_selector("#games")
        deadline = time.monotonic() + FINISH_S
        while not ann.locator("#accuracy-average").count():
            assert time.monotonic() < deadline, "the profile shows no accuracy"
            ann.wait_for_timeout(1000)
            ann.reload()
            ann.wait_for_selector("#games")
        cell = ann.inner_text(f"#games tr[data-table='{a}'] td.accuracy")
        assert re.fullmatch(r"\d+(\.\d)?%", cell), cell
        assert ann.locator(f"#games tr[data-table='{a}'] a.replay").get_attribute("href") \
            == f"/r/{a}?game=1&seat=0"
        ann.set_viewport_size(VIEWPORTS["small"]["viewport"])
        assert horizontal_overflow(ann) <= 0
        # to another visitor the same profile offers the replay, not Ann's review
        cy.goto(ann.url)
        cy.wait_for_selector(f"#games tr[data-table='{a}'] a.replay")
        assert cy.locator(f"#games tr[data-table='{a}'] a.replay").get_attribute("href") \
            == f"/r/{a}?game=1"
    finally:
        for ctx in (ann_ctx, bo_ctx, cy_ctx):
            ctx.close()
