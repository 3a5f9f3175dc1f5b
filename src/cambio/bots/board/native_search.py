"""The compiled search kernels behind the ``native`` board bot (numba, ``cache=True``).

They run the same algorithm as :mod:`cambio.bots.board.search` (the pure-Python reference)
on the same bitboards and the same evaluation, with every table a numpy array:

* minimax with alpha-beta from the root seat's point of view (2 players, and 3 players
  ``paranoid``), and max-n (3 players, values per seat);
* a transposition table of ``2**k`` entries indexed by a 64-bit hash of the least of the 8
  symmetric images of the position, the best move kept in that canonical frame;
* move ordering: the table's move, then the history heuristic (stable, as in Python);
* a position already seen in the game or earlier on the search path is a draw;
* optionally (``threats``), a threat search at the horizon: a seat to move with a winning
  push wins, and a seat facing a winning push of another's must parry it, so forced
  sequences are searched to their end rather than cut at the horizon.

With ``threats`` off and a fixed depth, the value at the root is the Python search's value
(``tests/board/test_native_search.py`` checks it on many positions).

Positions live in a stack ``own[ply, seat]`` so that the recursion allocates nothing.
Counters and limits live in ``ctl`` (int64) and ``clock`` (float64): nodes, node limit,
aborted flag; the deadline is read every 4,096 nodes through ``numba.objmode``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from .native_eval import SHAPES, tuple_value

F = TypeVar("F", bound=Callable[..., Any])

WIN = 1_000_000
MATE_ZONE = WIN - 10 * 64
EXACT, LOWER, UPPER = 0, 1, 2
NO_MOVE = -2
PASS = -1
MAX_PLY = 160
"""Deepest ply the stacks hold (search depth plus threat extensions)."""

# ctl slots
NODES, LIMIT, ABORTED, CHECK_TIME, PATH_LEN, EXT_LIMIT = range(6)
TUPLES = 7
"""The ``geo`` slot saying the 4x4 n-tuple evaluation is on."""
TUPLE_WEIGHTS = 2
TUPLE_CELLS = TUPLE_WEIGHTS + len(SHAPES)
"""``weights`` rows: 0-1 the linear evaluation's (to move, waiting); with the n-tuple
evaluation, rows ``TUPLE_WEIGHTS`` on its weights per shape and rows ``TUPLE_CELLS`` on its
images' cells (:func:`.native_eval.images`)."""

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)


_NO_NRT: dict[str, Any] = {"_nrt": False}
"""No reference counting: the kernels allocate nothing, and counting references to every
array argument of every call was most of the time per node."""


def _jit(f: F) -> F:
    return cast(F, numba.njit(cache=True, **_NO_NRT)(f))


def _inline(f: F) -> F:
    """Small helpers are inlined into the search: a call costs reference counting on every
    array argument, which dominated the time per node."""
    return cast(F, numba.njit(cache=True, inline="always", **_NO_NRT)(f))


@_inline
def mix(x: Any) -> Any:
    """splitmix64 finaliser on uint64."""
    z = np.uint64(x) + _GOLD
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    """LLVM's population count (one instruction on current CPUs)."""
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


@_inline
def popcount(x: int) -> Any:
    return _ctpop(x)  # type: ignore[call-arg]


@_inline
def position_hash(own: Any, ply: int, players: int, turn: int) -> Any:
    """A 64-bit hash of the cells and the seat to move (no symmetry): repetition keys."""
    h = mix(np.uint64(turn) + np.uint64(0x1234567))
    for p in range(players):
        h = mix(h ^ (np.uint64(own[ply, p]) + np.uint64(p + 1) * _GOLD))
    return np.int64(h)


