"""``alphabeta``: iterative-deepening alpha-beta with a symmetric transposition table.

* **Search.** Minimax (alpha-beta) with 2 players. With 3 players *max-n* by default
  (every seat picks the move best for itself; values are per seat; only a win cuts the
  move loop short), or *paranoid* (``three="paranoid"``: the other two are assumed to
  play together against the root seat, which keeps alpha-beta cut-offs). Against two
  greedy bots, over 120 games, max-n scored 50 % of the points and paranoid 32 % (an
  equal share is 33 %): paranoid gives up too early when the coalition looks winning.
* **Transposition table** keyed by the least of the 8 symmetric images of the position
  (rotations and reflections of the square change nothing in this game); the stored best
  move is kept in that canonical frame and mapped back.
* **Move ordering**: the table's move first, then by a history heuristic.
* **Budget**: a node budget (deterministic, used by tests and tournaments) and/or a time
  budget; the deepest completed iteration's move is played. The budget is checked between
  nodes, so an iteration cut short is discarded unless its first moves already beat the
  previous iteration's choice.
* **Draws**: a position already seen in the game, or earlier on the search path, is a
  draw (score 0), so the bot neither walks into nor steers away from repetitions blindly.
"""

from __future__ import annotations

import time

from cambio.board import PASS, Board, Geometry
from cambio.board.bitboard import Owners, completed, judge, legal_pushes, position_key, push

from .base import BudgetedSearch
from .evaluate import evaluate, scores

WIN = 1_000_000
EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 64


def _to_table(value: int, ply: int) -> int:
    """A won/lost score counts plies from the root; the table keeps them from the node, so
    an entry means the same thing when the position comes up at another depth or move."""
    if value >= WIN - 10 * MAX_DEPTH:
        return value + ply
    if value <= -WIN + 10 * MAX_DEPTH:
        return value - ply
    return value


def _cutoff(flag: int, value: int, alpha: int, beta: int) -> bool:
    """Whether a stored bound settles the node for the window ``(alpha, beta)``."""
    return flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha)


def _from_table(value: int, ply: int) -> int:
    if value >= WIN - 10 * MAX_DEPTH:
        return value - ply
    if value <= -WIN + 10 * MAX_DEPTH:
        return value + ply
    return value


class _Abort(Exception):
    """The budget ran out in the middle of an iteration."""


class Symmetries:
    """Row lookup tables that map a bitmask through each of the 8 symmetries quickly."""

    def __init__(self, g: Geometry) -> None:
        n = g.n
        self.n = n
        self.g = g
        self.mask = (1 << n) - 1
        self.tables = [[[g.transform(s, bits << (r * n)) for bits in range(1 << n)]
                        for r in range(n)] for s in range(8)]
        # inverse[s][cm]: the move that symmetry s maps to cm.
        self.inverse = [[0] * (4 * n) for _ in range(8)]
        for s in range(8):
            for m, cm in enumerate(g.sym_moves[s]):
                self.inverse[s][cm] = m

    def canonical(self, owners: Owners, turn: int) -> tuple[int, int]:
        n, mask, cells = self.n, self.mask, self.g.cells
        best = -1
        best_s = 0
        for s, rows in enumerate(self.tables):
            key = turn
            shift = 2
            for b in owners:
                v = 0
                for r in range(n):
                    v |= rows[r][(b >> (r * n)) & mask]
                key |= v << shift
                shift += cells
            if best < 0 or key < best:
                best, best_s = key, s
        return best, best_s


