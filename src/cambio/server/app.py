"""The ASGI application: routes, the client's pages and static files, start and stop."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from . import daily, lobby, offline_routes, reviews, tutorial, your_games
from .limits import AddressLimiter
from .moderation_api import routes as moderation_routes
from .players.service import Players
from .players_api import my_seat
from .players_api import routes as player_routes
from .server import Server
from .settings import Settings
from .social_api import routes as social_routes
from .store import Store
from .ws import table_socket

log = logging.getLogger("cambio.server")

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


async def rules_page(request: Request) -> Response:
    return page("rules.html")


async def profile_page(request: Request) -> Response:
    return page("profile.html")


async def leaderboard_page(request: Request) -> Response:
    return page("leaderboard.html")


async def daily_page(request: Request) -> Response:
    return page("daily.html")


async def collect_garbage() -> None:
    """Run the cyclic garbage collector on a clock instead of on allocation counts.

    Every pass stops every table while it walks its generation. Triggered by counts, the
    youngest generation of a busy server grew to 100,000 objects between passes (objects
    dying in older generations keep the count low) and a pass took up to 90 ms. On a clock,
    each pass has a tenth of a second's worth of new objects: a few milliseconds.

    Each pass takes the two young generations together, so what survives it goes straight
    to the oldest one: an object is walked once, not once by the youngest pass and again by
    a middle pass, which (every 2 s) walked every survivor of those 2 s -- tens of thousands
    of waiting coroutines, futures and timers on a busy server, 20 ms at a time, about a
    third of the collector's CPU -- and never found a cycle there. Almost everything the
    server makes is freed by reference counting (the passes of a busy server find no cycles
    at all); the odd cycle that outlives a tick waits for the full pass.
    """
    gc.disable()
    tick = 0
    try:
        while True:
            await asyncio.sleep(GC_TICK)
            tick += 1
            gc.collect(2 if tick % GC_FULL == 0 else 1)
    finally:
        gc.enable()


GC_TICK = 0.1
GC_FULL = 6000
"""Every 10 minutes, a full pass."""


Handler = Callable[[Request], Awaitable[Response]]
SocketHandler = Callable[[WebSocket], Awaitable[None]]


def create_app(settings: Settings | None = None, store: Store | None = None, *,
               make_server: Callable[[Settings, Store | None], Server] = Server,
               route: Callable[[Handler], Handler] = lambda handler: handler,
               socket: SocketHandler = table_socket) -> Starlette:
    """The app; ``store`` is the database already opened (and locked) by :func:`serve`.

    A process of a cluster (:mod:`cambio.server.cluster`) brings its own server, and wraps
    the routes of one table (``route``, ``socket``) to pass requests to the table's owner."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server = make_server(settings, store)
        app.state.server = server
        app.state.rest_limiter = AddressLimiter(settings.rest_rate, settings.rest_burst)
        players = app.state.players = Players(server)  # sets every table's results hooks
        pool = app.state.reviews = reviews.Reviews(server)  # queues reviews at a finish
        await server.start()
        await players.start()
        await pool.start()
        # What exists now (modules, the tables just loaded) lives as long as the process:
        # keep it out of the cyclic garbage collector's passes; then collect on a clock.
        gc.collect()
        gc.freeze()
        collector = asyncio.get_running_loop().create_task(collect_garbage())
        try:
            yield
        finally:
            collector.cancel()
            await pool.stop()
            await players.stop()
            await server.stop()

    routes = [
        Route("/", lobby_page),
        Route("/t/{id}", table_page),
        Route("/r/{id}", replay_page),
        Route("/rules", rules_page),
        Route("/p/{name}", profile_page),
        Route("/leaderboard", leaderboard_page),
        Route("/daily", daily_page),
        Route("/api/bots", lobby.list_bots),
        Route("/api/games", lobby.list_games),
        Route("/api/rules", lobby.list_rules),
        Route("/api/tables", lobby.create_table, methods=["POST"]),
        Route("/api/tables", lobby.open_tables, methods=["GET"]),
        Route("/api/quickplay", lobby.quick_play, methods=["POST"]),
        Route("/api/tutorial", tutorial.start_tutorial, methods=["POST"]),
        Route("/api/tables/{id}", route(lobby.table_summary)),
        Route("/api/tables/{id}/join", route(lobby.join_table), methods=["POST"]),
        Route("/api/tables/{id}/seats/{seat}/bot", route(lobby.seat_bot), methods=["PUT"]),
        Route("/api/tables/{id}/seats/{seat}", route(lobby.free_seat), methods=["DELETE"]),
        Route("/api/tables/{id}/start", route(lobby.start_table), methods=["POST"]),
        Route("/api/tables/{id}/again", route(lobby.again_table), methods=["POST"]),
        Route("/api/tables/{id}/record", route(lobby.table_record)),
        Route("/api/tables/{id}/frames", route(lobby.table_frames)),
        Route("/api/tables/{id}/seat", route(my_seat), methods=["POST"]),
        Route("/api/tables/{id}/turn", route(your_games.table_turn)),
        Route("/api/tables/{id}/seats/{seat}/review", route(reviews.seat_review)),
        Route("/api/daily", daily.start_daily, methods=["POST"]),
        Route("/api/daily", daily.daily_results, methods=["GET"]),
        *player_routes(),
        *social_routes(),
        *your_games.routes(),
        *moderation_routes(),
        WebSocketRoute("/ws/{table}", socket),
        *offline_routes.ROUTES,
        # Gzipped to browsers that take it: the client's files are its source, comments and
        # JSDoc types included (no build step strips them), and shrink to a third.
        Mount("/static", app=GZipMiddleware(StaticFiles(directory=WEB / "static",
                                                        check_dir=False), minimum_size=1000),
              name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={ClientDisconnect: hung_up})


async def hung_up(request: Request, exc: Exception) -> Response:
    """A client that announced a body and closed its connection before sending all of it
    (a dropped network, a closed tab, a prober): nobody is left to answer, and nothing
    went wrong on this side, so one debug line rather than a traceback."""
    log.debug("%s %s: the client hung up before sending its whole body", request.method,
              request.url.path)
    return Response(status_code=400)