@_inline
def canonical(own: Any, ply: int, players: int, turn: int, symtab: Any, n: int
              ) -> tuple[Any, int]:
    """``(hash, symmetry)`` of the least image of the position over the 8 symmetries.

    Images are compared seat by seat from the last seat down, as the Python search packs
    its keys (the last seat in the highest bits)."""
    mask = (1 << n) - 1
    b0 = b1 = b2 = -1
    best_s = 0
    for s in range(8):
        t0 = t1 = t2 = 0
        for r in range(n):
            t0 |= symtab[s, r, (own[ply, 0] >> (r * n)) & mask]
            t1 |= symtab[s, r, (own[ply, 1] >> (r * n)) & mask]
            if players == 3:
                t2 |= symtab[s, r, (own[ply, 2] >> (r * n)) & mask]
        better = False
        if b0 < 0:
            better = True
        elif t2 != b2:
            better = t2 < b2
        elif t1 != b1:
            better = t1 < b1
        else:
            better = t0 < b0
        if better:
            b0, b1, b2, best_s = t0, t1, t2, s
    h = mix(np.uint64(turn) + np.uint64(0xABCDEF))
    h = mix(h ^ np.uint64(b0))
    h = mix(h ^ (np.uint64(b1) + _GOLD))
    h = mix(h ^ (np.uint64(b2) + _M1))
    return np.int64(h), best_s


@_inline
def do_push(own: Any, ply: int, move: int, mover: int, players: int, line_of: Any,
            entry: Any, leave: Any, lsh: Any, rsh: Any) -> None:
    """``own[ply + 1] = own[ply]`` after ``mover`` pushes into ``move``."""
    if move == PASS:
        for p in range(players):
            own[ply + 1, p] = own[ply, p]
        return
    line = line_of[move]
    keep = line & ~leave[move]
    ls = lsh[move]
    rs = rsh[move]
    for p in range(players):
        b = own[ply, p]
        b = (b & ~line) | (((b & keep) << ls) >> rs)
        if p == mover:
            b |= entry[move]
        own[ply + 1, p] = b


@_inline
def winners_after(own: Any, ply: int, move: int, mover: int, players: int, mover_loses: bool,
                  aff: Any, aff_n: Any) -> int:
    """The winners (a bitmask of seats, 0 if no line) of the position ``own[ply]`` reached
    by ``mover``'s ``move``; only the windows the pushed line meets can hold a line."""
    if move == PASS:
        return 0
    lines = 0
    for p in range(players):
        b = own[ply, p]
        for j in range(aff_n[move]):
            w = aff[move, j]
            if b & w == w:
                lines |= 1 << p
                break
    if lines == 0 or not mover_loses:
        return lines
    others = lines & ~(1 << mover)
    return others if others else lines


@_inline
def gen_moves(own: Any, ply: int, turn: int, players: int, four_n: int, leave: Any,
              out: Any) -> int:
    """Legal pushes of ``turn`` into ``out``; ``PASS`` alone when there is none."""
    others = 0
    for p in range(players):
        if p != turn:
            others |= own[ply, p]
    k = 0
    for m in range(four_n):
        if not leave[m] & others:
            out[k] = m
            k += 1
    if k == 0:
        out[0] = PASS
        k = 1
    return k


@_inline
def seat_score(own: Any, ply: int, p: int, players: int, to_move: int, k: int, edge: int,
               corners: int, four_n: int, windows: Any, weights: Any) -> Any:
    """The evaluation's score of seat ``p`` (``cambio.bots.board.evaluate.seat_scores``)."""
    mine = own[ply, p]
    others = 0
    for q in range(players):
        if q != p:
            others |= own[ply, q]
    w = 0 if p == to_move else 1
    mobility = four_n - popcount(others & edge) - popcount(others & corners)
    s = (weights[w, 4] * popcount(mine & edge) + weights[w, 5] * popcount(mine & corners)
         + weights[w, 6] * mobility)
    for i in range(windows.shape[0]):
        line = windows[i]
        if not others & line:
            d = popcount(mine & line)
            if d:
                missing = k - d
                s += weights[w, missing - 1 if missing < 4 else 3]
    return s


@_inline
def evaluate2(own: Any, ply: int, seat: int, to_move: int, k: int, edge: int, corners: int,
              four_n: int, windows: Any, weights: Any) -> Any:
    """:func:`evaluate` for 2 players in one pass over the windows (leaves are most nodes)."""
    a = own[ply, seat]
    b = own[ply, 1 - seat]
    wa = 0 if seat == to_move else 1
    wb = 1 - wa
    sa = (weights[wa, 4] * popcount(a & edge) + weights[wa, 5] * popcount(a & corners)
          + weights[wa, 6] * (four_n - popcount(b & edge) - popcount(b & corners)))
    sb = (weights[wb, 4] * popcount(b & edge) + weights[wb, 5] * popcount(b & corners)
          + weights[wb, 6] * (four_n - popcount(a & edge) - popcount(a & corners)))
    for i in range(windows.shape[0]):
        line = windows[i]
        ia = a & line
        ib = b & line
        if ia and not ib:
            missing = k - popcount(ia)
            sa += weights[wa, missing - 1 if missing < 4 else 3]
        elif ib and not ia:
            missing = k - popcount(ib)
            sb += weights[wb, missing - 1 if missing < 4 else 3]
    return sa - sb


