"""Native versions of the card bots for the batch engine: whole rounds without Python.

:func:`play_native` plays rounds of :mod:`cambio.cards.batch` with a ``random`` or a
``memory`` bot in each seat, deciding inside the compiled loop. Each native bot makes
exactly its Python bot's decisions from the same seat's view, so the rounds are the ones
``play_round`` plays with the Python bots (``tests/cards/test_native_bots.py`` checks this
game by game, and ``cambio sim cards`` relies on it for ``--engine batch``):

* ``random`` draws from ``Random(seed).randrange`` (CPython's Mersenne Twister, reproduced);
* ``memory`` is :class:`~cambio.bots.cards.memory.ExpectedPointsBot` line by line
  (:func:`memory_act`): the same scores, summed in the same order in IEEE doubles as
  CPython 3.11's ``sum`` does, the same tie-breaks (the first best action in the same
  order). Any change to ``memory.py`` must be made here too; the differential test fails
  otherwise.

The memory bot reads only its seat's view: the kernel builds that view from the knowledge
masks (as :func:`cambio.cards.observe` does) before deciding, and looks at nothing else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.cards import Rules
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch, Results, results_of, uint64_seeds
from cambio.cards.batch_kernels import (
    CAMBIO,
    DISCARD,
    DRAW,
    EMPTY,
    EXCHANGE,
    LOOK,
    P_NONE,
    P_PEEK_OTHER,
    P_PEEK_OWN,
    P_SWAP_ANY,
    P_SWAP_OWN_OTHER,
    PASS,
    PEEK,
    PH_DRAWN,
    PH_GIVE,
    PH_POLL,
    PH_TURN_START,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
    _inline,
    _jit,
)
from cambio.cards.rules import tables

from .memory import MemoryParams, _mean_value
from .native_names import NATIVE_KINDS, RANDOM

HIDDEN = -2

# Indices into the memory bot's parameter array (MemoryParams' fields, as floats).
(M_CAMBIO_TOTAL, M_CAMBIO_HIDDEN, M_CAMBIO_RELAX, M_RELAX_AFTER, M_INFO_OWN, M_INFO_OTHER,
 M_RISK, M_SNAP_ODDS, M_MIN_SNAP_GAIN, M_SWAP_POWER, M_CALL_LEAD, M_FULL_MEAN, N_M) = range(13)


# ------------------------------------------------------------------------------ knowledge
# The memory bot's ``_Knowledge`` as arguments: ``vg[seat, slot]`` the seat's view of the
# grids (a card, HIDDEN or EMPTY), ``glen`` the grids' lengths (a view of the game's
# record), ``dv``/``dp`` the distribution of unseen card values (ascending) over ``nd``
# entries, and ``kf`` the floats [mean, info_own, info_other, the spread of two unseen
# cards' values once computed (-1 before)].
@_jit
def est(c: int, rf: Any, mean: float) -> float:
    return float(rf[c]) if c >= 0 else mean


@_jit
def seat_total(s: int, vg: Any, glen: Any, rf: Any, mean: float) -> float:
    t = 0.0
    for j in range(glen[s]):
        c = vg[s, j]
        if c != EMPTY:
            t += est(c, rf, mean)
    return t


@_jit
def target_bias(s: int, me: int, n: int, vg: Any, glen: Any, rf: Any,
                mean: float) -> float:
    return -0.001 * seat_total(s, vg, glen, rf, mean) - 1e-6 * ((s - me + n) % n)


@_jit
def gain_below(value: float, dv: Any, dp: Any, nd: int) -> float:
    g = 0.0
    for j in range(nd):
        if dv[j] < value:
            g += dp[j] * (value - dv[j])
    return g


@_jit
def gain_above(value: float, dv: Any, dp: Any, nd: int) -> float:
    g = 0.0
    for j in range(nd):
        if dv[j] > value:
            g += dp[j] * (dv[j] - value)
    return g


@_jit
def spread(dv: Any, dp: Any, nd: int) -> float:
    g = 0.0
    for j in range(nd):
        g += dp[j] * gain_below(dv[j], dv, dp, nd)
    return g


@_jit
def snap_bonus(rank: int, skip: int, me: int, vg: Any, glen: Any, rf: Any,
               prm: Any) -> float:
    t = 0
    for j in range(glen[me]):
        c = vg[me, j]
        if j != skip and c >= 0 and c >> 2 == rank and rf[c] > 0:
            t += rf[c]
    return float(t * prm[M_SNAP_ODDS])


@_jit
def blind_gain(me: int, n: int, vg: Any, glen: Any, rf: Any, mean: float) -> float:
    own_max = 0.0
    have_own = False
    for j in range(glen[me]):
        c = vg[me, j]
        if c != EMPTY:
            e = est(c, rf, mean)
            if not have_own or e > own_max:
                own_max = e
                have_own = True
    other_min = 0.0
    have_other = False
    for s in range(n):
        if s == me:
            continue
        for j in range(glen[s]):
            c = vg[s, j]
            if c != EMPTY:
                e = est(c, rf, mean)
                if not have_other or e < other_min:
                    other_min = e
                    have_other = True
    if not have_own or not have_other:
        return 0.0
    return own_max - other_min


@_jit
def own_hidden(me: int, vg: Any, glen: Any) -> bool:
    for j in range(glen[me]):  # noqa: SIM110 (a loop numba compiles)
        if vg[me, j] == HIDDEN:
            return True
    return False


@_jit
def power_value(card: int, me: int, n: int, vg: Any, glen: Any, rf: Any, prm: Any,
                kf: Any) -> float:
    p = rf[56 + card]
    if p == P_NONE:
        return 0.0
    hidden_own = own_hidden(me, vg, glen)
    if p == P_PEEK_OWN:
        return kf[1] if hidden_own else 0.0
    if p == P_PEEK_OTHER:
        return float(kf[2])
    blind = blind_gain(me, n, vg, glen, rf, kf[0])
    if p == P_SWAP_OWN_OTHER or p == P_SWAP_ANY:  # noqa: SIM109
        return float(prm[M_SWAP_POWER] * max(0.0, blind))
    return float((kf[1] if hidden_own else 0.0) + 0.5 * max(0.0, blind))


@_jit
def swap_benefit(slot: int, value: int, fires: bool, me: int, n: int, vg: Any,
                 glen: Any, rf: Any, prm: Any, kf: Any) -> float:
    old = vg[me, slot]
    gain = est(old, rf, kf[0]) - value
    if old == HIDDEN:
        gain += kf[1]
    else:
        gain += snap_bonus(old >> 2, slot, me, vg, glen, rf, prm)
        if fires:
            gain += power_value(old, me, n, vg, glen, rf, prm, kf)
    return gain


@_jit
def contains(acts: Any, nleg: int, action: int) -> bool:
    for j in range(nleg):  # noqa: SIM110
        if acts[j] == action:
            return True
    return False


# ------------------------------------------------------------------------------ decisions
@_jit
def best_snap(top: int, acts: Any, nleg: int, me: int, n: int, vg: Any, glen: Any,
              rf: Any, prm: Any, kf: Any) -> int:
    """``ExpectedPointsBot._best_snap``: a snap of a known match that lowers our total, or -1."""
    has_snap = False
    for j in range(nleg):
        if acts[j] & 31 == SNAP:
            has_snap = True
            break
    if top < 0 or not has_snap:
        return -1
    rank = top >> 2
    worst = 0.0
    have = False
    for j in range(glen[me]):
        c = vg[me, j]
        if c != EMPTY:
            e = est(c, rf, kf[0])
            if not have or e > worst:
                worst = e
                have = True
    best_gain = 0.0
    best = -1
    for s in range(n):
        for j in range(glen[s]):
            c = vg[s, j]
            if c < 0 or c >> 2 != rank:
                continue
            if s == me:
                gain = float(rf[c])
            elif worst >= prm[M_MIN_SNAP_GAIN]:
                gain = worst + target_bias(s, me, n, vg, glen, rf, kf[0])
            else:
                continue
            action = SNAP | (s << 8 | j) << 5
            if gain > 0 and contains(acts, nleg, action) and (best < 0 or gain > best_gain):
                best_gain = gain
                best = action
    return best


@_jit
def should_call(g: Any, me: int, n: int, vg: Any, glen: Any, rf: Any, prm: Any,
                kf: Any) -> bool:
    hidden = 0
    occupied = False
    total = 0.0
    for j in range(glen[me]):
        c = vg[me, j]
        if c == HIDDEN:
            hidden += 1
        if c != EMPTY:
            occupied = True
            total += est(c, rf, kf[0])
    if not occupied:
        return True
    rounds = g[k.TURN_NUMBER] // max(1, n)
    after = int(prm[M_RELAX_AFTER])
    limit = prm[M_CAMBIO_TOTAL] + prm[M_CAMBIO_RELAX] * max(0, rounds - after)
    if hidden > int(prm[M_CAMBIO_HIDDEN]) + max(0, rounds - after) // 2 or total > limit:
        return False
    for s in range(n):
        if s != me and not total + prm[M_CALL_LEAD] < seat_total(s, vg, glen, rf, kf[0]):
            return False
    return True


@_jit
def turn_start(acts: Any, nleg: int, top: int, g: Any, me: int, n: int, vg: Any,
               glen: Any, rf: Any, prm: Any, kf: Any, dv: Any, dp: Any, nd: int) -> int:
    if acts[0] == CAMBIO and should_call(g, me, n, vg, glen, rf, prm, kf):
        return CAMBIO
    if contains(acts, nleg, TAKE):
        take = 0.0
        ceiling = 0.0
        first = True
        for j in range(glen[me]):
            c = vg[me, j]
            if c == EMPTY:
                continue
            b = swap_benefit(j, rf[top], False, me, n, vg, glen, rf, prm, kf)
            h = est(c, rf, kf[0]) + (kf[1] if c == HIDDEN else 0.0)
            if first or b > take:
                take = b
            if first or h > ceiling:
                ceiling = h
            first = False
        if take > gain_below(ceiling, dv, dp, nd) + 0.5:
            return TAKE
    return DRAW


@_jit
def drawn(acts: Any, nleg: int, g: Any, me: int, n: int, vg: Any, glen: Any,
          rf: Any, prm: Any, kf: Any) -> int:
    held = g[k.HELD]
    value = rf[held]
    trigger_end = rf[k.R_FIRE_REPLACED] != 0
    best_gain = -1e9
    best = acts[0]
    if contains(acts, nleg, DISCARD):
        gain = snap_bonus(held >> 2, -1, me, vg, glen, rf, prm)
        if trigger_end or not g[k.HELD_FROM_PILE]:
            gain += power_value(held, me, n, vg, glen, rf, prm, kf)
        if gain > best_gain:
            best_gain = gain
            best = DISCARD
    for j in range(nleg):
        a = acts[j]
        if a & 31 == SWAP:
            gain = swap_benefit((a >> 5) & 0xFFFF, value, trigger_end, me, n, vg, glen,
                                rf, prm, kf)
        elif a & 31 == EXCHANGE:
            gain = exchange_gain((a >> 5) & 0xFFFF, value, me, vg, rf)
        else:
            continue
        if gain > best_gain:
            best_gain = gain
            best = a
    return int(best)


@_jit
def exchange_gain(mask: int, value: int, me: int, vg: Any, rf: Any) -> float:
    """An exchange of cards all seen and of one value: their values less the held card's;
    any other is never chosen (a mismatch costs a card), as ``-inf`` here."""
    total = 0
    first = -1
    for i in range(k.EXCHANGE_SLOTS):
        if mask >> i & 1:
            c = vg[me, i]
            if c == HIDDEN or (first >= 0 and rf[c] != first):
                return -np.inf
            first = rf[c]
            total += rf[c]
    return float(total - value)


@_jit
def switch_gain(action: int, me: int, n: int, vg: Any, glen: Any, rf: Any,
                prm: Any, kf: Any) -> float:
    a = (action >> 5) & 0xFFFF
    b = action >> 21
    if (a >> 8 == me) == (b >> 8 == me):
        return -0.01 if a >> 8 == me else 0.0
    mine, theirs = (a, b) if a >> 8 == me else (b, a)
    cm = vg[mine >> 8, mine & 255]
    ct = vg[theirs >> 8, theirs & 255]
    gain = est(cm, rf, kf[0]) - est(ct, rf, kf[0])
    if ct == HIDDEN and cm != HIDDEN:
        gain -= prm[M_RISK]
    return gain + target_bias(theirs >> 8, me, n, vg, glen, rf, kf[0])


@_jit
def look_value(action: int, me: int, n: int, vg: Any, glen: Any, rf: Any, kf: Any,
               dv: Any, dp: Any, nd: int) -> float:
    a = (action >> 5) & 0xFFFF
    b = action >> 21
    ca = vg[a >> 8, a & 255]
    cb = vg[b >> 8, b & 255]
    info = 0.0
    if ca == HIDDEN:
        info += kf[1] if a >> 8 == me else kf[2]
    if cb == HIDDEN:
        info += kf[1] if b >> 8 == me else kf[2]
    if (a >> 8 == me) == (b >> 8 == me):
        return info
    info += target_bias(b >> 8 if a >> 8 == me else a >> 8, me, n, vg, glen, rf, kf[0])
    mine, theirs = (ca, cb) if a >> 8 == me else (cb, ca)
    if mine != HIDDEN and theirs != HIDDEN:
        chance = max(0.0, float(rf[mine] - rf[theirs]))
    elif mine != HIDDEN:
        chance = gain_below(float(rf[mine]), dv, dp, nd)
    elif theirs != HIDDEN:
        chance = gain_above(float(rf[theirs]), dv, dp, nd)
    else:
        # The same for every pair of hidden cards: computed once a decision (kf[3] < 0
        # until then; a spread is never negative), the same float every time.
        if kf[3] < 0.0:
            kf[3] = spread(dv, dp, nd)
        chance = kf[3]
    return info + chance


@_jit
def power_choice(acts: Any, nleg: int, me: int, n: int, vg: Any, glen: Any, rf: Any,
                 prm: Any, kf: Any, dv: Any, dp: Any, nd: int) -> int:
    best = acts[0]
    best_score = 0.0
    for j in range(nleg):
        a = acts[j]
        kind = a & 31
        if kind == PEEK:
            x = (a >> 5) & 0xFFFF
            if vg[x >> 8, x & 255] != HIDDEN:
                score = -1.0
            elif x >> 8 == me:
                score = kf[1]
            else:
                score = kf[2] + target_bias(x >> 8, me, n, vg, glen, rf, kf[0])
        elif kind == SWITCH:
            score = switch_gain(a, me, n, vg, glen, rf, prm, kf)
        elif kind == LOOK:
            score = look_value(a, me, n, vg, glen, rf, kf, dv, dp, nd)
        else:
            score = 0.0
        if j == 0 or score > best_score:
            best_score = score
            best = a
    return int(best)


@_inline
def known_match(g: Any, rf: Any, n: int, bit: int, rank: int) -> bool:
    """Whether the seat (``bit``) knows a card of ``rank`` in any grid."""
    for s in range(n):
        for j in range(g[rf[k.R_GLEN] + s]):
            c = g[k.cell(rf, s, j)]
            if c >= 0 and g[k.kcell(rf, s, j)] & bit and c >> 2 == rank:
                return True
    return False


@_inline
def build_view(g: Any, rf: Any, seat: int, n: int, bit: int, vidx: Any, vcount: Any, vg: Any,
               cnt: Any) -> None:
    """The seat's view of the grids into ``vg``, and in ``cnt`` how many cards of each
    value it has not seen (the deck's counts less every card it can see)."""
    for v in range(vcount.shape[0]):
        cnt[v] = vcount[v]
    for s in range(n):
        for j in range(g[rf[k.R_GLEN] + s]):
            c = g[k.cell(rf, s, j)]
            if c < 0:
                vg[s, j] = EMPTY
            elif g[k.kcell(rf, s, j)] & bit:
                vg[s, j] = c
                cnt[vidx[c]] -= 1
            else:
                vg[s, j] = HIDDEN
    pile = rf[k.R_PILE]
    for j in range(g[k.PLEN]):
        cnt[vidx[g[pile + j]]] -= 1
    held = g[k.HELD]
    if held >= 0 and (g[k.HELD_FROM_PILE] or seat == g[k.TURN]):
        cnt[vidx[held]] -= 1


@_inline
def unseen_distribution(cnt: Any, vval: Any, prm: Any, dv: Any, dp: Any, kf: Any,
                        final: bool) -> int:
    """``dv``/``dp`` the unseen values and their shares (returns how many), ``kf`` the mean
    and the two information values (none once Cambio is called), the spread not yet
    computed."""
    total = 0
    for v in range(cnt.shape[0]):
        if cnt[v] > 0:
            total += cnt[v]
    nd = 0
    mean = 0.0
    if total:
        for v in range(cnt.shape[0]):
            if cnt[v] > 0:
                dv[nd] = vval[v]
                dp[nd] = cnt[v] / total
                nd += 1
        for j in range(nd):
            mean += dv[j] * dp[j]
    else:
        mean = prm[M_FULL_MEAN]
    kf[0] = mean
    kf[1] = 0.0 if final else prm[M_INFO_OWN]
    kf[2] = 0.0 if final else prm[M_INFO_OTHER]
    kf[3] = -1.0
    return nd


@_inline
def give_choice(acts: Any, nleg: int, seat: int, vg: Any, rf: Any, mean: float) -> int:
    """Give away the slot we think worst."""
    best = acts[0]
    worst = 0.0
    for j in range(nleg):
        e = est(vg[seat, (acts[j] >> 5) & 0xFFFF], rf, mean)
        if j == 0 or e > worst:
            worst = e
            best = acts[j]
    return int(best)


@_jit
def memory_act(seat: int, acts: Any, nleg: int, g: Any, rf: Any, vidx: Any, vval: Any,
               vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any, kf: Any) -> int:
    """``ExpectedPointsBot.act`` on ``seat``'s view of game ``g`` (legal actions
    ``acts[:nleg]``)."""
    if nleg == 1:
        return int(acts[0])
    n = rf[k.R_PLAYERS]
    ph = g[k.PHASE]
    top = k.top_of(g, rf)
    glen = g[rf[k.R_GLEN]:rf[k.R_GLEN] + n]
    bit = (1 << seat) | (1 << n)
    if ph == PH_POLL and (top < 0 or not known_match(g, rf, n, bit, top >> 2)):
        return PASS  # the common case: no known match anywhere
    build_view(g, rf, seat, n, bit, vidx, vcount, vg, cnt)
    nd = unseen_distribution(cnt, vval, prm, dv, dp, kf, g[k.CALLER] >= 0)
    if ph == PH_POLL:
        a = best_snap(top, acts, nleg, seat, n, vg, glen, rf, prm, kf)
        return PASS if a < 0 else a
    if ph == PH_GIVE:
        return give_choice(acts, nleg, seat, vg, rf, kf[0])
    if ph == PH_TURN_START or ph == PH_DRAWN:  # noqa: SIM109
        a = best_snap(top, acts, nleg, seat, n, vg, glen, rf, prm, kf)
        if a >= 0:
            return a
        if ph == PH_TURN_START:
            return turn_start(acts, nleg, top, g, seat, n, vg, glen, rf, prm, kf, dv, dp, nd)
        return drawn(acts, nleg, g, seat, n, vg, glen, rf, prm, kf)
    return power_choice(acts, nleg, seat, n, vg, glen, rf, prm, kf, dv, dp, nd)


# ------------------------------------------------------------------------------ whole rounds
@_jit
def play_bots_all(seeds: Any, dealers: Any, kinds: Any, rank: Any, bot_seeds: Any, full: Any,
                  g: Any, rf: Any, mt: Any, lanes: Any, keys: Any, kw: Any, swaps: Any,
                  bot_lanes: Any, bot_keys: Any, bot_kw: Any, out: Any, scratch: Any, res: Any,
                  vidx: Any,
                  vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any,
                  kf: Any) -> None:
    """Whole rounds, seat ``s`` played by native bot ``kinds[s]`` (seeded ``bot_seeds``),
    each in the one record ``g``; ``res[i]`` gets round ``i``'s ``k.result_into``.

    ``k.LANES`` games at a time: their deals' generators and their random seats' generators
    (seat ``s`` is the ``rank[s]``-th random seat) are seeded side by side first."""
    n = rf[k.R_PLAYERS]
    randoms = 0
    for s in range(n):
        if kinds[s] == RANDOM:
            randoms += 1
    for first in range(0, seeds.shape[0], k.LANES):
        count = min(k.LANES, seeds.shape[0] - first)
        k.seed_deals(seeds, first, count, full.shape[0], lanes, keys, kw, swaps, mt)
        if randoms:
            m = 0
            for lane in range(count):
                for s in range(n):
                    if kinds[s] == RANDOM:
                        bot_keys[m] = bot_seeds[first + lane, s]
                        m += 1
            k.mt_seed_lanes(bot_lanes, bot_keys, bot_kw)
        for lane in range(count):
            i = first + lane
            k.deal(g, seeds[i], dealers[i], full, rf, swaps[:, lane])
            while g[k.PHASE] != k.PH_ROUND_OVER:
                nleg = k.legal(g, rf, out, scratch)
                seat = k.current_player(g)
                if kinds[seat] == RANDOM:
                    action = out[k.mt_randbelow(bot_lanes[:, lane * randoms + rank[seat]],
                                                nleg)]
                else:
                    action = memory_act(seat, out, nleg, g, rf, vidx, vval, vcount, prm, vg,
                                        cnt, dv, dp, kf)
                k.apply(g, action, rf, mt)
            k.result_into(g, rf, res[i])


@_jit
def memory_all(st: Any, rf: Any, out: Any, scratch: Any, chosen: Any, vidx: Any, vval: Any,
               vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any, kf: Any) -> None:
    for i in range(st.shape[0]):
        chosen[i] = -1
        g = st[i]
        if g[k.PHASE] != k.PH_ROUND_OVER:
            nleg = k.legal(g, rf, out, scratch)
            chosen[i] = memory_act(k.current_player(g), out, nleg, g, rf, vidx, vval, vcount,
                                   prm, vg, cnt, dv, dp, kf)


def memory_actions(b: Batch, params: MemoryParams | None = None) -> npt.NDArray[np.int64]:
    """The ``memory`` bot's action for the player to move in each game of ``b`` (-1 for a
    finished game): an opponent for a vectorised environment, or a check of the port."""
    chosen = np.zeros(b.games, dtype=np.int64)
    memory_all(b.st, b.rf, b._acts[0], b._scratch, chosen, *memory_tables(b, params))
    return chosen


def memory_tables(b: Batch, params: MemoryParams | None = None) -> tuple[Any, ...]:
    """What :func:`memory_act` reads besides the game: each card's index among the deck's
    distinct values, those values ascending, how many cards of each the deck holds, and the
    parameters (with the whole deck's mean value for a view with nothing unseen)."""
    p = params or MemoryParams()
    values = tables(b.rules).values
    distinct = sorted({values[c] for c in b.full.tolist()})
    vidx = np.full(len(values), -1, dtype=np.int64)
    for c in range(len(values)):
        if values[c] in distinct:
            vidx[c] = distinct.index(values[c])
    full = Counter(values[c] for c in b.full.tolist())
    vcount = np.array([full[v] for v in distinct], dtype=np.int64)
    prm = np.zeros(N_M, dtype=np.float64)
    prm[:M_FULL_MEAN] = [p.cambio_total, p.cambio_hidden, p.cambio_relax, p.relax_after,
                         p.info_own, p.info_other, p.risk, p.snap_odds, p.min_snap_gain,
                         p.swap_power, p.call_lead]
    prm[M_FULL_MEAN] = _mean_value(full)
    nv = len(distinct)
    return (vidx, np.array(distinct, dtype=np.float64), vcount, prm,
            np.zeros((b.players, b.slots), dtype=np.int64), np.zeros(nv, dtype=np.int64),
            np.zeros(nv, dtype=np.float64), np.zeros(nv, dtype=np.float64),
            np.zeros(4, dtype=np.float64))


def bot_kinds(bots: Sequence[str]) -> npt.NDArray[np.int64]:
    """The kernel's code for each seat's bot; ``ValueError`` for a bot with no native
    version."""
    try:
        return np.array([NATIVE_KINDS[name.strip().lower()] for name in bots], dtype=np.int64)
    except KeyError as exc:
        raise ValueError(f"no native version of bot {exc.args[0]!r} "
                         f"(native bots: {', '.join(sorted(NATIVE_KINDS))})") from None


def play_native(rules: Rules, players: int, bots: Sequence[str], seeds: Sequence[int],
                dealers: Sequence[int], bot_seeds: Sequence[Sequence[int]]) -> Results:
    """Round ``i`` with bot ``bots[s]`` seeded ``bot_seeds[i][s]`` in seat ``s``, as
    ``play_round(State(rules, players, seed=seeds[i], dealer=dealers[i]), bots)`` plays it,
    natively."""
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} seats")
    kinds = bot_kinds(bots)
    rank = np.cumsum(kinds == RANDOM) - 1
    b = Batch(rules, players, 1)
    bs = uint64_seeds([x for row in bot_seeds for x in row]).reshape(len(seeds), players)
    width = k.LANES * int(rank.max() + 1) if (kinds == RANDOM).any() else 1
    res = np.zeros((len(seeds), players + k.N_RES), dtype=np.int64)
    play_bots_all(uint64_seeds(seeds), np.array([d % players for d in dealers], dtype=np.int64),
                  kinds, rank.astype(np.int64), bs, b.full, b.st[0], b.rf, b.mt, b.lanes,
                  b.keys, b.kw, b.swaps, np.zeros((625, width), dtype=np.uint32),
                  np.zeros(width, dtype=np.uint64), np.zeros((2, width), dtype=np.uint32),
                  b._acts[0], b._scratch, res, *memory_tables(b))
    return results_of(res, players)


__all__ = ["bot_kinds", "memory_act", "memory_actions", "memory_tables", "play_native"]
