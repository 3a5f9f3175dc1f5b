"""Who wins a snap race: by when each player saw the card and reacted, not only by arrival.

A player on a slow link sees each discarded card later and their snap arrives later, so
arrival order hands every close race to the fastest connection. A client may therefore
report ``reaction_ms``, the time from when the card was shown on its screen to the snap.
The server cannot check that number, so it bounds it by what it measured itself (the approach
of CooperLi1/cabo-online, docs/web.md "How snap races are judged"):

- ``elapsed``: server time from sending the card (the update that opened the window) to
  the snap's arrival;
- ``estimate = elapsed - rtt`` (the connection's round trip, capped at :data:`RTT_CAP_MS`):
  the reaction as the server sees it;
- the snap's *key* is the report clamped to ``[MIN_REACTION_MS, estimate + SLACK_MS]`` and
  never above ``elapsed`` (nobody reacted before the card was sent). A snap without a
  report keys on ``elapsed``: arrival order, as before.

Lowest key wins; a tie goes to the earlier arrival. The table holds the first snap of a
window for a short collection time (:meth:`Referee.wait`) only when another seat has a
connection that reports (:attr:`Latency.reports`): a non-reporting snap that arrives later
keys on a larger ``elapsed`` and can never win, so without such a rival nothing is held and
snaps apply at once, in arrival order.

Everything here is pure (times are passed in), so the table's actor stays the only place
that waits, and the rules are unit-tested on numbers (tests/server/test_snap_race.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

MIN_REACTION_MS = 100
"""The fastest reaction the server believes: a report below it counts as this."""
SLACK_MS = 400
"""How much slower than the server's own estimate a report may be (the estimate's error:
jitter, a round trip measured a few seconds ago, the page drawing the card late)."""
RTT_CAP_MS = 600
"""A round trip above this counts as this: the adjustment stays bounded on a stalled link."""
RTT_WEIGHT = 0.4
"""Weight of a new round-trip sample in the running estimate (the rest is the old one)."""


@dataclass
class Latency:
    """One connection's round trip, as it reports it, and whether it reports reactions."""

    rtt_ms: float | None = None
    """Running estimate of the round trip (``None``: no sample yet)."""
    reports: bool = False
    """The client reported a round trip or a reaction: it judges its snaps by reaction,
    so others' snaps wait for it (:meth:`Referee.take`)."""

    def sample(self, rtt_ms: int) -> None:
        """A measured round trip: the estimate moves toward it (one sample cannot swing it)."""
        ms = float(min(rtt_ms, RTT_CAP_MS))
        self.rtt_ms = ms if self.rtt_ms is None else \
            (1 - RTT_WEIGHT) * self.rtt_ms + RTT_WEIGHT * ms
        self.reports = True


def reaction_key(elapsed_ms: float, rtt_ms: float | None, reported_ms: int | None) -> float:
    """The time a snap is judged by (ms; lower wins): see the module's docstring."""
    elapsed = max(elapsed_ms, 0.0)
    if reported_ms is None:
        return elapsed
    estimate = max(elapsed - min(rtt_ms or 0.0, RTT_CAP_MS), 0.0)
    return min(max(float(reported_ms), MIN_REACTION_MS), estimate + SLACK_MS, elapsed)


@dataclass
class Race(Generic[T]):
    """The snaps held for one window, with the key each is judged by."""

    window: int
    entries: list[tuple[float, int, T]] = field(default_factory=list)

    def add(self, key: float, item: T) -> None:
        self.entries.append((key, len(self.entries), item))

    def order(self) -> list[T]:
        """Lowest key first; equal keys in arrival order."""
        return [item for _, _, item in sorted(self.entries, key=lambda e: (e[0], e[1]))]


class Referee(Generic[T]):
    """A table's snap races: when each window's card was shown, and the snaps held for it.

    ``base`` (seconds) is the least collection time; the rivals' round trip is added to it
    (:meth:`wait`), so a table of quick links waits little and a slow link is waited for.
    """

    def __init__(self, base: float) -> None:
        self.base = base
        self._window: int | None = None
        self._shown = 0.0
        self.race: Race[T] | None = None
        """The race being collected (``None``: snaps apply as they come)."""
        self.judging = False
        """Held snaps are being applied: each applies at once."""

    def shown(self, window: int | None, now: float) -> None:
        """After each update is sent: a new window's card was shown at ``now`` (seconds)."""
        if window != self._window:
            self._window = window
            self._shown = now

    def elapsed_ms(self, window: int | None, now: float) -> float:
        """Milliseconds since ``window``'s card was sent (0 if it is not the one shown)."""
        return (now - self._shown) * 1000.0 if window == self._window else 0.0

    def take(self, window: int | None, item: T, key: float, rivals: bool) -> bool:
        """A snap for ``window`` arrived, judged by ``key``: ``True`` if it is held (in a
        race being collected, or one it opens because ``rivals``: another seat reports),
        ``False`` if it applies now."""
        if self.judging or window is None:
            return False
        if self.race is None:
            if not rivals or self.base <= 0:
                return False
            self.race = Race(window)
        self.race.add(key, item)
        return True

    def wait(self, rival_rtts: Iterable[float | None]) -> float:
        """Seconds to collect a race opened now: the base time plus the slowest rival's
        round trip (capped): time for its faster reaction to arrive."""
        slowest = max((min(r, RTT_CAP_MS) for r in rival_rtts if r is not None), default=0.0)
        return self.base + slowest / 1000.0

    def close(self) -> list[T]:
        """End the race being collected: its snaps in the order they are judged."""
        race, self.race = self.race, None
        return race.order() if race is not None else []
