"""The replay viewer draws the engine's frames, every one: a card round and a dice game
played by bots to the end, then ``/r/{id}`` stepped from the first frame to the last; at
each step the cards (or dice) on the page are the ones of the engine's view that
``GET /api/tables/{id}/frames`` sends for that step, every card face up once it is over."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from cambio.board import Rules
from cambio.board.state import parse_position

from .conftest import Server
from .driver import new_page

GRID_JS = """() => {
  const out = [];
  for (const seat of document.querySelectorAll('.replay-table .seat[data-seat]')) {
    out[Number(seat.dataset.seat)] = [...seat.querySelectorAll('.card[data-addr]')].map(
      (c) => c.classList.contains('empty') ? null : (c.dataset.code || '?'));
  }
  return out;
}"""

DICE_JS = """() => Object.fromEntries(
  [...document.querySelectorAll('.replay-table .die[data-cell]')]
    .map((d) => [d.dataset.cell, Number(d.dataset.owner)]))"""


def finished(server: Server, body: dict[str, Any], fill: str) -> str:
    """A table of ``body`` whose creator is away (nobody holds the seat: a bot plays it),
    filled with ``fill`` bots and played to its end."""
    made = server.api("POST", "/api/tables", {**body, "name": "Ann"})
    assert isinstance(made, dict)
    table = made["table"]
    server.api("POST", f"/api/tables/{table}/start", {"fill": fill}, made["token"])
    server.wait_finished(table, 120, every=0.5)
    return str(table)


def step_through(page: Page, frames: list[dict[str, Any]], read: Any) -> None:
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-step") == f"0 / {len(frames) - 1}"
    for k, frame in enumerate(frames):
        if k:
            page.click("#replay-next")
        page.wait_for_function(f"() => document.getElementById('app').dataset.step === '{k}'")
        read(k, frame["view"])


def test_every_card_frame_is_the_engines(browser: Browser, bots_server: Server) -> None:
    table = finished(bots_server, {"game": "cards", "players": 3, "rounds": 1,
                                   "rules": {"preset": "house"}}, "easy")
    replay = bots_server.api("GET", f"/api/tables/{table}/frames")
    assert isinstance(replay, dict)
    frames = replay["frames"]
    assert len(frames) > 10 and frames[-1]["event"]["end"]
    assert "?" not in str([f["view"]["grids"] for f in frames])  # over: every card face up
    _, page = new_page(browser, {})
    try:
        page.goto(f"{bots_server.base}/r/{table}")

        def read(k: int, view: dict[str, Any]) -> None:
            assert page.evaluate(GRID_JS) == view["grids"], f"frame {k}"

        step_through(page, frames, read)
    finally:
        page.context.close()


@pytest.mark.parametrize("setup", ["quick", "full"])
def test_every_dice_frame_is_the_engines(browser: Browser, bots_server: Server,
                                         setup: str) -> None:
    table = finished(bots_server, {"game": "board", "players": 2, "setup": setup}, "random")
    replay = bots_server.api("GET", f"/api/tables/{table}/frames")
    assert isinstance(replay, dict)
    frames = replay["frames"]
    _, page = new_page(browser, {})
    try:
        page.goto(f"{bots_server.base}/r/{table}")

        def read(k: int, view: dict[str, Any]) -> None:
            owners, _, _ = parse_position(view["position"], Rules(players=2))
            want = {f"{chr(97 + cell % 5)}{cell // 5 + 1}":
                    next((s for s, bits in enumerate(owners) if bits >> cell & 1), -1)
                    for cell in range(25)}
            assert page.evaluate(DICE_JS) == want, f"frame {k}"

        step_through(page, frames, read)
    finally:
        page.context.close()
