"""Run the app under uvicorn: WebSockets through the ``websockets`` library (uvicorn's
``websockets-sansio`` implementation, which closes a connection promptly even when the client
has unread messages queued), uvloop's event loop, no per-message compression (views are a
few hundred bytes; CPU is what limits a server, not bandwidth)."""

from __future__ import annotations

import logging
import re

import uvicorn

from .app import create_app
from .settings import Settings

WS_MAX_SIZE = 65536
"""Frames past this close the connection at the protocol level (1009); messages between the
protocol's 4 KiB and this get a ``too_large`` error and the connection stays open."""


class RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL (``?token=…``) and uvicorn logs that URL:
    blank them out of every log line, so a log file is never a set of keys to the seats."""

    PATTERN = re.compile(r"(token=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "token=" in text:
            record.msg = self.PATTERN.sub(r"\1…", text)
            record.args = ()
        return True


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000,
          log_level: str = "info") -> None:
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    config = uvicorn.Config(
        create_app(settings), host=host, port=port, ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE, ws_per_message_deflate=False, log_level=log_level,
        access_log=False, lifespan="on", loop="auto", timeout_graceful_shutdown=3,
    )
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(RedactTokens())
    uvicorn.Server(config).run()
