"""Rule sets and the geometry they imply (line masks, push tables, symmetries).

A :class:`Rules` value is frozen and hashable; :func:`geometry` turns it into the tables the
hot loops read, computed once per rule set. Cells are numbered ``r * n + c`` with ``r = 0``
the bottom rank ("1") and ``c = 0`` the left file ("a"), as on a chess board; a player's
cells are one ``int`` bitmask with bit ``r * n + c`` set.

Moves are small ints ``0 <= m < 4 n`` (python-chess keeps squares as ints for the same
reason): ``m = direction * n + index``, directions ``0`` push a row in from the left,
``1`` from the right, ``2`` push a column in from the bottom, ``3`` from the top.
:data:`PASS` is the only other move, legal exactly when no push is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from .errors import RulesError

OtherLine = Literal["owner", "mover_loses"]

PASS = -1
"""The pass move: legal only when the player to move has no legal push."""

MAX_PLAYERS = 3
FROM_LEFT, FROM_RIGHT, FROM_BOTTOM, FROM_TOP = range(4)


@dataclass(frozen=True)
class Rules:
    """One set of board-game rules. Every field has the published (or ruled) default.

    ``line`` defaults to the size for 2 players and to ``size - 1`` (at least 3) for 3
    players: 5 and 4 on the published 5x5 board. ``other_line`` says what happens when a
    move completes a line of another player's: ``"owner"`` (SPEC ruling: every player whose
    line is on the board wins, so completing your own and another's is a tie) or
    ``"mover_loses"`` (Quixo: if the move completes any other player's line the mover loses
    and those players win, even if the mover completed a line too).
    """

    players: int = 2
    size: int = 5
    line: int = 0
    other_line: OtherLine = "owner"
    max_plies: int = 200
    repetitions: int = 3
    setup_max_per_line: int = 2

    def __post_init__(self) -> None:
        if self.players not in (2, 3):
            raise RulesError(f"players must be 2 or 3, not {self.players}")
        if not 3 <= self.size <= 8:
            raise RulesError(f"board size must be 3 to 8, not {self.size}")
        if self.line == 0:
            default = self.size if self.players == 2 else max(3, self.size - 1)
            object.__setattr__(self, "line", default)
        if not 2 <= self.line <= self.size:
            raise RulesError(f"line length must be 2 to {self.size}, not {self.line}")
        if self.other_line not in ("owner", "mover_loses"):
            raise RulesError(f"other_line must be 'owner' or 'mover_loses', "
                             f"not {self.other_line!r}")
        if self.max_plies < 1:
            raise RulesError(f"max_plies must be at least 1, not {self.max_plies}")
        if self.repetitions < 2:
            raise RulesError(f"repetitions must be at least 2, not {self.repetitions}")
        if self.setup_max_per_line < 1:
            raise RulesError("setup_max_per_line must be at least 1")

    def start_counts(self) -> tuple[int, ...]:
        """Dice per player at the start: ``n-1, n`` for 2 players (4 and 5 on 5x5: the
        second player gets one more so that moving first is no advantage), ``n-1`` each for
        3 players. On 3x3 (a study board) 1 and 2: the five cells off the corners cannot
        hold 2 and 3 dice without a setup that can be forced into a ready-made line."""
        n = self.size
        if n == 3:
            return (1, 2) if self.players == 2 else (1, 1, 1)
        if self.players == 2:
            return (n - 1, n)
        return (n - 1,) * self.players

    def to_json(self) -> dict[str, object]:
        return {"players": self.players, "size": self.size, "line": self.line,
                "other_line": self.other_line, "max_plies": self.max_plies,
                "repetitions": self.repetitions,
                "setup_max_per_line": self.setup_max_per_line}

    @classmethod
    def from_json(cls, obj: object) -> Rules:
        if not isinstance(obj, dict):
            raise RulesError("rules must be a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = set(obj) - known
        if unknown:
            raise RulesError(f"unknown rule field(s): {', '.join(sorted(map(str, unknown)))}")
        for key, value in obj.items():
            if key == "other_line":
                if not isinstance(value, str):
                    raise RulesError("other_line must be a string")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"rule field {key!r} must be an integer")
        return cls(**obj)


@dataclass(frozen=True)
class Geometry:
    """Tables derived from a rule set, shared by every board of that rule set."""

    n: int
    k: int
    cells: int
    full: int
    lines: tuple[int, ...]
    """Every winning window: ``k`` consecutive cells in a row, column or diagonal."""
    setup_lines: tuple[int, ...]
    """Rows, columns and diagonals at least ``k`` long: at most 2 of a player's dice in each
    at the start."""
    edge: int
    corners: int
    line_of: tuple[int, ...]
    """Per move: the row or column it pushes."""
    entry: tuple[int, ...]
    """Per move: the bit of the cell the new die enters."""
    leave: tuple[int, ...]
    """Per move: the bit of the cell whose die leaves the board."""
    lshift: tuple[int, ...]
    rshift: tuple[int, ...]
    """Per move: slide = ``((bits & line & ~leave) << lshift) >> rshift``."""
    affected: tuple[tuple[int, ...], ...]
    """Per move: the winning windows that meet its line (the only ones a push can complete)."""
    order: tuple[tuple[int, ...], ...]
    """Per move: the line's cells from the entry end to the leaving end."""
    sym_cells: tuple[tuple[int, ...], ...] = field(repr=False)
    """The 8 symmetries of the square as cell permutations (identity first)."""
    sym_moves: tuple[tuple[int, ...], ...] = field(repr=False)
    """The same symmetries acting on moves: ``sym_moves[s][m]`` is ``m`` seen through ``s``."""

    @property
    def num_moves(self) -> int:
        return 4 * self.n

    def bit(self, r: int, c: int) -> int:
        return 1 << (r * self.n + c)

    def transform(self, s: int, bits: int) -> int:
        """Apply symmetry ``s`` to a bitmask (slow path; search uses :func:`sym_tables`)."""
        perm = self.sym_cells[s]
        out = 0
        while bits:
            low = bits & -bits
            out |= 1 << perm[low.bit_length() - 1]
            bits ^= low
        return out


