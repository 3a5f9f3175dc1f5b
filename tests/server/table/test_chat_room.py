"""A table's chat on its own, on a real SQLite file and a clock the test moves: a line is
stored before it is sent, the rate is per seat, a bad line changes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cambio.server.errors import BAD_MESSAGE, RATE_LIMITED
from cambio.server.store import SqliteStore, Store, TableRow
from cambio.server.table.chat_room import ChatRoom
from cambio.server.table.connection import Conn


def room(tmp_path: Path, now: list[float], spectators_read: bool = False
         ) -> tuple[ChatRoom, Store]:
    store = SqliteStore(tmp_path / "chat.sqlite3")
    row = TableRow("t1", "cards", 2, {}, 1, "waiting", 0, 0.0)
    asyncio.run(store.write([Store.insert_table(row)]))
    chat = ChatRoom(store, "t1", rate=1.0, burst=2.0, spectators_read=spectators_read,
                    now_iso=lambda: "2026-01-01T00:00:00+00:00", clock=lambda: now[0])
    return chat, store


def errors(conn: Conn) -> list[str]:
    return [json.loads(m)["code"] for m in conn.outbox.items if m is not None]


def test_a_line_is_stored_then_returned_for_its_readers(tmp_path: Path) -> None:
    chat, store = room(tmp_path, [0.0])
    conn = Conn(0)
    out = asyncio.run(chat.say(conn, 0, "Ann", "  hello   there ", None, 1))
    assert out is not None
    assert json.loads(out[0]) == {"type": "chat", "n": 1, "seat": 0, "name": "Ann",
                               "text": "hello there", "emote": None,
                               "at": "2026-01-01T00:00:00+00:00"}
    assert [line["text"] for line in store.chat("t1", 10)] == ["hello there"]
    assert chat.lines[-1]["n"] == 1 and errors(conn) == []
    assert json.loads(chat.log_text())["lines"] == chat.lines
    store.close()


def test_the_rate_is_per_seat_on_the_injected_clock(tmp_path: Path) -> None:
    now = [0.0]
    chat, store = room(tmp_path, now)
    ann, bo = Conn(0), Conn(1)
    assert asyncio.run(chat.say(ann, 0, "Ann", "one", None, None))
    assert asyncio.run(chat.say(ann, 0, "Ann", "two", None, None))
    assert asyncio.run(chat.say(ann, 0, "Ann", "three", None, None)) is None
    assert errors(ann) == [RATE_LIMITED]
    assert asyncio.run(chat.say(bo, 1, "Bo", "hi", None, None))  # another seat's own rate
    now[0] = 1.0
    assert asyncio.run(chat.say(ann, 0, "Ann", "three", None, None))
    assert [line["n"] for line in store.chat("t1", 10)] == [1, 2, 3, 4]
    store.close()


def test_a_bad_line_changes_nothing(tmp_path: Path) -> None:
    chat, store = room(tmp_path, [0.0])
    conn = Conn(0)
    assert asyncio.run(chat.say(conn, 0, "Ann", "\u202e", None, None)) is None
    assert asyncio.run(chat.say(conn, 0, "Ann", None, "nope", None)) is None
    assert errors(conn) == [BAD_MESSAGE, BAD_MESSAGE]
    assert chat.lines == [] and store.chat("t1", 10) == []
    assert asyncio.run(chat.say(conn, 0, "Ann", None, "gg", None)) is not None
    store.close()


def test_spectators_read_only_where_the_table_allows(tmp_path: Path) -> None:
    closed, _ = room(tmp_path / "a", [0.0])
    open_, _ = room(tmp_path / "b", [0.0], spectators_read=True)
    assert closed.reads(0) and not closed.reads(None)
    assert open_.reads(None)


class Muting:
    """A hush where seat 1 muted seat 0, and seat 2 may not chat."""

    def refusal(self, seat: int, emote: bool) -> str | None:
        return "you are muted" if seat == 2 else None

    def hides(self, reader: int | None, speaker: int) -> bool:
        return (reader, speaker) == (1, 0)


def test_a_hush_refuses_a_silenced_seat_and_hides_a_muted_speaker(tmp_path: Path) -> None:
    chat, store = room(tmp_path, [0.0])

    async def hush() -> Muting:
        return Muting()

    chat.hush = hush
    ann, cy = Conn(0), Conn(2)
    said = asyncio.run(chat.say(ann, 0, "Ann", "hello", None, None))
    assert said is not None
    _, reads = said
    assert [reads(seat) for seat in (0, 1, 2)] == [True, False, True]
    assert asyncio.run(chat.say(cy, 2, "Cy", "hi", None, None)) is None
    assert errors(cy) == ["forbidden"]
    assert [line["seat"] for line in store.chat("t1", 10)] == [0]  # nothing kept of Cy's
    assert json.loads(asyncio.run(chat.log_for(1)))["lines"] == []
    assert len(json.loads(asyncio.run(chat.log_for(2)))["lines"]) == 1
    store.close()
