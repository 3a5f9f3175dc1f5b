"""Sound, at laptop and phone size: off by default, then, switched on,
the cues of your turn, a snap and a Cambio call are played (WebAudio tones; the page notes
each cue it plays in ``window.__cambioSounds``, since a headless browser has nobody to hear).
"""

from __future__ import annotations

import contextlib
import time

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import WAIT_MS, Server
from .driver import SIZES, bot_game, play_until, seen, step


def cues(page: Page) -> list[str]:
    got: list[str] = page.evaluate("window.__cambioSounds || []")
    return got


@pytest.mark.parametrize("size", list(SIZES))
def test_sound_is_off_by_default_then_plays_its_cues(browser: Browser, server: Server,
                                                     size: str) -> None:
    ctx, page = bot_game(browser, server.base, size)
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    # Off: a turn comes and goes, a snap is made by someone, and nothing is played.
    play_until({"ann": page}, lambda: seen(page).my_move)
    step(page)
    play_until({"ann": page}, lambda: seen(page).my_move)
    assert cues(page) == []

    page.locator("#sound").click()
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('cambio:sound')") == "1"
    # A snap: tap a card the page offers to snap, before making our own move. At the start
    # of our turn the table waits for us, so the snap races no bot's move: a bot calling
    # Cambio (the random bot may, from its first turn) cannot end the round first -- our last
    # turn starts with a card on the pile too.
    deadline = time.monotonic() + WAIT_MS / 1000
    while not any(c.startswith("snap-") for c in cues(page)):
        assert time.monotonic() < deadline, f"no snap cue: {cues(page)}"
        s = seen(page)
        assert s.phase != "round_over", "the round ended before a snap"
        if s.snappable:
            # Snaps are real time: the card may be gone (snapped, the turn moved on) first.
            with contextlib.suppress(PlaywrightTimeout):
                page.locator(f'.card.snappable[data-addr="{s.snappable[0]}"]').first.click(
                    timeout=2000, no_wait_after=True)
            page.wait_for_timeout(300)
        elif s.my_move:
            step(page)
        else:
            page.wait_for_timeout(50)
    play_until({"ann": page}, lambda: seen(page).phase == "round_over", call_after=0)
    played = cues(page)
    assert "turn" in played and "cambio" in played, played
    assert page.evaluate("!!(window.AudioContext || window.webkitAudioContext)")
    ctx.close()
