"""Anonymous connections cannot lock a player out of their seat.

Spectators have their own cap per table: with it full, a seated player still gets in. And
the page forgets its seat token only when the server says the token is not valid: when the
server refuses a connection for being busy (here: the seat's own connection cap is full),
the page keeps its token, retries, and sits down again as soon as there is room.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from playwright.sync_api import Browser, Page
from websockets.sync.client import ClientConnection, connect

from .conftest import NO_KERNELS, Server
from .driver import host_page

SEAT_CAP = 8
"""The server's connections per seat (``Settings.max_conns_per_seat``)."""


@pytest.fixture
def capped_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web"), "capped", "--seed", "3", "--bot-speed", "8",
                 NO_KERNELS,
                 "--away-after", "120", "--max-spectators", "3")
    yield srv
    srv.stop()


def first_message(ws: ClientConnection) -> dict[str, object]:
    msg: dict[str, object] = json.loads(ws.recv(timeout=10))
    return msg


def stored_token(page: Page, table: str) -> str | None:
    token: str | None = page.evaluate("(t) => localStorage.getItem('cambio:token:' + t)", table)
    return token


def test_a_seated_player_always_gets_in_and_keeps_the_token(
        browser: Browser, capped_server: Server) -> None:
    srv = capped_server
    ws_base = srv.base.replace("http://", "ws://")
    ctx, page, table = host_page(browser, srv.base)
    page.wait_for_selector('.table-root[data-seat="0"]')
    token = stored_token(page, table)
    assert token

    with ExitStack() as stack:
        # --- anonymous connections fill the spectators' cap; the next one is turned away
        for _ in range(3):
            ws = stack.enter_context(connect(f"{ws_base}/ws/{table}"))
            assert first_message(ws)["type"] == "welcome"
        extra = stack.enter_context(connect(f"{ws_base}/ws/{table}"))
        refused = first_message(extra)
        assert refused["type"] == "error" and refused["code"] == "busy"

        # --- yet the seated player comes back in (a reload is a new connection)
        page.reload()
        page.wait_for_selector('.table-root[data-seat="0"]')
        page.wait_for_selector(".badge.conn-open")
        assert stored_token(page, table) == token

        # --- the seat's own cap is full (other tabs of the same token): the page is refused
        # as "busy", keeps its token, and retries
        page.goto("about:blank")
        hogs = []
        for _ in range(SEAT_CAP):
            ws = stack.enter_context(connect(f"{ws_base}/ws/{table}?token={token}"))
            hogs.append(ws)
            assert first_message(ws)["type"] == "welcome"
        page.goto(f"{srv.base}/t/{table}")
        page.wait_for_selector(".toast:has-text('busy')")
        assert stored_token(page, table) == token
        assert page.locator(".table-root[data-seat='spectator']").count() == 0
        assert page.locator("#spectating").count() == 0
        for ws in hogs:
            ws.close()
        page.wait_for_selector('.table-root[data-seat="0"]')
        page.wait_for_selector(".badge.conn-open")
        assert stored_token(page, table) == token
    ctx.close()
