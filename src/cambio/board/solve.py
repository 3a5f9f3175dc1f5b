"""Exact values of every 2-player position on small boards, by retrograde analysis.

A position is the cells and the side to move; seen from the side to move ("X", the other
player "O") it is one of ``3**(n*n)`` assignments of the cells, numbered in base 3 (cell
``i`` is digit ``i``: 0 neutral, 1 X, 2 O). The solver

1. values every position that already holds a line by the win rule, as if the previous
   mover (O) had made it: X's line only, a win for X; O's only, a loss; both, a draw
   (``"owner"``: a tie) or a win for X (``"mover_loses"``: O completed X's line);
2. counts each other position's legal moves (a pass when there are none);
3. works backwards from the decided positions in order of distance, generating
   predecessors by un-pushing: a position with a lost successor is won; one all of whose
   moves lead to won positions is lost (a counter per position); the rest are draws --
   they can be played forever, since the solver, like perft, ignores repetition and the
   move cap.

Because the queue is first-in first-out, each decided position gets its distance in plies
to the end under best play (the quickest win, the slowest loss), so :func:`best_moves`
can convert a win instead of going round in circles.

The table is one ``int16`` per position: ``0`` a draw, ``d + 1`` a win in ``d`` plies,
``-(d + 1)`` a loss in ``d`` plies. The 4x4 table is 86 MB.

numba compiles the two loops (cached in ``__pycache__`` after the first run); see
``docs/performance.md`` for the time and memory it takes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from .bitboard import legal_pushes, push2
from .errors import BoardError, RulesError
from .rules import PASS, Geometry, Rules, geometry
from .state import Board

F = TypeVar("F", bound=Callable[..., Any])
MAX_SIZE = 4

# While solving, one ``int8`` per position holds everything known about it: a decided
# position its final entry (``d + 1`` won, ``-(d + 1)`` lost, ``0`` a tie of two lines), an
# undecided one ``OPEN + c`` where ``c`` counts its moves not yet known to lead to a won
# position. One byte instead of three arrays (value, distance, counter) means one cache
# miss per predecessor instead of up to three, which is most of the solve's time.
OPEN = -128
DECIDED = 100
"""Decided entries stay within ``(-DECIDED, DECIDED)``: at most ``DECIDED - 2`` plies (4x4
rule sets need at most 31), so ``OPEN + c`` (``c`` at most ``4 * 4 + 1``) never collides."""
LOST = 1 << 31
"""The queue holds a position's table index, with this bit set if the position is lost."""
BATCH = 32
"""Positions taken off the queue together: their predecessors' entries are read at once."""


def _jit(f: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True)(f))


@_jit
def _init(h_lo: int, h_hi: int, low: int, x_high: Any, o_high: Any, x_low: Any, o_low: Any,
          four_n: int, edge: int, corners: int, mover_loses: bool, has_line: Any, pop: Any,
          state: Any, queue: Any, tail: int) -> int:
    """Value the positions with a line and count everyone else's moves, for the positions
    whose high base-3 digits are ``h`` in ``[h_lo, h_hi)``, in table order (so the writes
    are sequential); decided wins and losses go on the queue. Returns the new tail."""
    span = x_low.size
    for h in range(h_lo, h_hi):
        xh = x_high[h] << low
        oh = o_high[h] << low
        base = h * span
        for k in range(span):
            x = xh | x_low[k]
            o = oh | o_low[k]
            lx = has_line[x]
            lo = has_line[o]
            if lx or lo:
                if lx and lo:
                    e = 1 if mover_loses else 0  # O completed X's line too
                elif lx:
                    e = 1
                else:
                    e = -1
                state[base + k] = e
                if e != 0:
                    queue[tail] = base + k if e > 0 else (base + k) | LOST
                    tail += 1
            else:
                c = four_n - pop[o & edge] - pop[o & corners]
                state[base + k] = OPEN + (c if c > 0 else 1)
    return tail


