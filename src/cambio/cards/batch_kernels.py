"""numba kernels of the card rules over arrays of games (used by :mod:`cambio.cards.batch`).

A port of :class:`cambio.cards.state.State` in polled (turn-based) mode, one function per
method, acting on game ``i`` of struct-of-arrays state:

* ``grid[i, seat, slot]`` cards (``-1`` empty), ``glen[i, seat]`` the grid's length (the
  Python list's, holes included), ``known[i, seat, slot]`` knowledge masks;
* ``deck[i, :dlen]`` and ``pile[i, :plen]`` with the top at the end (columns of ``sc``);
* ``poll[i, :]`` the poll's seats; every other field is a column of ``sc[i, :]``;
* ``rf``: the rule set flattened (card values, power codes, then the flags).

Chance is the compiled engine's exactly: the counter-based ``mix64`` draws, and shuffles by
Fisher-Yates on CPython's ``Random(seed).random()`` (MT19937 seeded by ``init_by_array``),
re-implemented here, so a seed and the actions give the same round in both engines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

# Columns of sc.
(TURN, TURN_NUMBER, TURN_FINAL, HELD, HELD_FROM_PILE, POWER, LOOK_A, LOOK_B, CALLER,
 FINAL_LEFT, WINDOW, GIVE_ADDR, GIVE_SEAT, POLL_I, POLL_LEN, PHASE, END_REASON, RESHUFFLES,
 CHANCE, SEED, DLEN, PLEN, DEALER, ACTIONS, SNAP_SEAT, SNAP_ADDR, SNAP_CARD, SNAP_RIGHT,
 N_SC) = range(29)

# Offsets in rf after the two 56-entry tables.
(R_PLAYERS, R_DRAW_FROM_DISCARD, R_FIRE_REPLACED, R_OPTIONAL, R_SNAPPER_ONLY, R_ONE_SNAP,
 R_PENALTY, R_MAX_GRID, R_LOCK_CALLER, R_CALLER_MAY_SNAP, R_AUTO_CALL, R_EARLIEST,
 R_MAX_TURNS, R_OPENING_PEEK, R_MOST_CARDS_TIE, N_RF) = range(112, 128)

EMPTY = -1
TERMINAL = -4
WINDOW_CLOSED = -2
WINDOW_ANYONE = -1
P_NONE, P_PEEK_OWN, P_PEEK_OTHER, P_SWAP_OWN_OTHER, P_SWAP_ANY, P_LOOK_MAY, P_LOOK_ANY = range(7)
PH_TURN_START, PH_DRAWN, PH_POWER, PH_KING_DECIDE, PH_GIVE, PH_POLL, PH_ROUND_OVER = range(7)
END_CAMBIO, END_DECK, END_TURN_CAP = 1, 2, 3
CAMBIO, DRAW, TAKE, SWAP, DISCARD, PEEK, LOOK, SWITCH, KEEP, SKIP, SNAP, GIVE, PASS = range(13)

_U = np.uint64


_NO_NRT: dict[str, Any] = {"_nrt": False}
"""No reference counting: the kernels allocate nothing, and counting references to the
array arguments of every call cost more than the rules themselves."""


def _jit(f: F) -> F:
    return cast(F, numba.njit(cache=True, **_NO_NRT)(f))


# ------------------------------------------------------------------------------ chance
@_jit
def mix64(x: Any) -> Any:
    """splitmix64 on uint64 (``state.mix64``)."""
    z = _U(x) + _U(0x9E3779B97F4A7C15)
    z = (z ^ (z >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    return z ^ (z >> _U(31))


@_jit
def draw_chance(sc: Any, i: int) -> Any:
    sc[i, CHANCE] += 1
    return mix64(_U(sc[i, SEED]) * _U(0x100000001B3) + _U(sc[i, CHANCE]))


def _mt_base() -> Any:
    """``init_genrand(19650218)``: the state ``init_by_array`` starts from, for every seed."""
    mt = [19650218]
    for j in range(1, 624):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(mt, dtype=np.int64)


MT_BASE = _mt_base()


@_jit
def mt_seed(mt: Any, seed: Any) -> None:
    """CPython's ``Random(seed)`` for a non-negative int below 2**64: ``init_by_array`` on
    its 32-bit words. ``mt[624]`` is the index (624: twist before the next draw)."""
    lo = np.int64(_U(seed) & _U(0xFFFFFFFF))
    hi = np.int64(_U(seed) >> _U(32))
    keylen = 2 if hi else 1
    mask = 0xFFFFFFFF
    for j in range(624):
        mt[j] = MT_BASE[j]
    # ``prev`` is always mt[a - 1], kept in a register.
    prev = mt[0]
    a = 1
    b = 0
    for _ in range(max(624, keylen)):
        key = lo if b == 0 else hi
        prev = ((mt[a] ^ (((prev ^ (prev >> 30)) * 1664525) & mask)) + key + b) & mask
        mt[a] = prev
        a += 1
        b += 1
        if a >= 624:
            mt[0] = prev
            a = 1
        if b >= keylen:
            b = 0
    for _ in range(623):
        prev = ((mt[a] ^ (((prev ^ (prev >> 30)) * 1566083941) & mask)) - a) & mask
        mt[a] = prev
        a += 1
        if a >= 624:
            mt[0] = prev
            a = 1
    mt[0] = 0x80000000
    mt[624] = 624


@_jit
def mt_seed_lanes(mts: Any, keys: Any, count: int, kw: Any) -> None:
    """``mt_seed(mts[:, g], keys[g])`` for ``g < count``, the lanes' chains interleaved.

    Seeding is a chain of about 1,250 dependent multiply-adds per generator; stepping
    ``count`` generators side by side (``mts`` lane-minor, shape ``(625, lanes)``) lets the
    CPU overlap them. ``kw`` (``(2, lanes)``) holds each lane's key word for even and odd
    steps of ``init_by_array`` (``hi + 1`` on odd steps for a two-word key).
    """
    mask = 0xFFFFFFFF
    for g in range(count):
        lo = np.int64(_U(keys[g]) & _U(mask))
        hi = np.int64(_U(keys[g]) >> _U(32))
        kw[0, g] = lo
        kw[1, g] = hi + 1 if hi else lo
    for a in range(624):
        for g in range(count):
            mts[a, g] = MT_BASE[a]
    for a in range(1, 624):
        par = (a - 1) & 1
        for g in range(count):
            p = mts[a - 1, g]
            mts[a, g] = ((mts[a, g] ^ (((p ^ (p >> 30)) * 1664525) & mask)) + kw[par, g]) & mask
    for g in range(count):
        p = mts[623, g]
        mts[0, g] = p
        mts[1, g] = ((mts[1, g] ^ (((p ^ (p >> 30)) * 1664525) & mask)) + kw[1, g]) & mask
    for a in range(2, 624):
        for g in range(count):
            p = mts[a - 1, g]
            mts[a, g] = ((mts[a, g] ^ (((p ^ (p >> 30)) * 1566083941) & mask)) - a) & mask
    for g in range(count):
        p = mts[623, g]
        mts[1, g] = ((mts[1, g] ^ (((p ^ (p >> 30)) * 1566083941) & mask)) - 1) & mask
        mts[0, g] = 0x80000000
        mts[624, g] = 624


@_jit
def mt_next(mt: Any) -> Any:
    """The next 32-bit output (``genrand_uint32``). The twist is done word by word as the
    words are used (the same values: word ``k`` reads words ``k + 1`` and ``k + 397`` as
    they were, or ``k - 227`` as already twisted), so a shuffle of 54 cards twists 106 words
    instead of 624."""
    k = mt[624]
    if k >= 624:
        k = 0
    y = (mt[k] & 0x80000000) | (mt[k + 1 if k < 623 else 0] & 0x7FFFFFFF)
    y = mt[k + 397 if k < 227 else k - 227] ^ (y >> 1) ^ ((y & 1) * 0x9908B0DF)
    mt[k] = y
    mt[624] = k + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@_jit
def mt_random(mt: Any) -> Any:
    """``Random.random()``: 53 bits from two outputs."""
    a = mt_next(mt) >> 5
    b = mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@_jit
def mt_randbelow(mt: Any, n: int) -> Any:
    """``Random.randrange(n)`` (``_randbelow_with_getrandbits``)."""
    k = 0
    while (1 << k) <= n:
        k += 1
    r = mt_next(mt) >> (32 - k)
    while r >= n:
        r = mt_next(mt) >> (32 - k)
    return r


@_jit
def shuffle(cards: Any, i: int, count: int, seed: Any, mt: Any) -> None:
    """``state._shuffle`` on ``cards[i, :count]``."""
    mt_seed(mt, seed)
    shuffle_seeded(cards, i, count, mt)


@_jit
def shuffle_seeded(cards: Any, i: int, count: int, mt: Any) -> None:
    """Fisher-Yates on ``cards[i, :count]`` from ``mt``, already seeded."""
    for k in range(count - 1, 0, -1):
        j = int(mt_random(mt) * (k + 1))
        t = cards[i, k]
        cards[i, k] = cards[i, j]
        cards[i, j] = t


# ------------------------------------------------------------------------------ slots
@_jit
def seat_slots(i: int, seat: int, grid: Any, glen: Any, sc: Any, rf: Any, out: Any,
               k: int) -> int:
    """Append the occupied slot addresses of ``seat`` to ``out[k:]`` (none if the caller's
    hand is locked); returns the new length."""
    if seat == sc[i, CALLER] and rf[R_LOCK_CALLER]:
        return k
    for s in range(glen[i, seat]):
        if grid[i, seat, s] >= 0:
            out[k] = seat << 8 | s
            k += 1
    return k


@_jit
def all_slots(i: int, grid: Any, glen: Any, sc: Any, rf: Any, out: Any) -> int:
    k = 0
    for seat in range(rf[R_PLAYERS]):
        k = seat_slots(i, seat, grid, glen, sc, rf, out, k)
    return k


@_jit
def count_all_slots(i: int, grid: Any, glen: Any, sc: Any, rf: Any) -> int:
    k = 0
    for seat in range(rf[R_PLAYERS]):
        if seat == sc[i, CALLER] and rf[R_LOCK_CALLER]:
            continue
        for s in range(glen[i, seat]):
            if grid[i, seat, s] >= 0:
                k += 1
    return k


@_jit
def count_seat_slots(i: int, seat: int, grid: Any, glen: Any, sc: Any, rf: Any) -> int:
    if seat == sc[i, CALLER] and rf[R_LOCK_CALLER]:
        return 0
    k = 0
    for s in range(glen[i, seat]):
        if grid[i, seat, s] >= 0:
            k += 1
    return k


@_jit
def grid_occupied(i: int, seat: int, grid: Any, glen: Any) -> bool:
    for s in range(glen[i, seat]):  # noqa: SIM110 (a loop numba compiles)
        if grid[i, seat, s] >= 0:
            return True
    return False


# ------------------------------------------------------------------------------ legal
@_jit
def current_player(i: int, sc: Any, poll: Any) -> Any:
    ph = sc[i, PHASE]
    if ph == PH_POLL:
        return poll[i, sc[i, POLL_I]]
    if ph == PH_GIVE:
        return sc[i, GIVE_SEAT]
    if ph == PH_ROUND_OVER:
        return TERMINAL
    return sc[i, TURN]


@_jit
def legal(i: int, grid: Any, glen: Any, sc: Any, poll: Any, rf: Any, out: Any,
          scratch: Any) -> int:
    """The current player's legal actions into ``out``, in ``State.legal_actions`` order."""
    ph = sc[i, PHASE]
    if ph == PH_ROUND_OVER:
        return 0
    seat = current_player(i, sc, poll)
    k = 0
    if ph == PH_POLL:
        out[0] = PASS
        n = all_slots(i, grid, glen, sc, rf, scratch)
        for j in range(n):
            out[j + 1] = SNAP | scratch[j] << 5
        return n + 1
    if ph == PH_GIVE:
        for s in range(glen[i, seat]):
            if grid[i, seat, s] >= 0:
                out[k] = GIVE | s << 5
                k += 1
        return k
    if ph == PH_TURN_START:
        if sc[i, CALLER] < 0 and sc[i, TURN_NUMBER] >= rf[R_EARLIEST]:
            out[k] = CAMBIO
            k += 1
        out[k] = DRAW
        k += 1
        if rf[R_DRAW_FROM_DISCARD] and sc[i, PLEN] > 0 and grid_occupied(i, seat, grid, glen):
            out[k] = TAKE
            k += 1
        return k
    if ph == PH_DRAWN:
        for s in range(glen[i, seat]):
            if grid[i, seat, s] >= 0:
                out[k] = SWAP | s << 5
                k += 1
        if not sc[i, HELD_FROM_PILE] or k == 0:
            out[k] = DISCARD
            k += 1
        return k
    if ph == PH_KING_DECIDE:
        if sc[i, POWER] == P_LOOK_MAY:
            out[0] = SWITCH | sc[i, LOOK_A] << 5 | sc[i, LOOK_B] << 21
            out[1] = KEEP
            return 2
        n = all_slots(i, grid, glen, sc, rf, scratch)
        return pairs_into(out, 0, SWITCH, scratch, n)
    return power_legal(i, seat, grid, glen, sc, rf, out, scratch)