class AlphaBetaBot(BudgetedSearch):
    """Iterative-deepening alpha-beta (max-n or paranoid with 3 players) under a node or
    time budget."""

    def __init__(self, nodes: int = 2000, seconds: float | None = None, seed: int = 0,
                 max_depth: int = MAX_DEPTH, three: str = "maxn") -> None:
        self._set_budget("alphabeta", nodes, seconds, seed, max_depth, three)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.tt_vectors: dict[int, tuple[int, ...]] = {}
        self.history: dict[int, int] = {}
        self.nodes = 0
        self.depth_reached = 0
        self._sym: Symmetries | None = None

    # ------------------------------------------------------------------ interface
    def choose(self, board: Board) -> int:
        moves = board.legal_moves()
        if len(moves) == 1:
            return moves[0]
        self._prepare(board)
        best = self.rng.choice(moves)
        self.depth_reached = 0
        maxn = self.players > 2 and self.three == "maxn"
        for depth in range(1, self.max_depth + 1):
            try:
                value, move = self._iterate(board, depth, moves, best, maxn)
            except _Abort:
                break
            best = move
            self.depth_reached = depth
            if abs(value) >= WIN - MAX_DEPTH:
                break  # a forced result is known: deeper search changes nothing
        return best

    def search_value(self, board: Board, depth: int) -> tuple[int, int]:
        """The value (for the seat to move) and move of one search to a fixed ``depth``
        with this bot's table: the reference the compiled search is tested against."""
        self._prepare(board)
        moves = board.legal_moves()
        self.depth_reached = depth  # never abort
        self.nodes_budget = 10**18
        self.deadline = None
        return self._iterate(board, depth, moves, moves[0],
                             self.players > 2 and self.three == "maxn")

    def _iterate(self, board: Board, depth: int, moves: list[int], first: int, maxn: bool
                 ) -> tuple[int, int]:
        if maxn:
            self.path.clear()
            vec, move = self._maxn(board.owners, self.root, depth, 0, board.key(), first)
            return vec[self.root], move
        return self._root(board.owners, depth, moves, first)

    def _prepare(self, board: Board) -> None:
        g = board.g
        if self._sym is None or self._sym.g is not g:
            self._sym = Symmetries(g)
            self.tt.clear()
            self.tt_vectors.clear()
        self.g = g
        self.root = board.turn
        self.players = board.rules.players
        self.rule = board.rules.other_line
        self.game = board
        self.path: set[int] = set()
        self.nodes = 0
        self.deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if len(self.tt) > 500_000:
            self.tt.clear()
            self.tt_vectors.clear()
        self.history.clear()

    # ------------------------------------------------------------------ search
    def _spend(self) -> None:
        self.nodes += 1
        if self.nodes > self.nodes_budget and self.depth_reached > 0:
            raise _Abort
        if self.deadline is not None and self.nodes & 255 == 0 \
                and time.perf_counter() > self.deadline and self.depth_reached > 0:
            raise _Abort

    def _root(self, owners: Owners, depth: int, moves: list[int], first: int
              ) -> tuple[int, int]:
        ordered = [first] + [m for m in moves if m != first]
        alpha, beta = -WIN - 1, WIN + 1
        best_move = ordered[0]
        for m in ordered:
            v = self._child(owners, m, self.root, depth, alpha, beta, 0)
            if v > alpha:
                alpha, best_move = v, m
        return alpha, best_move

    def _child(self, owners: Owners, m: int, turn: int, depth: int, alpha: int, beta: int,
               ply: int) -> int:
        """The value, for the root seat, of ``turn`` playing ``m`` with ``depth`` to go."""
        g = self.g
        child = push(owners, m, turn, g)
        lines = completed(child, g, m)
        if lines:
            winners = judge(lines, turn, self.rule)
            if self.root not in winners:
                return -WIN + ply + 1
            return WIN - ply - 1 if len(winners) == 1 else 0
        nxt = (turn + 1) % self.players
        if depth <= 1:
            self._spend()
            return evaluate(child, self.root, g, nxt)
        key = position_key(child, nxt, g.cells)
        if key in self.path or self.game.seen(key):
            return 0
        return self._search(child, nxt, depth - 1, alpha, beta, ply + 1, key)

    def _search(self, owners: Owners, turn: int, depth: int, alpha: int, beta: int, ply: int,
                key: int) -> int:
        self._spend()
        g = self.g
        assert self._sym is not None
        ckey, sym = self._sym.canonical(owners, turn)
        tt_move = -2
        entry = self.tt.get(ckey)
        if entry is not None:
            e_depth, e_value, e_flag, e_move = entry
            e_value = _from_table(e_value, ply)
            if e_depth >= depth and _cutoff(e_flag, e_value, alpha, beta):
                return e_value
            tt_move = e_move if e_move < 0 else self._sym.inverse[sym][e_move]
        moves = self._ordered(owners, turn, tt_move)
        maximize = turn == self.root
        a0, b0 = alpha, beta
        self.path.add(key)
        best_move = moves[0]
        hist = self.history
        if maximize:
            best = -WIN - 1
            for m in moves:
                v = self._child(owners, m, turn, depth, alpha, beta, ply)
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            hist[m] = hist.get(m, 0) + depth * depth
                            break
        else:
            best = WIN + 1
            for m in moves:
                v = self._child(owners, m, turn, depth, alpha, beta, ply)
                if v < best:
                    best, best_move = v, m
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            hist[m] = hist.get(m, 0) + depth * depth
                            break
        self.path.discard(key)
        flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        stored = best_move if best_move < 0 else g.sym_moves[sym][best_move]
        self.tt[ckey] = (depth, _to_table(best, ply), flag, stored)
        return best

    def _ordered(self, owners: Owners, turn: int, tt_move: int) -> list[int]:
        """The moves to search, best first: the table's move, then by history."""
        moves = legal_pushes(owners, turn, self.g) or [PASS]
        hist = self.history
        moves.sort(key=lambda mv: -hist.get(mv, 0))
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        return moves

    # ------------------------------------------------------------------ max-n (3 players)
    def _maxn(self, owners: Owners, turn: int, depth: int, ply: int, key: int,
              first: int = -2) -> tuple[tuple[int, ...], int]:
        """Max-n: every seat picks the move best for itself; values are per seat.

        Leaves are valued ``score[p] - max(score[q] for q != p)`` for each seat; a line
        gives its winner ``WIN`` (tied winners ``WIN // 2``) and the others ``-WIN``."""
        self._spend()
        g = self.g
        assert self._sym is not None
        ckey, sym = self._sym.canonical(owners, turn)
        tt_move = first
        entry = self.tt.get(ckey)
        if entry is not None and first == -2:
            e_depth, _, _, e_move = entry
            vec = self.tt_vectors.get(ckey)
            if e_depth >= depth and vec is not None:
                return vec, (e_move if e_move < 0 else self._sym.inverse[sym][e_move])
            tt_move = e_move if e_move < 0 else self._sym.inverse[sym][e_move]
        moves = self._ordered(owners, turn, tt_move)
        hist = self.history
        self.path.add(key)
        best: tuple[int, ...] | None = None
        best_move = moves[0]
        for m in moves:
            vec = self._maxn_child(owners, m, turn, depth, ply)
            if best is None or vec[turn] > best[turn]:
                best, best_move = vec, m
                if vec[turn] >= WIN - ply - 1:
                    hist[m] = hist.get(m, 0) + depth * depth
                    break  # an outright win: nothing beats it
        self.path.discard(key)
        assert best is not None
        stored = best_move if best_move < 0 else g.sym_moves[sym][best_move]
        self.tt[ckey] = (depth, best[turn], EXACT, stored)
        self.tt_vectors[ckey] = best
        return best, best_move

    def _maxn_child(self, owners: Owners, m: int, turn: int, depth: int, ply: int
                    ) -> tuple[int, ...]:
        """The value vector of move ``m`` (see :meth:`_maxn`)."""
        g = self.g
        players = self.players
        child = push(owners, m, turn, g)
        lines = completed(child, g, m)
        if lines:
            winners = judge(lines, turn, self.rule)
            share = (WIN - ply - 1) // len(winners)
            return tuple(share if p in winners else -WIN + ply + 1 for p in range(players))
        nxt = (turn + 1) % players
        if depth <= 1:
            self._spend()
            sc = scores(child, g, nxt)
            return tuple(sc[p] - max(v for q, v in enumerate(sc) if q != p)
                         for p in range(players))
        ckey = position_key(child, nxt, g.cells)
        if ckey in self.path or self.game.seen(ckey):
            return (0,) * players
        vec, _ = self._maxn(child, nxt, depth - 1, ply + 1, ckey)
        return vec