@_jit
def _drain(head: int, tail: int, level_end: int, d: int, budget: int, low: int,
           x_high: Any, o_high: Any, x_low: Any, o_low: Any, four_n: int, edge: int,
           corners: int, line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any, b3: Any,
           has_line: Any, pop: Any, state: Any, queue: Any) -> tuple[int, int, int, int]:
    """Process up to ``budget`` decided positions from the queue: decide their
    predecessors, whose entries have magnitude ``d`` until the queue reaches ``level_end``
    (then the next level starts). Returns the new ``(head, tail, level_end, d)``; ``d`` is
    ``DECIDED`` if a distance would not fit the ``int8`` encoding."""
    span = x_low.size
    found = np.empty(BATCH * (2 * four_n + 1), dtype=np.int64)  # index | LOST if lost
    seen = np.empty(found.size, dtype=np.int8)
    stop = min(tail, head + budget)
    while head < stop:
        if head == level_end:
            level_end = tail
            d += 1
            if d >= DECIDED:
                break
        # The queue holds the index and whether the position is lost, and the level gives
        # the distance, so taking a position off it reads no table entry.
        batch_end = min(stop, level_end, head + BATCH)
        n = 0
        while head < batch_end:
            packed = np.int64(queue[head])
            head += 1
            lost = packed & LOST
            i = packed & (LOST - 1)
            h = i // span
            k = i - h * span
            x = (x_high[h] << low) | x_low[k]
            o = (o_high[h] << low) | o_low[k]
            # Every predecessor, by a push (m < four_n: O pushed into m, so m's entry cell
            # holds O's die; tried with and without the die that left) or by a pass (m ==
            # four_n: O had no push, every leaving cell was X's), is listed here.
            for m in range(four_n + 1):
                if m < four_n:
                    en = entry[m]
                    if not (o & en):
                        continue
                    ln = line_of[m]
                    qm0 = (o & ~ln) | (((o & ln & ~en) >> lsh[m]) << rsh[m])
                    qo = (x & ~ln) | (((x & ln) >> lsh[m]) << rsh[m])
                    if has_line[qo]:
                        continue
                    extra, tries = leave[m], 2
                else:
                    if has_line[x] or four_n - pop[x & edge] - pop[x & corners] != 0:
                        continue
                    qm0, qo, extra, tries = o, x, 0, 1
                for t in range(tries):
                    qm = qm0 | extra if t else qm0
                    if has_line[qm]:
                        continue
                    found[n] = (b3[qm] + 2 * b3[qo]) | lost
                    n += 1
        # Read every listed entry first, branch-free, so the cache misses overlap instead
        # of waiting one by one behind the update's mispredicted branches: this batching
        # made the 4x4 solve about a third faster. An entry seen decided stays decided; one
        # seen open is read again, as an earlier update of the batch may have decided it.
        for r in range(n):
            seen[r] = state[found[r] & (LOST - 1)]
        for r in range(n):
            if seen[r] > -DECIDED:
                continue
            j = found[r] & (LOST - 1)
            s = state[j]
            if s > -DECIDED:
                continue
            if found[r] & LOST:
                state[j] = d
                queue[tail] = j
            elif s == OPEN + 1:
                state[j] = -d
                queue[tail] = j | LOST
            else:
                state[j] = s - 1
                continue
            tail += 1
    return head, tail, level_end, d


def _tables(g: Geometry) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_],
                                  npt.NDArray[np.int64]]:
    """Per bitmask of cells: its base-3 number (digits 0/1), whether it holds a line, and
    its popcount."""
    size = 1 << g.cells
    masks = np.arange(size, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(g.cells)) & 1
    b3 = bits @ (3 ** np.arange(g.cells, dtype=np.int64))
    pop = bits.sum(axis=1).astype(np.int64)
    has_line = np.zeros(size, dtype=np.bool_)
    for w in g.lines:
        has_line |= (masks & w) == w
    return b3.astype(np.int32), has_line, pop


