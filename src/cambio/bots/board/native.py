"""``native``: the alphabeta bot's search, compiled (numba).

Same algorithm and evaluation as :class:`~cambio.bots.board.search.AlphaBetaBot` (the
pure-Python reference; see :mod:`.native_search` for the kernels), about two orders of
magnitude more nodes per second. ``native:1s`` searches one second a move,
``native:200000`` two hundred thousand nodes.

On 2-player 4x4 (lines of 4) it evaluates positions with an n-tuple network fitted to the
exact 4x4 table (:mod:`.native_eval`; ``evaluation="linear"`` turns it off): at the same
node budget it gives a drawn position away half as often as the linear evaluation
(``docs/board-strength.md``). Elsewhere the evaluation is alphabeta's.

``CompiledAlphaBetaBot(threats=N)`` adds a threat search at the horizon, N plies deep:
forced sequences -- a push that completes a line, the replies that parry it -- are followed
to their end.
It is off by default: at equal time it did not play better (``docs/board-strength.md``).

Iterative deepening runs in Python, one compiled call per depth; the transposition table
(``2**tt_bits`` entries of 16 bytes: by default 32 MB with the 4x4 n-tuple evaluation,
whose deep searches keep meeting the same positions, else 4 MB) lives in numpy arrays kept
between the moves of a game.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cambio.board import Board, Geometry

from ..renamed import BOARD_BOTS_RENAMED, renamed
from . import native_eval
from . import native_search as ns
from .base import BudgetedSearch
from .evaluate import TO_MOVE, WAITING

I64 = npt.NDArray[np.int64]
MAX_DEPTH = 64
MAX_NATIVE_SIZE = 7
"""Boards up to 7x7 (49 cells) fit the kernels' int64 masks."""


@lru_cache(maxsize=16)
def _tables(g: Geometry) -> tuple[I64, ...]:
    """The geometry as arrays: geo, line_of, entry, leave, lsh, rsh, aff, aff_n, windows,
    weights, symtab, sym_moves, inverse."""
    n = g.n
    four_n = 4 * n
    width = max(len(a) for a in g.affected)
    aff = np.zeros((four_n, width), dtype=np.int64)
    aff_n = np.zeros(four_n, dtype=np.int64)
    for m, ws in enumerate(g.affected):
        aff[m, :len(ws)] = ws
        aff_n[m] = len(ws)
    symtab = np.array([[[g.transform(s, bits << (r * n)) for bits in range(1 << n)]
                        for r in range(n)] for s in range(8)], dtype=np.int64)
    sym_moves = np.array(g.sym_moves, dtype=np.int64)
    inverse = np.zeros_like(sym_moves)
    for s in range(8):
        for m in range(four_n):
            inverse[s, sym_moves[s, m]] = m

    def arr(xs: object) -> I64:
        return np.array(xs, dtype=np.int64)

    return (arr([0, g.k, g.edge, g.corners, four_n, 0, n, 0]), arr(g.line_of), arr(g.entry),
            arr(g.leave), arr(g.lshift), arr(g.rshift), aff, aff_n, arr(g.lines),
            arr([TO_MOVE, WAITING]), symtab, sym_moves, inverse)


def tuples_fit(g: Geometry, mover_loses: bool, players: int) -> bool:
    """Whether the fitted n-tuple evaluation applies: the rules it was fitted to."""
    return g.n == 4 and g.k == 4 and players == 2 and not mover_loses


@lru_cache(maxsize=4)
def _with_tuples(g: Geometry, mover_loses: bool, players: int) -> tuple[I64, ...]:
    """:func:`_tables` with the n-tuple evaluation packed into the weights array (see
    :data:`.native_search.TUPLE_WEIGHTS`)."""
    if not tuples_fit(g, mover_loses, players):
        raise ValueError("the n-tuple evaluation is fitted to 2-player 4x4 (lines of 4, "
                         "'owner' rule) only")
    t = list(_tables(g))
    tw = native_eval.load_weights()
    imgs = native_eval.images(g)
    packed = np.zeros((ns.TUPLE_CELLS + len(imgs), tw.shape[1]), dtype=np.int64)
    packed[:2, :t[9].shape[1]] = t[9]
    packed[ns.TUPLE_WEIGHTS:ns.TUPLE_CELLS] = tw
    packed[ns.TUPLE_CELLS:, :imgs.shape[1]] = imgs
    t[9] = packed
    return tuple(t)


