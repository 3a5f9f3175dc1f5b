"""A snap's result banner can be read on every screen of the fit test.

On a phone the banner shows over the notice line; the notice line is sticky with an opaque
background, and it once painted over the banner, so a wrong snap showed as a red strip with
no words. On a laptop the banner has a slot of its own, and a two-line banner once made the
slot taller, so the table jumped down while it showed. Here a banner is held on screen (its
end time far off, so nothing depends on timing) over real engine views at each size: every
point of its text is the banner's own (nothing on top), all of it lies in the viewport, its
text is not cut, and the grid under it stays where it was without a banner."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .harness import open_table, show, summary
from .scenes import scenes
from .test_fit import VIEWPORTS

TEXT = "Ann snapped Bot 2's top-left card: 7♥ — wrong, penalty card"
LONG = ("Maximiliana Wolkenstein snapped Bartholomew Fitzgerald's bottom-right card: 10♦"
        " — wrong, penalty card")
"""Two lines on a laptop: the longest a banner gets with long names (a phone shows two lines
of it, to the line's end)."""

HOLD_JS = """([text, kind]) => {
  const ui = window.__ui;
  const banner = text ? { text, kind, start: Date.now() - 1000, until: Date.now() + 600000 } : null;
  ui.st = { ...ui.st, banner, bannerQueue: [] };   // the table's state (cards/model.js)
  ui.render();
}"""

SEE_JS = r"""(text) => {
  const el = document.querySelector('.banner');
  if (!el) return ['no banner'];
  const out = [];
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > vw) {
    out.push(`banner ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},`
      + `${Math.round(r.bottom)} outside ${vw}x${innerHeight}`);
  }
  if (el.textContent !== text) out.push(`text ${el.textContent}`);
  if (el.scrollHeight > el.clientHeight + 1) {
    out.push(`text cut: ${el.scrollHeight} > ${el.clientHeight}`);
  }
  // Each line box of the text, probed at its middle: the topmost element there is the banner.
  // A banner lets taps through (pointer-events: none), which hit-testing skips: it is probed
  // as it is drawn.
  const slot = el.closest('.banner-slot');
  for (const e of [el, slot]) if (e) e.style.pointerEvents = 'auto';
  const range = document.createRange();
  range.selectNodeContents(el);
  for (const box of range.getClientRects()) {
    for (const fx of [0.1, 0.5, 0.9]) {
      const x = box.left + box.width * fx, y = box.top + box.height / 2;
      const top = document.elementFromPoint(x, y);
      if (!top || !el.contains(top)) {
        const who = top ? top.className || top.tagName : 'nothing';
        out.push(`covered at ${Math.round(x)},${Math.round(y)} by ${who}`);
      }
    }
  }
  for (const e of [el, slot]) if (e) e.style.pointerEvents = '';
  const style = getComputedStyle(el);
  if (style.visibility !== 'visible' || Number(style.opacity) < 1) out.push('not visible');
  const lum = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(style.color), lum(style.backgroundColor)];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) out.push(`contrast ${ratio.toFixed(2)}:1 under 4.5:1`);
  return out;
}"""

GRID_JS = "() => document.querySelector('.seat.mine .grid').getBoundingClientRect().top"


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("kind", ["bad", "good"])
def test_snap_banner_is_readable(browser: Browser, server: Server, size: str, clock: bool,
                                 kind: str) -> None:
    players = 4
    found = scenes(players)
    ctx, page = open_table(browser, server.base,
                           {**VIEWPORTS[size], "reduced_motion": "reduce"}, players, clock)
    try:
        bad: list[str] = []
        long = LONG if size == "laptop" else TEXT
        for phase, words in (("snap", TEXT), ("turn_start", long), ("drawn", TEXT)):
            scene = found[phase]
            show(page, scene["view"], scene["version"], summary(players, clock=clock))
            page.evaluate("() => window.scrollTo(0, 0)")
            page.evaluate(HOLD_JS, [None, kind])
            before = page.evaluate(GRID_JS)
            text = words if kind == "bad" else words.replace("wrong, penalty card", "right!")
            page.evaluate(HOLD_JS, [text, kind])
            bad += [f"{phase}: {b}" for b in page.evaluate(SEE_JS, text)]
            after = page.evaluate(GRID_JS)
            if abs(after - before) > 1:
                bad.append(f"{phase}: the grid moved {before:.0f} -> {after:.0f} px")
        assert not bad, "\n".join(bad)
    finally:
        ctx.close()