@_jit
def pairs_into(out: Any, k: int, kind: int, scratch: Any, n: int) -> int:
    """Every pair of the ``n`` addresses in ``scratch`` as a ``kind`` action, from ``out[k]``."""
    for a in range(n):
        for b in range(a + 1, n):
            out[k] = kind | scratch[a] << 5 | scratch[b] << 21
            k += 1
    return k


@_jit
def power_legal(i: int, seat: int, grid: Any, glen: Any, sc: Any, rf: Any, out: Any,
                scratch: Any) -> int:
    """The legal actions of a power being used (``legal``'s ``PH_POWER`` case)."""
    k = 0
    p = sc[i, POWER]
    n = all_slots(i, grid, glen, sc, rf, scratch)
    if p == P_PEEK_OWN:
        for j in range(n):
            if scratch[j] >> 8 == seat:
                out[k] = PEEK | scratch[j] << 5
                k += 1
    elif p == P_PEEK_OTHER:
        for j in range(n):
            if scratch[j] >> 8 != seat:
                out[k] = PEEK | scratch[j] << 5
                k += 1
    elif p == P_SWAP_OWN_OTHER or p == P_LOOK_MAY:  # noqa: SIM109
        kind = SWITCH if p == P_SWAP_OWN_OTHER else LOOK
        for a in range(n):
            if scratch[a] >> 8 != seat:
                continue
            for b in range(n):
                if scratch[b] >> 8 != seat:
                    out[k] = kind | scratch[a] << 5 | scratch[b] << 21
                    k += 1
    else:
        k = pairs_into(out, k, SWITCH if p == P_SWAP_ANY else LOOK, scratch, n)
    if rf[R_OPTIONAL]:
        out[k] = SKIP
        k += 1
    return k