class NativeSearch:
    """One seat's compiled search state: the tables, the transposition table, the stacks."""

    def __init__(self, g: Geometry, players: int, mover_loses: bool, tt_bits: int = 18,
                 threats: int = 0, tuples: bool = False) -> None:
        if g.n > MAX_NATIVE_SIZE:
            raise ValueError(f"the native search handles boards up to {MAX_NATIVE_SIZE}x"
                             f"{MAX_NATIVE_SIZE}")
        self.g = g
        self.players = players
        t = _tables(g)
        geo = t[0].copy()
        geo[0] = players
        geo[5] = 1 if mover_loses else 0
        self.geo = geo
        if tuples:
            t = _with_tuples(g, mover_loses, players)
            geo[ns.TUPLES] = 1
        self.t = t
        self.tt = np.zeros((1 << tt_bits, 2), dtype=np.int64)
        """Per entry: the canonical hash, and depth | flag << 8 | (move + 2) << 10 | value << 32."""
        self.tt_vec = np.zeros((1 << tt_bits if players == 3 else 1, 3), dtype=np.int64)
        self.history = np.zeros(4 * g.n, dtype=np.int64)
        self.moves = np.zeros((ns.MAX_PLY + 1, 4 * g.n + 1), dtype=np.int64)
        self.own = np.zeros((ns.MAX_PLY + 2, 3), dtype=np.int64)
        self.vecs = np.zeros((ns.MAX_PLY + 2, 3), dtype=np.int64)
        self.path = np.zeros(ns.MAX_PLY + 2, dtype=np.int64)
        self.game_keys = np.zeros(1024, dtype=np.int64)
        self.ctl = np.zeros(6, dtype=np.int64)
        self.clock = np.zeros(1, dtype=np.float64)
        self.threats = threats

    def clear(self) -> None:
        self.tt[:] = 0

    def start(self, board: Board, node_limit: int, deadline: float | None) -> None:
        """Load the root position and the game's seen positions; reset the counters."""
        self.own[0, :] = 0
        self.own[0, :self.players] = board.owners
        cells = self.g.cells
        keys = list(board._seen)  # the game's positions, as Board.seen counts them
        positions = np.zeros((max(1, len(keys)), 3), dtype=np.int64)
        turns = np.zeros(max(1, len(keys)), dtype=np.int64)
        mask = (1 << cells) - 1
        for i, key in enumerate(keys):
            turns[i] = key & 3
            for p in range(self.players):
                positions[i, p] = (key >> (2 + p * cells)) & mask
        if len(self.game_keys) < 4 * len(keys):
            self.game_keys = np.zeros(1 << (4 * len(keys)).bit_length(), dtype=np.int64)
        ns.fill_game_keys(positions[:len(keys)], turns[:len(keys)], self.players,
                          self.game_keys)
        self.history[:] = 0
        self.ctl[:] = 0
        self.ctl[ns.LIMIT] = node_limit
        self.ctl[ns.CHECK_TIME] = 0 if deadline is None else 1
        self.ctl[ns.EXT_LIMIT] = self.threats
        self.clock[0] = deadline if deadline is not None else 0.0

    @property
    def nodes(self) -> int:
        return int(self.ctl[ns.NODES])

    @property
    def aborted(self) -> bool:
        return bool(self.ctl[ns.ABORTED])

    def iterate(self, turn: int, depth: int, first: int, depth_reached: int,
                maxn: bool) -> tuple[int, int]:
        """One iteration of iterative deepening: ``(value for turn, move)``."""
        geo, lo, en, lv, ls, rs, aff, aff_n, win, w, sym, sm, inv = self.t
        del geo
        if maxn:
            key = ns.position_hash(self.own, 0, self.players, turn)
            move = ns.maxn_root(self.own, turn, depth, key, first, self.vecs, self.geo, lo, en,
                                lv, ls, rs, aff, aff_n, win, w, sym, sm, inv, self.tt,
                                self.tt_vec, self.history, self.moves, self.path,
                                self.game_keys, self.ctl, self.clock, depth_reached)
            return int(self.vecs[0, turn]), int(move)
        value, move = ns.root_search(self.own, turn, depth, first, self.geo, lo, en, lv, ls,
                                     rs, aff, aff_n, win, w, sym, sm, inv, self.tt,
                                     self.history, self.moves, self.path, self.game_keys,
                                     self.ctl, self.clock, depth_reached)
        return int(value), int(move)


