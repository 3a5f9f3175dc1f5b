"""The process's budget for password hashing: a few hashes at a time, off the event loop.

An argon2id hash (:mod:`.keys`) costs a fifth of a second of CPU and 64 MiB by design, so a
guesser who stays under every per-address and per-username limit from enough addresses
could still buy the whole machine with wrong sign-ins, and slow every table with it. Here
every hash of the process (sign-in, claim, deleting a claimed player) goes through one
:class:`HashBudget`:

- at most ``workers`` hashes run at once, in threads of their own (argon2-cffi releases the
  GIL, so the event loop keeps running) at a lower scheduling priority than the event loop
  (Linux: per-thread nice), and never in the default executor, where store reads wait;
- at most ``queue`` more wait; past that a request is refused at once with 503 and
  ``Retry-After`` (a refusal costs no hashing);
- waiting requests are served by fewest recent attempts from their address first, and a
  full queue makes room for a newcomer with fewer recent attempts by refusing the waiting
  request whose address has made the most. A flood's addresses have many attempts each; a
  person signing in has one or two: they go to the front, and wait at most for the hashes
  already running.

A flood from more fresh addresses at once than the queue holds still fills it; each of them
then has attempts of its own, and the next honest newcomer goes ahead of them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from ..errors import UNAVAILABLE, ProtocolError, Words

T = TypeVar("T")

RETRY_AFTER = 2
"""Seconds a refused sign-in is asked to wait: a few hashes' time."""
NICE = 10
"""How much lower than the event loop the hashing threads are scheduled (Linux)."""


def busy() -> ProtocolError:
    return ProtocolError(UNAVAILABLE, Words("refusal.signInsBusy", "too many sign-ins are being "
                                            "checked right now; try again in a moment"),
                         RETRY_AFTER)


def _lower_priority() -> None:
    """Run this worker thread at a lower priority than the event loop (Linux sets nice
    values per thread; elsewhere this does nothing)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


@dataclass(order=True)
class _Waiting:
    attempts: float
    seq: int
    ticket: asyncio.Future[None] = field(compare=False)


class HashBudget:
    """``workers`` hashes at a time, ``queue`` waiting, the rest refused (503)."""

    def __init__(self, workers: int = 1, queue: int = 8) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a hash budget needs at least one worker and a queue of 0 or more")
        self.workers = workers
        self.queue = queue
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="argon2",
                                        initializer=_lower_priority)
        self._running = 0
        self._waiting: list[_Waiting] = []
        """A heap: the request to run next (fewest attempts, then oldest) first."""
        self._seq = itertools.count()

    async def run(self, attempts: float, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a hashing thread once a slot is free. ``attempts`` is how many
        sign-in attempts the caller's address made lately (fewer go first); raises the 503
        :func:`busy` when the queue is full of requests with no more attempts than this."""
        if self._running >= self.workers or self._waiting:
            await self._wait(attempts)
        else:
            self._running += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._release()

    async def _wait(self, attempts: float) -> None:
        if len(self._waiting) >= self.queue:
            worst = max(self._waiting, default=None)
            if worst is None or worst.attempts <= attempts:
                raise busy()
            self._waiting.remove(worst)
            heapq.heapify(self._waiting)
            worst.ticket.set_exception(busy())
        me = _Waiting(attempts, next(self._seq), asyncio.get_running_loop().create_future())
        heapq.heappush(self._waiting, me)
        try:
            await me.ticket  # set when a slot is handed over (counted in _running)
        except asyncio.CancelledError:
            if me.ticket.done() and not me.ticket.cancelled() \
                    and me.ticket.exception() is None:
                self._release()  # handed a slot it will not use
            elif me in self._waiting:
                self._waiting.remove(me)
                heapq.heapify(self._waiting)
            raise

    def _release(self) -> None:
        """A slot is free: hand it to the next waiting request, if any."""
        if self._waiting:
            heapq.heappop(self._waiting).ticket.set_result(None)
        else:
            self._running -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