# ------------------------------------------------------------------------------ flow
@_jit
def end_round(i: int, reason: int, known: Any, glen: Any, sc: Any, rf: Any) -> None:
    sc[i, PHASE] = PH_ROUND_OVER
    sc[i, END_REASON] = reason
    n = rf[R_PLAYERS]
    everyone = (1 << (n + 1)) - 1
    for s in range(n):
        for j in range(glen[i, s]):
            known[i, s, j] = everyone
    sc[i, POLL_LEN] = 0  # State._end empties the poll but leaves poll_i as it was


@_jit
def next_turn(i: int, known: Any, glen: Any, sc: Any, rf: Any) -> None:
    if sc[i, TURN_NUMBER] >= rf[R_MAX_TURNS]:
        end_round(i, END_TURN_CAP, known, glen, sc, rf)
        return
    n = rf[R_PLAYERS]
    t = (sc[i, TURN] + 1) % n
    if t == sc[i, CALLER]:
        t = (t + 1) % n
    sc[i, TURN] = t
    sc[i, TURN_NUMBER] += 1
    sc[i, TURN_FINAL] = 1 if sc[i, CALLER] >= 0 else 0
    sc[i, PHASE] = PH_TURN_START
    if sc[i, DLEN] == 0 and sc[i, PLEN] <= 1:
        end_round(i, END_DECK, known, glen, sc, rf)


