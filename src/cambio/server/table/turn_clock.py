"""The turn clock of a table (the rules are :class:`cambio.server.clock.Decisions`): it
follows the decision a seated player must make, and when the time runs out posts
``on_timeout(decision)`` to the table's actor, which has the seat's bot play it.

Which decision is on the clock is decided from public facts only (who must decide, who acted
last), so the countdown every client is shown tells nobody anything.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from ..clock import Decision, Decisions
from ..server_messages import Clock
from .timers import Handle, Later


class TurnClock:
    """A table's :class:`Decisions` and the one timer that fires at the deadline."""

    def __init__(self, seconds: float | None, strikes: int | None, later: Later,
                 on_timeout: Callable[[Decision], Awaitable[None]],
                 now: Callable[[], float] = time.time) -> None:
        self.decisions = Decisions(seconds, strikes, now)
        self._later = later
        self._on_timeout = on_timeout
        self.timer: Handle | None = None

    @property
    def seconds(self) -> float | None:
        return self.decisions.seconds

    def follow(self, decider: int | None, game_no: int, round_no: int, version: int,
               last_seat: int | None) -> bool:
        """See :meth:`Decisions.follow`; (re)arms the timer when the decision changes.
        ``True`` when clients must be told."""
        if not self.decisions.follow(decider, game_no, round_no, version, last_seat):
            return False
        self._arm()
        return True

    def restore(self, decision: Decision, deadline: float) -> None:
        """A decision stored before a restart is still the one waited for: its deadline is
        kept (however far it is, or past: then it runs out at once)."""
        self.decisions.restore(decision, deadline)
        self._arm()

    def _arm(self) -> None:
        self.cancel()
        decision, left = self.decisions.current, self.decisions.left()
        if decision is not None and left is not None:
            self.timer = self._later(left, self._on_timeout, decision)

    def running(self, decision: Decision) -> bool:
        """``decision`` is still the one on the clock (its timer was not overtaken)."""
        return self.decisions.current == decision

    def ran_out(self, decision: Decision) -> bool:
        """The timer of ``decision`` fired: count the timeout; ``True`` if the seat has
        timed out too often in a row and is to be marked away."""
        self.timer = None
        return self.decisions.timed_out(decision)

    def acted(self, seat: int) -> None:
        self.decisions.acted(seat)

    def stop(self) -> bool:
        """No decision on the clock any more; ``True`` if one was (clients must be told)."""
        self.cancel()
        return self.decisions.stop()

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def message(self, game_no: int, round_no: int, version: int) -> Clock:
        return self.decisions.message(game_no, round_no, version)

    def handles(self) -> list[Handle]:
        return [self.timer] if self.timer is not None else []
