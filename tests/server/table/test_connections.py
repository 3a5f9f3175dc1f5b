"""A table's connections on their own: one message built per seat, spectators counted."""

from __future__ import annotations

from cambio.server.table.connection import Conn
from cambio.server.table.connections import Connections


def outbox(conn: Conn) -> list[str | None]:
    return list(conn.outbox.items)


def test_each_seat_gets_its_own_text_built_once() -> None:
    conns = Connections(max_spectators=10)
    a1, a2, b, watcher = Conn(0), Conn(0), Conn(1), Conn(None)
    for c in (a1, a2, b, watcher):
        conns.add(c)
    built: list[int | None] = []

    def text_for(seat: int | None) -> str:
        built.append(seat)
        return f"for {seat}"

    conns.send_each_seat(text_for)
    assert sorted(built, key=str) == [0, 1, None]
    assert outbox(a1) == outbox(a2) == ["for 0"]
    assert outbox(b) == ["for 1"] and outbox(watcher) == ["for None"]
    conns.send_each_seat(text_for, reads=lambda seat: seat is not None)
    assert outbox(watcher) == ["for None"]  # spectators may not read this one
    assert outbox(b) == ["for 1", "for 1"]


def test_spectators_are_counted_and_capped() -> None:
    conns = Connections(max_spectators=2)
    one, two = Conn(None), Conn(None)
    conns.add(one)
    assert not conns.spectators_full()
    conns.add(two)
    assert conns.spectators_full()
    assert conns.discard(one) and not conns.discard(one)
    assert conns.spectators == 1 and not conns.spectators_full()


def test_of_seat_and_close_all() -> None:
    conns = Connections(max_spectators=2)
    a, b = Conn(0), Conn(1)
    conns.add(a)
    conns.add(b)
    assert conns.of_seat(1) == [b]
    conns.close_all(1012)
    assert a.closing == b.closing == 1012
