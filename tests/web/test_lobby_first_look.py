"""The lobby at first sight on a phone: it says what Cambio is and offers "Learn to play"
without scrolling (at 360x740 the guided round was below the fold), and "Play now" and
"Quick play" -- one waits for people, one starts at once -- do not look alike."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import Server
from .driver import new_page
from .test_fit import VIEWPORTS

LOOK_JS = """() => {
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const look = (sel) => { const s = getComputedStyle(document.querySelector(sel));
    return `${s.backgroundColor} ${s.color} ${s.borderColor}`; };
  const note = (sel) => document.querySelector(sel).closest('section').querySelector('p.muted')
    .textContent;
  return { intro: document.querySelector('#intro').textContent, introBox: box('#intro p'),
           learn: box('#learn-intro'), height: innerHeight,
           looks: [look('#play-now'), look('#quick-play')],
           notes: [note('#play-now'), note('#quick-play')] };
}"""


def test_a_newcomer_sees_what_cambio_is_and_how_to_learn(browser: Browser,
                                                          server: Server) -> None:
    for size in ("small", "phone", "laptop"):
        ctx, page = new_page(browser, VIEWPORTS[size])
        try:
            page.goto(server.base + "/")
            page.wait_for_selector("#play-now")
            got = page.evaluate(LOOK_JS)
            assert "card game" in got["intro"]
            assert got["introBox"]["bottom"] <= got["height"], size
            assert got["learn"]["bottom"] <= got["height"], f"{size}: {got['learn']}"
            assert got["looks"][0] != got["looks"][1], size
            assert "Waits" in got["notes"][0] and "at once" in got["notes"][1], got["notes"]
            # The intro's button starts the same guided round as the one further down.
            page.fill("#name", "Fay")
            page.click("#learn-intro")
            page.wait_for_url("**/t/*")
        finally:
            ctx.close()
