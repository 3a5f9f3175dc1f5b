"""Win shares from OpenSpiel-style returns, as the examples and ``cambio exploit`` count them
(the tie rule and the interval are :mod:`cambio.shares`)."""

from __future__ import annotations

from collections.abc import Sequence

from cambio.shares import tie_share


def points_from_returns(returns: Sequence[float], seat: int) -> float:
    """A seat's share from returns (+1 winner, -1 loser, all 0 when every seat won or nobody
    did): 1 / winners for a winner, 0 otherwise, 1 / seats if all 0."""
    return tie_share(seat, [s for s, r in enumerate(returns) if r > 0], len(returns))


__all__ = ["points_from_returns"]