@_inline
def evaluate(own: Any, ply: int, seat: int, players: int, to_move: int, geo: Any,
             windows: Any, weights: Any) -> Any:
    """``seat``'s score minus the best of the others' (``evaluate.evaluate``), or with
    ``geo[TUPLES]`` set (2 players, 4x4) the fitted n-tuple value
    (:mod:`.native_eval`) for ``seat``."""
    k, edge, corners, four_n = geo[1], geo[2], geo[3], geo[4]
    if players == 2:
        if geo[TUPLES]:
            v = tuple_value(own[ply, to_move], own[ply, 1 - to_move], weights[TUPLE_CELLS:],
                            weights[TUPLE_WEIGHTS:TUPLE_CELLS])
            return v if seat == to_move else -v
        return evaluate2(own, ply, seat, to_move, k, edge, corners, four_n, windows, weights)
    mine = seat_score(own, ply, seat, players, to_move, k, edge, corners, four_n, windows,
                      weights)
    best = -(1 << 40)
    for p in range(players):
        if p != seat:
            v = seat_score(own, ply, p, players, to_move, k, edge, corners, four_n, windows,
                           weights)
            if v > best:
                best = v
    return mine - best


@_jit
def past_deadline(ctl: Any, clock: Any) -> bool:
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    if now > clock[0]:
        ctl[ABORTED] = 1
        return True
    return False


@_inline
def spend(ctl: Any, clock: Any, depth_reached: int) -> bool:
    """Count a node; ``True`` once the budget (nodes or time) has run out."""
    nodes = ctl[NODES] + 1
    ctl[NODES] = nodes
    if depth_reached == 0:
        return False
    if nodes > ctl[LIMIT]:
        ctl[ABORTED] = 1
        return True
    if nodes & 4095 == 0 and ctl[CHECK_TIME]:
        return past_deadline(ctl, clock)
    return False


@_inline
def seen_before(key: int, path: Any, path_len: int, game_keys: Any) -> bool:
    for i in range(path_len):
        if path[i] == key:
            return True
    mask = game_keys.shape[0] - 1
    i = key & mask
    while game_keys[i] != 0:
        if game_keys[i] == key:
            return True
        i = (i + 1) & mask
    return False


@_inline
def to_table(value: int, ply: int) -> int:
    if value >= MATE_ZONE:
        return value + ply
    if value <= -MATE_ZONE:
        return value - ply
    return value


@_inline
def from_table(value: int, ply: int) -> int:
    if value >= MATE_ZONE:
        return value - ply
    if value <= -MATE_ZONE:
        return value + ply
    return value


@_inline
def order_moves(moves: Any, ply: int, count: int, history: Any, tt_move: int) -> None:
    """Stable sort by descending history score, then the table's move first."""
    for i in range(1, count):
        m = moves[ply, i]
        h = history[m] if m >= 0 else 0
        j = i - 1
        while j >= 0:
            mj = moves[ply, j]
            hj = history[mj] if mj >= 0 else 0
            if hj >= h:
                break
            moves[ply, j + 1] = mj
            j -= 1
        moves[ply, j + 1] = m
    if tt_move != NO_MOVE:
        for i in range(count):
            if moves[ply, i] == tt_move:
                for j in range(i, 0, -1):
                    moves[ply, j] = moves[ply, j - 1]
                moves[ply, 0] = tt_move
                break


@_inline
def near_line(bits: int, windows: Any, k: int) -> bool:
    """Whether some winning window holds at least ``k - 1`` of these dice."""
    for i in range(windows.shape[0]):  # noqa: SIM110 (numba compiles loops, not any())
        if popcount(bits & windows[i]) >= k - 1:
            return True
    return False


@_inline
def result_for(win: int, root: int, ply: int) -> int:
    """The value for ``root`` of a line made by the move at ``ply`` (``win``: the winners):
    a loss, a sole win, or a shared win (0)."""
    if not win & (1 << root):
        return -WIN + ply + 1
    return WIN - ply - 1 if win == 1 << root else 0


