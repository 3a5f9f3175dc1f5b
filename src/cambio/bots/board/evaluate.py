"""The heuristic evaluation shared by the greedy, alphabeta and mcts bots.

A position is valued for each seat from a few features of that seat's dice:

* open windows (winning windows holding none of the others' dice) by how many dice they
  still miss -- one missing is a threat;
* dice on the edge and on the corners: the others may not push those off, so they block
  the others' pushes;
* mobility: how many pushes the seat could make (the others' edge dice block its own).

The weights differ for the seat to move and the seats waiting: a threat of the seat to move
is nearly a win, one of a waiting seat something to parry. They were fitted (logistic
regression, ``benchmarks/board_fit_eval.py``) to the exact win/loss values of 36,000
positions sampled from 4x4 play, and are in hundredths of a logit; windows missing 4 or
more (5x5 only) are extrapolated. A seat's value is its score minus the best of the others'.
"""

from __future__ import annotations

from cambio.board import Geometry
from cambio.board.bitboard import Owners, count_pushes

# missing 1, 2, 3, 4+, edge, corner, mobility
TO_MOVE = (233, 100, 33, 10, 34, 4, 36)
WAITING = (120, 84, 61, 20, 29, -9, 23)


def seat_scores(owners: Owners, to_move: int, g: Geometry) -> list[int]:
    """Each seat's score (higher is better for that seat) with ``to_move`` to play."""
    k = g.k
    out = []
    for p, mine in enumerate(owners):
        others = 0
        for q, b in enumerate(owners):
            if q != p:
                others |= b
        w = TO_MOVE if p == to_move else WAITING
        s = (w[4] * (mine & g.edge).bit_count() + w[5] * (mine & g.corners).bit_count()
             + w[6] * count_pushes(others, g))
        for line in g.lines:
            if not others & line:
                d = (mine & line).bit_count()
                if d:
                    missing = k - d
                    s += w[missing - 1 if missing < 4 else 3]
        out.append(s)
    return out


def scores(owners: Owners, g: Geometry, to_move: int = -1) -> list[int]:
    """Alias kept for the max-n search: every seat's score."""
    return seat_scores(owners, to_move, g)


def evaluate(owners: Owners, seat: int, g: Geometry, to_move: int = -1) -> int:
    """``seat``'s score minus the best of the others' (paranoid with 3 players)."""
    s = seat_scores(owners, to_move, g)
    return s[seat] - max(v for p, v in enumerate(s) if p != seat)