@_jit
def draw_card(i: int, deck: Any, pile: Any, sc: Any, mt: Any) -> Any:
    """Top card of the deck, reshuffling the pile (all but its top) if the deck is empty."""
    if sc[i, DLEN] == 0:
        plen = sc[i, PLEN]
        if plen <= 1:
            return EMPTY
        top = pile[i, plen - 1]
        for j in range(plen - 1):
            deck[i, j] = pile[i, j]
        shuffle(deck, i, plen - 1, draw_chance(sc, i), mt)
        sc[i, DLEN] = plen - 1
        pile[i, 0] = top
        sc[i, PLEN] = 1
        sc[i, RESHUFFLES] += 1
    sc[i, DLEN] -= 1
    return deck[i, sc[i, DLEN]]


@_jit
def open_poll(i: int, grid: Any, known: Any, glen: Any, sc: Any, poll: Any, rf: Any) -> None:
    w = sc[i, WINDOW]
    if w == WINDOW_CLOSED or sc[i, PLEN] == 0 or count_all_slots(i, grid, glen, sc, rf) == 0:
        next_turn(i, known, glen, sc, rf)
        return
    no_caller = not rf[R_CALLER_MAY_SNAP]
    caller = sc[i, CALLER]
    k = 0
    if w >= 0:
        if not (no_caller and w == caller):
            poll[i, 0] = w
            k = 1
    else:
        n = rf[R_PLAYERS]
        start = np.int64(draw_chance(sc, i) % _U(n))
        for j in range(n):
            s = (start + j) % n
            if no_caller and s == caller:
                continue
            poll[i, k] = s
            k += 1
    if k == 0:
        next_turn(i, known, glen, sc, rf)
        return
    sc[i, POLL_LEN] = k
    sc[i, POLL_I] = 0
    sc[i, PHASE] = PH_POLL


