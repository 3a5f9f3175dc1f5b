"""Every message type a client may send, in process: each frame goes through the WebSocket
door's own parser and dispatcher (``server/ws.py``) into a real table's running actor, its
time a clock the test moves, and the answer is read from the connections' outboxes.

The test is parametrized by the protocol's own list of client messages
(``client_messages.BY_TAG``), so a message type added to the protocol fails here until it has
a scenario; and every public handler of :class:`Table` (the lobby's calls too) must be called
by an in-process test of this folder."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from cambio.server.client_messages import BY_TAG
from cambio.server.limits import TokenBucket
from cambio.server.table import Conn, Table
from cambio.server.ws import _handle

from ...support.databases import Database
from .test_table import TABLE, Harness, a_legal, decider, drain, of_type, run


async def send(table: Table, conn: Conn, **frame: Any) -> None:
    """One frame from ``conn`` through the door, then wait until the actor has run what it
    posted (a job queued behind it runs after it)."""
    _handle(json.dumps(frame), conn, table, TokenBucket(100.0, 100), 4096)

    async def flushed() -> None:
        return None

    await table.call(flushed)


async def act(h: Harness) -> None:
    table, a, b, _ = await h.dealt_pair()
    table.start_actor()
    seat = decider(table)
    await send(table, (a, b)[seat], type="act", action=a_legal(table, seat), version=0,
               ref="a1")
    assert h.store.actions(TABLE, 1, 1) == [(seat, "draw")]
    assert [u["version"] for u in of_type(drain(a), "update")] == [1]
    await send(table, (a, b)[seat], type="act", action="draw", version=0, ref="a2")
    assert [(e["code"], e["ref"]) for e in of_type(drain((a, b)[seat]), "error")] == [
        ("stale", "a2")]


async def sync(h: Harness) -> None:
    table, a, b, _ = await h.dealt_pair()
    table.start_actor()
    seat = decider(table)
    await table.act((a, b)[seat], a_legal(table, seat), 0, None)
    drain(a)
    await send(table, a, type="sync", since=0, game_no=1, round=1)
    assert [(m["type"], m["version"]) for m in drain(a)] == [("update", 1)]
    await send(table, a, type="sync", since=0)  # no game or round: the whole state
    assert [m["type"] for m in drain(a)] == ["state"]


async def hint(h: Harness) -> None:
    table = await h.open()
    table.start_actor()
    a, watcher = await h.connect(0), await h.connect(None)
    drain(a), drain(watcher)
    await send(table, a, type="hint", ref="h1")
    await send(table, watcher, type="hint", ref="h2")
    assert [(e["code"], e["ref"]) for e in of_type(drain(a), "error")] == [
        ("not_playing", "h1")]
    assert [(e["code"], e["ref"]) for e in of_type(drain(watcher), "error")] == [
        ("forbidden", "h2")]


async def ping(h: Harness) -> None:
    table = await h.open()
    table.start_actor()
    a = await h.connect(0)
    drain(a)
    await send(table, a, type="ping", rtt_ms=40, ref=1)
    assert drain(a) == [{"type": "pong"}]
    assert a.latency.rtt_ms == 40 and a.latency.reports  # kept for judging snap races


async def back(h: Harness) -> None:
    table, a, b, _ = await h.dealt_pair()
    table.start_actor()
    for _ in range(40):  # both idle: the turn clock's timeouts mark a seat away
        await h.timers.advance(1.0)
        if any(x.away for x in table.seats):
            break
    seat = next(x.seat for x in table.seats if x.away)
    drain(a), drain(b)
    await send(table, (a, b)[seat], type="back", ref="b1")
    assert not table.seats[seat].away
    told = of_type(drain((a, b)[1 - seat]), "table")
    assert told and told[-1]["table"]["seats"][seat]["away"] is False


async def chat(h: Harness) -> None:
    table = await h.open()
    table.start_actor()
    a, b = await h.connect(0), await h.connect(1)
    drain(a), drain(b)
    await send(table, a, type="chat", text="good  luck", ref="c1")
    assert [(m["seat"], m["text"]) for m in of_type(drain(b), "chat")] == [(0, "good luck")]
    await send(table, a, type="chat", ref="c2")  # neither text nor emote: refused at the door
    assert [(e["code"], e["ref"]) for e in of_type(drain(a), "error")] == [
        ("bad_message", "c2")]


SCENARIOS: dict[str, Callable[[Harness], Awaitable[None]]] = {
    "act": act, "sync": sync, "hint": hint, "ping": ping, "back": back, "chat": chat}
"""Each client message type's in-process scenario."""


@pytest.mark.parametrize("tag", sorted(BY_TAG))
def test_each_client_message_type_through_the_door(database: Database, tag: str) -> None:
    assert tag in SCENARIOS, f"the client message {tag!r} has no in-process test here"
    scenario = SCENARIOS[tag]
    settings: dict[str, Any] = {"clock": 5} if tag == "back" else {}

    async def started(h: Harness) -> None:
        try:
            await scenario(h)
        finally:
            if h.table is not None:
                await h.table.stop_actor()

    run(database, started, **settings)


def test_every_public_handler_of_the_table_is_called_in_process() -> None:
    handlers = {name for name, fn in vars(Table).items()
                if inspect.iscoroutinefunction(fn) and not name.startswith("_")}
    assert {"act", "connect", "join", "again", "expect"} <= handlers
    tests = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    missing = sorted(n for n in handlers
                     if f"table.{n}(" not in tests and f"table.{n}," not in tests)
    assert missing == [], f"no in-process test calls Table.{missing}"
