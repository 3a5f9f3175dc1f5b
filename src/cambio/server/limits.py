"""Token buckets: the per-connection and per-address rate limits of the protocol, and the
per-connection byte budget."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each message takes one.

    ``clock`` is injectable so that tests count tokens against a clock they move, not
    against however fast a loaded machine happens to run.
    """

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.last = clock()

    def take(self) -> bool:
        """Take a token if there is one; ``False`` means "rate limited"."""
        if self.rate <= 0:
            return True
        self.refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refill(self) -> None:
        """Add the tokens earned since the last look."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now


class ByteBudget:
    """``rate`` bytes a second up to ``burst``, for what one connection sends: a message is
    always taken, and the connection then waits (reads nothing more) until its budget is
    paid back. While it waits, the server reads none of its frames -- the socket's buffers
    fill and TCP holds the sender back -- so a flood of big frames costs the server (and
    every other table) at most ``rate`` bytes a second per connection.

    ``clock`` is injectable as for :class:`TokenBucket`."""

    __slots__ = ("balance", "burst", "clock", "last", "rate")

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.balance = burst
        self.clock = clock
        self.last = clock()

    def spend(self, size: int) -> float:
        """Take ``size`` bytes; returns the seconds to wait before reading more (0: none)."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        self.balance = min(self.burst, self.balance + (now - self.last) * self.rate) - size
        self.last = now
        return 0.0 if self.balance >= 0 else -self.balance / self.rate


class AddressLimiter:
    """A token bucket per client address (REST calls, WebSocket connection attempts).

    The address is the socket's peer, or what a configured proxy says it is
    (``--forwarded-allow-ips``): never a header an arbitrary client sets.
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        if self.rate <= 0:
            return True
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket.take()

    def spent(self, address: str) -> float:
        """The tokens ``address`` has taken and not yet earned back: about how many calls it
        made lately (0 for an address not seen lately)."""
        bucket = self.buckets.get(address)
        if bucket is None or self.rate <= 0:
            return 0.0
        bucket.refill()
        return bucket.burst - bucket.tokens
