"""The functional core: pushes, line checks and legal moves on tuples of bitmasks.

A position's cells are ``owners``, one bitmask per player (a cell in none of them is
neutral). These functions allocate nothing but the result tuple and never check legality;
:class:`cambio.board.state.Board` checks, and the bots, perft and the simulations call them
directly because that is where the time goes.
"""

from __future__ import annotations

from .rules import PASS, Geometry, OtherLine

Owners = tuple[int, ...]


def push(owners: Owners, move: int, mover: int, g: Geometry) -> Owners:
    """The cells after ``mover`` pushes a die into ``move``'s line (unchecked).

    Every die of the line slides one cell away from the entry; the die on the leaving cell
    drops off; the entry cell gets ``mover``'s die.
    """
    if move == PASS:
        return owners
    line = g.line_of[move]
    keep = line & ~g.leave[move]
    ls = g.lshift[move]
    rs = g.rshift[move]
    out = []
    for p, b in enumerate(owners):
        b = (b & ~line) | (((b & keep) << ls) >> rs)
        if p == mover:
            b |= g.entry[move]
        out.append(b)
    return tuple(out)


def push2(a: int, b: int, move: int, g: Geometry) -> tuple[int, int]:
    """Two-player fast path: ``a`` (the mover) pushes into ``move``; returns ``(a', b')``."""
    line = g.line_of[move]
    keep = line & ~g.leave[move]
    ls = g.lshift[move]
    rs = g.rshift[move]
    return ((a & ~line) | (((a & keep) << ls) >> rs) | g.entry[move],
            (b & ~line) | (((b & keep) << ls) >> rs))


def has_line(bits: int, windows: tuple[int, ...]) -> bool:
    # A plain loop: about twice as fast as any() over a generator in this hot spot.
    for w in windows:  # noqa: SIM110
        if bits & w == w:
            return True
    return False


def completed(owners: Owners, g: Geometry, move: int | None = None) -> list[int]:
    """The players with a line on the board.

    With ``move`` given, only the windows that meet the pushed line are checked: a position
    before a move holds no line (the game would be over), so no other window can hold one.
    """
    windows = g.lines if move is None or move == PASS else g.affected[move]
    return [p for p, b in enumerate(owners) if has_line(b, windows)]


def judge(lines: list[int], mover: int, rule: OtherLine) -> tuple[int, ...]:
    """The winners when ``lines`` (players with a line) appear after ``mover``'s move.

    ``"owner"``: every player with a line wins (the mover and another completing together
    is a tie). ``"mover_loses"``: if any other player has a line, those players win and the
    mover does not; otherwise the mover wins.
    """
    if rule == "owner":
        return tuple(lines)
    others = tuple(p for p in lines if p != mover)
    return others if others else tuple(lines)


def legal_pushes(owners: Owners, mover: int, g: Geometry) -> list[int]:
    """The pushes whose leaving die is neutral or the mover's (never another player's)."""
    others = 0
    for p, b in enumerate(owners):
        if p != mover:
            others |= b
    leave = g.leave
    return [m for m in range(4 * g.n) if not leave[m] & others]


def count_pushes(others: int, g: Geometry) -> int:
    """How many pushes are legal when ``others`` are the cells the mover may not push off.

    Every edge cell leaves the board for one push, every corner for two (its row's and
    its column's), so this is three popcounts.
    """
    return 4 * g.n - (others & g.edge).bit_count() - (others & g.corners).bit_count()


def can_move(owners: Owners, mover: int, g: Geometry) -> bool:
    others = 0
    for p, b in enumerate(owners):
        if p != mover:
            others |= b
    return count_pushes(others, g) > 0


def position_key(owners: Owners, turn: int, cells: int) -> int:
    """The cells and the seat to move packed in one int (repetition and table keys)."""
    k = turn
    shift = 2
    for b in owners:
        k |= b << shift
        shift += cells
    return k


def canonical(owners: Owners, g: Geometry) -> tuple[int, int]:
    """``(key, symmetry)``: the least packed key over the 8 symmetries of the board, and the
    symmetry that gives it (slow path; the search keeps its own tables)."""
    best = -1
    best_s = 0
    for s in range(8):
        key = 0
        for p, b in enumerate(owners):
            key |= g.transform(s, b) << (p * g.cells)
        if best < 0 or key < best:
            best, best_s = key, s
    return best, best_s
