"""Win shares with their 95% intervals, as the examples and ``cambio exploit`` report them."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def share_interval(points: Sequence[float]) -> tuple[float, float, float]:
    """Mean of per-game points (win 1, a k-way tie 1/k or a draw 1/2, loss 0) and its normal
    95% interval, clipped to [0, 1]."""
    n = len(points)
    if n == 0:
        raise ValueError("no games to average")
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def points_from_returns(returns: Sequence[float], seat: int) -> float:
    """A seat's points from OpenSpiel-style returns (+1 winner, -1 loser, all 0 when every
    seat won or nobody did): 1 / winners for a winner, 0 otherwise, 1 / seats if all 0."""
    winners = [s for s, r in enumerate(returns) if r > 0]
    if not winners:
        return 1.0 / len(returns)
    return 1.0 / len(winners) if seat in winners else 0.0


__all__ = ["Z95", "points_from_returns", "share_interval"]
