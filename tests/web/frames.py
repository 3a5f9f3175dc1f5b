"""What a page sent and received over its table WebSocket (observed, never altered)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, WebSocket

from .conftest import WAIT_MS


@dataclass
class Frames:
    sent: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    received: list[tuple[float, dict[str, Any]]] = field(default_factory=list)

    def watch(self, page: Page) -> Frames:
        def on_socket(ws: WebSocket) -> None:
            if "/ws/" not in ws.url:
                return
            ws.on("framesent", lambda payload: self._add(self.sent, payload))
            ws.on("framereceived", lambda payload: self._add(self.received, payload))

        page.on("websocket", on_socket)
        return self

    @staticmethod
    def _add(into: list[tuple[float, dict[str, Any]]], payload: str | bytes) -> None:
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        if isinstance(msg, dict):
            into.append((time.monotonic(), msg))

    def acts(self) -> list[dict[str, Any]]:
        return [m for _, m in self.sent if m.get("type") == "act"]

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for _, m in self.received if m.get("type") == kind]

    def events(self) -> list[dict[str, Any]]:
        return [m["event"] for m in self.of_type("update")]


def wait_until(page: Page, cond: Callable[[], bool], what: str) -> None:
    """Wait until ``cond()`` holds over frames the test has heard.

    Playwright hands the test a page's frames only while the test is inside a Playwright
    call, so this yields to it in short waits until ``cond()`` holds. The only bound is the
    suite's hang guard (``WAIT_MS``), never a budget a slow, loaded machine could overrun.
    """
    deadline = time.monotonic() + WAIT_MS / 1000
    while not cond():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        page.wait_for_timeout(10)
