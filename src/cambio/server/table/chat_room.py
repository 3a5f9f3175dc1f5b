"""A table's chat (the text rules are :mod:`cambio.server.chat`): seated players say
something, it is stored, then everyone who may read it is told; a connection that arrives
gets the last lines. Spectators read it only at a table that allows it, and never write."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ..chat import CHAT_KEPT, chat_text
from ..errors import FORBIDDEN, RATE_LIMITED, SERVER_ERROR, ProtocolError
from ..limits import TokenBucket
from ..server_messages import Chat, ChatLine, ChatLog
from ..store import Store
from .connection import Conn, dumps


class Hush(Protocol):
    """The players' say in a table's chat (:mod:`cambio.server.social.hush`)."""

    def refusal(self, seat: int, emote: bool) -> str | None: ...
    def hides(self, reader: int | None, speaker: int) -> bool: ...


class ChatRoom:
    """The chat of one table: its last :data:`CHAT_KEPT` lines and each seat's rate."""

    def __init__(self, store: Store, table_id: str, rate: float, burst: float,
                 spectators_read: bool, now_iso: Callable[[], str],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._table_id = table_id
        self._rate = rate
        self._burst = burst
        self._spectators_read = spectators_read
        self._now_iso = now_iso
        self._clock = clock
        self._buckets: dict[int, TokenBucket] = {}
        self.lines: list[ChatLine] = []
        """The last lines (the server loads them from the store with the table)."""
        self.hush: Callable[[], Awaitable[Hush]] | None = None
        """Set by the players' package: who may not chat, whose lines a reader mutes."""

    def reads(self, seat: int | None) -> bool:
        return seat is not None or self._spectators_read

    def log_text(self) -> str:
        """The ``chat_log`` message a connection that may read the chat gets on arrival."""
        log: ChatLog = {"type": "chat_log", "lines": self.lines}
        return dumps(log)

    async def log_for(self, seat: int | None) -> str:
        """:meth:`log_text` without the lines of players the seat's player muted."""
        if self.hush is None or seat is None or not self.lines:
            return self.log_text()
        hush = await self.hush()
        log: ChatLog = {"type": "chat_log",
                        "lines": [x for x in self.lines if not hush.hides(seat, x["seat"])]}
        return dumps(log)

    async def say(self, conn: Conn, seat: int, name: str, text: Any, emote: Any, ref: Any
                  ) -> tuple[str, Callable[[int | None], bool]] | None:
        """Check, rate and store a seated player's line: the ``chat`` message and which
        seats read it, or ``None`` when ``conn`` was sent an error instead (nothing kept)."""
        try:
            shown, emote_id = chat_text(text, emote)
        except ProtocolError as exc:
            conn.error(exc.code, exc.message, ref)
            return None
        bucket = self._buckets.get(seat)
        if bucket is None:
            bucket = self._buckets[seat] = TokenBucket(self._rate, self._burst, self._clock)
        if not bucket.take():
            conn.error(RATE_LIMITED, "you are chatting too fast; wait a moment", ref,
                       counts=False)
            return None
        hush = await self.hush() if self.hush is not None else None
        refused = hush.refusal(seat, emote_id is not None) if hush is not None else None
        if refused is not None:
            conn.error(FORBIDDEN, refused, ref, counts=False)
            return None
        lines = self.lines
        n = lines[-1]["n"] + 1 if lines else 1
        at = self._now_iso()
        line: ChatLine = {"n": n, "seat": seat, "name": name, "text": shown,
                          "emote": emote_id, "at": at}
        try:
            await self._store.write([Store.insert_chat(self._table_id, n, seat, name, shown,
                                                       emote_id, at)])
        except Exception:
            conn.error(SERVER_ERROR, "the message could not be stored; try again", ref,
                       counts=False)
            return None
        lines.append(line)
        del lines[:-CHAT_KEPT]
        said: Chat = {"type": "chat", **line}
        return dumps(said), (
            lambda reader: self.reads(reader) and (hush is None or not hush.hides(reader, seat)))
