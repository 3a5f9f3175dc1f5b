"""``cambio serve --redis URL --database URL [--workers N]``: start one cluster process, or
the front and its N workers (:mod:`.front`)."""

from __future__ import annotations

import logging
import socket
import sys
from dataclasses import replace

from ..app import create_app
from ..run import raise_fd_limit, uvicorn_config
from ..settings import Settings
from ..store import Store, StoreError, open_store
from .front import run_front
from .node import ClusterServer
from .routes import routed, routed_socket
from .worker import DrainingServer, HandoffServer

log = logging.getLogger("cambio.server")


def default_address(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = socket.getfqdn()
    return f"http://{host}:{port}"


def worker_argv(argv: list[str], advertise: str) -> list[str]:
    """This command line, for one worker behind the front (later options win)."""
    args = argv[1:] if argv[:1] == ["serve"] else argv
    return [*args, "--workers", "1", "--advertise", advertise]


def serve_cluster(settings: Settings, *, host: str, port: int, log_level: str, redis: str,
                  workers: int, lease_ttl: float, advertise: str | None,
                  handoff_fd: int | None, worker_id: str | None) -> None:
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    raise_fd_limit()  # the front's too: it holds every connection until it hands it over
    address = advertise or default_address(host, port)
    if workers > 1:
        run_front(host, port, workers, redis, worker_argv(sys.argv[1:], address))
        return
    settings = replace(settings, redis=redis, lease_ttl=lease_ttl, advertise=address,
                       worker_id=worker_id)
    try:
        store = open_store(settings.database, exclusive=False)
    except StoreError as exc:
        print(f"cambio serve: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    app = create_app(settings, store, make_server=make_server, route=routed,
                     socket=routed_socket)
    config = uvicorn_config(app, settings, host, port, log_level)
    if handoff_fd is None:
        DrainingServer(config, app).run()
    else:
        HandoffServer(config, app, socket.socket(fileno=handoff_fd)).run()


def make_server(settings: Settings, store: Store | None) -> ClusterServer:
    assert settings.redis is not None and settings.advertise is not None
    return ClusterServer(settings, store, settings.redis, settings.advertise,
                         worker_id=settings.worker_id, lease_ttl=settings.lease_ttl)
