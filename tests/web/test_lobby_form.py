"""The lobby's "New table" form keeps what the player chose while it redraws itself.

Choosing a preset, or switching to the dice board and back, redraws the form; the players,
rounds and house rules already chosen must survive, and the table created
afterwards must be the one the form showed.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .conftest import Server
from .driver import new_page


def form_values(page: Page) -> dict[str, object]:
    return {
        "players": page.input_value("#players"),
        "rounds": page.input_value("#rounds"),
        "preset": page.locator("input[name=preset]:checked").get_attribute("value"),
        "lock_caller": page.is_checked("#rule-lock_caller"),
        "count": page.inner_text("#rule-count"),
    }


def test_a_preset_or_a_game_switch_keeps_players_rounds_and_house_rules(
        browser: Browser, server: Server) -> None:
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}})
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    page.select_option("#players", "4")
    page.select_option("#rounds", "3")
    page.click("details.house summary")
    page.check("#rule-lock_caller")
    chosen = {"players": "4", "rounds": "3", "preset": "house", "lock_caller": True,
              "count": "1 changed"}
    assert form_values(page) == chosen

    page.check("#preset-wikipedia")
    page.wait_for_selector("#preset-wikipedia:checked")
    assert form_values(page) == {**chosen, "preset": "wikipedia"}

    page.click("label[for=game-board]")
    page.wait_for_selector("#players", state="detached")
    page.click("label[for=game-cards]")
    page.wait_for_selector("#players")
    assert form_values(page) == {**chosen, "preset": "wikipedia"}

    # An override the new preset already has is no longer counted as a change: wikipedia
    # draws from the pile, so turning that off is a change; the rulebook does not draw
    # from it, so there the box stays off and is the preset's own value.
    page.uncheck("#rule-draw_from_discard")
    assert page.inner_text("#rule-count") == "2 changed"
    page.check("#preset-rulebook")
    page.wait_for_selector("#preset-rulebook:checked")
    assert not page.is_checked("#rule-draw_from_discard")
    assert page.inner_text("#rule-count") == "1 changed"

    page.click("#create")
    page.wait_for_url("**/t/*")
    table = server.api("GET", f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert isinstance(table, dict)
    assert table["players"] == 4
    assert table["rounds"] == 3
    assert table["rules"] == {"preset": "rulebook", "overrides": {"lock_caller": True}}
    ctx.close()


def test_a_preset_with_a_match_target_says_so_and_the_table_plays_to_it(
        browser: Browser, server: Server) -> None:
    ctx, page = new_page(browser, {"viewport": {"width": 1280, "height": 860}})
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.wait_for_selector(".rule-row", state="attached")
    assert page.locator("#target-note").count() == 0  # house: a match of set rounds
    page.check("#preset-cabo")
    page.wait_for_selector("#preset-cabo:checked")
    assert "100" in page.inner_text("#target-note")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table = server.api("GET", f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert isinstance(table, dict)
    assert table["rules"] == {"preset": "cabo", "overrides": {}}
    assert table["target"] == 100 and table["rounds"] == 0
    ctx.close()
