"""A single-consumer queue for the event loop, lighter than ``asyncio.Queue``.

Every action passes through two of them (the table's jobs, then each connection's outbox),
so their cost is paid thousands of times a second: a deque and one future to wake the only
reader is all that is needed (no maxsize, no task accounting, no multiple getters).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: deque[T] = deque()
        self.waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self.items)

    def put(self, item: T) -> None:
        self.items.append(item)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none (one reader at a time)."""
        while not self.items:
            await self.wait()
        return self.items.popleft()

    def wait(self) -> asyncio.Future[None]:
        """A future the next :meth:`put` sets (call it when the mailbox is empty).

        The busy readers (a table's actor, a connection's writer) await it directly and
        :meth:`pop`: unlike :meth:`get`, that makes no coroutine object per wait. A wait
        on a busy server outlives the garbage collector's tick, so every object it holds is
        walked once by a pass."""
        self.waiter = waiter = asyncio.get_running_loop().create_future()
        return waiter

    def pop(self) -> T:
        """The oldest item (there is one)."""
        return self.items.popleft()
