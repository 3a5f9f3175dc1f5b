"""The move that ends a round stays in the log.

The last swap, discard or peek of a round carries the round's end facts, and the page used to
show that event as "The round is over." only, so the move itself was missing. The log must
show every action of the record, the final one included, with the round-over line after it.
"""

from __future__ import annotations

import json

from playwright.sync_api import Browser

from .conftest import Server
from .driver import host_page, play_until, seen, wait_for_game

VERB_WORDS = {
    "draw": "drew", "take": "took", "swap": "swapped it into", "discard": "discarded",
    "peek": "peeked at", "look": "looked at", "switch": "switched", "keep": "kept",
    "skip": "skipped", "snap": "snapped", "give": "gave", "cambio": "called Cambio",
    "pass": "passed",
}
"""What the log says for each verb: the final move's line must say it."""


def test_the_last_move_of_a_round_shows_before_the_round_over_line(browser: Browser,
                                                                   server: Server) -> None:
    ctx, page, table = host_page(browser, server.base, players="2")
    page.wait_for_selector(".seats-panel")
    page.select_option("#fill-bot", "random")
    page.click("#start")
    wait_for_game(page)
    play_until({"ann": page}, lambda: seen(page).phase == "round_over", call_after=0)
    page.wait_for_selector(".log-list li:has-text('The round is over.')")
    log = page.locator(".log-list li").all_inner_texts()      # newest first

    record = str(server.api("GET", f"/api/tables/{table}/record"))
    lines = [json.loads(x) for x in record.splitlines() if x.strip()]
    assert "end" in lines[-1]
    actions = [x for x in lines if "action" in x]
    last = actions[-1]["action"].split(" ")[0]
    assert log[0] == "The round is over.", log[:3]
    assert VERB_WORDS[last] in log[1], (actions[-1], log[:3])
    # One line per action of the round, and the round-over line once.
    assert len(log) == len(actions) + 1, (len(log), len(actions))
    assert log.count("The round is over.") == 1
    ctx.close()
