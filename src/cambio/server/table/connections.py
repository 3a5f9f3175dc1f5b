"""A table's open connections and how it talks to them: every message is encoded once per
seat (once for all spectators) and shared by that seat's connections.

Sending never waits: each :class:`~.connection.Conn` has an outbox its WebSocket drains, so
a slow client cannot hold up the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .connection import Conn


class Connections:
    """The connections of one table, and the spectators' cap."""

    def __init__(self, max_spectators: int) -> None:
        self._max_spectators = max_spectators
        self.open: set[Conn] = set()
        self.spectators = 0

    def __contains__(self, conn: Conn) -> bool:
        return conn in self.open

    def __iter__(self) -> Iterator[Conn]:
        return iter(self.open)

    def __bool__(self) -> bool:
        return bool(self.open)

    def spectators_full(self) -> bool:
        return self.spectators >= self._max_spectators

    def add(self, conn: Conn) -> None:
        self.open.add(conn)
        if conn.seat is None:
            self.spectators += 1

    def discard(self, conn: Conn) -> bool:
        """Forget ``conn``; ``False`` if it was not (or no longer) one of the table's."""
        if conn not in self.open:
            return False
        self.open.discard(conn)
        if conn.seat is None:
            self.spectators -= 1
        return True

    def of_seat(self, seat: int) -> list[Conn]:
        return [c for c in self.open if c.seat == seat]

    def send_all(self, text: str) -> None:
        for conn in self.open:
            conn.send(text)

    def send_each_seat(self, text_for: Callable[[int | None], str],
                       reads: Callable[[int | None], bool] | None = None) -> None:
        """Send every connection ``text_for(its seat)``, built once per seat; with
        ``reads``, only the connections of the seats it allows."""
        cache: dict[int | None, str] = {}
        for conn in self.open:
            if reads is not None and not reads(conn.seat):
                continue
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = text_for(conn.seat)
            conn.send(text)

    def close_all(self, code: int) -> None:
        for conn in list(self.open):
            conn.close(code)
