"""Tables of players and games on a phone: words stay whole (the page's overflow-wrap once
broke "Game" into "Ga/me" in the profile's games table) and the links and tabs one taps are
44 px at least."""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import Server
from .driver import new_page
from .test_fit import VIEWPORTS

# A profile's games table as profile.js draws it, with the longest words it shows, measured
# under the real stylesheet on the real profile page (a new player has no game of their own).
TABLE_JS = """() => {
  const cells = ['2026-12-05 01:02', 'Cards', 'house', 'Medium (memory) bot, Maximiliana',
    'place 2 of 3', 'not rated: a seat nobody played'];
  const table = document.createElement('table');
  table.className = 'games';
  table.innerHTML = '<thead><tr>' + ['Date', 'Game', 'Rules', 'Players', 'Result', 'Rating', '']
    .map((t) => `<th>${t}</th>`).join('') + '</tr></thead><tbody><tr>'
    + cells.map((t) => `<td>${t}</td>`).join('')
    + '<td><a class="replay" href="#">replay</a></td></tr></tbody>';
  const panel = document.createElement('section');
  panel.className = 'panel';
  panel.id = 'games';
  panel.append(table);
  document.querySelector('main').append(panel);
  const broken = [];
  for (const cell of table.querySelectorAll('th, td')) {
    const text = cell.textContent;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/[^\\s,]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(`${m[0]} (in "${text}")`);
      }
    }
  }
  const link = table.querySelector('a.replay').getBoundingClientRect();
  return { broken, link: [link.width, link.height] };
}"""

TABS_JS = """() => [...document.querySelectorAll('.tabs .tab')]
  .map((t) => [t.textContent, t.getBoundingClientRect().width, t.getBoundingClientRect().height])"""


def test_words_stay_whole_and_taps_are_big_enough(browser: Browser, server: Server) -> None:
    for size in ("phone", "small"):
        ctx, page = new_page(browser, VIEWPORTS[size])
        try:
            page.goto(server.base + "/p/nobody-at-all")
            page.wait_for_selector("main")
            got = page.evaluate(TABLE_JS)
            assert got["broken"] == [], f"{size}: {got['broken']}"
            assert min(got["link"]) >= 44, f"{size}: replay link {got['link']}"
            page.goto(server.base + "/leaderboard")
            page.wait_for_selector(".tabs .tab")
            tabs = page.evaluate(TABS_JS)
            assert tabs and all(min(w, ht) >= 44 for _, w, ht in tabs), f"{size}: {tabs}"
        finally:
            ctx.close()


def test_the_rules_pages_send_nobody_to_a_repository_file(browser: Browser,
                                                          server: Server) -> None:
    ctx, page = new_page(browser, VIEWPORTS["phone"])
    try:
        for path, box in (("/rules", ".rules"), ("/rules?game=board", "#board-rules")):
            page.goto(server.base + path)
            page.wait_for_selector(f"{box} p.muted:has-text('every ruling')")
            text = page.inner_text("main")
            assert ".md" not in text and "docs/" not in text, path
    finally:
        ctx.close()
