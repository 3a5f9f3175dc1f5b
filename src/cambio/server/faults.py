"""Named crash points, for the tests that leave the store exactly as a crash would.

``CAMBIO_CRASH_AT=<name>`` in a server's environment makes the process kill itself
(SIGKILL, the signal of ``kill -9``: no ``finally``, no shutdown code, no flush) when it
first reaches the point of that name. A test can then restart the server on the same
database and check what it makes of that state, with no timing involved: the durability
tests put the store in each state between two writes of a game's end this way
(tests/server/players/test_booking.py). Unset, as it always is in service, a point costs
one comparison.

The points (each named where it is):

- ``round-end-action``: a round's last action was accepted, not stored yet;
- ``game-over``: the game-ending action is stored, nothing of the finish is;
- ``booked``: the finish (status, results, ratings) is stored, nobody was told yet.
"""

from __future__ import annotations

import logging
import os
import signal

log = logging.getLogger("cambio.server")

CRASH_AT = os.environ.get("CAMBIO_CRASH_AT") or None
"""The point this process dies at (read once, at import)."""


def crash_point(name: str) -> None:
    """Die here, as ``kill -9`` would, if ``CAMBIO_CRASH_AT`` names this point."""
    if name != CRASH_AT:
        return
    log.warning("crash point %r reached: killing this process (CAMBIO_CRASH_AT)", name)
    for handler in logging.getLogger().handlers + log.handlers:
        handler.flush()
    os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
    os._exit(137)  # where SIGKILL does not exist, or is not delivered at once
