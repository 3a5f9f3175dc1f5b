"""Move notation: the entry cell and the direction of the push.

``a3>`` pushes a die into row 3 from the left (entering at a3, the die on e3 leaves),
``e3<`` from the right, ``c1^`` pushes column c up from the bottom, ``c5v`` down from the
top; ``pass`` is the pass. A corner names two pushes, so the arrow is part of the move.
Files are letters from ``a``, ranks numbers from ``1`` at the bottom, as in chess.
"""

from __future__ import annotations

from .errors import InvalidMoveError
from .rules import FROM_BOTTOM, FROM_LEFT, FROM_RIGHT, FROM_TOP, PASS, cell_name

ARROWS = ">" + "<" + "^" + "v"
"""The arrow of each direction, in move-code order."""


def move_text(move: int, n: int) -> str:
    """The text of a move on an ``n x n`` board.

    >>> move_text(2, 5), move_text(19, 5), move_text(-1, 5)
    ('a3>', 'e5v', 'pass')
    """
    if move == PASS:
        return "pass"
    if not 0 <= move < 4 * n:
        raise InvalidMoveError(f"no move {move} on a {n}x{n} board")
    d, i = divmod(move, n)
    if d == FROM_LEFT:
        cell = i * n
    elif d == FROM_RIGHT:
        cell = i * n + n - 1
    elif d == FROM_BOTTOM:
        cell = i
    else:
        cell = (n - 1) * n + i
    return cell_name(cell, n) + ARROWS[d]


def parse_move(text: str, n: int) -> int:
    """Read a move written by :func:`move_text`; raise :class:`InvalidMoveError` if it is not
    one (a well-formed move may still be illegal in a position: that is the board's check).

    >>> parse_move("a3>", 5), parse_move("PASS", 5)
    (2, -1)
    """
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if len(t) < 3 or t[-1] not in ARROWS:
        raise InvalidMoveError(f"{text!r} is not a move (write e.g. 'a3>', 'c5v' or 'pass')")
    d = ARROWS.index(t[-1])
    f, rank = t[0], t[1:-1]
    if not ("a" <= f < chr(ord("a") + n)) or not (rank.isascii() and rank.isdigit()) \
            or not 1 <= int(rank) <= n:
        raise InvalidMoveError(f"{text!r}: {t[:-1]!r} is not a cell of a {n}x{n} board")
    c = ord(f) - ord("a")
    r = int(rank) - 1
    if d == FROM_LEFT and c == 0:
        return d * n + r
    if d == FROM_RIGHT and c == n - 1:
        return d * n + r
    if d == FROM_BOTTOM and r == 0:
        return d * n + c
    if d == FROM_TOP and r == n - 1:
        return d * n + c
    side = {FROM_LEFT: "left file a", FROM_RIGHT: "right file",
            FROM_BOTTOM: "bottom rank 1", FROM_TOP: "top rank"}[d]
    raise InvalidMoveError(f"{text!r}: a push {t[-1]!r} enters on the {side}, not at {t[:-1]}")
