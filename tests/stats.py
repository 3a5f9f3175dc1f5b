"""Binomial intervals for the tests that measure bots by playing them.

A bot test asserts a property of the bot (it beats another, seats are treated alike), so it
compares intervals, not a rate against a hand-picked point: a change to how the engine or
a bot draws random numbers changes every rate a little, and must not break such a test
unless the property itself is gone. At 99.9 % confidence a test of a true property fails by
chance once in a thousand runs at most.
"""

from __future__ import annotations

from scipy.stats import binomtest

CONFIDENCE = 0.999


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``k`` successes in ``n`` trials."""
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def plausible(k: int, n: int, p: float, tests: int = 1) -> bool:
    """Whether ``k`` of ``n`` is consistent with a rate of ``p`` (two-sided binomial test at
    ``1 - CONFIDENCE``, split over ``tests`` comparisons made together)."""
    return bool(binomtest(k, n, p).pvalue >= (1 - CONFIDENCE) / tests)
