"""A table's chat (see :mod:`cambio.server.chat`): seated players say something, it is
stored, then everyone who may read it is told; a connection that arrives gets the last
lines. Spectators read it only at a table that allows it, and never write."""

from __future__ import annotations

from typing import Any

from ..chat import CHAT_KEPT, chat_text
from ..errors import FORBIDDEN, RATE_LIMITED, SERVER_ERROR, ProtocolError
from ..limits import TokenBucket
from ..store import Store
from .connection import Conn, dumps
from .connections import Connections
from .state import now_iso


class ChatRoom(Connections):
    chat_log: list[dict[str, Any]] | None = None
    """The last :data:`CHAT_KEPT` lines (loaded from the store with the table)."""
    _chat_buckets: dict[int, TokenBucket] | None = None

    def _lines(self) -> list[dict[str, Any]]:
        if self.chat_log is None:
            self.chat_log = []
        return self.chat_log

    def _reads_chat(self, conn: Conn) -> bool:
        return conn.seat is not None or bool(self.config.get("spectator_chat"))

    async def connect(self, conn: Conn) -> None:
        await super().connect(conn)
        if conn in self.conns and self._reads_chat(conn):
            conn.send(dumps({"type": "chat_log", "lines": self._lines()}))

    async def chat(self, conn: Conn, text: Any, emote: Any, ref: Any) -> None:
        if conn.seat is None or conn not in self.conns:
            conn.error(FORBIDDEN, "spectators cannot chat; join a seat first", ref)
            return
        try:
            shown, emote_id = chat_text(text, emote)
        except ProtocolError as exc:
            conn.error(exc.code, exc.message, ref)
            return
        if self._chat_buckets is None:
            self._chat_buckets = {}
        bucket = self._chat_buckets.setdefault(
            conn.seat, TokenBucket(self.settings.chat_rate, self.settings.chat_burst))
        if not bucket.take():
            conn.error(RATE_LIMITED, "you are chatting too fast; wait a moment", ref,
                       counts=False)
            return
        lines = self._lines()
        n = lines[-1]["n"] + 1 if lines else 1
        name, at = self.seats[conn.seat].name, now_iso()
        line = {"n": n, "seat": conn.seat, "name": name, "text": shown, "emote": emote_id,
                "at": at}
        try:
            await self.store.write([Store.insert_chat(self.id, n, conn.seat, name, shown,
                                                      emote_id, at)])
        except Exception:
            conn.error(SERVER_ERROR, "the message could not be stored; try again", ref,
                       counts=False)
            return
        lines.append(line)
        del lines[:-CHAT_KEPT]
        text_out = dumps({"type": "chat", **line})
        for c in self.conns:
            if self._reads_chat(c):
                c.send(text_out)
