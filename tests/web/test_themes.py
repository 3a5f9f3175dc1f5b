"""Light and dark, chosen and remembered, every text readable; four-colour suits.

Every visible text of the lobby, the rules page, the leaderboard and a card table in play is
measured against the background it is drawn on (the first opaque one up its ancestors) in
the light and the dark theme: each is at least 4.5:1 (WCAG AA). Cards, dice and disabled
controls are left out (cards keep their printed colours, checked by tests/js/contrast.test.js;
a disabled control need not be read). The footer's theme choice outlives a reload, and
four-colour suits draw diamonds blue and clubs green."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import WAIT_MS, Server
from .driver import bot_game

CONTRAST_JS = r"""() => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const lum = (rgb) => rgb.slice(0, 3).map((v) => v / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  // The page's felt is a gradient: its lightest stop (--felt-3) is the hardest for light text.
  const felt = getComputedStyle(document.documentElement).getPropertyValue("--felt-3").trim();
  const feltRgb = [1, 3, 5].map((i) => parseInt(felt.slice(i, i + 2), 16)).concat(1);
  const bgOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      if (e === document.body || e === document.documentElement) break;
      const cs = getComputedStyle(e);
      if (cs.backgroundImage !== "none") return null;       // a picture: not measured here
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0.9) return c;
    }
    return feltRgb;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || !el.getClientRects().length) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || el.closest("[disabled], .card, .die, .mini")) continue;
    const fg = parse(cs.color), bg = bgOf(el);
    if (!fg || !bg) continue;
    const r = ratio(fg, bg);
    const text = n.textContent.trim().slice(0, 30);
    const what = `${el.tagName.toLowerCase()}.${el.className} "${text}"`
      .trim();
    if (r < 4.5) out.push(`${what} ${r.toFixed(2)}`);
  }
  return [...new Set(out)];
}"""
"""Every visible text under 4.5:1 on its background, as "tag.class "text" ratio"."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_is_readable_in_each_theme(browser: Browser, server: Server,
                                              scheme: str) -> None:
    bad: list[str] = []
    ctx, page = bot_game(browser, server.base, "laptop", color_scheme=scheme)
    try:
        bad += [f"card table: {b}" for b in page.evaluate(CONTRAST_JS)]
        for path, ready in (("/", "#tables"), ("/rules", ".rules-table"),
                            ("/leaderboard", "#rating-policy")):
            page.goto(server.base + path)
            page.wait_for_selector(ready, timeout=WAIT_MS)
            bad += [f"{path}: {b}" for b in page.evaluate(CONTRAST_JS)]
    finally:
        ctx.close()
    assert not bad, "\n".join(bad)


def test_the_theme_and_suits_chosen_outlive_a_reload(browser: Browser, server: Server) -> None:
    ctx, page = bot_game(browser, server.base, "laptop", color_scheme="light")
    try:
        paper = ("() => getComputedStyle(document.documentElement)"
                 ".getPropertyValue('--paper').trim()")
        light = page.evaluate(paper)
        page.select_option("#setting-theme", "dark")
        page.select_option("#setting-suits", "four")
        page.reload()
        page.wait_for_selector(".cards-game[data-version]")
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        assert page.evaluate(paper) != light
        # A diamond blue, a club green: no suit told apart by red against black alone.
        colour = """(suit) => { const c = document.createElement('div');
          c.className = 'card up red'; c.dataset.code = 'K' + suit;
          document.body.append(c); const v = getComputedStyle(c).color; c.remove(); return v; }"""
        assert page.evaluate(colour, "D") == "rgb(29, 78, 216)"
        assert page.evaluate(colour, "C") == "rgb(21, 112, 58)"
        page.select_option("#setting-theme", "auto")
        page.select_option("#setting-suits", "two")
        assert page.evaluate("() => document.documentElement.dataset.theme") is None
        assert page.evaluate(colour, "D") != "rgb(29, 78, 216)"
    finally:
        ctx.close()