@_inline
def better(v: int, maximize: bool, best: int, alpha: int, beta: int
           ) -> tuple[bool, int, int, int]:
    """A child's value taken into its node: ``(improved, best, alpha, beta)``. The window
    closes (``alpha >= beta``) only on an improvement."""
    if maximize:
        if v > best:
            return True, v, max(alpha, v), beta
    elif v < best:
        return True, v, alpha, min(beta, v)
    return False, best, alpha, beta


@_inline
def probe(tt: Any, slot: int, ckey: int, ply: int, depth: int, alpha: int, beta: int,
          sym: int, inverse: Any) -> tuple[bool, int, int]:
    """``(cut, value, table move)``: the table's entry for this position, if any; ``cut``
    when it is deep enough and its bound settles the window."""
    if tt[slot, 0] != ckey:
        return False, 0, NO_MOVE
    data = tt[slot, 1]
    e_flag = (data >> 8) & 3
    e_move = ((data >> 10) & 255) - 2
    e_value = from_table((data >> 32), ply)
    tt_move = e_move if e_move < 0 else inverse[sym, e_move]
    cut = data & 255 >= depth and (e_flag == EXACT or (e_flag == LOWER and e_value >= beta)
                                   or (e_flag == UPPER and e_value <= alpha))
    return cut, e_value, tt_move


@_inline
def store(tt: Any, slot: int, ckey: int, ply: int, depth: int, best: int, best_move: int,
          a0: int, b0: int, sym: int, sym_moves: Any) -> None:
    """Keep a searched node (always replacing), its move in the canonical frame."""
    flag = EXACT
    if best <= a0:
        flag = UPPER
    elif best >= b0:
        flag = LOWER
    stored = best_move if best_move < 0 else sym_moves[sym, best_move]
    tt[slot, 0] = ckey
    tt[slot, 1] = (to_table(best, ply) << 32) | ((stored + 2) << 10) | (flag << 8) | depth


@_inline
def wins_now(own: Any, ply: int, turn: int, count: int, players: int, k: int,
             mover_loses: bool, line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any,
             aff: Any, aff_n: Any, windows: Any, moves: Any) -> bool:
    """Whether one of ``turn``'s ``count`` moves in ``moves[ply]`` wins alone at once.

    A push changes one cell of each window crossing its line and shifts the windows along
    it by one, so only a seat with k - 1 dice in some window can complete one."""
    if not near_line(own[ply, turn], windows, k):
        return False
    for i in range(count):
        m = moves[ply, i]
        if m == PASS:
            return False
        do_push(own, ply, m, turn, players, line_of, entry, leave, lsh, rsh)
        if winners_after(own, ply + 1, m, turn, players, mover_loses, aff, aff_n) == 1 << turn:
            return True
    return False


@_inline
def threatened(own: Any, ply: int, turn: int, players: int, k: int, four_n: int,
               mover_loses: bool, line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any,
               aff: Any, aff_n: Any, windows: Any) -> bool:
    """Whether a waiting seat could complete a line ``turn`` does not share if it were to
    move now."""
    for p in range(players):
        if p == turn or not near_line(own[ply, p], windows, k):
            continue
        others = 0
        for q in range(players):
            if q != p:
                others |= own[ply, q]
        for m in range(four_n):
            if leave[m] & others:
                continue
            do_push(own, ply, m, p, players, line_of, entry, leave, lsh, rsh)
            win = winners_after(own, ply + 1, m, p, players, mover_loses, aff, aff_n)
            if win & (1 << p) and not win & (1 << turn):
                return True
    return False


# --------------------------------------------------------------------------- minimax


