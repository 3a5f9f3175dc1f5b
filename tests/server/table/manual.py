"""A clock a test moves by hand, standing in for the event loop's timers: the parts of a
table get :meth:`ManualTimers.later` as their :class:`~cambio.server.table.timers.Later` and
:meth:`ManualTimers.clock` as their time source, and a due job runs when the test advances
past it -- so no test of a part waits on a real timer."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from cambio.server.table.timers import Job


@dataclass(order=True)
class Timer:
    at: float
    n: int
    job: Job = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualTimers:
    def __init__(self) -> None:
        self.now = 0.0
        self._timers: list[Timer] = []
        self._n = itertools.count()

    def clock(self) -> float:
        return self.now

    def later(self, delay: float, job: Job, *args: Any) -> Timer:
        timer = Timer(self.now + delay, next(self._n), job, args)
        self._timers.append(timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        """A padded reply (a thinking bot's) takes its time on this clock."""
        self.now += seconds

    def pending(self) -> list[Timer]:
        return sorted(t for t in self._timers if not t.cancelled)

    async def advance(self, seconds: float) -> int:
        """Move the clock ``seconds`` on, running each job that falls due, in order (as the
        actor would, one at a time); returns how many ran."""
        end = self.now + seconds
        ran = 0
        while True:
            due = [t for t in self.pending() if t.at <= end]
            if not due:
                break
            timer = due[0]
            self._timers.remove(timer)
            self.now = max(self.now, timer.at)
            await timer.job(*timer.args)
            ran += 1
        self.now = max(self.now, end)
        return ran
