"""One client connection as a table sees it, and the compact JSON every message is sent as."""

from __future__ import annotations

import json
from typing import Any

import orjson

from ..errors import STALE
from ..limits import TokenBucket
from ..mailbox import Mailbox
from ..server_messages import error
from ..snap_race import Latency


def dumps(obj: Any) -> str:
    """Compact JSON. ``orjson`` encodes a view several times faster than the standard
    library (encoding was about a tenth of a busy server's CPU); text it cannot encode (a
    lone surrogate a client sent as ``\\ud800`` in a chat line) falls back to the standard
    library, which escapes it."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"))


class Conn:
    """One client connection as the table sees it: a seat (or ``None``) and an outbox.

    The WebSocket endpoint drains the outbox; the table never awaits a client, so a slow
    client cannot hold up a table. A client whose outbox overflows is dropped (it resyncs
    when it reconnects).
    """

    __slots__ = ("closing", "errors", "latency", "limit", "outbox", "seat", "strikes")

    def __init__(self, seat: int | None, limit: int = 2000, max_errors: int = 50,
                 error_window: float = 60.0) -> None:
        self.seat = seat
        self.outbox: Mailbox[str | None] = Mailbox()
        self.closing: int | None = None
        self.errors = 0
        self.limit = limit
        # Errors drain away: a long, honest session that loses snap races now and then is
        # never closed; a burst of bad messages is.
        self.strikes = TokenBucket(max_errors / max(error_window, 1e-9), max_errors)
        self.latency = Latency()
        """Its round trip and whether it reports snap reactions (server/snap_race.py)."""

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if len(self.outbox) >= self.limit:
            self.close(1013)
            return
        self.outbox.put(text)

    def error(self, code: str, message: str, ref: Any = None, counts: bool = True) -> None:
        """Send an ``error``; too many that ``count`` in a short time close the connection
        (1008). A ``stale`` action or a lost snap race is play, not abuse: it does not count.
        """
        self.send(dumps(error(code, message, ref)))
        self.errors += 1
        if counts and code != STALE and not self.strikes.take():
            self.close(1008)

    def close(self, code: int) -> None:
        if self.closing is None:
            self.closing = code
            self.outbox.put(None)
