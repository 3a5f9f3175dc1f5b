"""The cluster's routing in front of the single-process handlers: a request for a table
this process does not own goes to the owner (:mod:`.proxy`); everything else (the lobby,
pages, a table this process owns or has just claimed) is served here as it always is."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from ..errors import TOO_LARGE, UNAVAILABLE, ProtocolError
from ..lobby import check_call, error_response
from ..table import dumps
from ..ws import origin_allowed, table_socket
from .node import ClusterServer
from .proxy import is_hop, proxy_socket

Handler = Callable[[Request], Awaitable[Response]]


def _moving() -> ProtocolError:
    return ProtocolError(UNAVAILABLE, "this table is moving between servers; try again")


def routed(handler: Handler) -> Handler:
    """``handler`` for a route with an ``{id}``, served by the table's owner."""

    async def wrapped(request: Request) -> Response:
        server = request.app.state.server
        assert isinstance(server, ClusterServer)
        try:
            address = await server.route(str(request.path_params["id"]))
            if address is None:
                return await handler(request)
            if is_hop(request.headers):
                # Passed here for a table another process owns: refuse, and close this
                # connection so that the caller's next try is routed afresh.
                response = error_response(_moving())
                response.headers["Connection"] = "close"
                return response
            check_call(request)
            body = await request.body()
            if len(body) > server.settings.max_body:
                raise ProtocolError(TOO_LARGE, "request bodies are limited to "
                                               f"{server.settings.max_body} bytes")
        except ProtocolError as exc:
            return error_response(exc)
        return await server.forwarder.forward(request, address, body)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def routed_socket(websocket: WebSocket) -> None:
    """``/ws/{table}``: served here, or relayed to the owner."""
    server = websocket.app.state.server
    assert isinstance(server, ClusterServer)
    try:
        address = await server.route(str(websocket.path_params["table"]))
        if address is not None and is_hop(websocket.headers):
            raise _moving()
    except ProtocolError as exc:
        await websocket.accept()
        await websocket.send_text(dumps({"type": "error", "code": exc.code,
                                         "message": exc.message, "ref": None}))
        await websocket.close(1013)  # try again shortly
        return
    if address is None:
        await table_socket(websocket)
    elif not origin_allowed(websocket, server.settings):
        await websocket.close(1008)
    else:
        await proxy_socket(websocket, address)
