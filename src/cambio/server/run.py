"""Run the app under uvicorn: WebSockets through the ``websockets`` library (uvicorn's
``websockets-sansio`` implementation, which closes a connection promptly even when the client
has unread messages queued), uvloop's event loop, no per-message compression (views are a
few hundred bytes; CPU is what limits a server, not bandwidth), and both protocols with the
socket-level guards of :mod:`.admission` (a cap per address, a request timeout)."""

from __future__ import annotations

import errno
import logging
import re
import resource
import socket
import sys
from urllib.parse import unquote

import uvicorn
from starlette.types import ASGIApp as ASGIApplication

from .admission import Admission, guarded_protocols
from .app import create_app
from .settings import Settings
from .store import StoreError, open_store

log = logging.getLogger("cambio.server")

WS_MAX_SIZE = 65536
"""Frames past this close the connection at the protocol level (1009); messages between the
protocol's 4 KiB and this get a ``too_large`` error and the connection stays open."""


MAX_HEAD = 16384
"""Bytes of a request's line and headers (h11's own default, named here for the docs)."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive HTTP connection stays open (uvicorn's default, named here)."""


class RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL (``?token=…``) and uvicorn logs that URL:
    blank out every query string of a logged URL (however it is spelled or percent-encoded,
    ``?%74oken=`` too), so a log file is never a set of keys to the seats."""

    PATTERN = re.compile(r"\?[^\s\"']*")

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "?" in text or "token" in unquote(text).lower():
            record.msg = self.PATTERN.sub("?…", text)
            record.args = ()
        return True


def raise_fd_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit, and return it.

    The common soft limit is 1,024: a server holding one descriptor per connection runs out
    long before its CPU does, and every table goes offline together (each WebSocket, each
    HTTP request, each database connection needs one). The hard limit is the operator's."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the open-files limit from %d to %d (%s)", soft, target, exc)
    if soft < 4096:
        log.warning("open-files limit is %d: raise the hard limit (ulimit -Hn, LimitNOFILE=) "
                    "for more than a few hundred players", soft)
    return int(soft)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000,
          log_level: str = "info") -> None:
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    raise_fd_limit()
    try:
        store = open_store(settings.database)  # opened (and locked) before anything listens
    except StoreError as exc:
        print(f"cambio serve: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if settings.seed is not None:
        log.warning("--seed is set: every deal on this server is predictable from it; use it "
                    "for tests and benchmarks only")
    sock = listen(host, port)
    from cambio import __version__
    from cambio.cards import COMPILED

    log.info("cambio %s, card engine: %s", __version__, "compiled" if COMPILED else "source")
    uvicorn.Server(uvicorn_config(create_app(settings, store), settings, host, port,
                                  log_level)).run(sockets=[sock])


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here rather than by uvicorn so that a taken port is one
    line naming ``--port`` (uvicorn logs the bare OSError and exits 3)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = f"port {port} is already in use on {host}; choose another with --port"
        else:
            why = f"cannot listen on {host}:{port} ({exc.strerror}); see --host and --port"
        print(f"cambio serve: {why}", file=sys.stderr)
        raise SystemExit(2) from None
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app: ASGIApplication, settings: Settings, host: str, port: int,
                   log_level: str) -> uvicorn.Config:
    """How every server process runs under uvicorn (one alone, or one of a cluster)."""
    proxied = settings.forwarded_allow_ips is not None
    http, ws = guarded_protocols(Admission(settings.max_sockets_per_address,
                                           settings.request_timeout,
                                           settings.forwarded_allow_ips))
    config = uvicorn.Config(
        app, host=host, port=port, http=http, ws=ws, ws_max_size=WS_MAX_SIZE,
        h11_max_incomplete_event_size=MAX_HEAD, timeout_keep_alive=KEEP_ALIVE,
        ws_per_message_deflate=False, log_level=log_level,
        access_log=False, lifespan="on", loop="auto", timeout_graceful_shutdown=3,
        # X-Forwarded-For decides the client address (rate limits, connection caps): only
        # believe it from proxies the operator named, never by default.
        proxy_headers=proxied, forwarded_allow_ips=settings.forwarded_allow_ips if proxied
        else "",
    )
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(RedactTokens())
    return config
