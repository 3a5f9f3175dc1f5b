"""Perft: the number of move paths of a fixed length, the engine's standard self-check.

Counted the way chess engines count them: a path ends early only where the game ends by a
line (no moves follow a finished game), a pass is a move (the only one when no push is
legal), and the draw rules that depend on history -- repetition and the move cap -- are
ignored, so a count depends on the position alone. The last ply is *bulk-counted*: at
depth 1 the legal moves are counted with three popcounts, not played.
"""

from __future__ import annotations

from .bitboard import Owners, can_move, count_pushes, has_line, push, push2
from .rules import Geometry
from .state import Board


def perft(board: Board, depth: int) -> int:
    """Move paths of ``depth`` plies from ``board`` (see the module docstring)."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    if board.outcome is not None and board.outcome.winners:
        return 0
    if depth == 0:
        return 1
    g = board.g
    if board.rules.players == 2:
        a, b = board.owners[board.turn], board.owners[1 - board.turn]
        return _perft2(a, b, depth, g)
    return _perft_n(board.owners, board.turn, depth, g)


def divide(board: Board, depth: int) -> dict[str, int]:
    """Perft split by first move (the usual tool for finding where two engines differ)."""
    out: dict[str, int] = {}
    for move in board.legal_moves():
        board.push(move)
        out[board.move_text(move)] = perft(board, depth - 1) if board.outcome is None or \
            not board.outcome.winners else (1 if depth == 1 else 0)
        board.pop()
    return out


def _perft2(a: int, b: int, depth: int, g: Geometry) -> int:
    """Two players: ``a`` is to move. ``a``/``b`` never hold a line here."""
    leave = g.leave
    moves = [m for m in range(4 * g.n) if not leave[m] & b]
    if depth == 1:
        return len(moves) or 1
    if not moves:
        return _perft2(b, a, depth - 1, g)
    total = 0
    affected = g.affected
    edge, corners, n4 = g.edge, g.corners, 4 * g.n
    for m in moves:
        a2, b2 = push2(a, b, m, g)
        windows = affected[m]
        if has_line(a2, windows) or has_line(b2, windows):
            continue
        if depth == 2:
            # Bulk count: the child's legal moves, or its pass.
            total += (n4 - (a2 & edge).bit_count() - (a2 & corners).bit_count()) or 1
        else:
            total += _perft2(b2, a2, depth - 1, g)
    return total


def _perft_n(owners: Owners, turn: int, depth: int, g: Geometry) -> int:
    """Any number of players (3 in practice); ``owners`` holds no line here."""
    players = len(owners)
    others = 0
    for p, b in enumerate(owners):
        if p != turn:
            others |= b
    count = count_pushes(others, g)
    nxt = (turn + 1) % players
    if count == 0:
        if not any(can_move(owners, p, g) for p in range(players)):
            return 0
        return 1 if depth == 1 else _perft_n(owners, nxt, depth - 1, g)
    if depth == 1:
        return count
    total = 0
    leave = g.leave
    affected = g.affected
    for m in range(4 * g.n):
        if leave[m] & others:
            continue
        child = push(owners, m, turn, g)
        windows = affected[m]
        if any(has_line(b, windows) for b in child):
            continue
        total += _perft_n(child, nxt, depth - 1, g)
    return total
