"""Playing through the page as a person would: read what the page offers, tap it.

The driver never talks to the server itself: it looks at the buttons and highlighted cards
the client shows (which come from the seat's ``view.legal``), taps one, and waits for the
table to move on. Hooks used: ``.cards-game[data-version|data-phase|data-actor|data-me]``,
buttons' ``data-action``, cards' ``data-addr`` and the ``target`` class.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from .conftest import WAIT_MS
from .frames import wait_until

GAME = ".cards-game"

READ_JS = """() => {
  const root = document.querySelector('.cards-game');
  if (!root) return null;
  const actions = [...root.querySelectorAll('.actions button[data-action]')]
    .map((b) => b.dataset.action);
  const targets = [...root.querySelectorAll('.card.target[data-addr]')].map((c) => c.dataset.addr);
  const selected = [...root.querySelectorAll('.card.selected[data-addr]')]
    .map((c) => c.dataset.addr);
  const snappable = [...root.querySelectorAll('.card.snappable[data-addr]')]
    .map((c) => c.dataset.addr);
  return {
    version: Number(root.dataset.version), phase: root.dataset.phase,
    actor: root.dataset.actor, me: root.dataset.me, round: root.dataset.round || '',
    actions, targets, selected, snappable,
    status: (document.getElementById('status') || {}).textContent || '',
  };
}"""


DOUBLE_TAP_JS = """(sel) => {
  const first = document.querySelector(sel);
  if (!first) return null;
  first.click();
  const again = document.querySelector(sel);
  const armed = again.classList.contains('armed');
  again.click();
  return armed;
}"""
"""Tap a button twice in one page task; return whether the first tap armed it (``None``:
no such button, the table moved on meanwhile)."""


@dataclass
class Seen:
    version: int
    phase: str
    actor: str
    me: str
    round: str
    actions: list[str]
    targets: list[str]
    selected: list[str]
    snappable: list[str]
    status: str

    @property
    def my_move(self) -> bool:
        """The page offers this seat a move of its own (not only snaps)."""
        return bool(self.me) and self.actor == self.me and self.phase != "round_over" and (
            bool(set(self.actions) - {"snap-mode"}) or bool(self.targets))


QUIET: dict[str, Any] = {"reduced_motion": "reduce"}
"""Options every test context starts from: reduced motion, which the client honours (no card
flies, no CSS animation or transition runs). Bots at test speed move several times a second,
so with motion chromium drew flights nearly all the time: a module of two match tests took
25 s of chromium CPU with motion, 15 s without. ``test_motion`` asks for motion itself."""


def new_context(browser: Browser, options: dict[str, Any]) -> BrowserContext:
    """A new browser context: :data:`QUIET`, then these options."""
    return browser.new_context(**{**QUIET, **options})


def new_page(browser: Browser, context: dict[str, Any], init_script: str | None = None
             ) -> tuple[BrowserContext, Page]:
    """A page in a new browser context with these options (``init_script`` runs in every
    page of it), waiting up to ``WAIT_MS``."""
    ctx = new_context(browser, context)
    if init_script:
        ctx.add_init_script(init_script)
    return ctx, open_page(ctx)


def open_page(ctx: BrowserContext) -> Page:
    """Another page in ``ctx``, waiting up to ``WAIT_MS``."""
    page = ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def host_page(browser: Browser, base: str, *, players: str | None = None,
              preset: str | None = None, rounds: str | None = None
              ) -> tuple[BrowserContext, Page, str]:
    """A new browser context whose page created a card table from the lobby (the host, seat
    0) and is on the table's page: ``(context, page, table id)``."""
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}})
    page.goto(base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    if players is not None:
        page.select_option("#players", players)
    if preset is not None:
        page.check(f"#preset-{preset}")
    if rounds is not None:
        page.select_option("#rounds", rounds)
    page.click("#create")
    page.wait_for_url("**/t/*")
    return ctx, page, page.url.rsplit("/", 1)[1]


def read(page: Page) -> Seen | None:
    data: dict[str, Any] | None = page.evaluate(READ_JS)
    return None if data is None else Seen(**data)


def seen(page: Page) -> Seen:
    s = read(page)
    assert s is not None, "no card table on the page"
    return s


MOVED_JS = """([v, round]) => { const r = document.querySelector('.cards-game');
  return r && (Number(r.dataset.version) > v || r.dataset.round !== round); }"""
"""Whether the table moved on past version ``v`` of round ``round``. Versions count within a
round: a move that ends the round can be followed by the next deal (version 0) before a
slow poll sees the round over, so a new round counts as moved on too."""


def wait_moved(page: Page, before: Seen, timeout: float = WAIT_MS) -> None:
    """Wait until the table moved on from ``before`` (what the page showed): a later version
    of its round, or another round."""
    page.wait_for_function(MOVED_JS, arg=[before.version, before.round], timeout=timeout)


def wait_confirm(page: Page, selector: str, before: Seen, timeout: float = WAIT_MS) -> bool:
    """Wait until the confirm button ``selector`` shows (True) or the table moved on from
    ``before`` (False): in real time a bot's snap can take the decision away between
    picking a card and confirming it, and the button then never comes."""
    return bool(page.wait_for_function(
        f"([sel, v, round]) => {{ if (({MOVED_JS})([v, round])) return 'moved';"
        " return document.querySelector(sel) ? 'confirm' : null; }",
        arg=[selector, before.version, before.round], timeout=timeout).json_value()
        == "confirm")


def wait_async(page: Page, expression: str) -> Any:
    """Evaluate the async ``expression`` (a function returning a promise) until its value
    is truthy, and return that value. Playwright's ``wait_for_function`` takes a
    synchronous predicate only: a promise is truthy, so it would return at once."""
    value: list[Any] = [None]

    def holds() -> bool:
        value[0] = page.evaluate(expression)
        return bool(value[0])

    wait_until(page, holds, expression)
    return value[0]


def wait_for_game(page: Page, timeout: float = WAIT_MS) -> None:
    page.wait_for_selector(f"{GAME}[data-version]", timeout=timeout)


def tap(page: Page, selector: str, touch: bool = False) -> None:
    loc = page.locator(selector).first
    if touch:
        loc.tap()
    else:
        loc.click()


def card(addr: str) -> str:
    return f'{GAME} .card[data-addr="{addr}"]'


def button(action: str) -> str:
    return f'{GAME} .actions button[data-action="{action}"]'


def step(page: Page, *, swap: bool = False, call: bool = False, touch: bool = False) -> str:
    """Make this seat's next move through the page; return what was done ("" if it is not
    this seat's move after all).

    ``swap``: keep a drawn card (swap it into the first of our cards) instead of discarding
    it; ``call``: call Cambio when the turn allows it.
    """
    s = seen(page)
    if not s.my_move:
        return ""               # a bot's snap got in first (real time): nothing to do now
    done: str
    confirm = [a for a in s.actions if a.startswith("confirm-")]
    if confirm:                                     # a selection made earlier: confirm it
        tap(page, button(confirm[0]), touch)
        done = confirm[0]
    elif call and "cambio" in s.actions:
        # The first tap arms the button, a second one within 3 s (the page's clock) calls.
        # Two Playwright taps can be further apart than that on a loaded machine: the
        # second then only arms the button again and nothing is sent (the flake "'cambio'
        # did not move the table on"). A person's double tap is two quick taps: here, two
        # clicks in one page task, so no load can split them.
        armed = page.evaluate(DOUBLE_TAP_JS, button("cambio"))
        if armed is None:
            return ""           # a bot's snap moved the table on before the tap
        assert armed, "the first tap on 'Call Cambio' did not arm it"
        done = "cambio"
    elif "draw" in s.actions:
        # Read a moment ago; in real time the table can move on before the tap (the button
        # then never comes): try again at the next step rather than wait for it.
        if not wait_confirm(page, button("draw"), s):
            return ""
        tap(page, "#deck" if touch else button("draw"), touch)
        done = "draw"
    elif "discard" in s.actions or ("swap" not in s.actions and s.targets and s.phase == "drawn"):
        own = [t for t in s.targets if t.startswith(f"{s.me}.")]
        if (swap or "discard" not in s.actions) and own:
            tap(page, card(own[0]), touch)
            if not wait_confirm(page, button("confirm-swap"), s):
                return ""       # a bot's snap moved the table on before the confirm
            tap(page, button("confirm-swap"), touch)
            done = f"swap {own[0]}"
        else:
            tap(page, button("discard"), touch)
            done = "discard"
    elif "keep" in s.actions:
        tap(page, button("keep"), touch)
        done = "keep"
    elif s.targets:
        picked: list[str] = []
        for _ in range(2):
            now = seen(page)
            confirm = [a for a in now.actions if a.startswith("confirm-")]
            if confirm:
                break
            options = [t for t in now.targets if t not in picked]
            assert options, f"no target to pick: {now}"
            tap(page, card(options[0]), touch)
            picked.append(options[0])
        if not wait_confirm(page, f"{GAME} .actions button[data-action^='confirm-']", s):
            return ""           # a bot's snap moved the table on before the confirm
        confirm = [a for a in seen(page).actions if a.startswith("confirm-")]
        tap(page, button(confirm[0]), touch)
        done = f"{confirm[0]} {' '.join(picked)}"
    elif "skip" in s.actions:
        tap(page, button("skip"), touch)
        done = "skip"
    elif "take" in s.actions:
        tap(page, button("take"), touch)
        done = "take"
    else:
        raise AssertionError(f"nothing to do: {s}")
    try:
        wait_moved(page, s)
    except Exception as exc:
        toasts = page.locator(".toast").all_inner_texts()
        raise AssertionError(f"{done!r} did not move the table on: {seen(page)}; "
                             f"messages: {toasts}") from exc
    return done


def play_until(pages: dict[str, Page], done: Callable[[], bool], *, call_after: int = 10**9,
               caller: str = "ann", touch: bool = False, limit: int = 200) -> int:
    """Let whichever page has a move make it, until ``done()``; return the moves made.

    Every third move keeps the drawn card (a swap); ``caller`` calls Cambio at the first
    chance once ``call_after`` moves have been made.
    """
    moves = 0
    idle_since = time.monotonic()
    while not done():
        mover = None
        for who, page in pages.items():
            s = read(page)
            if s is not None and s.my_move:
                mover = (who, page)
                break
        if mover is None:
            # A bot is thinking, or a page has not heard of the last move yet.
            assert time.monotonic() - idle_since < WAIT_MS / 1000, "nobody gets a move"
            next(iter(pages.values())).wait_for_timeout(30)
            continue
        idle_since = time.monotonic()
        who, page = mover
        if step(page, swap=moves % 3 == 1, call=who == caller and moves >= call_after,
                touch=touch):
            moves += 1
        assert moves < limit, "the round does not end"
    return moves


PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def seat_page(browser: Browser, base: str, table: str, token: str | None,
              viewport: ViewportSize = LAPTOP) -> tuple[BrowserContext, Page]:
    """A new browser context on a table's page, holding ``token``'s seat (``None``: a
    spectator), as if this browser had joined it: ``(context, page)``."""
    ctx, page = new_page(browser, {"viewport": viewport, "is_mobile": viewport["width"] < 600,
                                   "has_touch": viewport["width"] < 600})
    if token is not None:
        page.goto(base + "/static/favicon.svg")   # same origin, to set the seat token
        page.evaluate("([t, k]) => localStorage.setItem('cambio:token:' + t, k)", [table, token])
    page.goto(f"{base}/t/{table}")
    return ctx, page


def horizontal_overflow(page: Page) -> int:
    """Pixels the page is wider than the viewport (0: no horizontal scroll)."""
    width: int = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
    return width


SIZES: dict[str, dict[str, Any]] = {
    "laptop": {"viewport": LAPTOP},
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
}
"""Browser context options of the two sizes the web tests run at, by name."""


def bot_game(browser: Browser, base: str, size: str, *, players: str | None = None,
             bot: str = "random", init_script: str | None = None, rounds: str | None = None,
             **context: Any) -> tuple[BrowserContext, Page]:
    """A new context of ``size`` (``context``: more options; ``init_script`` runs in every
    page) whose page created a card table from the lobby (as Ann, the host), filled the other
    seats with ``bot`` and started: ``(context, page)``, the game drawn."""
    ctx, page = new_page(browser, {**SIZES[size], **context}, init_script)
    page.goto(base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    if players is not None:
        page.select_option("#players", players)
    if rounds is not None:
        page.select_option("#rounds", rounds)
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.select_option("#fill-bot", bot)
    page.click("#start")
    wait_for_game(page)
    return ctx, page
