"""A dice board game against a bot, in the browser, from the full setup to the winning line.

Ann creates a board table with the full (published) setup in the lobby and fills the other
seat with the strongest bot. She makes her setup choices by tapping the dice the page
highlights, then pushes dice with the arrows (a seeded random pick among the enabled ones)
until the game ends. At every move the arrows the page enables must be exactly the legal
moves of her view, and the dice must be the view's position; at the end the winning line is
shown, and the page's board is the final position of the server's record.

The test has a server of its own: a table's seed counts the tables the server made before
it, and many full setups give seat 0 no choice at all (the published rule: the opponent
chooses which of a player's dice change, and seat 0's symbol may need no change). On the
shared server the suite's random order decided whether Ann had a setup choice to make.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from cambio.board import Rules, parse_position
from cambio.board.setup import CHANCE, Setup
from cambio.records.board import replay
from cambio.records.jsonl import parse_record
from cambio.seeds import derive_seed

from .conftest import NO_KERNELS, WAIT_MS, Server
from .driver import new_page
from .frames import Frames

ROOT = ".board-game"

READ_JS = """() => {
  const root = document.querySelector('.board-game');
  if (!root) return null;
  return {
    version: Number(root.dataset.version), phase: root.dataset.phase, actor: root.dataset.actor,
    me: root.dataset.me, over: root.dataset.over === '1',
    enabled: [...root.querySelectorAll('.arrow:not(:disabled)')].map((a) => a.dataset.move),
    arrows: root.querySelectorAll('.arrow').length,
    picks: [...root.querySelectorAll('.die.pickable')].map((d) => d.dataset.cell),
    owners: Object.fromEntries([...root.querySelectorAll('.die[data-cell]')]
      .map((d) => [d.dataset.cell, Number(d.dataset.owner)])),
    entered: [...root.querySelectorAll('.die.entered')].map((d) => d.dataset.cell),
    win: [...root.querySelectorAll('.die.win')].map((d) => d.dataset.cell),
  };
}"""


def read(page: Page) -> dict[str, Any]:
    data: dict[str, Any] | None = page.evaluate(READ_JS)
    assert data is not None, "no board on the page"
    return data


def owners_of(position: str, players: int) -> dict[str, int]:
    """Cell name -> seat (-1 neutral) of an engine position string."""
    owners, _, _ = parse_position(position, Rules(players=players))
    n = 5
    out: dict[str, int] = {}
    for cell in range(n * n):
        name = f"{chr(97 + cell % n)}{cell // n + 1}"
        out[name] = next((s for s, b in enumerate(owners) if b >> cell & 1), -1)
    return out


def last_view(frames: Frames) -> dict[str, Any]:
    msgs = [m for _, m in frames.received if m.get("type") in ("state", "update")]
    view: dict[str, Any] = msgs[-1]["view"]
    return view


def last_version(frames: Frames) -> int:
    msgs = [m for _, m in frames.received if m.get("type") in ("state", "update")]
    return int(msgs[-1]["version"])


SERVER_SEED = 6
"""The first table of a server with this seed deals a full setup in which seat 0 chooses."""


def setup_choosers(seed: int) -> list[int]:
    """Who makes each choice of the full setup the server deals from ``seed``, taking the
    first choice each time (for SERVER_SEED, 300 random choice orders all gave seat 1 one
    choice and seat 0 four)."""
    setup = Setup(Rules(players=2))
    rng = random.Random(seed)
    who: list[int] = []
    while not setup.is_done():
        seat = setup.current_player()
        if seat == CHANCE:
            setup.apply(setup.sample(rng))
        else:
            who.append(seat)
            setup.apply(setup.legal_actions()[0])
    return who


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    first_game = derive_seed(derive_seed(SERVER_SEED, "table", 0), "game", 1)
    assert 0 in setup_choosers(first_game), "pick a SERVER_SEED whose setup asks seat 0"
    srv = Server(tmp_path_factory.mktemp("web"), "board", "--seed", str(SERVER_SEED),
                 NO_KERNELS, "--bot-speed", "8", "--round-pause", "1", "--away-after", "120")
    yield srv
    srv.stop()


def test_a_board_game_against_a_bot_from_the_full_setup_to_the_end(
        browser: Browser, server: Server) -> None:
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}})
    frames = Frames().watch(page)
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.click("label[for=game-board]")
    page.click("label[for=setup-full]")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".seats-panel")
    page.select_option("#bot-1", "alphabeta")
    page.click('.seat-row[data-seat="1"] .add-bot')
    page.wait_for_selector('.seat-row[data-seat="1"][data-kind="bot"]')
    page.click("#start")
    page.wait_for_selector(f"{ROOT}[data-version]")

    rng = random.Random(3)
    setup_choices = pushes = 0
    saw_setup = saw_entered = False
    while True:
        page.wait_for_function(
            "() => { const r = document.querySelector('.board-game');"
            " return r && (r.dataset.over === '1' || r.dataset.actor === r.dataset.me); }",
            timeout=WAIT_MS)
        s = read(page)
        view = last_view(frames)
        assert view["game"] == "board"
        assert s["version"] == last_version(frames)
        # The page shows the view: the dice, and exactly the legal pushes as arrows.
        assert s["owners"] == owners_of(view["position"], 2)
        assert s["arrows"] == 20
        if s["over"]:
            break
        assert view["actor"] == 0
        if s["phase"] == "setup":
            saw_setup = True
            assert not s["enabled"], "no pushes during the setup"
            assert sorted(s["picks"]) == sorted(a.split()[1] for a in view["legal"])
            assert "Setup" in page.inner_text("#setup-info")
            v = s["version"]
            page.click(f'{ROOT} .die.pickable[data-cell="{rng.choice(s["picks"])}"]')
            setup_choices += 1
        else:
            assert sorted(s["enabled"]) == sorted(m for m in view["legal"] if m != "pass")
            if view["last"] and view["last"] != "pass":
                saw_entered = saw_entered or len(s["entered"]) == 1
            v = s["version"]
            if "pass" in view["legal"]:
                page.click(f'{ROOT} .actions button[data-action="pass"]')
            else:
                page.click(f'{ROOT} .arrow[data-move="{rng.choice(s["enabled"])}"]')
            pushes += 1
        page.wait_for_function(
            "(v) => Number(document.querySelector('.board-game').dataset.version) > v", arg=v)
        assert pushes < 150, "the game does not end"

    assert saw_setup and setup_choices >= 1
    assert pushes >= 1 and saw_entered
    view = last_view(frames)
    assert view["phase"] == "over"
    winners = view["winners"]
    status = page.inner_text("#status")
    page.wait_for_selector("#results")
    final = read(page)
    if winners:
        names = ["You" if w == 0 else "Alpha-beta bot" for w in winners]
        assert all(n in status for n in names)
        # The winning line: five dice of a winner, highlighted.
        assert len(final["win"]) >= 5
        assert {final["owners"][c] for c in final["win"]} <= set(winners)
    else:
        assert "Draw" in status
    assert not final["enabled"], "no pushes once the game is over"

    # The server's record replays to the position the page shows.
    record = server.finished_record(table)
    result = replay(parse_record(record))
    assert owners_of(result.board.position(), 2) == final["owners"]
    lines = [json.loads(x) for x in record.splitlines() if x.strip()]
    assert lines[0]["setup"] == "full"

    # The replay viewer shows the same final board.
    page.click("#replay-link")
    page.wait_for_selector("#replay-step")
    page.click("#replay-last")
    replayed = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.die[data-cell]')]"
        ".map((d) => [d.dataset.cell, Number(d.dataset.owner)]))")
    assert replayed == final["owners"]

    # Play again: the host deals a new game with the same seats.
    page.go_back()
    page.wait_for_selector("#again")
    page.click("#again")
    # The new game is on the page (a bot may already have made its first choice: waiting
    # for version 0 missed that window on a loaded machine).
    page.wait_for_function(
        "() => { const r = document.querySelector('.board-game');"
        " return r && r.dataset.over !== '1' && Number(r.dataset.version) <= 3; }")
    summary = server.api("GET", f"/api/tables/{table}")
    assert isinstance(summary, dict)
    assert summary["game_no"] == 2 and summary["status"] == "playing"
    ctx.close()
