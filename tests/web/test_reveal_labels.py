"""At the reveal on a phone every opponent's header is whole: the name (a bot's is "memory
bot") and the round's points ("37 pts · winner") were cut to "m…" and "37 pts · w" in the
narrow seats at 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import new_page
from .harness import load_table, show, summary
from .scenes import scenes
from .test_fit import VIEWPORTS

CUT_JS = """() => [...document.querySelectorAll('.opponents .seat-head, .opponents .seat-head *')]
  .filter((e) => getComputedStyle(e).display !== 'none' && getComputedStyle(e).visibility
    !== 'hidden')
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map((e) => `${e.className}: "${e.textContent}" ${e.scrollWidth}x${e.scrollHeight}`
    + ` in ${e.clientWidth}x${e.clientHeight}`)"""


@pytest.mark.parametrize("size", ["small", "phone"])
def test_reveal_headers_are_whole(browser: Browser, server: Server, size: str) -> None:
    bad: list[str] = []
    ctx, page = new_page(browser, {**VIEWPORTS[size], "reduced_motion": "reduce"})
    try:
        for players in (2, 4, 6):
            scene = scenes(players)["reveal"]
            load_table(page, server.base, players, False)
            summ = summary(players, clock=False)
            for seat in summ["seats"][1:]:
                seat["name"] = "memory bot"
            show(page, scene["view"], scene["version"], summ)
            bad += [f"{players}p: {b}" for b in page.evaluate(CUT_JS)]
    finally:
        ctx.close()
    assert not bad, "\n".join(bad)


YOU_JS = """() => { const e = document.querySelector('.seat.mine .seat-name .you');
  const r = e.getBoundingClientRect();
  // The clipping boxes around it: the name and the header (both cut what overflows).
  const room = Math.min(e.closest('.seat-name').getBoundingClientRect().right,
                        e.closest('.seat-head').getBoundingClientRect().right) - r.right;
  return [e.textContent, e.scrollWidth, r.width, room];
}"""


@pytest.mark.parametrize("size", ["small", "phone"])
def test_your_seat_says_you_whole(browser: Browser, server: Server, size: str) -> None:
    bad: list[str] = []
    ctx, page = new_page(browser, {**VIEWPORTS[size], "reduced_motion": "reduce"})
    try:
        for players in (2, 4, 8):
            found = scenes(players)
            load_table(page, server.base, players, False)
            for phase in ("turn_start", "drawn", "snap"):
                scene = found[phase]
                show(page, scene["view"], scene["version"], summary(players, clock=False))
                text, needed, shown, room = page.evaluate(YOU_JS)
                if text != "You" or shown < needed - 0.5 or room < -0.5:
                    bad.append(f"{players}p {phase}: {text!r} {shown:.0f}/{needed} px")
    finally:
        ctx.close()
    assert not bad, "\n".join(bad)
