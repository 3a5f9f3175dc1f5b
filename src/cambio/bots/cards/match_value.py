"""What a round's outcome is worth in a match to a target: the chance it leaves to win it.

A search values a rolled-out round by its win share: right for one round, wrong in a match
(Cabo's, to 100). Near the target one big round loses the match however many rounds were
won, and a total that lands exactly on the target is reset (to 50), so the move that wins the
round can be the one that loses the match. Given the match's :class:`~cambio.cards.Standing`,
each rolled-out round is valued instead by the share of the *match* it wins: exactly, if the
round ends the match; otherwise by playing the rest of the match out in ``PATHS`` quick
futures where each seat scores a fresh round's points (a normal draw of mean
:data:`ROUND_MEAN` and spread :data:`ROUND_SD`, rounded, at least 0), with the resets and the
end the match's rules give. Lowest total wins, ties split, as :meth:`Match.winners` says.

The futures come from a generator the search seeds once per sampled world, so every
candidate move meets the same futures (the paired comparison stays paired). Nothing here is
used when the standing is ``None`` or :meth:`~cambio.cards.Standing.single_round`: a single
round is searched exactly as before.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cambio.cards import Standing

ROUND_MEAN = 7.0
"""A fresh round's points for one seat, on average: the heads-up means of ``hard`` and
``memory`` under the new presets are 6.2 to 8.5 (docs/cards-strength.md)."""
ROUND_SD = 5.0
"""Their spread from round to round."""
PATHS = 64
"""Futures played out for each rolled-out round that does not end the match."""
MAX_ROUNDS = 60
"""Rounds a future plays at most (a target of 100 takes about 15)."""
_NO_LIMIT = 1 << 30


def applies(standing: Standing | None) -> bool:
    """Whether ``standing`` makes the match, not the round, the thing to win."""
    return standing is not None and not standing.single_round()


def match_shares(standing: Standing, scores: npt.NDArray[np.int64], me: int,
                 rng: np.random.Generator, pairs: int = 1) -> npt.NDArray[np.float64]:
    """Each row's share of the match for ``me``, from the round's final ``scores`` (rows x
    seats). Rows ``i`` and ``i + len/pairs`` meet the same futures (candidates in the same
    world: ``pairs`` candidates, each a block of rows)."""
    rows, seats = scores.shape
    totals = np.asarray(standing.totals, dtype=np.int64)[None, :] + scores
    left = np.array([_NO_LIMIT if r is None else r for r in standing.resets_left],
                    dtype=np.int64)
    paths_t = np.repeat(totals[:, None, :], PATHS, axis=1)
    paths_left = np.broadcast_to(left, paths_t.shape).copy()
    _reset(standing, paths_t, paths_left)
    alive = ~_over(standing, paths_t)
    rounds = MAX_ROUNDS if standing.rounds_left is None else min(standing.rounds_left,
                                                                MAX_ROUNDS)
    per_block = rows // pairs
    for _ in range(rounds):
        if standing.rounds_left == 0 or not alive.any():
            break
        draw = rng.normal(ROUND_MEAN, ROUND_SD, size=(per_block, PATHS, seats))
        points = np.maximum(np.rint(draw), 0).astype(np.int64)
        paths_t = np.where(alive[..., None], paths_t + np.tile(points, (pairs, 1, 1)), paths_t)
        _reset(standing, paths_t, paths_left, alive)
        alive &= ~_over(standing, paths_t)
    low = paths_t.min(axis=-1)
    lowest = paths_t == low[..., None]
    share = np.where(lowest[..., me], 1.0 / lowest.sum(axis=-1), 0.0)
    out: npt.NDArray[np.float64] = share.mean(axis=1)
    return out


def _reset(standing: Standing, totals: npt.NDArray[np.int64], left: npt.NDArray[np.int64],
           alive: npt.NDArray[np.bool_] | None = None) -> None:
    """:func:`cambio.cards.match.reset_totals` on every path at once (in place)."""
    if standing.reset_at is None or standing.reset_to is None:
        return
    hit = (totals == standing.reset_at) & (left > 0)
    if alive is not None:
        hit &= alive[..., None]
    totals[hit] = standing.reset_to
    left[hit] -= 1


def _over(standing: Standing, totals: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """:func:`cambio.cards.match.over` on every path at once."""
    if standing.target is None:
        return np.zeros(totals.shape[:-1], dtype=bool)
    top = totals.max(axis=-1)
    out: npt.NDArray[np.bool_] = (top > standing.target) | (
        (top == standing.target) & (not standing.passes))
    return out


__all__ = ["MAX_ROUNDS", "PATHS", "ROUND_MEAN", "ROUND_SD", "applies", "match_shares"]
