"""The WebSocket endpoint ``/ws/{table}?token=…``: checks each client message, then hands it
to the table's actor.

Everything that can be refused without the game is refused here, before the actor sees it:
oversized messages, flooding (a token bucket per connection), messages that are not JSON
objects of a known type with well-typed fields. Each refusal is an ``error`` message and
changes nothing; after ``max_errors`` of them the connection is closed (1008).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import assert_never
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from .client_messages import (
    Act,
    Back,
    BadMessage,
    ChatSay,
    ClientMessage,
    HintRequest,
    Ping,
    Sync,
    parse,
)
from .errors import BAD_MESSAGE, BUSY, INVALID_TOKEN, RATE_LIMITED, TOO_LARGE, ProtocolError
from .limits import ByteBudget, TokenBucket
from .server import Server, token_hash
from .server_messages import Pong, error
from .settings import Settings
from .table import Conn, Table, dumps


def origin_allowed(websocket: HTTPConnection, settings: Settings) -> bool:
    """Browsers always send ``Origin`` with a WebSocket (and with a cross-site ``POST``,
    ``PUT`` or ``DELETE``): a page of another site may not use a visitor's seat token here,
    nor create tables in their name, unless the operator allowed that site. Same origin
    (the page's host is this server's ``Host``) is always allowed; so are clients that send
    no ``Origin`` (not browsers: they hold no one else's token)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    allowed = settings.allowed_origins
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    host = websocket.headers.get("host", "")
    return bool(host) and urlsplit(origin).netloc.lower() == host.lower()


def close_code(exc: ProtocolError) -> int:
    """1013 (try again later) when asking again soon may work, 1011 for a table set aside,
    1008 for a refusal."""
    if exc.retry_after is not None:
        return 1013
    return 1011 if exc.status >= 500 else 1008


async def table_socket(websocket: WebSocket) -> None:
    server: Server = websocket.app.state.server
    settings = server.settings
    if not origin_allowed(websocket, settings):
        await websocket.close(1008)  # before accepting: the browser gets HTTP 403
        return
    address = websocket.client.host if websocket.client else "?"
    await websocket.accept()
    token = websocket.query_params.get("token")
    table = server.tables.get(str(websocket.path_params["table"]))
    if token and table is not None and table.seat_for_hash(token_hash(token)) is not None:
        # A seat's own connection: never refused by what anonymous ones use up (its seat
        # has its own cap, ``max_conns_per_seat``, checked by the table).
        await _serve(websocket, server, settings, None)
        return
    # Anonymous, a wrong token (it costs as much), or a table not loaded yet.
    if not server.connect_limiter.take(address):
        await _refuse(websocket, BUSY, "too many connection attempts; try again later", 1013)
        return
    cap = settings.max_conns_per_address
    if cap and server.open_by_address.get(address, 0) >= cap:
        await _refuse(websocket, BUSY, "too many open connections from your address", 1013)
        return
    slot = AnonymousSlot(server.open_by_address, address)
    try:
        await _serve(websocket, server, settings, slot)
    finally:
        slot.release()


class AnonymousSlot:
    """One place among an address's anonymous connections, given back when the connection
    ends, or as soon as it turns out to be a seat's (a table that had to be loaded first)."""

    __slots__ = ("address", "counts", "held")

    def __init__(self, counts: dict[str, int], address: str) -> None:
        self.counts = counts
        self.address = address
        self.held = True
        counts[address] = counts.get(address, 0) + 1

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        left = self.counts.get(self.address, 0) - 1
        if left > 0:
            self.counts[self.address] = left
        else:
            self.counts.pop(self.address, None)


async def _serve(websocket: WebSocket, server: Server, settings: Settings,
                 slot: AnonymousSlot | None) -> None:
    token = websocket.query_params.get("token")
    try:
        table = await server.get(str(websocket.path_params["table"]))
    except ProtocolError as exc:
        await _refuse(websocket, exc.code, exc.message, close_code(exc))
        return
    seat = None
    if token:
        seat = table.seat_for_hash(token_hash(token))
        if seat is None:
            await _refuse(websocket, INVALID_TOKEN, "this token is not a seat of this table")
            return
        if slot is not None:
            slot.release()
    conn = Conn(seat, settings.outbox_limit, settings.max_errors, settings.error_window)
    writer = asyncio.get_running_loop().create_task(_writer(websocket, conn))
    table.post(table.connect, conn)
    bucket = TokenBucket(settings.rate, settings.burst)
    budget = ByteBudget(settings.byte_rate, settings.byte_burst)
    wait = 0.0
    try:
        while conn.closing is None:
            if wait:
                # Over its byte budget: read nothing more from this connection until it is
                # paid back (the protocol reads no more of the socket meanwhile).
                await asyncio.sleep(wait)
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            data = (message.get("bytes") or b"") if raw is None else b""
            wait = budget.spend(len(raw) if raw is not None else len(data))
            if raw is None:
                if len(data) > settings.max_message:
                    conn.error(TOO_LARGE, f"messages are limited to {settings.max_message} bytes")
                    continue
                try:
                    raw = data.decode("utf-8")
                except UnicodeDecodeError:
                    conn.error(BAD_MESSAGE, "messages are JSON text")
                    continue
            _handle(raw, conn, table, bucket, settings.max_message)
    finally:
        table.post(table.disconnect, conn)
        conn.close(1000)
        await writer


def _handle(raw: str, conn: Conn, table: Table, bucket: TokenBucket, limit: int) -> None:
    """Check one frame's size and rate, parse it into its message and hand that on."""
    if len(raw) > limit or (len(raw) * 4 > limit and len(raw.encode("utf-8")) > limit):
        conn.error(TOO_LARGE, f"messages are limited to {limit} bytes")
        return
    if not bucket.take():
        conn.error(RATE_LIMITED, "too many messages; slow down")
        return
    try:
        msg = parse(raw)
    except BadMessage as exc:
        conn.error(exc.code, exc.message, exc.ref)
        return
    _dispatch(msg, conn, table)


def _dispatch(msg: ClientMessage, conn: Conn, table: Table) -> None:
    """Hand a message to the table's actor (or answer a ping)."""
    match msg:
        case Act():
            if msg.reaction_ms is not None:  # it judges its snaps by reaction
                conn.latency.reports = True
            table.post(table.act, conn, msg.action, msg.version, msg.ref, msg.reaction_ms)
        case Ping():
            if msg.rtt_ms is not None:  # its last ping's round trip: snap races
                conn.latency.sample(msg.rtt_ms)
            conn.send(PONG)
        case Sync():
            table.post(table.sync, conn, msg.since, msg.game_no, msg.round)
        case HintRequest():
            table.post(table.hint, conn, msg.ref)
        case Back():
            table.post(table.back, conn)
        case ChatSay():
            table.post(table.chat, conn, msg.text, msg.emote, msg.ref)
        case _:
            assert_never(msg)


PONG = dumps(Pong(type="pong"))


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's outbox in order; close with the table's code when told to."""
    try:
        outbox = conn.outbox
        while True:
            if not outbox:
                await outbox.wait()
                continue
            text = outbox.pop()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        return  # the client is gone; the reader sees the disconnect
    if conn.closing not in (None, 1000):
        with contextlib.suppress(Exception):
            await websocket.close(conn.closing)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int = 1008) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps(error(code, message)))
        await websocket.close(close)
