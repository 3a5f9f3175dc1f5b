"""A card table that fits the screen.

At 390x844 and 360x740 (a phone) and 1280x800 (a laptop), for 2 to 8 players, with and
without the turn clock, in every phase a decision can be in (the deal, a turn's start, a
drawn card, each power's targets, a king's decision, a snap, a give, the reveal, the match
over), every element the decision needs -- your grid, the deck and the pile, each of this
decision's buttons and the cards it may choose, the status line, the clock -- lies inside
the viewport, with the page scrolled to its top (no scrolling needed), and every card one
may tap is at least 44x44 px (40x46 at 360 px wide). The views are the
engine's own (scenes.py), rendered by the real client (harness.py).

In English and light first, all of it; then in German (the longest words) and in the dark
theme, with fewer tables each: the dark theme changes no size, so one table (8 players, the
most crowded) shows it is drawn the same, and German's words get the fewest and the most
players."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES, new_page
from .harness import load_table, show, summary
from .scenes import PHASES, scenes

VIEWPORTS: dict[str, dict[str, Any]] = {
    **SIZES, "small": {"viewport": {"width": 360, "height": 740}, "has_touch": True,
                       "is_mobile": True, "device_scale_factor": 2}}

MEASURE_JS = """(needs) => {
  const vw = document.documentElement.clientWidth, vh = innerHeight;
  const out = [];
  for (const [name, sel] of needs) {
    const els = [...document.querySelectorAll(sel)];
    const optional = name === 'buttons' || name === 'choices';
    if (!els.length && !optional) { out.push(`${name}: missing (${sel})`); continue; }
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.top < -1 || r.left < -1 || r.bottom > vh + 1 || r.right > vw + 1 || r.width === 0) {
        out.push(`${name} ${el.dataset.addr || el.dataset.action || ''}: `
          + `${Math.round(r.left)},${Math.round(r.top)}..`
          + `${Math.round(r.right)},${Math.round(r.bottom)}`
          + ` outside ${vw}x${vh}`);
      }
    }
  }
  return out;
}"""


LOOKS: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "en-light": ({}, tuple(range(2, 9))),
    "de-light": ({"locale": "de-DE"}, (2, 8)),
    "en-dark": ({"color_scheme": "dark"}, (8,)),
    "de-dark": ({"locale": "de-DE", "color_scheme": "dark"}, (8,)),
}
"""Each language and theme: its browser context options and the player counts it is run at
(the clock on only, but in English light)."""

CASES = [pytest.param(size, clock, look, id=f"{size}-{'clock' if clock else 'no-clock'}-{look}")
         for look in LOOKS for size in VIEWPORTS for clock in (True, False)
         if clock or look == "en-light"]

TAP_JS = """(min) => [...document.querySelectorAll('.cards-game button.card:not(.empty)')]
  .map((el) => [el.dataset.addr || el.id, el.getBoundingClientRect()])
  .filter(([, r]) => r.width < min || r.height < min)
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
"""Every card one may tap (anyone's, in a snap; the deck, the pile) under the 44 px minimum
tap size (it measured 40x46 at 360 px wide), whether or not it is enabled in this phase."""

TAP_MIN = 44


def needs(phase: str, clock: bool) -> list[tuple[str, str]]:
    out = [("status", "#status")]
    if phase in ("reveal", "match_over"):
        out.append(("results", "#results > h2"))
        if phase == "match_over":
            out.append(("play again", "#again"))
        return out
    out += [("your grid", ".seat.mine .grid"), ("deck", "#deck"), ("pile", "#pile"),
            ("buttons", ".actions button"), ("choices", ".card.target")]
    if clock:
        out.append(("clock", "#turn-clock"))
    return out


CHECKED: list[str] = []


@pytest.mark.parametrize(("size", "clock", "look"), CASES)
def test_every_decision_fits_the_screen(browser: Browser, server: Server, size: str,
                                        clock: bool, look: str) -> None:
    bad: list[str] = []
    options, counts = LOOKS[look]
    # Reduced motion: a card turning over is 0 px wide for a moment, not off screen. One
    # context for every table size: each table is a new document in the same page.
    ctx, page = new_page(browser, {**VIEWPORTS[size], **options, "reduced_motion": "reduce"})
    try:
        for players in counts:
            found = scenes(players)
            assert set(PHASES) <= set(found), f"{players} players: {set(PHASES) - set(found)}"
            load_table(page, server.base, players, clock)
            # The table speaks the look's language (else German's words were never measured).
            assert page.evaluate("async () => (await import('/static/i18n.js')).language()") \
                == look[:2]
            for phase in (*PHASES, "match_over"):
                scene = found["reveal" if phase == "match_over" else phase]
                summ = summary(players, clock=clock, finished=phase == "match_over")
                show(page, scene["view"], scene["version"] + (1 if phase == "match_over" else 0),
                     summ)
                page.evaluate("() => window.scrollTo(0, 0)")
                got: list[str] = page.evaluate(MEASURE_JS, needs(phase, clock))
                bad += [f"{size} {look} {players}p {phase}: {b}" for b in got]
                if phase not in ("reveal", "match_over"):          # nothing to tap then
                    small: list[str] = page.evaluate(TAP_JS, TAP_MIN)
                    bad += [f"{size} {players}p {phase}: card under {TAP_MIN} px: {b}"
                            for b in small]
                CHECKED.append(f"{size} {players}p {'clock' if clock else 'no clock'} {phase}")
    finally:
        ctx.close()
    assert not bad, "\n".join(bad)