@_jit
def poll_next(i: int, known: Any, glen: Any, sc: Any, rf: Any) -> None:
    sc[i, POLL_I] += 1
    if sc[i, POLL_I] >= sc[i, POLL_LEN]:
        sc[i, POLL_LEN] = 0
        sc[i, POLL_I] = 0
        next_turn(i, known, glen, sc, rf)


@_jit
def after_discard(i: int, grid: Any, known: Any, glen: Any, sc: Any, poll: Any,
                  rf: Any) -> None:
    sc[i, POWER] = P_NONE
    sc[i, LOOK_A] = -1
    sc[i, LOOK_B] = -1
    if sc[i, TURN_FINAL]:
        sc[i, FINAL_LEFT] -= 1
        if sc[i, FINAL_LEFT] <= 0:
            end_round(i, END_CAMBIO, known, glen, sc, rf)
            return
    open_poll(i, grid, known, glen, sc, poll, rf)


@_jit
def power_has_target(i: int, p: int, seat: int, grid: Any, glen: Any, sc: Any,
                     rf: Any) -> bool:
    own = count_seat_slots(i, seat, grid, glen, sc, rf)
    total = count_all_slots(i, grid, glen, sc, rf)
    if p == P_PEEK_OWN:
        return own > 0
    if p == P_PEEK_OTHER:
        return total - own > 0
    if p == P_SWAP_OWN_OTHER or p == P_LOOK_MAY:  # noqa: SIM109
        return own > 0 and total - own > 0
    return total >= 2


@_jit
def discard(i: int, card: int, seat: int, may_fire: bool, grid: Any, known: Any, glen: Any,
            pile: Any, sc: Any, poll: Any, rf: Any) -> None:
    pile[i, sc[i, PLEN]] = card
    sc[i, PLEN] += 1
    sc[i, WINDOW] = WINDOW_ANYONE
    p = rf[56 + card] if may_fire else P_NONE
    if p != P_NONE and power_has_target(i, p, seat, grid, glen, sc, rf):
        sc[i, POWER] = p
        sc[i, PHASE] = PH_POWER
    else:
        after_discard(i, grid, known, glen, sc, poll, rf)


@_jit
def snap_succeeded(i: int, snapper: int, owner: int, grid: Any, known: Any, glen: Any,
                   sc: Any, poll: Any, rf: Any) -> None:
    if rf[R_AUTO_CALL] and sc[i, CALLER] < 0:
        for s in (snapper, owner):
            if not grid_occupied(i, s, grid, glen):
                sc[i, CALLER] = s
                sc[i, FINAL_LEFT] = rf[R_PLAYERS] - 1
                break
    open_poll(i, grid, known, glen, sc, poll, rf)


@_jit
def has_room(i: int, seat: int, grid: Any, glen: Any, rf: Any) -> bool:
    cap = rf[R_MAX_GRID]
    if cap < 0 or glen[i, seat] < cap:
        return True
    for s in range(glen[i, seat]):  # noqa: SIM110
        if grid[i, seat, s] == EMPTY:
            return True
    return False


@_jit
def add_to_grid(i: int, seat: int, card: int, grid: Any, known: Any, glen: Any,
                rf: Any) -> None:
    cap = rf[R_MAX_GRID]
    if 0 <= cap <= glen[i, seat]:
        for s in range(glen[i, seat]):
            if grid[i, seat, s] == EMPTY:
                grid[i, seat, s] = card
                known[i, seat, s] = 0
                return
    g = glen[i, seat]
    grid[i, seat, g] = card
    known[i, seat, g] = 0
    glen[i, seat] = g + 1


