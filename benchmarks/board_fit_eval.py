"""Fit the board bots' evaluation weights to exact 4x4 values (logistic regression).

Samples positions reached in play on 4x4 (as ``board_strength.py`` does), labels each
won or lost (for the side to move) from the exact solution, and fits the win probability
on the features of :mod:`cambio.bots.board.evaluate` for the seat to move and the seat
waiting. Prints the weights in hundredths of a logit (what ``TO_MOVE`` / ``WAITING`` hold)
and the share of positions the fitted sign predicts.

    .venv/bin/python benchmarks/board_fit_eval.py --positions 40000
"""

from __future__ import annotations

import argparse

import numpy as np

from board_strength import sample_positions  # type: ignore[import-not-found]
from cambio.board import Board, Rules, geometry
from cambio.board.bitboard import count_pushes
from cambio.board.solve import solve

NAMES = ("missing 1", "missing 2", "missing 3", "edge", "corner", "mobility")


def features(me: int, opp: int, rules: Rules) -> list[int]:
    g = geometry(rules)
    miss = [0, 0, 0]
    for w in g.lines:
        if not opp & w:
            d = (me & w).bit_count()
            if 0 < d < g.k:
                miss[min(g.k - d, 3) - 1] += 1
    return [*miss, (me & g.edge).bit_count(), (me & g.corners).bit_count(),
            count_pushes(opp, g)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    rules = Rules(size=4)
    sol = solve(rules)
    rows, labels = [], []
    for pos in sample_positions(args.positions, args.seed):
        board = Board(rules, pos)
        value = sol.value(board)
        if value == 0:
            continue
        x, o = board.owners[board.turn], board.owners[1 - board.turn]
        rows.append(features(x, o, rules) + features(o, x, rules))
        labels.append(1.0 if value > 0 else 0.0)
    xs = np.hstack([np.array(rows, dtype=float), np.ones((len(rows), 1))])
    y = np.array(labels)
    w = np.zeros(xs.shape[1])
    ridge = 1e-3
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-xs @ w))
        grad = xs.T @ (y - p) - ridge * w
        hess = -(xs * (p * (1 - p))[:, None]).T @ xs - ridge * np.eye(w.size)
        w -= np.linalg.solve(hess, grad)
    p = 1.0 / (1.0 + np.exp(-xs @ w))
    print(f"{len(y)} won or lost positions, {y.mean():.1%} won; fitted sign right on "
          f"{np.mean((p > 0.5) == y):.1%}")
    for i, name in enumerate(NAMES):
        print(f"{name:10s} to move {100 * w[i]:7.0f}   waiting {-100 * w[i + 6]:7.0f}")


if __name__ == "__main__":
    main()
