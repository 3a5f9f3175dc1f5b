"""Telling a table's connections what changed: each seat its own view, built once per seat
and sent to all of that seat's connections (and once for all spectators)."""

from __future__ import annotations

from ..session import Applied
from .connection import dumps
from .state import TableState


class Broadcasting(TableState):
    def broadcast_table(self) -> None:
        if self.watch is not None:
            self.watch(self)
        if self.conns:
            text = dumps({"type": "table", "table": self.summary()})
            for conn in self.conns:
                conn.send(text)

    def _state_text(self, seat: int | None) -> str:
        s = self.session
        assert s is not None
        return dumps({"type": "state", "version": s.version, **self._round_fields(),
                      "view": s.view(seat), "log": [a.event(seat) for a in s.log]})

    def _broadcast_state(self) -> None:
        cache: dict[int | None, str] = {}
        for conn in self.conns:
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = self._state_text(conn.seat)
            conn.send(text)

    def _broadcast_update(self, applied: Applied) -> None:
        s = self.session
        assert s is not None
        cache: dict[int | None, str] = {}
        extra = self._round_fields()
        for conn in self.conns:
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = dumps({
                    "type": "update", "version": applied.version, **extra,
                    "event": applied.event(conn.seat), "view": s.view(conn.seat)})
            conn.send(text)