@_jit
def leaf(own: Any, ply: int, turn: int, root: int, ext: int, alpha: int, beta: int,
         geo: Any, line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any, aff: Any,
         aff_n: Any, windows: Any, weights: Any, moves: Any, ctl: Any) -> Any:
    """The horizon's value for ``root`` of ``own[ply]`` with ``turn`` to move.

    Without threat search (``ext`` 0): the static evaluation. With it: a seat to move with
    a winning push wins; if another seat threatens to win, every move of ``turn`` is tried
    (a forced reply) and the position after it is valued the same way, ``ext - 1`` deep."""
    players, k, four_n = geo[0], geo[1], geo[4]
    mover_loses = geo[5] != 0
    if ext <= 0 or ply + 1 >= MAX_PLY:
        return evaluate(own, ply, root, players, turn, geo, windows, weights)
    count = gen_moves(own, ply, turn, players, four_n, leave, moves[ply])
    if wins_now(own, ply, turn, count, players, k, mover_loses, line_of, entry, leave, lsh,
                rsh, aff, aff_n, windows, moves):
        return WIN - ply - 1 if turn == root else -WIN + ply + 1
    if threatened(own, ply, turn, players, k, four_n, mover_loses, line_of, entry, leave,
                  lsh, rsh, aff, aff_n, windows):
        ctl[NODES] += 1
        nxt = (turn + 1) % players
        maximize = turn == root
        best = -WIN - 1 if maximize else WIN + 1
        for i in range(count):
            m = moves[ply, i]
            do_push(own, ply, m, turn, players, line_of, entry, leave, lsh, rsh)
            win = winners_after(own, ply + 1, m, turn, players, mover_loses, aff, aff_n)
            if win:
                v = result_for(win, root, ply)
            else:
                v = leaf(own, ply + 1, nxt, root, ext - 1, alpha, beta, geo, line_of,
                         entry, leave, lsh, rsh, aff, aff_n, windows, weights, moves, ctl)
            _, best, alpha, beta = better(v, maximize, best, alpha, beta)
            if alpha >= beta:
                break
        return best
    return evaluate(own, ply, root, players, turn, geo, windows, weights)


@_inline
def horizon(own: Any, ply: int, turn: int, root: int, alpha: int, beta: int, geo: Any,
            line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any, aff: Any, aff_n: Any,
            windows: Any, weights: Any, moves: Any, ctl: Any) -> Any:
    """A leaf's value: the threat search if it is on, else the evaluation."""
    if ctl[EXT_LIMIT] > 0:
        return leaf(own, ply, turn, root, ctl[EXT_LIMIT], alpha, beta, geo, line_of, entry,
                    leave, lsh, rsh, aff, aff_n, windows, weights, moves, ctl)
    return evaluate(own, ply, root, geo[0], turn, geo, windows, weights)


@_inline
def frontier(own: Any, ply: int, turn: int, root: int, alpha: int, beta: int, geo: Any,
             line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any, aff: Any, aff_n: Any,
             windows: Any, weights: Any, history: Any, moves: Any, ctl: Any, clock: Any,
             depth_reached: int) -> Any:
    """:func:`search` at depth 1 (every child a leaf), inlined into its parent: the same
    value, without the table (the frontier skips it) or a call. Three quarters of the
    interior nodes are here."""
    if spend(ctl, clock, depth_reached):
        return 0
    players, four_n = geo[0], geo[4]
    # No move ordering here: sorting cost more than the cut-offs it bought (at 0.1 s a move
    # the search reached the same depth or deeper without it).
    count = gen_moves(own, ply, turn, players, four_n, leave, moves[ply])
    maximize = turn == root
    nxt = (turn + 1) % players
    best = -WIN - 1 if maximize else WIN + 1
    for i in range(count):
        m = moves[ply, i]
        do_push(own, ply, m, turn, players, line_of, entry, leave, lsh, rsh)
        win = winners_after(own, ply + 1, m, turn, players, geo[5] != 0, aff, aff_n)
        if win:
            v = result_for(win, root, ply)
        else:
            if spend(ctl, clock, depth_reached):
                return 0
            v = evaluate(own, ply + 1, root, players, nxt, geo, windows, weights)
        improved, best, alpha, beta = better(v, maximize, best, alpha, beta)
        if improved and alpha >= beta:
            if m >= 0:
                history[m] += 1
            break
    return best