def cell_name(cell: int, n: int) -> str:
    return f"{chr(ord('a') + cell % n)}{cell // n + 1}"


@lru_cache(maxsize=32)
def geometry(rules: Rules) -> Geometry:
    return _geometry(rules.size, rules.line)


@lru_cache(maxsize=32)
def _geometry(n: int, k: int) -> Geometry:
    windows, supports = _lines(n, k)
    edge = 0
    for i in range(n):
        edge |= _bit(n, 0, i) | _bit(n, n - 1, i) | _bit(n, i, 0) | _bit(n, i, n - 1)
    corners = _bit(n, 0, 0) | _bit(n, 0, n - 1) | _bit(n, n - 1, 0) | _bit(n, n - 1, n - 1)
    line_of, entry, leave, lsh, rsh, order = _pushes(n)
    affected = tuple(tuple(w for w in windows if w & ln) for ln in line_of)
    sym_cells = _symmetries(n)
    # A push is determined by (entry cell, leaving cell); map both through the symmetry.
    by_ends = {(entry[m], leave[m]): m for m in range(4 * n)}
    sym_moves = []
    for cperm in sym_cells:
        row = []
        for m in range(4 * n):
            e = 1 << cperm[entry[m].bit_length() - 1]
            lv = 1 << cperm[leave[m].bit_length() - 1]
            row.append(by_ends[(e, lv)])
        sym_moves.append(tuple(row))
    return Geometry(
        n=n, k=k, cells=n * n, full=(1 << (n * n)) - 1, lines=tuple(windows),
        setup_lines=tuple(supports), edge=edge, corners=corners, line_of=tuple(line_of),
        entry=tuple(entry), leave=tuple(leave), lshift=tuple(lsh), rshift=tuple(rsh),
        affected=affected, order=tuple(order), sym_cells=tuple(sym_cells),
        sym_moves=tuple(sym_moves),
    )


def _bit(n: int, r: int, c: int) -> int:
    return 1 << (r * n + c)


def _lines(n: int, k: int) -> tuple[list[int], list[int]]:
    """Every ``k``-in-a-row window, and every maximal line long enough to hold one."""
    windows: list[int] = []
    supports: list[int] = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r0 in range(n):
            for c0 in range(n):
                # A maximal line starts where the previous cell would be off the board.
                pr, pc = r0 - dr, c0 - dc
                if 0 <= pr < n and 0 <= pc < n:
                    continue
                ray = []
                r, c = r0, c0
                while 0 <= r < n and 0 <= c < n:
                    ray.append(_bit(n, r, c))
                    r, c = r + dr, c + dc
                if len(ray) < k:
                    continue
                supports.append(sum(ray))
                for i in range(len(ray) - k + 1):
                    windows.append(sum(ray[i:i + k]))
    return windows, supports


def _pushes(n: int) -> tuple[list[int], list[int], list[int], list[int], list[int],
                             list[tuple[int, ...]]]:
    """Per push move: its line, entry and leaving cells, shifts, and cells in push order."""
    line_of, entry, leave, lsh, rsh = [], [], [], [], []
    order: list[tuple[int, ...]] = []
    for d in range(4):
        for i in range(n):
            if d in (FROM_LEFT, FROM_RIGHT):
                cs = [i * n + c for c in range(n)]
                step = 1
            else:
                cs = [r * n + i for r in range(n)]
                step = n
            if d in (FROM_RIGHT, FROM_TOP):
                cs.reverse()
            line_of.append(sum(1 << x for x in cs))
            entry.append(1 << cs[0])
            leave.append(1 << cs[-1])
            forward = d in (FROM_LEFT, FROM_BOTTOM)
            lsh.append(step if forward else 0)
            rsh.append(0 if forward else step)
            order.append(tuple(cs))
    return line_of, entry, leave, lsh, rsh, order


def _symmetries(n: int) -> list[tuple[int, ...]]:
    """The cell permutation of each of the square's 8 symmetries."""
    sym_cells: list[tuple[int, ...]] = []
    for s in range(8):
        perm: list[int] = []
        for cell in range(n * n):
            r, c = divmod(cell, n)
            if s & 4:
                r, c = c, r
            if s & 1:
                c = n - 1 - c
            if s & 2:
                r = n - 1 - r
            perm.append(r * n + c)
        sym_cells.append(tuple(perm))
    return sym_cells
