"""A cluster process under uvicorn: hand the tables over before exiting on SIGTERM, and
(under ``--workers N``) take connections handed in by the front process instead of
listening itself.

**Drain.** uvicorn's own shutdown closes every connection first and only then lets the app
stop; for a cluster process the order is reversed: on the first SIGTERM (or Ctrl-C) it hands
its tables over (:meth:`ClusterServer.drain`), and then uvicorn stops as usual. A second
signal stops it at once.

**Hand-off.** The front (:mod:`.front`) accepts each TCP connection, reads its first line
without consuming it, and passes the socket itself to the worker that owns the table
(``SCM_RIGHTS`` over a Unix socket pair). The worker feeds it to uvicorn's protocol as if it
had accepted it: after the hand-off, the front is out of the path, so nothing is copied
twice.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from types import FrameType
from typing import Any

import uvicorn
from starlette.applications import Starlette

log = logging.getLogger("cambio.server")


class DrainingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app
        self._loop: asyncio.AbstractEventLoop | None = None
        self._draining = False

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        loop = self._loop
        if self._draining or loop is None or not self.started:
            super().handle_exit(sig, frame)
            return
        self._draining = True
        loop.call_soon_threadsafe(lambda: loop.create_task(self._drain_then_exit(sig)))

    async def _drain_then_exit(self, sig: int) -> None:
        server: Any = getattr(self.app.state, "server", None)
        try:
            if server is not None and hasattr(server, "drain"):
                await server.drain()
        except Exception:
            log.exception("cluster: handing the tables over failed")
        finally:
            super().handle_exit(sig, None)


class HandoffServer(DrainingServer):
    """Serves the connections the front process passes over ``channel``."""

    def __init__(self, config: uvicorn.Config, app: Starlette, channel: socket.socket) -> None:
        super().__init__(config, app)
        self.channel = channel
        self._handing: set[asyncio.Task[None]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup([])  # listens on nothing: the front accepts
        if self.should_exit:
            return
        self.channel.setblocking(False)
        asyncio.get_running_loop().add_reader(self.channel.fileno(), self._receive)

    def _protocol(self) -> asyncio.Protocol:
        config = self.config
        protocol: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
            config=config, server_state=self.server_state, app_state=self.lifespan.state)
        return protocol

    def _receive(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.channel, 16, 16)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            if not data and not fds:  # the front is gone: so is this worker's purpose
                loop.remove_reader(self.channel.fileno())
                log.warning("cluster: the front process is gone; stopping")
                self.handle_exit(15, None)
                return
            for fd in fds:
                sock = socket.socket(fileno=fd)
                sock.setblocking(False)
                task = loop.create_task(self._take(sock))
                self._handing.add(task)
                task.add_done_callback(self._handing.discard)

    async def _take(self, sock: socket.socket) -> None:
        try:
            await asyncio.get_running_loop().connect_accepted_socket(self._protocol, sock)
        except OSError:
            sock.close()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.channel.fileno())
        self.channel.close()
        await super().shutdown(sockets)