@_jit
def search(own: Any, ply: int, turn: int, root: int, depth: int, alpha: int, beta: int,
           key: int, geo: Any, line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any,
           aff: Any, aff_n: Any, windows: Any, weights: Any, symtab: Any, sym_moves: Any,
           inverse: Any, tt: Any, history: Any, moves: Any, path: Any,
           game_keys: Any, ctl: Any, clock: Any, depth_reached: int) -> Any:
    """Alpha-beta from the root seat's view (``AlphaBetaBot._search``)."""
    if spend(ctl, clock, depth_reached):
        return 0
    players, n, four_n = geo[0], geo[6], geo[4]
    # The frontier (depth 1: every child is a leaf) skips the table: probing it costs more
    # than re-evaluating the few children, and its entries would crowd out deeper ones.
    use_tt = depth > 1
    ckey, sym = canonical(own, ply, players, turn, symtab, n) if use_tt else (0, 0)
    slot = ckey & (tt.shape[0] - 1)
    tt_move = NO_MOVE
    if use_tt:
        cut, value, tt_move = probe(tt, slot, ckey, ply, depth, alpha, beta, sym, inverse)
        if cut:
            return value
    count = gen_moves(own, ply, turn, players, four_n, leave, moves[ply])
    order_moves(moves, ply, count, history, tt_move)
    maximize = turn == root
    nxt = (turn + 1) % players
    a0 = alpha
    b0 = beta
    plen = ctl[PATH_LEN]
    path[plen] = key
    ctl[PATH_LEN] = plen + 1
    best_move = moves[ply, 0]
    best = -WIN - 1 if maximize else WIN + 1
    for i in range(count):
        m = moves[ply, i]
        # child_value() written out: numba's cache cannot hold mutually recursive functions.
        do_push(own, ply, m, turn, players, line_of, entry, leave, lsh, rsh)
        win = winners_after(own, ply + 1, m, turn, players, geo[5] != 0, aff, aff_n)
        if win:
            v = result_for(win, root, ply)
        elif depth <= 1:
            if spend(ctl, clock, depth_reached):
                ctl[PATH_LEN] = plen
                return 0
            v = horizon(own, ply + 1, nxt, root, alpha, beta, geo, line_of, entry, leave, lsh,
                        rsh, aff, aff_n, windows, weights, moves, ctl)
        else:
            key2 = position_hash(own, ply + 1, players, nxt)
            if seen_before(key2, path, ctl[PATH_LEN], game_keys):
                v = 0
            else:
                if depth == 2 and ctl[EXT_LIMIT] == 0:
                    v = frontier(own, ply + 1, nxt, root, alpha, beta, geo, line_of, entry,
                                 leave, lsh, rsh, aff, aff_n, windows, weights, history,
                                 moves, ctl, clock, depth_reached)
                else:
                    v = search(own, ply + 1, nxt, root, depth - 1, alpha, beta, key2, geo,
                               line_of, entry, leave, lsh, rsh, aff, aff_n, windows, weights,
                               symtab, sym_moves, inverse, tt, history, moves, path,
                               game_keys, ctl, clock, depth_reached)
                if ctl[ABORTED]:
                    ctl[PATH_LEN] = plen
                    return 0
        improved, best, alpha, beta = better(v, maximize, best, alpha, beta)
        if improved:
            best_move = m
            if alpha >= beta:
                if m >= 0:
                    history[m] += depth * depth
                break
    ctl[PATH_LEN] = plen
    if use_tt:
        store(tt, slot, ckey, ply, depth, best, best_move, a0, b0, sym, sym_moves)
    return best


@_jit
def child_value(own: Any, ply: int, m: int, turn: int, root: int, depth: int, alpha: int,
                beta: int, geo: Any, line_of: Any, entry: Any, leave: Any, lsh: Any,
                rsh: Any, aff: Any, aff_n: Any, windows: Any, weights: Any, symtab: Any,
                sym_moves: Any, inverse: Any, tt: Any, history: Any,
                moves: Any, path: Any, game_keys: Any, ctl: Any, clock: Any,
                depth_reached: int) -> Any:
    """The value for ``root`` of ``turn`` playing ``m`` from ``own[ply]`` (``_child``)."""
    players = geo[0]
    do_push(own, ply, m, turn, players, line_of, entry, leave, lsh, rsh)
    win = winners_after(own, ply + 1, m, turn, players, geo[5] != 0, aff, aff_n)
    if win:
        return result_for(win, root, ply)
    nxt = (turn + 1) % players
    if depth <= 1:
        if spend(ctl, clock, depth_reached):
            return 0
        return leaf(own, ply + 1, nxt, root, ctl[EXT_LIMIT], alpha, beta, geo, line_of, entry,
                    leave, lsh, rsh, aff, aff_n, windows, weights, moves, ctl)
    key = position_hash(own, ply + 1, players, nxt)
    if seen_before(key, path, ctl[PATH_LEN], game_keys):
        return 0
    return search(own, ply + 1, nxt, root, depth - 1, alpha, beta, key, geo, line_of, entry,
                  leave, lsh, rsh, aff, aff_n, windows, weights, symtab, sym_moves, inverse,
                  tt, history, moves, path, game_keys, ctl, clock, depth_reached)


