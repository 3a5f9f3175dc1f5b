"""Table chat in the page, at laptop and phone size.

Ann and Bo sit at a table, a spectator watches. Ann types a message full of markup: Bo's
page (and the spectator's, if the table lets spectators read the chat) shows it as text,
exactly as typed, with no element made from it and no script run. Bo answers with a quick
emote. A spectator never gets a way to write.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import Server
from .driver import LAPTOP, PHONE, horizontal_overflow, seat_page, wait_for_game

MARKUP = '<b>bold</b> <img src=x onerror="window.hacked=1"> & <script>window.hacked=2</script>'


def open_chat(page: Page) -> None:
    page.wait_for_selector("#chat")
    if page.evaluate("() => !document.getElementById('chat').open"):
        page.click("#chat summary")


def chat_texts(page: Page) -> list[str]:
    texts: list[str] = page.locator("#chat-lines .chat-text").all_text_contents()
    return texts


CASES = [(LAPTOP, True), (PHONE, True), (LAPTOP, False)]


@pytest.mark.parametrize("case", CASES, ids=["laptop-spectators-read", "phone-spectators-read",
                                             "laptop-players-only"])
def test_a_chat_message_reaches_the_other_seat_and_renders_as_text(
        browser: Browser, server: Server, case: tuple[ViewportSize, bool]) -> None:
    viewport, spectators_read = case
    made = server.api("POST", "/api/tables", {"game": "cards", "players": 2, "name": "Ann",
                                              "spectator_chat": spectators_read})
    assert isinstance(made, dict)
    table = made["table"]
    bo = server.api("POST", f"/api/tables/{table}/join", {"name": "Bo"})
    assert isinstance(bo, dict)
    server.api("POST", f"/api/tables/{table}/start", {}, made["token"])
    pages = {}
    contexts = []
    try:
        for who, token in (("ann", made["token"]), ("bo", bo["token"]), ("watcher", None)):
            ctx, page = seat_page(browser, server.base, table, token, viewport)
            contexts.append(ctx)
            wait_for_game(page)
            pages[who] = page
        ann, bo_page, watcher = pages["ann"], pages["bo"], pages["watcher"]
        open_chat(ann)
        ann.fill("#chat-input", MARKUP)
        ann.click("#chat-send")
        open_chat(bo_page)
        bo_page.wait_for_function("(t) => [...document.querySelectorAll('#chat-lines "
                                  ".chat-text')].some((e) => e.textContent === t)", arg=MARKUP)
        # As text: exactly what she typed, no element made of it, no script run.
        assert chat_texts(bo_page) == [MARKUP]
        assert bo_page.locator("#chat-lines b, #chat-lines img, #chat-lines script").count() == 0
        assert bo_page.locator("#chat-lines li strong").first.text_content() == "Ann"
        assert ann.locator("#chat-lines li strong").first.text_content() == "You"
        assert ann.input_value("#chat-input") == ""
        # Bo answers with a quick emote.
        bo_page.click('#chat button[data-emote="gg"]')
        ann.wait_for_function("() => [...document.querySelectorAll('#chat-lines .chat-text')]"
                              ".some((e) => e.textContent === 'Good game!')")
        # The spectator reads only where the table allows it, and never writes.
        if spectators_read:
            open_chat(watcher)
            watcher.wait_for_function("() => document.querySelectorAll('#chat-lines "
                                      ".chat-text').length === 2")
            assert chat_texts(watcher) == [MARKUP, "Good game!"]
            assert not watcher.locator("#chat-input").is_visible()
            assert watcher.locator("#chat-lines b, #chat-lines img").count() == 0
        else:
            # By now the page has had the two lines (they reached both seats): no panel.
            watcher.wait_for_selector(".cards-game")
            assert watcher.locator("#chat").count() == 0
        for page in pages.values():
            assert page.evaluate("() => window.hacked === undefined")
            assert horizontal_overflow(page) <= 0
    finally:
        for ctx in contexts:
            ctx.close()
