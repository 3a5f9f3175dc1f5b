"""No layout jumps, at laptop and phone size.

During one's own turn the buttons come and go (Draw and Call Cambio, then Discard, a confirm
and Cancel after choosing a card, then none), the status line changes and banners may show.
None of that may move a card: every card's box (one's own, the opponents', the deck, the
pile) is measured before the draw and after each step, and must not move by a pixel. A bot's
snap changes the cards themselves (a card goes, a penalty card comes): a turn where the set of
cards changed is not compared, and the next turn is measured instead; at least one whole turn
must be. The laptop layout puts the deck and the pile beside one's cards (it uses its width).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .conftest import Server
from .driver import SIZES, bot_game, button, card, play_until, seen, wait_moved

BOXES_JS = """() => {
  // The layout box (offsets, which leave out transforms): a card turning over or the chosen
  // card lifted a little are animations of that card, not the layout moving.
  const out = {};
  for (const el of document.querySelectorAll('.cards-game .card[data-addr], #deck, #pile')) {
    let x = 0, y = 0;
    for (let e = el; e; e = e.offsetParent) { x += e.offsetLeft; y += e.offsetTop; }
    out[el.dataset.addr || el.id] = [x, y, el.offsetWidth, el.offsetHeight];
  }
  return out;
}"""


def boxes(page: Page) -> dict[str, list[float]]:
    got: dict[str, list[float]] = page.evaluate(BOXES_JS)
    return got


def measured_turn(page: Page) -> bool:
    """Draw, choose a card, cancel, discard, measuring the cards at each step; False if the
    cards themselves changed meanwhile (a snap), True once all steps matched."""
    s = seen(page)
    assert "draw" in s.actions, s
    first = boxes(page)
    steps: list[tuple[str, dict[str, list[float]]]] = []
    page.locator(button("draw")).click()
    page.wait_for_selector(button("discard"))
    steps.append(("holding a card", boxes(page)))
    mine = [t for t in seen(page).targets if t.startswith(f"{s.me}.")]
    page.locator(card(mine[0])).click()
    page.wait_for_selector(button("confirm-swap"))
    steps.append(("a card chosen, confirm and cancel shown", boxes(page)))
    page.locator(button("cancel")).click()
    page.wait_for_selector(button("confirm-swap"), state="detached")
    steps.append(("cancelled", boxes(page)))
    before = seen(page)
    page.locator(button("discard")).click()
    wait_moved(page, before)
    steps.append(("discarded", boxes(page)))
    for where, now in steps:
        if set(now) != set(first):
            return False                   # a snap took or added a card: not comparable
        moved = {k: (first[k], now[k]) for k in first if first[k] != now[k]}
        assert not moved, f"{where}: cards moved {moved}"
    return True


@pytest.mark.parametrize("size", list(SIZES))
def test_cards_do_not_move_when_the_buttons_change(browser: Browser, server: Server,
                                                   size: str) -> None:
    # memory bots, not random ones: a random bot calls Cambio or snaps at random, and a round
    # could end before Ann had a turn that no snap interrupted (seen under load).
    ctx, page = bot_game(browser, server.base, size, players="3", bot="medium")
    if size == "laptop":
        me = page.locator(".seat.mine").bounding_box()
        deck = page.locator("#deck").bounding_box()
        assert me and deck and deck["x"] + deck["width"] <= me["x"], "deck not beside the cards"
        assert deck["y"] + deck["height"] > me["y"], "deck not beside the cards"
    measured = 0

    def done() -> bool:
        nonlocal measured
        s = seen(page)
        if s.phase == "round_over" or measured:
            return True
        if s.my_move and "draw" in s.actions:
            measured += measured_turn(page)
        return bool(measured)

    play_until({"ann": page}, done)
    assert measured, "no turn of the round could be measured"
    ctx.close()
