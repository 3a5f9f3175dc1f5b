"""The ASGI application: routes, the client's pages and static files, start and stop."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from . import lobby
from .server import Server
from .settings import Settings
from .ws import table_socket

WEB = Path(__file__).resolve().parent.parent / "web"
"""The browser client (``src/cambio/web``), shipped as package data."""

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>cambio</title>
<h1>cambio</h1><p>The browser client ({page}) is not installed. The API is under
<code>/api</code> and the game WebSocket under <code>/ws/&lt;table&gt;</code>.</p>"""


def page(name: str) -> Response:
    """A page of the client, or a short placeholder while the client is not there."""
    path = WEB / name
    if path.is_file():
        return FileResponse(path, media_type="text/html",
                            headers={"Cache-Control": "no-cache"})
    return HTMLResponse(PLACEHOLDER.format(page=name))


async def lobby_page(request: Request) -> Response:
    return page("index.html")


async def table_page(request: Request) -> Response:
    return page("table.html")


async def replay_page(request: Request) -> Response:
    return page("replay.html")


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server = Server(settings)
        app.state.server = server
        app.state.rest_limiter = lobby.RestLimiter(settings.rest_rate, settings.rest_burst)
        await server.start()
        # Full passes of the cyclic garbage collector walk every live object and stall every
        # table meanwhile (a few hundred ms with a thousand busy tables). What exists now
        # (modules, the tables just loaded) lives as long as the process: keep it out of
        # them. Then make full passes rare (about one every 600 second-generation passes
        # instead of 10); young generations are still collected as usual.
        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(max(young, 5000), middle, 600)
        try:
            yield
        finally:
            await server.stop()

    routes = [
        Route("/", lobby_page),
        Route("/t/{id}", table_page),
        Route("/r/{id}", replay_page),
        Route("/api/bots", lobby.list_bots),
        Route("/api/rules", lobby.list_rules),
        Route("/api/tables", lobby.create_table, methods=["POST"]),
        Route("/api/tables", lobby.open_tables, methods=["GET"]),
        Route("/api/tables/{id}", lobby.table_summary),
        Route("/api/tables/{id}/join", lobby.join_table, methods=["POST"]),
        Route("/api/tables/{id}/seats/{seat}/bot", lobby.seat_bot, methods=["PUT"]),
        Route("/api/tables/{id}/seats/{seat}", lobby.free_seat, methods=["DELETE"]),
        Route("/api/tables/{id}/start", lobby.start_table, methods=["POST"]),
        Route("/api/tables/{id}/again", lobby.again_table, methods=["POST"]),
        Route("/api/tables/{id}/record", lobby.table_record),
        WebSocketRoute("/ws/{table}", table_socket),
        Mount("/static", app=StaticFiles(directory=WEB / "static", check_dir=False),
              name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
