"""The turn clock: a table's seconds per decision, and what happens when they run out.

A table created with ``"clock": seconds`` gives a seated player that many seconds for each
decision the game waits for (a draw, a discard or swap, a power's choice, a board move). When
they run out, the seat's bot plays that one decision for them; after ``strikes`` timeouts in a
row without the player acting, the seat is marked away and its bot plays on until the player
says they are back (or acts). A table with no clock waits for ever, as before.

Which decision the clock runs for is decided from public facts only (who must decide, and who
acted last), so the countdown every client is shown tells nobody anything, and a bot that
plays out a timeout replies at the deadline plus the table's fixed thinking time, never
sooner or later depending on cards.

:class:`Decisions` is pure bookkeeping on an injected time source, so its rules are tested
without any wall clock; the table's :class:`cambio.server.table.turn_clock.TurnClock` arms
one timer at :attr:`Decisions.deadline`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import ProtocolError
from .server_messages import Clock

CLOCK_MIN = 1
CLOCK_MAX = 3600
"""Seconds per decision a table may be given (``null`` or 0: no clock)."""


def clock_setting(body: dict[str, Any], default: int | None) -> int | None:
    """The ``clock`` of a create-table body: seconds per decision, or ``None`` for none.

    A body without ``clock`` gets the server's ``--turn-clock`` default."""
    if "clock" not in body:
        return default
    value = body["clock"]
    if value is None or value == 0:
        return None
    if not isinstance(value, int) or isinstance(value, bool) \
            or not CLOCK_MIN <= value <= CLOCK_MAX:
        raise ProtocolError("bad_request", f"\"clock\" must be null (no clock) or a whole "
                                           f"number of seconds from {CLOCK_MIN} to {CLOCK_MAX}")
    return value


@dataclass(frozen=True)
class Decision:
    """One decision the clock runs for: whose, in which game and round, since which
    version of the round."""

    seat: int
    game_no: int
    round_no: int
    since: int


class Decisions:
    """Which decision is on the clock, its deadline, and each seat's timeouts in a row.

    A new decision starts when the deciding seat changes (or the round does), or when the
    deciding seat acted and must decide again (a draw, then what to do with the card).
    Someone else's action in between (a snap by another seat) does not restart the clock.
    """

    def __init__(self, seconds: float | None, strikes: int,
                 now: Callable[[], float]) -> None:
        self.seconds = seconds
        self.strikes = strikes
        self.now = now
        self.current: Decision | None = None
        self.deadline: float | None = None
        self.timeouts: dict[int, int] = {}

    def follow(self, decider: int | None, game_no: int, round_no: int, version: int,
               last_seat: int | None) -> bool:
        """Bring the clock up to the table's state; ``True`` if it changed (a new decision
        or none any more), when clients must be told.

        ``decider`` is the seat that must decide, or ``None`` when no seated player is on
        the clock (nobody decides, or a bot does); ``last_seat`` is who made the round's
        last action."""
        if self.seconds is None or decider is None:
            return self.stop()
        cur = self.current
        same = cur is not None and cur.seat == decider and cur.game_no == game_no \
            and cur.round_no == round_no and (version == cur.since or last_seat != decider)
        if same:
            return False
        self.current = Decision(decider, game_no, round_no, version)
        self.deadline = self.now() + self.seconds
        return True

    def stop(self) -> bool:
        changed = self.current is not None
        self.current = None
        self.deadline = None
        return changed

    def left(self) -> float | None:
        """Seconds until the deadline (``None``: no clock running)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.now())

    def timed_out(self, decision: Decision) -> bool:
        """The clock ran out on ``decision``: count it; ``True`` if the seat has now timed
        out ``strikes`` times in a row and is to be marked away."""
        if decision != self.current:
            return False
        self.stop()
        count = self.timeouts.get(decision.seat, 0) + 1
        self.timeouts[decision.seat] = count
        return count >= self.strikes

    def acted(self, seat: int) -> None:
        """The player made a move themselves: their timeouts in a row start again."""
        self.timeouts.pop(seat, None)

    def message(self, game_no: int, round_no: int, version: int) -> Clock:
        """The ``clock`` message: who is on the clock and how long they have left."""
        cur = self.current
        left = self.left()
        return {"type": "clock", "game_no": game_no, "round": round_no, "version": version,
                "seconds": self.seconds, "seat": cur.seat if cur is not None else None,
                "left": None if left is None else round(left, 2)}
