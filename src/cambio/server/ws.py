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
import json
from typing import Any

from starlette.websockets import WebSocket

from .errors import BAD_MESSAGE, FORBIDDEN, RATE_LIMITED, TOO_LARGE, ProtocolError
from .limits import TokenBucket
from .server import Server, token_hash
from .table import Conn, Table, dumps

MAX_REF = 64


async def table_socket(websocket: WebSocket) -> None:
    server: Server = websocket.app.state.server
    settings = server.settings
    await websocket.accept()
    token = websocket.query_params.get("token")
    try:
        table = await server.get(str(websocket.path_params["table"]))
    except ProtocolError as exc:
        await _refuse(websocket, exc.code, exc.message)
        return
    seat = None
    if token:
        seat = table.seat_for_hash(token_hash(token))
        if seat is None:
            await _refuse(websocket, FORBIDDEN, "this token is not a seat of this table")
            return
    conn = Conn(seat, settings.outbox_limit, settings.max_errors)
    writer = asyncio.get_running_loop().create_task(_writer(websocket, conn))
    table.post(table.connect, conn)
    bucket = TokenBucket(settings.rate, settings.burst)
    try:
        while conn.closing is None:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                data = message.get("bytes") or b""
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
    if len(raw) > limit or (len(raw) * 4 > limit and len(raw.encode("utf-8")) > limit):
        conn.error(TOO_LARGE, f"messages are limited to {limit} bytes")
        return
    if not bucket.take():
        conn.error(RATE_LIMITED, "too many messages; slow down")
        return
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        conn.error(BAD_MESSAGE, "not JSON")
        return
    if not isinstance(msg, dict):
        conn.error(BAD_MESSAGE, "a message is a JSON object with a \"type\"")
        return
    ref = msg.get("ref")
    if not _ok_ref(ref):
        conn.error(BAD_MESSAGE, f"\"ref\" must be a string or a number (up to {MAX_REF} "
                                "characters)")
        return
    kind = msg.get("type")
    if kind == "ping":
        conn.send('{"type":"pong"}')
    elif kind == "act":
        action, version = msg.get("action"), msg.get("version")
        if not isinstance(action, str) or not _count(version):
            conn.error(BAD_MESSAGE, "\"act\" needs \"action\" (text) and \"version\" "
                                    "(a whole number)", ref)
            return
        table.post(table.act, conn, action, version, ref)
    elif kind == "sync":
        since, game_no, round_no = msg.get("since"), msg.get("game_no"), msg.get("round")
        if not _count(since) or not (game_no is None or _count(game_no)) \
                or not (round_no is None or _count(round_no)):
            conn.error(BAD_MESSAGE, "\"sync\" needs \"since\" (a whole number); \"game_no\" "
                                    "and \"round\" are whole numbers if given", ref)
            return
        table.post(table.sync, conn, since, game_no, round_no)
    elif kind == "hint":
        table.post(table.hint, conn, ref)
    else:
        conn.error(BAD_MESSAGE, "unknown message type; types: act, sync, hint, ping", ref)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 31


def _ok_ref(ref: Any) -> bool:
    if ref is None or (isinstance(ref, int | float) and not isinstance(ref, bool)):
        return True
    return isinstance(ref, str) and len(ref) <= MAX_REF


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's outbox in order; close with the table's code when told to."""
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        return  # the client is gone; the reader sees the disconnect
    if conn.closing not in (None, 1000):
        with contextlib.suppress(Exception):
            await websocket.close(conn.closing)


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps({"type": "error", "code": code, "message": message,
                                         "ref": None}))
        await websocket.close(1008)
