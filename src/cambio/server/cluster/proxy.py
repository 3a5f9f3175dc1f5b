"""Requests that reached a process which does not own their table are passed to the owner.

A WebSocket is relayed frame by frame both ways (the browser keeps its one connection to
the address it knows, so the client is unchanged); when the owner closes it (a hand-over:
1012), the relay closes the browser's side with the same code and the browser reconnects,
to be routed afresh. A REST call is forwarded as it came and its answer returned.

The origin check is done here, on the request as the browser sent it; the owner sees a
request from a cluster peer, marked with ``x-cambio-hop`` so it is never passed on twice
(a table that moved again meanwhile is answered ``unavailable``, and the client retries).
The client's address travels in ``X-Forwarded-For``: the owner believes it only if the
operator listed the cluster's addresses in ``--forwarded-allow-ips``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ..errors import UNAVAILABLE
from ..table import dumps

log = logging.getLogger("cambio.server")

HOP = "x-cambio-hop"
FORWARDED_REQUEST = ("authorization", "content-type", "accept", "cookie")
FORWARDED_RESPONSE = ("content-type", "cache-control", "x-cambio-rounds")
WS_MAX_SIZE = 65536
QUIET = logging.getLogger("cambio.server.relay")
"""The relay's websockets logger, never at DEBUG: websockets logs every frame there, and a
frame is a seat's private view (hidden cards never reach a log)."""
QUIET.setLevel(logging.INFO)


def is_hop(headers: Any) -> bool:
    return HOP in headers


def _client(scope_client: Any) -> str:
    return scope_client.host if scope_client else "?"


async def proxy_socket(websocket: WebSocket, address: str) -> None:
    """Relay ``websocket`` to the same path at ``address`` (the owner)."""
    url = address.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/")
    path = websocket.url.path + (f"?{websocket.url.query}" if websocket.url.query else "")
    headers = {HOP: "1", "x-forwarded-for": _client(websocket.client)}
    try:
        upstream = await connect(url + path, additional_headers=headers, max_size=WS_MAX_SIZE,
                                 compression=None, ping_interval=None, open_timeout=5,
                                 close_timeout=2, logger=QUIET)
    except Exception as exc:  # refused, timed out, closed, a bad answer: all the same here
        log.warning("proxy: cannot reach the owner at %s (%s)", address, type(exc).__name__)
        await websocket.accept()
        with contextlib.suppress(Exception):
            await websocket.send_text(dumps({"type": "error", "code": UNAVAILABLE, "message":
                                             "this table's server cannot be reached; "
                                             "reconnecting", "ref": None}))
            await websocket.close(1013)
        return
    await websocket.accept()
    down = asyncio.get_running_loop().create_task(_downstream(upstream, websocket))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            await upstream.send(text if text is not None else (message.get("bytes") or b""))
    except (ConnectionClosed, WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await upstream.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await down


async def _downstream(upstream: ClientConnection, websocket: WebSocket) -> None:
    code = 1000
    try:
        async for frame in upstream:
            if isinstance(frame, str):
                await websocket.send_text(frame)
            else:
                await websocket.send_bytes(frame)
    except ConnectionClosed:
        pass
    except Exception:  # the browser is gone: its reader sees the disconnect
        return
    if upstream.close_code is not None:
        code = upstream.close_code
    with contextlib.suppress(Exception):
        await websocket.close(code if code not in (1005, 1006) else 1012)


class Forwarder:
    """REST calls for another process's table, sent on one pooled HTTP client."""

    def __init__(self, timeout: float = 10.0) -> None:
        # One connection per call, never kept alive: with --workers N the owner's address
        # is the front's, and the front hands a connection to a worker by its first
        # request. A pooled connection stayed with whichever worker its first call
        # reached, and every later call on it, for any table, reached that worker: once
        # that was not the owner (the front's pick while a lease was missing or its owner
        # just died, after a Redis restart or a kill), each call came back 503 "moving"
        # for as long as calls kept the connection busy -- finished tables, which only
        # REST reaches, answered 503 for good.
        self.http = httpx.AsyncClient(timeout=timeout, follow_redirects=False,
                                      limits=httpx.Limits(max_keepalive_connections=0))

    async def forward(self, request: Request, address: str, body: bytes) -> Response:
        headers = {k: v for k in FORWARDED_REQUEST if (v := request.headers.get(k))}
        headers[HOP] = "1"
        headers["x-forwarded-for"] = _client(request.client)
        url = address.rstrip("/") + request.url.path
        try:
            answer = await self.http.request(request.method, url, params=request.query_params,
                                             headers=headers, content=body)
        except httpx.HTTPError as exc:
            log.warning("proxy: cannot reach the owner at %s (%s)", address,
                        type(exc).__name__)
            return Response(dumps({"error": {"code": UNAVAILABLE, "message":
                                             "this table's server cannot be reached; try "
                                             "again"}}),
                            status_code=503, media_type="application/json")
        out = {k: v for k in FORWARDED_RESPONSE if (v := answer.headers.get(k))}
        return Response(answer.content, status_code=answer.status_code, headers=out)

    async def join(self, address: str, table_id: str, name: str, client: str
                   ) -> tuple[int, str] | None:
        """Ask the owner at ``address`` to seat ``name`` at ``table_id`` (quick play):
        ``(seat, token)``, or None if it cannot (filled meanwhile, moved, unreachable)."""
        url = f"{address.rstrip('/')}/api/tables/{table_id}/join"
        try:
            answer = await self.http.post(url, json={"name": name},
                                          headers={HOP: "1", "x-forwarded-for": client})
            body = answer.json() if answer.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None
        if not isinstance(body, dict) or not isinstance(body.get("seat"), int) \
                or not isinstance(body.get("token"), str):
            return None
        return body["seat"], body["token"]

    async def close(self) -> None:
        await self.http.aclose()
