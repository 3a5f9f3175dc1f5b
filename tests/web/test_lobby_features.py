"""The lobby and the rules in words, at laptop and phone size.

- House rules are shown by name and description (never a field identifier), in the lobby's
  form and in the waiting room; the rules page lists the rules in force at a table, its
  values the server's own (GET /api/rules plus the table's overrides).
- A table can have a name and be private: the name titles it, and a private table is not
  listed in another browser's lobby but joins by its link.
- Quick play: one tap from the lobby to a game against a bot; holding a power card drawn
  from the deck, the page says what discarding it lets you do.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import NO_KERNELS, Server
from .driver import SIZES, new_page, play_until, seen, wait_for_game
from .test_phone import check_layout

POWER_FIELDS = {"7": "power_seven_eight", "8": "power_seven_eight", "9": "power_nine_ten",
                "T": "power_nine_ten", "J": "power_jack_queen", "Q": "power_jack_queen"}


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: quick play joins any public waiting table, and other tests'
    tables must not be joined by it."""
    srv = Server(Path(tmp_path_factory.mktemp("lobby")), "lobby", "--seed", "21", NO_KERNELS,
                 "--bot-speed", "8", "--round-pause", "1", "--away-after", "120")
    yield srv
    srv.stop()


def power_words(catalogue: dict[str, Any], preset: str, code: str) -> str | None:
    field = POWER_FIELDS.get(code[0])
    if code[0] == "K":
        field = "power_red_king" if code[1] in "DH" else "power_black_king"
    if field is None:
        return None
    value = catalogue["presets"][preset][field]
    spec = next(f for f in catalogue["fields"] if f["name"] == field)
    words: str | None = None if value == "none" else spec["choice_labels"][value]
    return words


def check_no_identifiers(page: Page, selector: str) -> None:
    texts = page.locator(selector).all_inner_texts()
    assert texts, selector
    for text in texts:
        assert not re.search(r"[a-z]+_[a-z]+", text), f"an identifier in {text!r}"


@pytest.mark.parametrize("size", list(SIZES))
def test_rules_in_words_named_private_tables_and_quick_play(
        browser: Browser, lobby_server: Server, size: str) -> None:
    srv = lobby_server
    catalogue: Any = srv.api("GET", "/api/rules")
    ctx, page = new_page(browser, SIZES[size])
    page.goto(srv.base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    assert page.get_attribute("#rules-link", "href") == "/rules?preset=house"
    page.locator("details.house summary").click()
    check_no_identifiers(page, ".rule-row label")
    assert page.locator(".rule-row .rule-help").count() == page.locator(".rule-row").count()
    assert page.locator("#rule-resnap option").all_inner_texts() == [
        "Anyone", "Only the player who snapped last"]
    page.fill("#rule-snap_penalty", "2")
    page.locator("#rule-snap_penalty").press("Tab")
    page.fill("#table-name", "Friday cards")
    page.check("#private")
    if size == "phone":
        check_layout(page, "the lobby form")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    # The rules' words come from /api/rules: until they arrive a rule shows by its name.
    page.wait_for_function("() => document.querySelector('#house-rules li')?.textContent"
                           ".startsWith('Wrong snap penalty: 2')")
    assert page.locator(".seats-panel h2").inner_text() == "Friday cards"
    check_no_identifiers(page, "#house-rules li")
    if size == "phone":
        check_layout(page, "the waiting room with house rules")

    # Another browser: the private table is not in its lobby; the link joins it.
    _, other = new_page(browser, SIZES[size])
    other.goto(srv.base + "/")
    # The list has loaded (its first item says "Loading…" until then): tables, or none.
    other.wait_for_selector("#tables li.table-row, #tables li.empty-list")
    assert other.locator(f'.table-row[data-table="{table}"]').count() == 0
    other.goto(f"{srv.base}/t/{table}")
    other.fill("#join-name", "Bo")
    other.click("#join")
    page.wait_for_selector('.seat-row[data-seat="1"][data-kind="human"]')

    # The rules page of the table: every rule in words, the house rule marked, the values
    # the server's.
    other.goto(f"{srv.base}/rules?table={table}")
    other.wait_for_selector(".rules-table")
    rows = other.locator(".rules-table tr[data-rule]")
    fields = {f["name"]: f for f in catalogue["fields"]}
    assert rows.count() == len(fields)
    values = {**catalogue["presets"]["house"], "snap_penalty": 2}
    for i in range(rows.count()):
        row = rows.nth(i)
        name = str(row.get_attribute("data-rule"))
        f = fields[name]
        assert row.locator("th").inner_text().startswith(f["label"])
        value = values[name]
        words = (f.get("choice_labels") or {}).get(value) if isinstance(value, str) else None
        expected = words or ("yes" if value is True else "no" if value is False
                             else "none" if value is None else str(value))
        assert row.locator("td").inner_text().startswith(expected), (name, expected)
        assert ("changed" in (row.get_attribute("class") or "")) == (name == "snap_penalty")
    if size == "phone":
        check_layout(other, "the rules page")
    other.context.close()

    # Quick play: one tap to a game against a bot; a drawn power card says what it does.
    page.goto(srv.base + "/")
    page.locator("#quick-play").click()
    page.wait_for_url("**/t/*")
    wait_for_game(page)
    summary: Any = srv.api("GET", f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert summary["status"] == "playing"
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
    explained: list[str] = []

    def holding_a_power_card() -> bool:
        s = seen(page)
        if s.me != s.actor or s.phase != "drawn" or "discard" not in s.actions:
            return s.phase == "round_over"
        code = page.get_attribute("#held", "data-code") or ""
        words = power_words(catalogue, "house", code)
        if words is None:
            return False
        note = page.inner_text("#power-note")
        assert words[0].lower() + words[1:] in note, (code, note)
        title = page.get_attribute('.actions button[data-action="discard"]', "title")
        assert title == f"Power: {words}"
        explained.append(code)
        return True

    play_until({"ann": page}, holding_a_power_card)
    assert explained, "no power card was drawn in a whole round"
    ctx.close()
