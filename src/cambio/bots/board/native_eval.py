"""A 4x4 evaluation for the ``native`` search: an n-tuple network fitted to the exact table.

On 4x4 the linear evaluation (:mod:`.evaluate`, 7 features) cannot tell a drawn position
from one lost 10-18 plies later, and that is where the search's errors against perfect play
come from. This evaluation reads the cells themselves: three shapes of 8 cells (the edge
pair of rows, the middle pair of rows, the two diagonals), each seen through the 8
symmetries of the board -- 24 lookups, one weight per assignment of the shape's cells
(empty, the side to move's, the other's: ``3**8`` weights a shape), summed. The value is
symmetric by construction and seen from the side to move.

The weights were fitted (:func:`fit`, ``benchmarks/board_fit_tuples.py``) to the exact
4x4 table (``cambio solve board --size 4``): the table is training data here, as game
records are for any learned evaluation; the bot never reads it while playing -- it loads
``native_tuples_4x4.npz`` (40 KB of weights) and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from cambio.board import Geometry

I64 = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])
SHAPES = (
    (0, 1, 2, 3, 4, 5, 6, 7),  # the edge row and the row inside it
    (4, 5, 6, 7, 8, 9, 10, 11),  # the two middle rows
    (0, 5, 10, 15, 3, 6, 9, 12),  # both diagonals
)
"""Cells (``r * 4 + c``) of each shape on 4x4, in the identity frame."""
TUPLE = 8
ENTRIES = 3 ** TUPLE
SCALE = 1000
"""Weights are kept as integers: the fitted value (a tanh argument) times ``SCALE``."""
WEIGHTS_FILE = Path(__file__).with_name("native_tuples_4x4.npz")


def images(g: Geometry) -> I64:
    """``[shape * 8 + s, i]``: the cell of the ``i``-th cell of ``shape`` under symmetry ``s``."""
    perm = [[(g.transform(s, 1 << c)).bit_length() - 1 for c in range(g.cells)]
            for s in range(8)]
    return np.array([[perm[s][c] for c in shape] for shape in SHAPES for s in range(8)],
                    dtype=np.int64)


def _inline(f: F) -> F:
    """Inlined into the search without reference counting (as in :mod:`.native_search`)."""
    return cast(F, numba.njit(cache=True, inline="always", _nrt=False)(f))  # type: ignore[call-overload]


@lru_cache(maxsize=1)
def load_weights() -> I64:
    """The fitted 4x4 weights, ``[shape, 3**8]`` int64."""
    with np.load(WEIGHTS_FILE) as data:
        return np.asarray(data["weights"], dtype=np.int64)


@_inline
def tuple_value(mine: int, theirs: int, imgs: Any, tw: Any) -> Any:
    """The network's value (times :data:`SCALE`) for the side owning ``mine`` to move."""
    v = 0
    for t in range(imgs.shape[0]):
        idx = 0
        for i in range(TUPLE - 1, -1, -1):
            c = imgs[t, i]
            idx = idx * 3 + ((mine >> c) & 1) + 2 * ((theirs >> c) & 1)
        v += tw[t >> 3, idx]
    return v


@numba.njit(cache=True)
def _has_line(bits: int, lines: Any) -> bool:
    for w in lines:  # noqa: SIM110 (numba compiles loops)
        if bits & w == w:
            return True
    return False


@numba.njit(cache=True)
def fit(table: Any, lines: Any, imgs: Any, samples: int, rate: float, seed: int,
        w: Any) -> float:
    """Stochastic gradient descent on ``(tanh(value) - exact)**2`` over ``samples`` positions
    drawn uniformly from the table (those without a line yet); ``exact`` is +1 won, 0
    drawn, -1 lost for the side to move. Updates ``w`` (float) and returns the mean loss."""
    np.random.seed(seed)
    size = table.shape[0]
    cells = 16
    loss = 0.0
    done = 0
    idxs = np.zeros(imgs.shape[0], dtype=np.int64)
    while done < samples:
        pos = np.random.randint(0, size)
        mine = 0
        theirs = 0
        x = pos
        for c in range(cells):
            d = x % 3
            x //= 3
            if d == 1:
                mine |= 1 << c
            elif d == 2:
                theirs |= 1 << c
        if _has_line(mine, lines) or _has_line(theirs, lines):
            continue
        e = table[pos]
        y = 1.0 if e > 0 else (-1.0 if e < 0 else 0.0)
        s = 0.0
        for t in range(imgs.shape[0]):
            idx = 0
            for i in range(TUPLE - 1, -1, -1):
                c = imgs[t, i]
                idx = idx * 3 + ((mine >> c) & 1) + 2 * ((theirs >> c) & 1)
            idxs[t] = idx
            s += w[t >> 3, idx]
        p = np.tanh(s)
        err = p - y
        loss += err * err
        g = rate * err * (1.0 - p * p)
        for t in range(imgs.shape[0]):
            w[t >> 3, idxs[t]] -= g
        done += 1
    return loss / samples
