"""The card game's first-game tutorial: "Learn to play" in the lobby
starts a guided round on the server's fixed deal against the Easy bot. Following only what
the guidance outlines plays the round to its end: the opening peek, a power (the 8♥: peek at
your own card), snaps of your own cards, calling Cambio; each is explained when
it comes up, in a status line that shows all of its words. It can be skipped, and started
again from the lobby (the same deal)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import WAIT_MS, Server
from .driver import SIZES, seen, wait_for_game

MARKS_JS = """() => [...document.querySelectorAll('.cards-game .hinted')].map(
  (e) => e.dataset.addr || e.dataset.action || e.id)"""
"""What the guidance outlines: card addresses, button actions, "deck", "pile"."""

OUT_OF_SIGHT_JS = """() => [...document.querySelectorAll('.cards-game .hinted, #status')]
  .filter((e) => { const r = e.getBoundingClientRect();
    return r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
  .map((e) => e.dataset.addr || e.dataset.action || e.id)"""
"""What the guidance points at, or says, that is not on the screen (the page at its top)."""

CLIPPED_JS = """() => { const s = document.getElementById('status');
  return s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1; }"""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bots at the pace a newcomer meets (a snap window lasts while the bot thinks)."""
    srv = Server(tmp_path_factory.mktemp("web"), "tutorial", "--seed", "3",
                 "--bot-speed", "2", "--away-after", "120")
    yield srv
    srv.stop()


def coach(page: Page) -> str:
    return page.locator("#coach-text").text_content() or ""


def wait_coach(page: Page, words: str) -> None:
    page.wait_for_function("(w) => { const c = document.getElementById('coach-text');"
                           " return c && c.textContent.includes(w); }", arg=words)


def marks(page: Page) -> list[str]:
    got: list[str] = page.evaluate(MARKS_JS)
    return got


def follow(page: Page, said: list[str]) -> None:
    """One step of doing what the guidance outlines (waits while nothing is outlined)."""
    text = coach(page)
    if text and (not said or said[-1] != text):
        said.append(text)
        assert not page.evaluate(CLIPPED_JS), f"the tip is cut off: {text}"
        page.evaluate("() => window.scrollTo(0, 0)")
        hidden = page.evaluate(OUT_OF_SIGHT_JS)
        assert not hidden, f"{hidden} out of sight: {text}"
    marked = marks(page)
    buttons = [m for m in marked if page.locator(f".actions button[data-action='{m}']").count()]
    cards = [m for m in marked if "." in m and page.locator(
        f".card[data-addr='{m}']:not(.selected):not([disabled])").count()]
    # What was outlined a moment ago may be taken meanwhile (a snap sent, waiting for the
    # server's answer, disables its card; the bot moved): then look again next step.
    with contextlib.suppress(PlaywrightTimeout):
        if cards and "snap-mode" in marked:
            page.click(f".card[data-addr='{cards[0]}']", timeout=5000)  # a snap: the card
        elif buttons:
            button = page.locator(f".actions button[data-action='{buttons[0]}']")
            button.click(timeout=5000)
            if buttons[0] == "cambio":                               # a second tap confirms
                page.locator(".actions button[data-action='cambio']").click(timeout=5000)
        elif cards:
            page.click(f".card[data-addr='{cards[0]}']", timeout=5000)
    page.wait_for_timeout(150)


@pytest.mark.parametrize("size", list(SIZES))
def test_learn_to_play_guides_a_fixed_round_to_its_end(browser: Browser, slow_server: Server,
                                                       size: str) -> None:
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(slow_server.base + "/")
        page.fill("#name", "Ann")
        page.click("#tutorial")
        page.wait_for_url("**/t/*")
        first = page.url
        wait_for_game(page)
        summary = slow_server.api("GET", "/api/tables/" + first.rsplit("/", 1)[1])
        assert isinstance(summary, dict)
        assert [s["bot"] for s in summary["seats"]] == [None, "easy"]
        assert summary["private"] is True and summary["clock"] is None
        assert summary["tutorial"] is True
        # The fixed deal: every newcomer sees the same two cards, and is shown where to go.
        wait_coach(page, "card 3 is the 3♦, card 4 is the 4♣")
        assert {"draw", "deck"} <= set(marks(page))
        said: list[str] = []
        follow(page, said)                                       # Draw
        wait_coach(page, "The 8♥ is a power card")
        assert {"discard", "pile"} <= set(marks(page))
        follow(page, said)                                       # Discard: the power
        wait_coach(page, "Power: tap a card of yours you have not seen (card 1 or card 2)")
        assert set(marks(page)) == {"0.0", "0.1"}
        for _ in range(400):
            if seen(page).phase == "round_over":
                break
            follow(page, said)
        else:
            pytest.fail(f"following the guidance did not end the round: {said}")
        wait_coach(page, "The lowest total wins")
        joined = "\n".join(said)
        assert "Snap! The pile's 4" in joined and "matches your card 4 (the 4♣)" in joined, said
        assert "Discard it (tap the pile), then snap your card" in joined, said
        assert "Call Cambio (tap it twice)" in joined, said
        log = page.locator(".log").text_content() or ""
        assert "You snapped your own card 4" in log or "You snapped your card 4" in log, log
        assert "You called Cambio" in log, log

        # Replayed from the lobby: a new table, the same deal; × skips, for good.
        page.goto(slow_server.base + "/")
        page.click("#tutorial")
        page.wait_for_url(lambda url: url != first and "/t/" in url)
        wait_for_game(page)
        wait_coach(page, "card 3 is the 3♦, card 4 is the 4♣")
        page.click("#coach-skip")
        assert page.locator("#coach-text").count() == 0
        assert not page.locator(".cards-game .hinted").count()
        assert "Your turn" in (page.locator("#status").text_content() or "")
        page.reload()
        wait_for_game(page)
        page.wait_for_selector("#status")
        assert page.locator("#coach-text").count() == 0
    finally:
        ctx.close()
