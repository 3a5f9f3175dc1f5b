"""Token buckets: the per-connection and per-address rate limits of the protocol."""

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
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


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
