"""Keyboard play: a whole round against a bot with the keyboard alone --
shortcuts for each decision, a card by its number (O, the player, the number for another
player's), a snap (S then a card), Cambio (C twice), the `?` overlay -- and the focus on
the decision's first button when it is your move."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import WAIT_MS, Server
from .driver import SIZES, Seen, bot_game, seen, wait_moved
from .test_phone import check_layout

LOG_JS = "() => [...document.querySelectorAll('.log-list li')].map((li) => li.textContent)"

ROUND_LOG_JS = """() => { const r = document.querySelector('.cards-game');
  if (r.dataset.phase !== 'round_over') return null;
  document.querySelector('details.log').open = true;
  return [...document.querySelectorAll('.log-list li')].map((li) => li.textContent); }"""
"""The log of the round just over, read in one page task (the next round is dealt after a
second's pause), or null if it was dealt already."""

TWICE_JS = """(key) => { for (let i = 0; i < 2; i++) document.dispatchEvent(
  new KeyboardEvent('keydown', { key, bubbles: true })); }"""
"""Two key presses in one page task (a person's quick double press: no machine load can
put the page's 3-second arming window between them)."""

STALL_JS = """() => { const r = document.querySelector('.cards-game');
  const a = document.activeElement;
  return { focus: a ? a.outerHTML.slice(0, 200) : null, data: { ...r?.dataset },
           actions: [...(r?.querySelectorAll('.actions button') ?? [])].map((b) =>
             `${b.dataset.action}${b.disabled ? ' (disabled)' : ''}`),
           status: document.getElementById('status')?.textContent ?? null,
           log: [...document.querySelectorAll('.log-list li')].slice(-6).map((li) =>
             li.textContent) }; }"""
"""What the page showed when a confirmed move did not move the table: where the focus
was, the decision's buttons, the status line and the log's last lines."""


def confirm_by_enter(page: Page, s: Seen) -> None:
    """Press Enter on a decision whose confirm button shows (``s``: the page before the
    decision), and wait for the table to move on, to another round if the move ended this
    one; if it does not, fail with what the page showed (where the focus was)."""
    before = page.evaluate("() => document.activeElement?.outerHTML.slice(0, 200) ?? null")
    page.keyboard.press("Enter")
    try:
        wait_moved(page, s)
    except PlaywrightTimeout as stalled:
        raise AssertionError(f"Enter did not move the table (focus before Enter: {before}; "
                             f"the page: {page.evaluate(STALL_JS)})") from stalled


def keys_for(page: Page, addr: str) -> list[str]:
    """The keys that choose a card: its number, after O and the player's place if not ours."""
    s = seen(page)
    players = page.locator(".cards-game .seat").count()
    seat, slot = (int(x) for x in addr.split("."))
    me = int(s.me)
    place = (seat - me) % players
    return [str(slot + 1)] if place == 0 else ["o", str(place), str(slot + 1)]


def press_move(page: Page, moves: int, may_call: bool = True) -> str:
    """Make this seat's move by keyboard; return what was pressed ("" if it is not this
    seat's move after all: in real time a bot's snap can take the turn away)."""
    s = seen(page)
    if not s.my_move:
        return ""
    kb = page.keyboard
    if "draw" in s.actions:
        if moves >= 6 and may_call and "cambio" in s.actions:
            page.evaluate(TWICE_JS, "c")
            return "C C"
        kb.press("d")
        return "D"
    if "discard" in s.actions:
        own = [t for t in s.targets if t.startswith(f"{s.me}.")]
        if moves % 3 == 1 and own:
            for key in keys_for(page, own[0]):
                kb.press(key)
            page.wait_for_selector(".actions button[data-action^='confirm-']")
            confirm_by_enter(page, s)
            return f"swap {own[0]}"
        kb.press("x")
        return "X"
    if "keep" in s.actions:
        kb.press("k")
        return "K"
    if s.targets:
        pressed = []
        for _ in range(2):
            now = seen(page)
            if any(a.startswith("confirm-") for a in now.actions):
                break
            target = next(t for t in now.targets if t not in now.selected)
            keys = keys_for(page, target)
            for key in keys:
                kb.press(key)
            pressed += keys
            page.wait_for_function("(a) => document.querySelector(`.card[data-addr=\"${a}\"]`)"
                                   "?.classList.contains('selected') || !document.querySelector("
                                   "'.card.target')", arg=target)
        if seen(page).version == s.version and s.actions != ["give"]:
            page.wait_for_selector(".actions button[data-action^='confirm-']")
            # Enter confirms (with the focus left on Cancel it once cleared the choice and
            # the round stalled until a clock took over).
            confirm_by_enter(page, s)
        return " ".join(pressed)
    if "skip" in s.actions:
        kb.press("n")
        return "N"
    raise AssertionError(f"no key for {s}")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_round_by_keyboard_with_a_snap(browser: Browser, server: Server,
                                               size: str) -> None:
    # A random bot may call Cambio at once and snap first: rounds go on until one had a
    # snap of ours (a match of up to five).
    ctx, page = bot_game(browser, server.base, size, bot="random", rounds="5")
    try:
        # The help overlay opens with ? and closes with Esc.
        page.keyboard.press("?")
        page.wait_for_selector("#kbd-help:not([hidden])")
        assert "Snap that card" in (page.locator("#kbd-help").text_content() or "")
        page.keyboard.press("Escape")
        page.wait_for_selector("#kbd-help", state="hidden")
        moves = 0
        snapped = False
        focus_checked = False
        rounds: set[str] = set()        # the rounds seen (a move can end one unseen)
        while True:
            s = seen(page)
            if s.round not in rounds:
                rounds.add(s.round)
                moves = 0
            if s.phase == "round_over":
                if snapped:
                    lines = page.evaluate(ROUND_LOG_JS)
                    if lines is not None:       # else the next round was dealt meanwhile
                        break
                elif len(rounds) == 5:
                    break
                page.wait_for_function("() => document.querySelector('.cards-game')"
                                       "?.dataset.phase !== 'round_over'")
                continue
            if not snapped and s.snappable and (not s.my_move or "draw" in s.actions):
                # A card on the pile: S, then our card 1. At the start of our own move the
                # window stays open until we draw (no bot can take it away meanwhile), so a
                # loaded machine cannot make every window close before the keys arrive.
                before = len([x for x in page.evaluate(LOG_JS) if x.startswith("You snapped")])
                page.keyboard.press("s")
                page.keyboard.press("1")
                try:
                    page.wait_for_function(
                        "(n) => [...document.querySelectorAll('.log-list li')].filter((li) =>"
                        " li.textContent.startsWith('You snapped')).length > n", arg=before,
                        timeout=5000)
                    snapped = True
                except PlaywrightTimeout:            # too late (the card went): try again
                    pass
                continue
            if not s.my_move:
                page.wait_for_function(
                    "([v, snapped]) => { const r = document.querySelector('.cards-game');"
                    " return Number(r.dataset.version) > v || (r.dataset.actor === r.dataset.me"
                    " && r.querySelector('.actions button:not([data-action=snap-mode])'))"
                    " || (!snapped && r.querySelector('.card.snappable')); }",
                    arg=[s.version, snapped], timeout=WAIT_MS)
                continue
            if not focus_checked and "draw" in s.actions:
                page.wait_for_function("() => document.activeElement?.dataset.action === 'draw'")
                focus_checked = True
            press_move(page, moves, may_call=snapped)   # Cambio once a snap was made
            moves += 1
            # A key that lost to a bot's snap moves nothing: look again.
            with contextlib.suppress(PlaywrightTimeout):
                wait_moved(page, s, timeout=10_000)
            assert moves < 200, "the round does not end"
        assert snapped, "no snap was made by keyboard: " + " | ".join(page.evaluate(LOG_JS))
        assert focus_checked
        assert [x for x in lines if x.startswith("You ")], lines
        if size == "phone":
            check_layout(page, "the reveal")
    finally:
        ctx.close()
