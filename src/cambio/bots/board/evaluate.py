"""The heuristic evaluation shared by the greedy, alphabeta and mcts bots.

Every winning window still open to one player (none of the others' dice in it) is worth
``WINDOW[d]`` to that player, ``d`` its dice in the window: a window one die short of a
line is a threat. Dice on the edge count a little: an edge die is one the others may not
push off, so it both blocks their pushes and cannot be removed from that end.
"""

from __future__ import annotations

from cambio.board import Geometry
from cambio.board.bitboard import Owners

WINDOW = (0, 1, 4, 16, 64, 256, 1024, 4096, 16384)
EDGE = 2
CORNER = 3


def scores(owners: Owners, g: Geometry) -> list[int]:
    """Each player's heuristic score (higher is better for that player)."""
    out = []
    for p, mine in enumerate(owners):
        others = 0
        for q, b in enumerate(owners):
            if q != p:
                others |= b
        s = EDGE * (mine & g.edge).bit_count() + CORNER * (mine & g.corners).bit_count()
        for w in g.lines:
            if not others & w:
                s += WINDOW[(mine & w).bit_count()]
        out.append(s)
    return out


def evaluate(owners: Owners, seat: int, g: Geometry) -> int:
    """``seat``'s score minus the best of the others' (paranoid with 3 players)."""
    s = scores(owners, g)
    return s[seat] - max(v for p, v in enumerate(s) if p != seat)