@_jit
def snap(i: int, seat: int, a: int, grid: Any, known: Any, glen: Any, deck: Any, pile: Any,
         sc: Any, poll: Any, rf: Any, mt: Any) -> None:
    p = a >> 8
    s = a & 255
    card = grid[i, p, s]
    n = rf[R_PLAYERS]
    sc[i, SNAP_SEAT] = seat
    sc[i, SNAP_ADDR] = a
    sc[i, SNAP_CARD] = card
    if card >> 2 == pile[i, sc[i, PLEN] - 1] >> 2:
        sc[i, SNAP_RIGHT] = 1
        pile[i, sc[i, PLEN]] = card
        sc[i, PLEN] += 1
        grid[i, p, s] = EMPTY
        known[i, p, s] = 0
        if rf[R_ONE_SNAP]:
            sc[i, WINDOW] = WINDOW_CLOSED
        elif rf[R_SNAPPER_ONLY]:
            sc[i, WINDOW] = seat
        if p != seat and grid_occupied(i, seat, grid, glen):
            sc[i, GIVE_ADDR] = a
            sc[i, GIVE_SEAT] = seat
            sc[i, PHASE] = PH_GIVE
            return
        snap_succeeded(i, seat, p, grid, known, glen, sc, poll, rf)
        return
    sc[i, SNAP_RIGHT] = 0
    known[i, p, s] = (1 << (n + 1)) - 1
    for _ in range(rf[R_PENALTY]):
        if not has_room(i, seat, grid, glen, rf):
            break
        penalty = draw_card(i, deck, pile, sc, mt)
        if penalty < 0:
            end_round(i, END_DECK, known, glen, sc, rf)
            return
        add_to_grid(i, seat, penalty, grid, known, glen, rf)
    poll_next(i, known, glen, sc, rf)


@_jit
def give(i: int, seat: int, slot: int, grid: Any, known: Any, glen: Any, sc: Any, poll: Any,
         rf: Any) -> None:
    a = sc[i, GIVE_ADDR]
    p = a >> 8
    s = a & 255
    grid[i, p, s] = grid[i, seat, slot]
    known[i, p, s] = known[i, seat, slot]
    grid[i, seat, slot] = EMPTY
    known[i, seat, slot] = 0
    sc[i, GIVE_ADDR] = -1
    sc[i, GIVE_SEAT] = -1
    snap_succeeded(i, seat, p, grid, known, glen, sc, poll, rf)


@_jit
def apply(i: int, action: int, grid: Any, known: Any, glen: Any, deck: Any, pile: Any,
          sc: Any, poll: Any, rf: Any, mt: Any) -> None:
    """``State.apply`` for the current player (unchecked)."""
    seat = current_player(i, sc, poll)
    sc[i, ACTIONS] += 1
    kind = action & 31
    a = (action >> 5) & 0xFFFF
    n = rf[R_PLAYERS]
    if kind == SNAP:
        snap(i, seat, a, grid, known, glen, deck, pile, sc, poll, rf, mt)
    elif kind == PASS:
        poll_next(i, known, glen, sc, rf)
    elif kind == DRAW:
        card = draw_card(i, deck, pile, sc, mt)
        if card < 0:
            end_round(i, END_DECK, known, glen, sc, rf)
            return
        sc[i, HELD] = card
        sc[i, HELD_FROM_PILE] = 0
        sc[i, PHASE] = PH_DRAWN
    elif kind == SWAP:
        old = grid[i, seat, a]
        grid[i, seat, a] = sc[i, HELD]
        known[i, seat, a] = (1 << (n + 1)) - 1 if sc[i, HELD_FROM_PILE] else 1 << seat
        sc[i, HELD] = EMPTY
        discard(i, old, seat, rf[R_FIRE_REPLACED] != 0, grid, known, glen, pile, sc, poll, rf)
    elif kind == DISCARD:
        card = sc[i, HELD]
        sc[i, HELD] = EMPTY
        fires = not sc[i, HELD_FROM_PILE] or rf[R_FIRE_REPLACED] != 0
        discard(i, card, seat, fires, grid, known, glen, pile, sc, poll, rf)
    elif kind == CAMBIO:
        sc[i, CALLER] = seat
        sc[i, FINAL_LEFT] = n - 1
        next_turn(i, known, glen, sc, rf)
    elif kind == TAKE:
        sc[i, PLEN] -= 1
        sc[i, HELD] = pile[i, sc[i, PLEN]]
        sc[i, HELD_FROM_PILE] = 1
        sc[i, WINDOW] = WINDOW_CLOSED
        sc[i, PHASE] = PH_DRAWN
    elif kind == PEEK:
        known[i, a >> 8, a & 255] |= 1 << seat
        after_discard(i, grid, known, glen, sc, poll, rf)
    elif kind == SWITCH:
        b = action >> 21
        pa, sa, pb, sb = a >> 8, a & 255, b >> 8, b & 255
        t = grid[i, pa, sa]
        grid[i, pa, sa] = grid[i, pb, sb]
        grid[i, pb, sb] = t
        t = known[i, pa, sa]
        known[i, pa, sa] = known[i, pb, sb]
        known[i, pb, sb] = t
        after_discard(i, grid, known, glen, sc, poll, rf)
    elif kind == LOOK:
        b = action >> 21
        bit = 1 << seat
        known[i, a >> 8, a & 255] |= bit
        known[i, b >> 8, b & 255] |= bit
        sc[i, LOOK_A] = a
        sc[i, LOOK_B] = b
        sc[i, PHASE] = PH_KING_DECIDE
    elif kind == KEEP or kind == SKIP:  # noqa: SIM109
        after_discard(i, grid, known, glen, sc, poll, rf)
    elif kind == GIVE:
        give(i, seat, a, grid, known, glen, sc, poll, rf)


