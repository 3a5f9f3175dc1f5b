"""A TCP proxy that makes a link slow: every chunk is held ``delay`` seconds each way.

Put it in front of one client to give it a long round trip (a player on a slow phone link)
while the server and the other clients stay as they are. Order is kept in each direction;
closing either end closes the other once what was in flight has been delivered.

    async with DelayProxy(server_port, delay=0.3) as proxy:
        websockets.connect(f"ws://127.0.0.1:{proxy.port}/ws/...")
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType


class DelayProxy:
    """Listens on ``127.0.0.1:port`` and forwards to ``127.0.0.1:target``, ``delay`` late."""

    def __init__(self, target: int, delay: float) -> None:
        self.target = target
        self.delay = delay
        self.port = 0
        self.forwarded = 0
        """Bytes delivered toward the server so far (for tests that wait on it)."""
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> DelayProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await self._server.wait_closed()

    async def _accept(self, client_r: asyncio.StreamReader,
                      client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target)
            await asyncio.gather(self._pipe(client_r, server_w, up=True),
                                 self._pipe(server_r, client_w, up=False))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._tasks.discard(task)
            client_w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    up: bool) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def feed() -> None:
            while chunk := await reader.read(65536):
                queue.put_nowait((loop.time() + self.delay, chunk))
            queue.put_nowait((loop.time() + self.delay, b""))

        async def deliver() -> None:
            while True:
                due, chunk = await queue.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not chunk:
                    writer.close()
                    return
                writer.write(chunk)
                await writer.drain()
                if up:
                    self.forwarded += len(chunk)

        try:
            await asyncio.gather(feed(), deliver())
        finally:
            writer.close()