def _digits(cells: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The X and O bitmasks of each base-3 number of ``cells`` digits, in table order."""
    d = (np.arange(3 ** cells)[:, None] // 3 ** np.arange(cells)) % 3
    weights = 1 << np.arange(cells, dtype=np.int64)
    return (d == 1) @ weights, (d == 2) @ weights


@dataclass
class Solution:
    """The solved table of one rule set (see the module docstring for its encoding)."""

    rules: Rules
    table: npt.NDArray[np.int16]

    @property
    def g(self) -> Geometry:
        return geometry(self.rules)

    def index(self, x: int, o: int) -> int:
        """The table index of the position with ``x`` to move against ``o``."""
        i = 0
        p = 1
        for c in range(self.g.cells):
            if x >> c & 1:
                i += p
            elif o >> c & 1:
                i += 2 * p
            p *= 3
        return i

    def entry(self, x: int, o: int) -> int:
        return int(self.table[self.index(x, o)])

    def value(self, board: Board) -> int:
        """+1 won, -1 lost, 0 drawn, for the side to move (history ignored)."""
        e = self.entry(*self._sides(board))
        return (e > 0) - (e < 0)

    def distance(self, board: Board) -> int | None:
        """Plies to the end under best play, or ``None`` for a draw."""
        e = self.entry(*self._sides(board))
        return abs(e) - 1 if e else None

    def move_values(self, board: Board) -> dict[int, int]:
        """Each legal move's table entry seen from the mover (the child's, negated)."""
        x, o = self._sides(board)
        g = self.g
        moves = legal_pushes((x, o), 0, g)
        if not moves:
            return {PASS: -self.entry(o, x)}
        out = {}
        for m in moves:
            x2, o2 = push2(x, o, m, g)
            out[m] = -self.entry(o2, x2)
        return out

    def best_moves(self, board: Board) -> list[int]:
        """The moves that keep the value, quickest first among wins, slowest among losses."""
        vals = self.move_values(board)
        best = max(vals.values(), key=_preference)
        return [m for m, v in vals.items() if _preference(v) == _preference(best)]

    def counts(self) -> dict[str, int]:
        t = self.table
        return {"positions": int(t.size), "wins": int(np.count_nonzero(t > 0)),
                "losses": int(np.count_nonzero(t < 0)), "draws": int(np.count_nonzero(t == 0))}

    def save(self, path: str | Path) -> None:
        meta = json.dumps({"game": "board", "rules": self.rules.to_json()})
        with open(path, "wb") as fh:
            np.savez(fh, table=self.table, meta=np.array(meta))

    @classmethod
    def load(cls, path: str | Path) -> Solution:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            table = data["table"]
        return cls(Rules.from_json(meta["rules"]), table)

    def _sides(self, board: Board) -> tuple[int, int]:
        if board.rules.size != self.rules.size or board.rules.players != 2:
            raise BoardError("this table is for another board")
        return board.owners[board.turn], board.owners[1 - board.turn]


def _preference(entry: int) -> tuple[int, int]:
    """Order move entries: wins (quicker better) over draws over losses (slower better)."""
    if entry > 0:
        return (2, -entry)
    if entry == 0:
        return (1, 0)
    return (0, -entry)


def solve(rules: Rules, advance: Callable[[int], None] | None = None,
          chunk: int = 1 << 21) -> Solution:
    """Solve every position of a 2-player board of size at most 4.

    ``advance(k)`` is called as work is done: ``3**(n*n)`` units for valuing and counting,
    then one unit per decided position taken off the queue.
    """
    if rules.players != 2:
        raise RulesError("the solver handles 2 players")
    if rules.size > MAX_SIZE:
        raise RulesError(f"the solver handles boards up to {MAX_SIZE}x{MAX_SIZE} "
                         f"(3**{rules.size ** 2} positions is too many)")
    g = geometry(rules)
    b3, has_line, pop = _tables(g)
    state = np.empty(3 ** g.cells, dtype=np.int8)
    queue = np.empty(3 ** g.cells, dtype=np.uint32)
    line_of, entry, leave, lsh, rsh = (np.array(a, dtype=np.int64) for a in (
        g.line_of, g.entry, g.leave, g.lshift, g.rshift))
    four_n = 4 * g.n
    mover_loses = rules.other_line == "mover_loses"
    low = g.cells // 2
    x_low, o_low = _digits(low)
    x_high, o_high = _digits(g.cells - low)
    tail = 0
    step = max(1, x_high.size // 64)
    for lo in range(0, x_high.size, step):
        hi = min(x_high.size, lo + step)
        tail = _init(lo, hi, low, x_high, o_high, x_low, o_low, four_n, g.edge, g.corners,
                     mover_loses, has_line, pop, state, queue, tail)
        if advance is not None:
            advance((hi - lo) * x_low.size)
    head, level_end, d = 0, tail, 2  # the first predecessors are decided in 1 ply
    while head < tail:
        before = head
        head, tail, level_end, d = _drain(
            head, tail, level_end, d, chunk, low, x_high, o_high, x_low, o_low, four_n,
            g.edge, g.corners, line_of, entry, leave, lsh, rsh, b3, has_line, pop, state,
            queue)
        if d >= DECIDED:
            raise RulesError(f"a distance of {DECIDED - 2} plies or more: too long to solve")
        if advance is not None:
            advance(head - before)
    del queue
    state[state <= -DECIDED] = 0  # never decided: a draw
    return Solution(rules, state.astype(np.int16))