@_jit
def reset(i: int, seed: Any, dealer: int, full: Any, grid: Any, known: Any, glen: Any,
          deck: Any, pile: Any, sc: Any, poll: Any, rf: Any, mt: Any) -> None:
    """Shuffle, deal and give the opening peek (``State.__init__`` without ``deck``)."""
    mt_seed(mt, deal_key(seed))
    deal(i, seed, dealer, full, grid, known, glen, deck, pile, sc, poll, rf, mt)


@_jit
def deal_key(seed: Any) -> Any:
    """The seed of the deal's shuffle: the round's first chance draw."""
    return mix64(_U(seed) * _U(0x100000001B3) + _U(1))


@_jit
def seed_deals(seeds: Any, first: int, count: int, lanes: Any, keys: Any, kw: Any) -> None:
    """Seed the shuffles of games ``first .. first+count-1`` in ``lanes[:, 0..count-1]``,
    side by side (:func:`mt_seed_lanes`)."""
    for g in range(count):
        keys[g] = deal_key(seeds[first + g])
    mt_seed_lanes(lanes, keys, count, kw)


@_jit
def deal(i: int, seed: Any, dealer: int, full: Any, grid: Any, known: Any, glen: Any,
         deck: Any, pile: Any, sc: Any, poll: Any, rf: Any, mt: Any) -> None:
    """:func:`reset` with ``mt`` already seeded by ``deal_key(seed)``."""
    n = rf[R_PLAYERS]
    sc[i, :] = 0
    sc[i, SEED] = np.int64(_U(seed))
    sc[i, CHANCE] = 1
    total = full.shape[0]
    for j in range(total):
        deck[i, j] = full[j]
    shuffle_seeded(deck, i, total, mt)
    # deck[i, :total] is the shuffled list, top first; seat s gets cards 4s .. 4s+3.
    for s in range(n):
        glen[i, s] = 4
        for j in range(4):
            grid[i, s, j] = deck[i, 4 * s + j]
            known[i, s, j] = 0
        peek = rf[R_OPENING_PEEK]
        for j in range(peek):
            slot = (2, 3, 0, 1)[j]
            known[i, s, slot] = 1 << s
    rest = total - 4 * n
    # The engine pops from the end: store the rest bottom first.
    for j in range(rest):
        pile[i, j] = deck[i, total - 1 - j]
    for j in range(rest):
        deck[i, j] = pile[i, j]
    sc[i, DLEN] = rest
    sc[i, PLEN] = 0
    sc[i, DEALER] = dealer
    sc[i, TURN] = dealer
    sc[i, HELD] = EMPTY
    sc[i, POWER] = P_NONE
    sc[i, LOOK_A] = -1
    sc[i, LOOK_B] = -1
    sc[i, CALLER] = -1
    sc[i, WINDOW] = WINDOW_CLOSED
    sc[i, GIVE_ADDR] = -1
    sc[i, GIVE_SEAT] = -1
    sc[i, SNAP_SEAT] = -1
    sc[i, PHASE] = PH_TURN_START
    next_turn(i, known, glen, sc, rf)


