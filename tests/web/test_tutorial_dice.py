"""The dice game's guided game and its sound toggle: "Learn the
dice game" in the lobby starts a tutorial against the Random bot from the server's fixed
start; the status line says what to do and one legal arrow is outlined at each move of
yours; following it wins the game. Sound is off until switched on, then your turn plays its
cue. Skipped, the tips go, for good; the lobby starts the same game again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .conftest import Server
from .driver import SIZES, new_page
from .test_tutorial import CLIPPED_JS

BOARD_JS = """() => {
  const r = document.querySelector('.board-game');
  return r && {version: Number(r.dataset.version), actor: r.dataset.actor, me: r.dataset.me,
    over: r.dataset.over === '1',
    legal: [...r.querySelectorAll('.arrow:not(:disabled)')].map((a) => a.dataset.move),
    hinted: [...r.querySelectorAll('.arrow.hinted')].map((a) => a.dataset.move),
    dice: [...r.querySelectorAll('.die')].map((d) => d.dataset.owner).join(''),
    coach: (document.getElementById('coach-text') || {}).textContent || null};
}"""


def board(page: Page) -> dict[str, object]:
    got: dict[str, object] = page.evaluate(BOARD_JS)
    assert got, "no dice table on the page"
    return got


def start(page: Page, base: str) -> dict[str, object]:
    page.goto(base + "/")
    page.fill("#name", "Ann")
    page.click("#tutorial-dice")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => { const r = document.querySelector('.board-game');"
                           " return r && r.dataset.actor === r.dataset.me; }")
    page.wait_for_selector("#coach-text")
    return board(page)


@pytest.mark.parametrize("size", list(SIZES))
def test_dice_tutorial_points_at_a_push_and_following_it_wins(browser: Browser, server: Server,
                                                             size: str) -> None:
    ctx, page = new_page(browser, SIZES[size])
    try:
        first = start(page, server.base)
        table = page.url.rsplit("/", 1)[1]
        summary = server.api("GET", f"/api/tables/{table}")
        assert isinstance(summary, dict)
        assert summary["tutorial"] is True and summary["game"] == "board"
        assert [s["bot"] for s in summary["seats"]] == [None, "random"]
        assert "Make a line of 5" in str(first["coach"]), first
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        page.locator("#sound").click()
        assert page.get_attribute("#sound", "aria-pressed") == "true"
        moves = 0
        while not board(page)["over"]:
            b = board(page)
            if b["actor"] != b["me"]:
                page.wait_for_timeout(50)
                continue
            hinted, legal = b["hinted"], b["legal"]
            assert isinstance(hinted, list) and isinstance(legal, list) and len(hinted) == 1, b
            assert hinted[0] in legal, b                       # a push the board allows
            assert not page.evaluate(CLIPPED_JS), f"the tip is cut off: {b['coach']}"
            version = b["version"]
            page.locator(f".arrow.hinted[data-move='{hinted[0]}']").click()
            if size == "phone":                                  # one tap shows, one pushes
                page.wait_for_selector(f".arrow.armed.hinted[data-move='{hinted[0]}']")
                assert "Tap the same arrow again" in str(board(page)["coach"])
                page.locator(f".arrow.hinted[data-move='{hinted[0]}']").click()
            page.wait_for_function("(v) => Number(document.querySelector('.board-game')"
                                   ".dataset.version) > v", arg=version)
            moves += 1
            assert moves < 60, "following the tips does not end the game"
        page.wait_for_selector("#coach-text:has-text('You made a line: you win!')")
        assert "You made a line" in (page.locator("#result-words").text_content() or "")
        played: list[str] = page.evaluate("window.__cambioSounds || []")
        assert played.count("turn") >= 1 and "snap-right" in played, played

        # Again from the lobby: the same start; × skips, and a reload keeps it skipped.
        again = start(page, server.base)
        assert page.url.rsplit("/", 1)[1] != table
        assert again["dice"] == first["dice"]
        page.click("#coach-skip")
        assert page.locator("#coach-text").count() == 0
        assert page.locator(".arrow.hinted").count() == 0
        page.reload()
        page.wait_for_selector(".board-game[data-version]")
        page.wait_for_selector("#status")
        assert page.locator("#coach-text").count() == 0
    finally:
        ctx.close()