class CompiledAlphaBetaBot(BudgetedSearch):
    """``alphabeta``'s search compiled: iterative deepening under a node and/or time
    budget (the registry's ``native``)."""

    def __init__(self, nodes: int = 200_000, seconds: float | None = None, seed: int = 0,
                 max_depth: int = MAX_DEPTH, three: str = "maxn", threats: int = 0,
                 tt_bits: int | None = None, evaluation: str = "auto") -> None:
        if evaluation not in ("auto", "linear", "tuples"):
            raise ValueError(f"evaluation must be 'auto', 'linear' or 'tuples', "
                             f"not {evaluation!r}")
        self.evaluation = evaluation
        self._set_budget("native", nodes, seconds, seed, max_depth, three)
        self.threats = threats
        self.tt_bits = tt_bits
        self.nodes = 0
        self.depth_reached = 0
        self.value = 0
        self._search: NativeSearch | None = None

    def _searcher(self, board: Board) -> NativeSearch:
        g, players = board.g, board.rules.players
        mover_loses = board.rules.other_line == "mover_loses"
        s = self._search
        tuples = self.evaluation == "tuples" or (
            self.evaluation == "auto" and tuples_fit(g, mover_loses, players))
        if s is None or s.g is not g or s.players != players or \
                bool(s.geo[5]) != mover_loses:
            bits = self.tt_bits if self.tt_bits is not None else (21 if tuples else 18)
            s = self._search = NativeSearch(g, players, mover_loses, tt_bits=bits,
                                             threats=self.threats, tuples=tuples)
        return s

    def choose(self, board: Board) -> int:
        moves = board.legal_moves()
        if len(moves) == 1:
            return moves[0]
        s = self._searcher(board)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        s.start(board, self.nodes_budget, deadline)
        best = self.rng.choice(moves)
        self.depth_reached = 0
        maxn = board.rules.players > 2 and self.three == "maxn"
        for depth in range(1, self.max_depth + 1):
            value, move = s.iterate(board.turn, depth, best, self.depth_reached, maxn)
            if s.aborted:
                break
            best = move
            self.value = value
            self.depth_reached = depth
            if abs(value) >= ns.WIN - 10 * MAX_DEPTH:
                break  # a forced result is known
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.nodes = s.nodes
        return best


def search_value(board: Board, depth: int, *, threats: int = 0, three: str = "maxn",
                 tuples: bool = False) -> tuple[int, int]:
    """The root value (for the seat to move) and move of one fixed-depth search from a fresh
    table; ``threats=0`` and ``tuples=False`` is the Python search's algorithm exactly."""
    players = board.rules.players
    s = NativeSearch(board.g, players, board.rules.other_line == "mover_loses",
                     tt_bits=16, threats=threats, tuples=tuples)
    s.start(board, 1 << 62, None)
    first = board.legal_moves()[0]
    maxn = players > 2 and three == "maxn"
    value, move = s.iterate(board.turn, depth, first, 0, maxn)
    return value, move

if not TYPE_CHECKING:  # the old name, for one release (mypy sees only the new one)
    __getattr__ = renamed(__name__, BOARD_BOTS_RENAMED)
