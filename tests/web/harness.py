"""A card table page fed with real engine views (tests/web/scenes.py), for layout tests.

The page is the real client: ``app.css``, ``play.css``, ``fit.css`` and the real modules
(``cards.js``, ``clock.js``, ``sound.js``, ``common.js``) loaded from the test server, in the
DOM ``table.html`` and ``table.js`` build (top bar, notice line, clock line, game). Only the
connection is left out: the views are the ones the server's session makes for seat 0, given
to :meth:`CardsTable.state` as a ``state`` message would give them."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

from .driver import new_page

HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<link rel="stylesheet" href="/static/app.css"><link rel="stylesheet" href="/static/play.css">
<link rel="stylesheet" href="/static/fit.css"></head>
<body class="page-table">
<header class="topbar"><a class="brand" href="/">Cambio</a>
<span id="title" class="title">Ann's table · Cards · 8 players</span>
<span id="badges" class="badges"></span></header>
<main id="app" class="table-page"></main></body></html>"""

SETUP_JS = """async ([summary, clock]) => {
  const { h, noticeLine } = await import('/static/common.js');
  const { CardsTable } = await import('/static/cards.js');
  const { TurnClockView } = await import('/static/clock.js');
  const { soundToggle } = await import('/static/sound.js');
  const badges = document.getElementById('badges');
  badges.append(h('span.badge.conn.conn-open', { id: 'conn' }, 'online'),
    h('span.badge.you', null, 'You: Ann'), soundToggle(),
    h('a.button.ghost.rules-top', { href: '#' }, 'Rules'),
    h('button.ghost.invite', { type: 'button' }, 'Invite'));
  const root = h('div.table-root.in-game',
    { dataset: { clock: clock ? 'on' : 'off', status: 'playing' } });
  const clockEl = h('div.clock-host');
  const gameEl = h('div.game-host');
  root.append(noticeLine(), h('div.waiting'), clockEl, gameEl, h('div.chat-host'));
  document.getElementById('app').append(root);
  window.__summary = summary;
  window.__acts = [];
  const ctx = { act: (a) => { window.__acts.push(a); return window.__acts.length; },
    hint: () => {}, seat: () => 0, summary: () => window.__summary, again: () => {},
    isHost: () => true, tableId: 't' };
  window.__ui = new CardsTable(gameEl, ctx);
  window.__ui.setSummary(summary);
  window.__clock = new TurnClockView(clockEl,
    { seat: () => 0, summary: () => window.__summary, back() {} });
  window.__withClock = clock;
}"""

SHOW_JS = """([view, version, summary]) => {
  window.__summary = summary;
  window.__ui.setSummary(summary);
  window.__ui.state({ version, view, log: [] });
  if (window.__withClock && view.actor !== null && view.phase !== 'round_over') {
    window.__clock.clock({ seat: view.actor, seconds: 60, left: 60 });
  } else window.__clock.clock({ seat: null, left: null });
  window.__clock.render();
}"""


def summary(players: int, *, clock: bool, finished: bool = False) -> dict[str, Any]:
    """A table summary as the server sends it: Ann (seat 0, the host) and bots."""
    seats = [{"seat": i, "name": "Ann" if i == 0 else f"Bot {i + 1}",
              "kind": "human" if i == 0 else "bot", "connected": True, "away": False}
             for i in range(players)]
    out: dict[str, Any] = {"id": "t", "game": "cards", "players": players, "seats": seats,
                           "host": 0, "status": "finished" if finished else "playing",
                           "rounds": 2, "round": 2 if finished else 1,
                           "totals": [7 * i for i in range(players)],
                           "clock": 60 if clock else None, "table_name": ""}
    if finished:
        out["result"] = {"scores": [[3 * i, 4 * i] for i in range(players)],
                         "totals": [7 * i for i in range(players)], "winners": [0]}
        out["game_no"] = 0
    return out


def open_table(browser: Browser, base: str, context: dict[str, Any], players: int,
               clock: bool) -> tuple[BrowserContext, Page]:
    ctx, page = new_page(browser, context)
    load_table(page, base, players, clock)
    return ctx, page


def load_table(page: Page, base: str, players: int, clock: bool) -> None:
    """A fresh table page for ``players`` in ``page``: a new document, so a page may be
    loaded again for another table (a new context loading the client cost chromium about
    1.5 s of CPU: docs/testing.md, "chromium, counted whole")."""
    # A same-origin document that runs no script of its own (the stylesheet, shown as text):
    # a page's modules could still be running when set_content replaces it. The rules page
    # did: with a catalog to load first (German), its module found this page's #app and
    # appended the whole rules text above the table, so every control measured 3000 px down.
    page.goto(base + "/static/app.css")
    page.set_content(HTML)
    page.evaluate(SETUP_JS, [summary(players, clock=clock), clock])


def show(page: Page, view: dict[str, Any], version: int, summ: dict[str, Any]) -> None:
    page.evaluate(SHOW_JS, [view, version, summ])
    page.wait_for_function("(v) => document.querySelector('.cards-game')?.dataset.version"
                           " === String(v)", arg=version)
