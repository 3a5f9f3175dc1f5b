"""Elo ratings with 95 % intervals from game results, for either game.

The model is Bradley-Terry on the Elo scale: the expected score of A against B is
``1 / (1 + 10 ** ((elo_B - elo_A) / 400))``; a game's score is 1, 1/2 or 0 (a draw counts
half, as in chess; a multi-player game enters as one result per pair of seats). Ratings are
the maximum of the likelihood plus a weak prior -- ``prior_draws`` virtual draws of every
player against an average opponent -- which keeps them finite when a player won or lost
every game (as in BayesElo). The intervals are ``±1.96`` standard errors from the inverse
of the observed information, for each rating relative to the anchor (the first player
named, or the mean of all when ``anchor`` is ``None``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cambio.shares import Z95

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

SCALE = 400.0 / math.log(10.0)
"""Natural-log units to Elo points."""


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float
    """Mean points per game."""


def elo(results: Sequence[tuple[str, str, float]], anchor: str | None = None,
        anchor_elo: float = 0.0, prior_draws: float = 1.0, iterations: int = 100
        ) -> list[Rating]:
    """Ratings of every player in ``results`` (``(a, b, score of a)`` triples), in order of
    first appearance. ``anchor`` (if given) is fixed at ``anchor_elo``; else the mean is."""
    names: list[str] = []
    index: dict[str, int] = {}
    for a, b, s in results:
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a score must be between 0 and 1, not {s}")
        if a == b:
            raise ValueError(f"{a!r} cannot play itself")
        for x in (a, b):
            if x not in index:
                index[x] = len(names)
                names.append(x)
    if anchor is not None and anchor not in index:
        raise ValueError(f"anchor {anchor!r} played no game")
    n = len(names)
    if n == 0:
        return []
    ia = np.array([index[a] for a, _, _ in results], dtype=np.int64)
    ib = np.array([index[b] for _, b, _ in results], dtype=np.int64)
    sc = np.array([s for _, _, s in results], dtype=np.float64)
    r = np.zeros(n)
    for _ in range(iterations):
        grad, hess = _derivatives(r, ia, ib, sc, prior_draws)
        step = np.linalg.solve(hess, grad)
        r -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    _, hess = _derivatives(r, ia, ib, sc, prior_draws)
    cov = np.linalg.inv(-hess)
    if anchor is not None:
        contrast = np.eye(n) - np.eye(n)[index[anchor]]
        shift = anchor_elo / SCALE - r[index[anchor]]
    else:
        contrast = np.eye(n) - np.full((n, n), 1.0 / n)
        shift = anchor_elo / SCALE - float(r.mean())
    var = np.einsum("ij,jk,ik->i", contrast, cov, contrast)
    games = np.bincount(ia, minlength=n) + np.bincount(ib, minlength=n)
    points = np.bincount(ia, weights=sc, minlength=n) + np.bincount(ib, weights=1 - sc,
                                                                     minlength=n)
    out = []
    for i, name in enumerate(names):
        e = (r[i] + shift) * SCALE
        half = Z95 * math.sqrt(max(0.0, float(var[i]))) * SCALE
        g = int(games[i])
        out.append(Rating(name, float(e), float(e - half), float(e + half), g,
                          float(points[i]) / g if g else 0.0))
    return out


def _derivatives(r: Floats, ia: Ints, ib: Ints, sc: Floats, prior: float
                 ) -> tuple[Floats, Floats]:
    """Gradient and Hessian of the log-likelihood plus the virtual-draw prior."""
    n = r.size
    p = 1.0 / (1.0 + np.exp(r[ib] - r[ia]))
    resid = sc - p
    grad: Floats = (np.bincount(ia, weights=resid, minlength=n)
                    - np.bincount(ib, weights=resid, minlength=n)).astype(np.float64)
    w = p * (1.0 - p)
    hess: Floats = np.zeros((n, n))
    np.add.at(hess, (ia, ia), -w)
    np.add.at(hess, (ib, ib), -w)
    np.add.at(hess, (ia, ib), w)
    np.add.at(hess, (ib, ia), w)
    # Prior: `prior` draws against an opponent rated 0 -> gradient prior*(1/2 - sigma(r)).
    q = 1.0 / (1.0 + np.exp(-r))
    grad += prior * (0.5 - q)
    hess -= np.diag(prior * q * (1.0 - q))
    # Gauge: only differences are identified; -(sum r)^2 / 2 pins the mean without moving
    # any difference or its variance (the contrasts used are orthogonal to it).
    grad -= float(r.sum())
    hess -= 1.0
    return grad, hess