@_jit
def root_search(own: Any, turn: int, depth: int, first: int, geo: Any, line_of: Any,
                entry: Any, leave: Any, lsh: Any, rsh: Any, aff: Any, aff_n: Any,
                windows: Any, weights: Any, symtab: Any, sym_moves: Any, inverse: Any,
                tt: Any, history: Any, moves: Any, path: Any,
                game_keys: Any, ctl: Any, clock: Any, depth_reached: int
                ) -> tuple[int, int]:
    """One iteration at the root (``AlphaBetaBot._root``): ``(value, move)``."""
    players, four_n = geo[0], geo[4]
    count = gen_moves(own, 0, turn, players, four_n, leave, moves[0])
    for i in range(count):
        if moves[0, i] == first:
            for j in range(i, 0, -1):
                moves[0, j] = moves[0, j - 1]
            moves[0, 0] = first
            break
    # The root's moves are kept in the last row of the stack (the search reuses row 0).
    root_moves = moves[MAX_PLY]
    for i in range(count):
        root_moves[i] = moves[0, i]
    alpha = -WIN - 1
    best_move = root_moves[0]
    ctl[PATH_LEN] = 0
    for i in range(count):
        m = root_moves[i]
        v = child_value(own, 0, m, turn, turn, depth, alpha, WIN + 1, geo, line_of, entry,
                        leave, lsh, rsh, aff, aff_n, windows, weights, symtab, sym_moves,
                        inverse, tt, history, moves, path, game_keys, ctl, clock,
                        depth_reached)
        if ctl[ABORTED]:
            break
        if v > alpha:
            alpha = v
            best_move = m
    return alpha, best_move


# --------------------------------------------------------------------------- max-n


@_inline
def win_vector(vecs: Any, ply: int, win: int, players: int) -> None:
    """``vecs[ply + 1]`` after a move at ``ply`` made the lines of the seats in ``win``: the
    win shared among them, a loss for the others."""
    share = (WIN - ply - 1) // popcount(win)
    for p in range(players):
        vecs[ply + 1, p] = share if win & (1 << p) else -WIN + ply + 1


@_inline
def static_vector(own: Any, vecs: Any, ply: int, to_move: int, geo: Any, windows: Any,
                  weights: Any) -> None:
    """``vecs[ply]``: each of 3 seats' score minus the best of the other two."""
    k, edge, corners, four_n = geo[1], geo[2], geo[3], geo[4]
    s0 = seat_score(own, ply, 0, 3, to_move, k, edge, corners, four_n, windows, weights)
    s1 = seat_score(own, ply, 1, 3, to_move, k, edge, corners, four_n, windows, weights)
    s2 = seat_score(own, ply, 2, 3, to_move, k, edge, corners, four_n, windows, weights)
    vecs[ply, 0] = s0 - max(s1, s2)
    vecs[ply, 1] = s1 - max(s0, s2)
    vecs[ply, 2] = s2 - max(s0, s1)


