"""A token bucket: the per-connection (and per-address) rate limit of the protocol."""

from __future__ import annotations

import time


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each message takes one."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def take(self) -> bool:
        """Take a token if there is one; ``False`` means "rate limited"."""
        if self.rate <= 0:
            return True
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
