"""The waiting room's card bots: four levels first -- Easy, Medium, Hard, Master, Medium
chosen for "Start with bots" -- and the research bots under "More bots"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .driver import SIZES, new_page

OPTIONS_JS = """(sel) => { const s = document.querySelector(sel);
  return { main: [...s.children].filter((o) => o.tagName === 'OPTION')
             .map((o) => [o.value, o.textContent]),
           more: [...s.querySelectorAll('optgroup')].map((g) => [g.label,
             [...g.querySelectorAll('option')].map((o) => o.value)]),
           chosen: s.value }; }"""


@pytest.mark.parametrize("size", list(SIZES))
def test_four_levels_medium_chosen_research_bots_under_more(browser: Browser, server: Server,
                                                             size: str) -> None:
    ctx, page = new_page(browser, SIZES[size])
    try:
        page.goto(server.base + "/")
        page.fill("#name", "Ann")
        page.wait_for_selector(".rule-row", state="attached")
        page.click("#create")
        page.wait_for_url("**/t/*")
        page.wait_for_selector("#fill-bot option", state="attached")
        got = page.evaluate(OPTIONS_JS, "#fill-bot")
        assert [v for v, _ in got["main"]] == ["easy", "medium", "hard", "master"], got
        assert [t.split(" (")[0] for _, t in got["main"]] == ["Easy", "Medium", "Hard",
                                                              "Master"], got
        assert got["chosen"] == "medium"
        assert len(got["more"]) == 1 and got["more"][0][0].startswith("More bots")
        more = set(got["more"][0][1])
        assert {"random", "expert", "search"} <= more, got
        # A level's bot is not listed again under its method's name (no
        # near-duplicates such as "Memory" beside "Medium (memory)").
        assert not more & {"memory", "deep", "medium", "hard", "easy", "adaptive", "master"}, got
        # The seat's own picker has the same choice.
        assert page.evaluate(OPTIONS_JS, "#bot-1")["chosen"] == "medium"
        page.click("#start")
        page.wait_for_selector(".cards-game[data-version]")
        kinds = page.evaluate("() => fetch(location.pathname.replace('/t/', '/api/tables/'))"
                              ".then((r) => r.json()).then((s) => s.seats.map((x) => x.bot))")
        assert kinds == [None, "medium"], kinds
    finally:
        ctx.close()


def test_a_chosen_bot_stays_chosen_when_the_room_redraws(browser: Browser,
                                                         server: Server) -> None:
    ctx, page = new_page(browser, SIZES["laptop"])
    try:
        page.goto(server.base + "/")
        page.fill("#name", "Ann")
        page.wait_for_selector(".rule-row", state="attached")
        page.select_option("#players", "3")
        page.click("#create")
        page.wait_for_url("**/t/*")
        page.wait_for_selector("#fill-bot option", state="attached")
        page.select_option("#fill-bot", "search")
        page.click("#bot-1 + button.add-bot")          # the room redraws with a bot seated
        page.wait_for_selector(".seat-row[data-kind='bot']")
        assert page.eval_on_selector("#fill-bot", "(s) => s.value") == "search"
    finally:
        ctx.close()
