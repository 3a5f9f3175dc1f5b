"""The serial actor of a table: one queue of jobs, run one at a time.

Everything that reads or changes a table runs as a job on the table's own queue
(boardgame.io's and lichess's "one serial actor per game"): client actions, bots' moves,
connections coming and going, lobby calls. So two snaps that race are simply applied in
arrival order, and a job that awaits the database (an action being stored) cannot be
overtaken by another job of the same table.

The actor knows nothing of tables: a job whose write fails is reported to the
``on_failed_write`` callback it is given (the table halts), any other failure is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..mailbox import Mailbox
from ..store import StoreError

log = logging.getLogger("cambio.server")
T = TypeVar("T")


class Actor:
    """A job queue and the task that drains it."""

    def __init__(self, name: str, on_failed_write: Callable[[str], None],
                 now: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self._on_failed_write = on_failed_write
        self._now = now
        self.last_active = now()
        """When a client or the lobby last asked something of the table (idle tables are
        swept by the server)."""
        self._queue: Mailbox[Callable[[], Awaitable[None]]] = Mailbox()
        self._task: asyncio.Task[None] | None = None

    def touch(self) -> None:
        self.last_active = self._now()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        queue = self._queue
        while True:
            if not queue:
                await queue.wait()
                continue
            job = queue.pop()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except StoreError as exc:
                self._on_failed_write(f"a write failed ({type(exc).__name__}: {exc})")
            except Exception:
                log.exception("%s: a job failed", self.name)

    def post(self, fn: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Queue a job; its result is not awaited (client messages, timers)."""
        self._queue.put(lambda: fn(*args))

    async def call(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run a job on the actor and wait for its result (lobby calls)."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.touch()

        async def job() -> None:
            try:
                result = await fn(*args)
            except BaseException as exc:
                if not fut.done():
                    fut.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
            else:
                if not fut.done():
                    fut.set_result(result)

        self._queue.put(job)
        return await fut
