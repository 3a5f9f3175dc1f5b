"""The dice tutorial's advice, from the engine: which push to outline for the seat to move,
and what it does (``web/static/tutorial_dice.js`` words it). The board is public, so the
advice is drawn from what every seat sees: take a win, stop the other player's, else the
push that gives the seat the most dice in one line."""

from __future__ import annotations

from typing import Any

from cambio.board import Board
from cambio.board.rules import PASS


def _windows(n: int) -> list[list[int]]:
    """The winning lines of a two-player board (lines of ``n``): rows and columns in turn,
    then the two long diagonals, as cells (``r * n + c``)."""
    out = []
    for i in range(n):
        out.append([i * n + c for c in range(n)])
        out.append([r * n + i for r in range(n)])
    out.append([i * n + i for i in range(n)])
    out.append([i * n + (n - 1 - i) for i in range(n)])
    return out


def _best(board: Board, seat: int, windows: list[list[int]]) -> tuple[int, list[int] | None]:
    """The most dice of ``seat`` in one line, and that line (the first of the best)."""
    bits = board.owners[seat]
    top: tuple[int, list[int] | None] = (0, None)
    for line in windows:
        count = sum(bits >> c & 1 for c in line)
        if count > top[0]:
            top = (count, line)
    return top


def coach(board: Board, seat: int) -> dict[str, Any] | None:
    """``{"move", "count", "line", "wins", "threat": {"count", "line"}}`` for ``seat`` to
    move on a two-player board (``None`` if it has no push): the push scored first for a
    win, then against the other's win or near-win, then by the seat's best line."""
    if board.rules.players != 2:
        return None
    n, k = board.n, board.g.k
    other = 1 - seat
    windows = _windows(n)
    pick: dict[str, Any] | None = None
    best_score = 0
    for move in board.legal_moves():
        if move == PASS:
            continue
        after = board.copy()
        after.push(move)
        mine, line = _best(after, seat, windows)
        theirs, _ = _best(after, other, windows)
        score = ((1000 if mine >= k else 0) - (500 if theirs >= k else 0)
                 - (50 if theirs == k - 1 else 0) + mine * 10 - theirs)
        if pick is None or score > best_score:
            best_score = score
            pick = {"move": board.move_text(move), "count": mine, "line": line,
                    "wins": mine >= k}
    if pick is None:
        return None
    count, line = _best(board, other, windows)
    pick["threat"] = {"count": count, "line": line}
    return pick