# ------------------------------------------------------------------------------ results
@_jit
def scores_of(i: int, grid: Any, glen: Any, rf: Any, out: Any) -> None:
    for s in range(rf[R_PLAYERS]):
        t = 0
        for j in range(glen[i, s]):
            c = grid[i, s, j]
            if c >= 0:
                t += rf[c]
        out[s] = t


@_jit
def winners_mask(i: int, grid: Any, glen: Any, sc: Any, rf: Any, buf: Any) -> int:
    """The winners as a bitmask of seats (``State.winners``)."""
    n = rf[R_PLAYERS]
    scores_of(i, grid, glen, rf, buf)
    low = buf[0]
    for s in range(1, n):
        low = min(low, buf[s])
    tied = 0
    for s in range(n):
        if buf[s] == low:
            tied |= 1 << s
    if rf[R_MOST_CARDS_TIE] and tied & (tied - 1):
        most = -1
        for s in range(n):
            if tied >> s & 1:
                most = max(most, count_cards(i, s, grid, glen))
        keep = 0
        for s in range(n):
            if tied >> s & 1 and count_cards(i, s, grid, glen) == most:
                keep |= 1 << s
        tied = keep
        caller = sc[i, CALLER]
        if tied & (tied - 1) and caller >= 0 and tied >> caller & 1:
            tied &= ~(1 << caller)
    return tied


@_jit
def count_cards(i: int, seat: int, grid: Any, glen: Any) -> int:
    k = 0
    for j in range(glen[i, seat]):
        if grid[i, seat, j] >= 0:
            k += 1
    return k


# ------------------------------------------------------------------------------ batch loops
LANES = 8
"""Games whose deals are seeded side by side (see :func:`mt_seed_lanes`)."""


@_jit
def reset_all(seeds: Any, dealers: Any, full: Any, grid: Any, known: Any, glen: Any,
              deck: Any, pile: Any, sc: Any, poll: Any, rf: Any, lanes: Any, keys: Any,
              kw: Any) -> None:
    for first in range(0, seeds.shape[0], LANES):
        count = min(LANES, seeds.shape[0] - first)
        seed_deals(seeds, first, count, lanes, keys, kw)
        for g in range(count):
            i = first + g
            deal(i, seeds[i], dealers[i], full, grid, known, glen, deck, pile, sc, poll, rf,
                 lanes[:, g])


@_jit
def legal_all(grid: Any, glen: Any, sc: Any, poll: Any, rf: Any, out: Any, counts: Any,
              scratch: Any) -> None:
    for i in range(sc.shape[0]):
        counts[i] = legal(i, grid, glen, sc, poll, rf, out[i], scratch)


@_jit
def step_all(actions: Any, grid: Any, known: Any, glen: Any, deck: Any, pile: Any, sc: Any,
             poll: Any, rf: Any, mt: Any) -> None:
    for i in range(sc.shape[0]):
        if sc[i, PHASE] != PH_ROUND_OVER and actions[i] >= 0:
            apply(i, actions[i], grid, known, glen, deck, pile, sc, poll, rf, mt)


@_jit
def play_uniform_all(seeds: Any, full: Any, grid: Any, known: Any, glen: Any, deck: Any,
                     pile: Any, sc: Any, poll: Any, rf: Any, mt: Any, out: Any, scratch: Any,
                     policy_seed: int, no_call_before: int, lanes: Any, keys: Any,
                     kw: Any) -> None:
    """Whole rounds of uniform random play (``benchmarks/cards_random.py``'s policy: no
    Cambio call before turn ``no_call_before``), the policy drawing from splitmix64."""
    ctr = _U(policy_seed)
    for first in range(0, seeds.shape[0], LANES):
        count = min(LANES, seeds.shape[0] - first)
        seed_deals(seeds, first, count, lanes, keys, kw)
        for g in range(count):
            i = first + g
            deal(i, seeds[i], rf[R_PLAYERS] - 1, full, grid, known, glen, deck, pile, sc,
                 poll, rf, lanes[:, g])
            while sc[i, PHASE] != PH_ROUND_OVER:
                k = legal(i, grid, glen, sc, poll, rf, out, scratch)
                lo = 0
                if out[0] == CAMBIO and sc[i, TURN_NUMBER] < no_call_before:
                    lo = 1
                ctr += _U(1)
                r = np.int64(mix64(ctr) >> _U(11))
                action = out[lo + r % (k - lo)]
                apply(i, action, grid, known, glen, deck, pile, sc, poll, rf, mt)
