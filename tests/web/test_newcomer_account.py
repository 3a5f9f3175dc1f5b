"""The lobby's "Your player" panel for a newcomer: every first visit makes a guest, so a new
device has one at once; a transfer code from another device is typed there without signing
the guest out first, the panel says it opens, and a signed-in player is not asked to sign
in."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import Server
from .driver import SIZES, new_page

MARKER_JS = """() => getComputedStyle(document.querySelector('#account summary'), '::before')
  .content"""


def visit(browser: Browser, server: Server, name: str | None = None) -> tuple[BrowserContext,
                                                                              Page]:
    ctx, page = new_page(browser, SIZES["phone"])
    page.goto(server.base + "/")
    page.wait_for_selector("#account-who", state="attached")   # the guest this visit made
    if name:
        page.fill("#name", name)
        page.press("#name", "Tab")                  # the name field renames when left
        page.wait_for_selector(f"#account-who:has-text('({name})')", state="attached")
    return ctx, page


def test_a_transfer_code_is_typed_on_a_new_device(browser: Browser, server: Server) -> None:
    old, page = visit(browser, server, "Dora")
    new = None
    try:
        assert page.evaluate(MARKER_JS) == '"▸"'
        page.click("#account summary")
        assert page.evaluate(MARKER_JS) == '"▾"'
        page.click("#transfer-make")
        page.wait_for_selector("#transfer-code:has-text('minutes')")
        code = page.inner_text("#transfer-code").split()[0]
        new, phone = visit(browser, server)
        assert "(Dora)" not in phone.inner_text("#account-who")
        phone.click("#account summary")
        phone.fill("#transfer-input", code)
        phone.click("#transfer-use")
        phone.wait_for_selector("#account-who:has-text('(Dora)')")
        assert phone.input_value("#name") == "Dora"
    finally:
        old.close()
        if new:
            new.close()


def test_a_signed_in_player_is_not_asked_to_sign_in(browser: Browser, server: Server) -> None:
    ctx, page = visit(browser, server, "Edda")
    try:
        page.click("#account summary")
        assert page.locator("#login-form").count() == 1      # a guest may sign in instead
        page.fill("#claim-username", "edda")
        page.fill("#claim-password", "a long secret")
        page.click("#claim")
        page.wait_for_selector("#account-who:has-text('Signed in as edda')")
        assert page.locator("#login-form").count() == 0
        assert page.locator("#transfer-input").count() == 0
        assert page.locator("#claim").count() == 0
    finally:
        ctx.close()
