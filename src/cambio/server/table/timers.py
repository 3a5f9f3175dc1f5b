"""How a table's parts ask for work later: a job posted to the table's actor after a delay.

Every part that waits (bots' delays, the turn clock, away seats, the pause between rounds) is
handed a :class:`Later` instead of the event loop, so the part never runs anything itself: a
due timer only *queues* a job on the table's actor, which runs it between other jobs. Tests
hand the parts a manual clock instead (``tests/server/table/manual.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

Job = Callable[..., Awaitable[None]]
"""A coroutine function the actor runs (with the arguments it was posted with)."""


class Handle(Protocol):
    """A timer that can be called off (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None: ...


class Later(Protocol):
    """Post ``job(*args)`` to the table's actor in ``delay`` seconds."""

    def __call__(self, delay: float, job: Job, *args: Any) -> Handle: ...
