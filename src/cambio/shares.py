"""Win shares, the one meaning every report of cambio gives them, and their 95% intervals.

**The tie rule.** A game won alone gives its winner 1 and everyone else 0; a game won by
``k`` tied seats gives each of them ``1/k``; a game nobody wins (a draw) gives every seat
``1/players``. A game's shares therefore sum to 1, so shares over a run sum to the number of
games, and a 2-player tie is half a win for each side. ``cambio sim``, ``cambio tournament``,
``cambio exploit``, the examples and the benchmarks all count so (:func:`tie_share`).

**The interval.** Wilson's score interval (always inside [0, 1], and never of zero width
when every game went the same way, as a normal interval is) on the *effective* number of
games: ``n`` for win-or-lose games, where it is Wilson's interval exactly, and more when
the shares vary less than wins and losses would (ties, or a tournament's per-deal means
over rotations of one deal, which pair the luck of the deal away): ``n * p(1-p) / v`` for a
mean ``p`` and a variance ``v`` of the points (:func:`share_interval`). ``v`` is floored at
``p(1-p) / n`` (a sample of identical ties still leaves some doubt), and fewer than two games
say nothing: their interval is all of [0, 1]. Runs that only keep totals (``cambio sim``'s
tallies, merged across processes) pass the count, the sum and the sum of squares instead
(:func:`interval_of_sums`): the same interval.

**A difference of two shares**, paired deal by deal (a benchmark's bot against a baseline on
the same deals), lies in [-1, 1] and is often exactly 0 (the same play on a deal): its
interval is the normal one from the differences' spread, clipped to [-1, 1], which is 0 wide
when the two runs played alike (:func:`difference_interval`).

>>> tie_share(0, [0], 2), tie_share(1, [0, 1], 2), tie_share(2, [0, 1], 3), tie_share(1, [], 4)
(1.0, 0.5, 0.0, 0.25)
>>> [round(x, 3) for x in share_interval([1, 0, 1, 1])]  # Wilson's interval for 3 of 4
[0.75, 0.301, 0.954]
>>> [round(x, 3) for x in share_interval([1.0] * 20)]
[1.0, 0.839, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile, for every interval cambio prints."""


def tie_share(seat: int, winners: Collection[int], players: int) -> float:
    """``seat``'s share of one game: 1 alone, ``1/k`` of ``k`` tied winners, ``1/players`` of
    a draw (no winner), 0 for a loser."""
    if not winners:
        return 1.0 / players
    return 1.0 / len(winners) if seat in winners else 0.0


def interval_of_sums(n: int, total: float, squares: float) -> tuple[float, float, float]:
    """The mean share of ``n`` games and its 95% interval inside [0, 1], from the sum of
    their shares and the sum of their squares (see the module's docstring)."""
    if n <= 0:
        raise ValueError("no games to average")
    mean = total / n
    if n < 2:
        return mean, 0.0, 1.0
    p = min(1.0, max(0.0, mean))
    v = max(0.0, squares / n - mean * mean)  # the population variance of the shares
    binary = p * (1.0 - p)
    effective = n if binary == 0.0 else n * binary / max(v, binary / n)
    z2 = Z95 * Z95 / effective
    centre = (p + z2 / 2) / (1 + z2)
    half = math.sqrt(z2 * binary + z2 * z2 / 4) / (1 + z2)
    return mean, max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(differences: Sequence[float]) -> tuple[float, float, float]:
    """The mean of paired differences of shares and its normal 95% interval, clipped to
    [-1, 1]."""
    n = len(differences)
    if n == 0:
        raise ValueError("no games to average")
    mean = sum(differences) / n
    if n < 2:
        return mean, -1.0, 1.0
    var = sum((d - mean) ** 2 for d in differences) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def share_text(share: float, low: float, high: float) -> str:
    """``51.2% (48.1–54.3)``: a win share and its 95% interval, in percent, as the tables
    print it."""
    return f"{share:.1%} ({100 * low:.1f}–{100 * high:.1f})"


def share_interval(points: Sequence[float]) -> tuple[float, float, float]:
    """The mean of per-game shares (see :func:`tie_share`) and its 95% interval."""
    return interval_of_sums(len(points), sum(points), sum(p * p for p in points))


__all__ = ["Z95", "difference_interval", "interval_of_sums", "share_interval", "share_text",
           "tie_share"]