@_jit
def maxn(own: Any, ply: Any, turn: int, depth: int, key: int, first: Any, vecs: Any,
         geo: Any, line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any, aff: Any,
         aff_n: Any, windows: Any, weights: Any, symtab: Any, sym_moves: Any, inverse: Any,
         tt: Any, tt_vec: Any, history: Any, moves: Any, path: Any,
         game_keys: Any, ctl: Any, clock: Any, depth_reached: int) -> Any:
    """Max-n (``AlphaBetaBot._maxn``): the value vector goes to ``vecs[ply]``; returns the
    best move. ``ply`` and ``first`` are ``np.int64`` in its calls (see :func:`maxn_root`)."""
    players, four_n, n = geo[0], geo[4], geo[6]
    mover_loses = geo[5] != 0
    if spend(ctl, clock, depth_reached):
        return NO_MOVE
    ckey, sym = canonical(own, ply, players, turn, symtab, n)
    slot = ckey & (tt.shape[0] - 1)
    tt_move = first
    if first == NO_MOVE:
        cut, _, tt_move = probe(tt, slot, ckey, ply, depth, 0, 0, sym, inverse)
        if cut:  # max-n entries are EXACT
            for p in range(players):
                vecs[ply, p] = tt_vec[slot, p]
            return tt_move
    count = gen_moves(own, ply, turn, players, four_n, leave, moves[ply])
    order_moves(moves, ply, count, history, tt_move)
    nxt = (turn + 1) % players
    plen = ctl[PATH_LEN]
    path[plen] = key
    ctl[PATH_LEN] = plen + 1
    have = False
    best_move = moves[ply, 0]
    for i in range(count):
        m = moves[ply, i]
        do_push(own, ply, m, turn, players, line_of, entry, leave, lsh, rsh)
        win = winners_after(own, ply + 1, m, turn, players, mover_loses, aff, aff_n)
        if win:
            win_vector(vecs, ply, win, players)
        elif depth <= 1:
            if spend(ctl, clock, depth_reached):
                ctl[PATH_LEN] = plen
                return NO_MOVE
            static_vector(own, vecs, ply + 1, nxt, geo, windows, weights)
        else:
            key2 = position_hash(own, ply + 1, players, nxt)
            if seen_before(key2, path, ctl[PATH_LEN], game_keys):
                for p in range(players):
                    vecs[ply + 1, p] = 0
            else:
                # np.int64(): a bare constant would be typed as a literal and compile a
                # second overload of maxn; see maxn_root.
                reply = maxn(own, ply + 1, nxt, depth - 1, key2, np.int64(NO_MOVE), vecs,
                             geo, line_of, entry, leave, lsh, rsh, aff, aff_n, windows,
                             weights, symtab, sym_moves, inverse, tt, tt_vec, history, moves,
                             path, game_keys, ctl, clock, depth_reached)
                if ctl[ABORTED] or reply == NO_MOVE - 1:
                    ctl[PATH_LEN] = plen
                    return NO_MOVE
        if not have or vecs[ply + 1, turn] > vecs[ply, turn]:
            have = True
            for p in range(players):
                vecs[ply, p] = vecs[ply + 1, p]
            best_move = m
            if vecs[ply, turn] >= WIN - ply - 1:
                if m >= 0:
                    history[m] += depth * depth
                break
    ctl[PATH_LEN] = plen
    store(tt, slot, ckey, 0, depth, vecs[ply, turn], best_move, -WIN - 1, WIN + 1, sym,
          sym_moves)
    for p in range(players):
        tt_vec[slot, p] = vecs[ply, p]
    return best_move


@_jit
def maxn_root(own: Any, turn: int, depth: int, key: int, first: int, vecs: Any, geo: Any,
              line_of: Any, entry: Any, leave: Any, lsh: Any, rsh: Any, aff: Any,
              aff_n: Any, windows: Any, weights: Any, symtab: Any, sym_moves: Any,
              inverse: Any, tt: Any, tt_vec: Any, history: Any, moves: Any,
              path: Any, game_keys: Any, ctl: Any, clock: Any, depth_reached: int) -> Any:
    """The entry point of one max-n iteration (numba's cache needs a non-recursive one).

    Every argument of a call to ``maxn`` is typed ``int64``, never a literal (a bare ``0``
    or ``NO_MOVE`` is typed ``Literal[int]``): a literal compiled a second overload of
    ``maxn``, the two called each other, and loaded from numba's cache that pair crashed
    (numba 0.68). With a single overload it loads like ``search``."""
    ctl[PATH_LEN] = 0
    return maxn(own, np.int64(0), turn, depth, key, first, vecs, geo, line_of, entry, leave,
                lsh, rsh, aff, aff_n, windows, weights, symtab, sym_moves, inverse, tt,
                tt_vec, history, moves, path, game_keys, ctl, clock, depth_reached)


@_jit
def fill_game_keys(positions: Any, turns: Any, players: int, game_keys: Any) -> None:
    """Hash the positions already seen in the game into an open-addressed set."""
    game_keys[:] = 0
    mask = game_keys.shape[0] - 1
    for r in range(positions.shape[0]):
        key = position_hash(positions, r, players, turns[r])
        i = key & mask
        while game_keys[i] != 0 and game_keys[i] != key:
            i = (i + 1) & mask
        game_keys[i] = key
