"""numba kernels of the card rules over arrays of games (used by :mod:`cambio.cards.batch`).

A port of :class:`cambio.cards.state.State` in polled (turn-based) mode, one function per
method, acting on one game's **record** ``g``: a contiguous int64 row holding the whole
game, so a game's state sits in a few cache lines and a kernel call passes one array:

* ``g[:N_SC]`` the counters (``TURN``, ``PHASE``, ``DLEN`` ...), then ``g[POLL:POLL + n]``
  the poll's seats;
* ``g[rf[R_GLEN] + seat]`` the grids' lengths (the Python lists', holes included);
* ``g[rf[R_DECK]:][:dlen]`` and ``g[rf[R_PILE]:][:plen]`` with the top at the end;
* ``g[rf[R_GRID] + seat * slots + slot]`` cards (``-1`` empty) and the same at
  ``rf[R_KNOWN]`` the knowledge masks;
* ``rf``: the rule set flattened (card values, power codes, the flags) and the record's
  layout (:func:`layout`).

Chance is the compiled engine's exactly: the counter-based ``mix64`` draws, and shuffles by
Fisher-Yates on CPython's ``Random(seed).random()`` (MT19937 seeded by ``init_by_array``),
re-implemented here, so a seed and the actions give the same round in both engines.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numba.core.caching as _caching
import numba.core.callconv as _callconv
import numba.np.arrayobj as _arrayobj
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

# The counters at the head of a game's record.
(TURN, TURN_NUMBER, TURN_FINAL, HELD, HELD_FROM_PILE, POWER, LOOK_A, LOOK_B, CALLER,
 FINAL_LEFT, WINDOW, GIVE_ADDR, GIVE_SEAT, POLL_I, POLL_LEN, PHASE, END_REASON, RESHUFFLES,
 CHANCE, SEED, DLEN, PLEN, DEALER, ACTIONS, SNAP_SEAT, SNAP_ADDR, SNAP_CARD, SNAP_RIGHT,
 N_SC) = range(29)
POLL = N_SC
"""The poll's seats follow the counters."""

# Offsets in rf after the two 56-entry tables: the rule flags, then the record's layout.
(R_PLAYERS, R_DRAW_FROM_DISCARD, R_FIRE_REPLACED, R_OPTIONAL, R_SNAPPER_ONLY, R_ONE_SNAP,
 R_PENALTY, R_MAX_GRID, R_LOCK_CALLER, R_CALLER_MAY_SNAP, R_AUTO_CALL, R_EARLIEST,
 R_MAX_TURNS, R_OPENING_PEEK, R_MOST_CARDS_TIE, R_SLOTS, R_GLEN, R_DECK, R_PILE, R_GRID,
 R_KNOWN, R_WIDTH, R_OWN_SNAPS, R_CALLER_TIE, R_NO_SNAPPING, R_NO_RESHUFFLE, R_EXCHANGE,
 R_ROUND_ZERO, R_FAILED_CALL, R_KAMIKAZE, R_KAMIKAZE_HOLDER, R_KAMIKAZE_OTHERS,
 R_LOOK_ONE_USED, N_RF) = range(112, 146)
# The flags added after the layout (the other groups' rules: R_OWN_SNAPS on) keep every
# older offset where it was: code that reads ``rf`` by index (the generated loops, other
# kernels) is unchanged.
EXCHANGE_OFF, EXCHANGE_KEEP_ALL, EXCHANGE_RETURN = range(3)
"""``rf[R_EXCHANGE]``: no multi-card exchanges, or what a mismatched one does."""
ZERO_NOBODY, ZERO_CALLER_IF_LOWEST, ZERO_LOWEST = range(3)
"""``rf[R_ROUND_ZERO]``: who scores 0 for the round (``RoundZero``)."""
CALLER_TIE_NONE, CALLER_TIE_WINS, CALLER_TIE_LOSES = range(3)
"""``rf[R_CALLER_TIE]``: how a caller tied for the lowest total fares (``caller_wins_ties``
wins alone, ``not_caller`` drops out of the tie); ``most_cards_then_not_caller`` is
``R_MOST_CARDS_TIE``."""

EMPTY = -1
TERMINAL = -4
WINDOW_CLOSED = -2
WINDOW_ANYONE = -1
(P_NONE, P_PEEK_OWN, P_PEEK_OTHER, P_SWAP_OWN_OTHER, P_SWAP_ANY, P_LOOK_MAY, P_LOOK_ANY,
 P_LOOK_ONE) = range(8)
PH_TURN_START, PH_DRAWN, PH_POWER, PH_KING_DECIDE, PH_GIVE, PH_POLL, PH_ROUND_OVER = range(7)
END_CAMBIO, END_DECK, END_TURN_CAP = 1, 2, 3
CAMBIO, DRAW, TAKE, SWAP, DISCARD, PEEK, LOOK, SWITCH, KEEP, SKIP, SNAP, GIVE, PASS, \
    EXCHANGE = range(14)
EXCHANGE_MAX = 4
"""The most slots one exchange names (``actions.EXCHANGE_MAX``)."""
EXCHANGE_SLOTS = 16
"""Exchanges name slots 0-15 (``actions.EXCHANGE_SLOTS``)."""

_U = np.uint64
_U32 = np.uint32


def layout(players: int, slots: int) -> dict[int, int]:
    """Where a record's parts start (``rf`` index -> value), for ``players`` grids of
    ``slots`` slots (a grid can never hold more than every card)."""
    glen = POLL + players
    deck = glen + players
    pile = deck + slots
    grid = pile + slots
    known = grid + players * slots
    return {R_SLOTS: slots, R_GLEN: glen, R_DECK: deck, R_PILE: pile, R_GRID: grid,
            R_KNOWN: known, R_WIDTH: known + players * slots}


_NO_NRT: dict[str, Any] = {"_nrt": False}
"""No reference counting: the kernels allocate nothing, and counting references to the
array arguments of every call cost more than the rules themselves."""


_UNWRAPPED: set[str] = set()
"""The mangled-name prefixes (``_ZN6cambio5cards13batch_kernels``) of the modules whose
compiled functions index arrays without negative-index wraparound (:func:`_unwrapped`)."""


def _unwrapped(f: F) -> F:
    """Compile ``f``'s module's kernels with plain indexing: ``a[i]`` reads ``a``'s data at
    ``i``, never ``a[len(a) + i]`` for a negative ``i``.

    numba lowers every integer index to ``i + len(a) if i < 0 else i`` (three instructions and
    a live length per access, about a fifth of a random round's time), and has no option to
    turn that off. No kernel indexes from the end, so for the modules registered here the
    lowering is skipped; every other numba function in the process keeps Python's semantics.
    The batch and native-bot parity tests check every frame against the compiled engine."""
    _UNWRAPPED.add(_mangled(f.__module__))
    _KERNEL_FILES.add(str(Path(inspect.getfile(f)).resolve()))
    return f


def _mangled(module: str) -> str:
    """The prefix numba gives the compiled functions of ``module``."""
    return "_ZN" + "".join(f"{len(p)}{p}" for p in module.split("."))


def _fix_index(context: Any, builder: Any, idxty: Any, idx: Any, size: Any) -> Any:
    name = builder.function.name
    if idxty.signed and any(name.startswith(p) for p in _UNWRAPPED):
        return context.cast(builder, idx, idxty, numba.types.intp)
    return _numba_fix_index(context, builder, idxty, idx, size)


# numba's own, even if this module is imported again (importlib.reload). The hook is a numba
# internal: a numba without it keeps Python's indexing (the same games, a little slower)
# rather than failing to import.
if hasattr(_arrayobj, "fix_integer_index"):
    _numba_fix_index = getattr(_arrayobj.fix_integer_index, "numba_own",
                               _arrayobj.fix_integer_index)
    _fix_index.numba_own = _numba_fix_index  # type: ignore[attr-defined]
    _arrayobj.fix_integer_index = _fix_index


_DISTINCT: set[str] = set()
"""The mangled-name prefixes of the loops whose array arguments never share memory
(:func:`_loop`)."""

_WIDE = '"prefer-vector-width"="512"'
"""An LLVM function attribute: vectorise with the widest registers the CPU has. LLVM keeps
to 256 bits on AVX-512 CPUs by default; the deals' generators, seeded side by side
(:func:`mt_seed_lanes`), run a fifth faster at 512. A CPU without them ignores it."""


def _decorate(self: Any, fn: Any, args: Any, fe_argtypes: Any, noalias: bool = False) -> Any:
    """numba's own argument decoration, plus ``noalias`` on the pointers of the loops
    registered by :func:`_loop` and the wide vectors for the registered modules."""
    name = fn.name
    if any(name.startswith(p) for p in _UNWRAPPED):
        # llvmlite's attribute set only accepts its list of keywords; the text is LLVM's.
        set.add(fn.attributes, _WIDE)
        noalias = noalias or any(name.startswith(p) for p in _DISTINCT)
    return _numba_decorate(self, fn, args, fe_argtypes, noalias)


PACKAGE = Path(__file__).resolve().parents[1]
_LIBRARIES = tuple(str(PACKAGE / p) for p in ("cards/batch_kernels.py", "bots/cards/native.py"))
"""The kernel files whose functions other kernel files compile into theirs (the rules, the
native ``memory`` bot), each after the ones it builds on."""
_KERNEL_FILES: set[str] = set()
"""The source files of the functions compiled by this module's decorators."""


def _source_stamp(self: Any) -> Any:
    """numba's stamp of a cached function's source file, and for a kernel file of the
    package the stamps of the :data:`_LIBRARIES` before it.

    numba checks only the file a cached function is written in, but a kernel compiles the
    functions it calls into its own code: after an edit of the rules (``batch_kernels.py``)
    the native bots' and rollouts' cached code played the old rules until their own files
    changed. With the libraries in the stamp, an edit of one recompiles every kernel built
    on it. (Files outside the package, the generated loops of ``batch_fixed``, carry the
    kernels' hash in their names.)"""
    own = _numba_stamp(self)
    path = str(Path(self._py_file).resolve())
    if path not in _KERNEL_FILES or not path.startswith(str(PACKAGE)):
        return own
    below = _LIBRARIES[:_LIBRARIES.index(path)] if path in _LIBRARIES else _LIBRARIES
    return (own, *(_file_hash(p) for p in below)) if below else own


@cache
def _file_hash(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


_numba_stamp = getattr(_caching._SourceFileBackedLocatorMixin.get_source_stamp, "numba_own",
                       _caching._SourceFileBackedLocatorMixin.get_source_stamp)
_source_stamp.numba_own = _numba_stamp  # type: ignore[attr-defined]
_caching._SourceFileBackedLocatorMixin.get_source_stamp = _source_stamp  # type: ignore

_numba_decorate = getattr(_callconv.CPUCallConv.decorate_function, "numba_own",
                          _callconv.CPUCallConv.decorate_function)
_decorate.numba_own = _numba_decorate  # type: ignore[attr-defined]
_callconv.CPUCallConv.decorate_function = _decorate  # type: ignore[method-assign]


def _jit(f: F) -> F:
    return cast(F, numba.njit(cache=True, **_NO_NRT)(_unwrapped(f)))


def _loop(f: F) -> F:
    """A kernel that plays many actions over arrays that never overlap (each argument its
    own buffer, as every caller here passes them): compiled with each array's data marked
    ``noalias``, so that LLVM keeps the rules' table (``rf``) and the other read-only
    inputs in registers across the writes to a game's record instead of reading them again
    after every store (a tenth of a random round's time). Passing two views of one buffer
    to such a kernel would be undefined behaviour."""
    _unwrapped(f)
    _DISTINCT.add(_mangled(f.__module__) + f"{len(f.__name__)}{f.__name__}B")
    return _jit(f)


def _inline(f: F) -> F:
    """A small helper compiled into its callers (numba's own inlining): a call passes every
    array as its whole descriptor, which cost more than these helpers' work."""
    return cast(F, numba.njit(cache=True, inline="always", **_NO_NRT)(_unwrapped(f)))


# ------------------------------------------------------------------------------ chance
@_jit
def mix64(x: Any) -> Any:
    """splitmix64 on uint64 (``state.mix64``)."""
    z = _U(x) + _U(0x9E3779B97F4A7C15)
    z = (z ^ (z >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    return z ^ (z >> _U(31))


@_jit
def draw_chance(g: Any) -> Any:
    g[CHANCE] += 1
    return mix64(_U(g[SEED]) * _U(0x100000001B3) + _U(g[CHANCE]))


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


LANES = 64
"""Games whose deals are seeded side by side (see :func:`mt_seed_lanes`)."""


@_jit
def mt_seed_lanes(mts: Any, keys: Any, kw: Any) -> None:
    """``mt_seed(mts[:, g], keys[g])`` for every lane ``g``, the lanes side by side.

    Seeding is a chain of about 1,250 dependent multiply-adds per generator; stepping the
    generators of ``mts`` (``uint32``, lane-minor, C-contiguous, shape ``(625, lanes)``)
    together lets the compiler run the lanes in vector registers (16 to a register with
    AVX-512). ``kw`` (``uint32``, ``(2, lanes)``) gets each lane's key word for even and odd
    steps of ``init_by_array`` (``hi + 1`` on odd steps for a two-word key).

    The batch's :data:`LANES` lanes take four steps at a time (:func:`seed_rows`); any other
    width a step at a time, which the compiler vectorises without knowing the row length.
    """
    lanes = mts.shape[1]
    for g in range(lanes):
        lo = _U32(keys[g] & _U(0xFFFFFFFF))
        hi = _U32(keys[g] >> _U(32))
        kw[0, g] = lo
        kw[1, g] = hi + _U32(1) if hi else lo
    if lanes == LANES:
        seed_rows(mts.reshape(625 * LANES), kw.reshape(2 * LANES), LANES)
        return
    # The first pass mixes each lane into the same base state, read once per word rather
    # than copied into every lane first.
    for g in range(lanes):
        mts[0, g] = MT_BASE[0]
    for a in range(1, 624):
        par = (a - 1) & 1
        base = _U32(MT_BASE[a])
        for g in range(lanes):
            mts[a, g] = seed_step(base, mts[a - 1, g], _U32(1664525)) + kw[par, g]
    for g in range(lanes):
        mts[0, g] = mts[623, g]
        mts[1, g] = seed_step(mts[1, g], mts[0, g], _U32(1664525)) + kw[1, g]
    for a in range(2, 624):
        for g in range(lanes):
            mts[a, g] = seed_step(mts[a, g], mts[a - 1, g], _U32(1566083941)) - _U32(a)
    for g in range(lanes):
        mts[1, g] = seed_step(mts[1, g], mts[623, g], _U32(1566083941)) - _U32(1)
        mts[0, g] = _U32(0x80000000)
        mts[624, g] = 624


@_inline
def seed_rows(mts: Any, kw: Any, w: int) -> None:
    """:func:`mt_seed_lanes` on flat rows of ``w`` lanes, four steps at a time.

    A step's word is kept in registers for the next three instead of stored and read back
    (the read waited for the store: about 19 cycles a step against the multiply's 10), and
    with ``w`` a constant the compiler knows that a row's lanes never overlap the next
    rows', so it vectorises the four steps together (with ``w`` unknown it does not, and
    this is many times slower than a step at a time). A fifth less time than a step at a
    time for 64 lanes."""
    m1 = _U32(1664525)
    m2 = _U32(1566083941)
    # The first pass mixes each lane into the same base state, read once per word rather
    # than copied into every lane first: words 1 .. 620 four at a time (key words even,
    # odd, even, odd), then 621 .. 623.
    for g in range(w):
        mts[g] = MT_BASE[0]
    for a in range(1, 621, 4):
        b0 = _U32(MT_BASE[a])
        b1 = _U32(MT_BASE[a + 1])
        b2 = _U32(MT_BASE[a + 2])
        b3 = _U32(MT_BASE[a + 3])
        for g in range(w):
            x = _U32(seed_step(b0, mts[(a - 1) * w + g], m1) + kw[g])
            mts[a * w + g] = x
            x = _U32(seed_step(b1, x, m1) + kw[w + g])
            mts[(a + 1) * w + g] = x
            x = _U32(seed_step(b2, x, m1) + kw[g])
            mts[(a + 2) * w + g] = x
            mts[(a + 3) * w + g] = seed_step(b3, x, m1) + kw[w + g]
    for a in range(621, 624):
        base = _U32(MT_BASE[a])
        par = ((a - 1) & 1) * w
        for g in range(w):
            mts[a * w + g] = seed_step(base, mts[(a - 1) * w + g], m1) + kw[par + g]
    for g in range(w):
        mts[g] = mts[623 * w + g]
        mts[w + g] = seed_step(mts[w + g], mts[g], m1) + kw[w + g]
    # The second pass: words 2 .. 621 four at a time, then 622 and 623.
    for a in range(2, 622, 4):
        for g in range(w):
            x = _U32(seed_step(mts[a * w + g], mts[(a - 1) * w + g], m2) - _U32(a))
            mts[a * w + g] = x
            x = _U32(seed_step(mts[(a + 1) * w + g], x, m2) - _U32(a + 1))
            mts[(a + 1) * w + g] = x
            x = _U32(seed_step(mts[(a + 2) * w + g], x, m2) - _U32(a + 2))
            mts[(a + 2) * w + g] = x
            mts[(a + 3) * w + g] = seed_step(mts[(a + 3) * w + g], x, m2) - _U32(a + 3)
    for a in range(622, 624):
        for g in range(w):
            mts[a * w + g] = seed_step(mts[a * w + g], mts[(a - 1) * w + g], m2) - _U32(a)
    for g in range(w):
        mts[w + g] = seed_step(mts[w + g], mts[623 * w + g], m2) - _U32(1)
        mts[g] = _U32(0x80000000)
        mts[624 * w + g] = 624


@_inline
def seed_step(word: Any, prev: Any, mul: Any) -> Any:
    """``init_by_array``'s mixing of a word with the one before it (mod 2**32)."""
    return _U32(word ^ _U32((prev ^ (prev >> _U32(30))) * mul))


@_inline
def twist(first: Any, second: Any, far: Any) -> Any:
    """MT19937's new word from words ``k``, ``k + 1`` and ``k + 397``."""
    y = (first & 0x80000000) | (second & 0x7FFFFFFF)
    return far ^ (y >> 1) ^ ((y & 1) * 0x9908B0DF)


@_inline
def temper(y: Any) -> Any:
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


SWAP_DECK = 114
"""The largest deck whose deal is shuffled from the generators' first twist alone (its
``2 * (cards - 1)`` outputs all come from words below 227, which need no twisted word)."""


@_jit
def deal_swaps(mts: Any, d: int, swaps: Any, mt: Any) -> None:
    """``swaps[t, g]``: the index Fisher-Yates swaps position ``d - 1 - t`` with, drawn as
    :func:`shuffle_seeded` draws it from lane ``g``'s generator (just seeded).

    For a deck of up to :data:`SWAP_DECK` cards every lane is drawn side by side in vector
    registers; a larger deck's lanes are copied to ``mt`` and drawn one by one."""
    lanes = mts.shape[1]
    if d <= SWAP_DECK:
        for t in range(d - 1):
            for g in range(lanes):
                a = temper(np.int64(twist(mts[2 * t, g], mts[2 * t + 1, g],
                                          mts[2 * t + 397, g]))) >> 5
                b = temper(np.int64(twist(mts[2 * t + 1, g], mts[2 * t + 2, g],
                                          mts[2 * t + 398, g]))) >> 6
                swaps[t, g] = int((a * 67108864.0 + b) * (1.0 / 9007199254740992.0) * (d - t))
        return
    for g in range(lanes):
        for j in range(625):
            mt[j] = mts[j, g]
        swaps_from(mt, d, swaps[:, g])


@_jit
def swaps_from(mt: Any, d: int, swaps: Any) -> None:
    """``swaps[t]`` as :func:`deal_swaps` draws them, from one generator."""
    for t in range(d - 1):
        swaps[t] = int(mt_random(mt) * (d - t))


@_jit
def mt_next(mt: Any) -> Any:
    """The next 32-bit output (``genrand_uint32``). The twist is done word by word as the
    words are used (the same values: word ``k`` reads words ``k + 1`` and ``k + 397`` as
    they were, or ``k - 227`` as already twisted), so a shuffle of 54 cards twists 106 words
    instead of 624."""
    k = mt[624]
    if k >= 624:
        k = 0
    y = np.int64(twist(mt[k], mt[k + 1 if k < 623 else 0], mt[k + 397 if k < 227 else k - 227]))
    mt[k] = y
    mt[624] = k + 1
    return temper(y)


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
def shuffle(g: Any, at: int, count: int, seed: Any, mt: Any) -> None:
    """``state._shuffle`` on ``g[at:at + count]``."""
    mt_seed(mt, seed)
    shuffle_seeded(g, at, count, mt)


@_inline
def shuffle_by(g: Any, at: int, count: int, swaps: Any) -> None:
    """Fisher-Yates on ``g[at:at + count]`` with the indices :func:`deal_swaps` drew."""
    for t in range(count - 1):
        k = at + count - 1 - t
        j = at + swaps[t]
        c = g[k]
        g[k] = g[j]
        g[j] = c


@_jit
def shuffle_seeded(g: Any, at: int, count: int, mt: Any) -> None:
    """Fisher-Yates on ``g[at:at + count]`` from ``mt``, already seeded."""
    for k in range(count - 1, 0, -1):
        j = at + int(mt_random(mt) * (k + 1))
        t = g[at + k]
        g[at + k] = g[j]
        g[j] = t


# ------------------------------------------------------------------------------ record
@_inline
def cell(rf: Any, seat: int, slot: int) -> Any:
    """The index of grid cell ``(seat, slot)`` in a record (``+ rf[R_KNOWN] - rf[R_GRID]``:
    its knowledge mask)."""
    return rf[R_GRID] + seat * rf[R_SLOTS] + slot


@_inline
def kcell(rf: Any, seat: int, slot: int) -> Any:
    """The index of the knowledge mask of cell ``(seat, slot)``."""
    return rf[R_KNOWN] + seat * rf[R_SLOTS] + slot


@_inline
def glen_of(g: Any, rf: Any, seat: int) -> Any:
    return g[rf[R_GLEN] + seat]


@_inline
def top_of(g: Any, rf: Any) -> Any:
    """The top of the pile (``EMPTY`` if none)."""
    plen = g[PLEN]
    return g[rf[R_PILE] + plen - 1] if plen > 0 else EMPTY


@_inline
def locked(g: Any, rf: Any, seat: int) -> bool:
    """Whether ``seat``'s hand is closed to powers and snaps (the caller's, locked)."""
    return bool(seat == g[CALLER] and rf[R_LOCK_CALLER] != 0)


# ------------------------------------------------------------------------------ slots
@_inline
def seat_slots(g: Any, seat: int, rf: Any, out: Any, k: int) -> int:
    """Append the occupied slot addresses of ``seat`` to ``out[k:]`` (none if the caller's
    hand is locked); returns the new length."""
    if locked(g, rf, seat):
        return k
    at = cell(rf, seat, 0)
    for s in range(g[rf[R_GLEN] + seat]):
        out[k] = seat << 8 | s
        k += g[at + s] >= 0
    return k


@_inline
def all_slots(g: Any, rf: Any, out: Any) -> int:
    k = 0
    for seat in range(rf[R_PLAYERS]):
        k = seat_slots(g, seat, rf, out, k)
    return k


@_inline
def other_slots(g: Any, seat: int, rf: Any, out: Any, k: int) -> int:
    """:func:`all_slots` but ``seat``'s, appended to ``out[k:]``."""
    for other in range(rf[R_PLAYERS]):
        if other != seat:
            k = seat_slots(g, other, rf, out, k)
    return k


@_inline
def seat_open(g: Any, seat: int, rf: Any, limit: int) -> int:
    """The occupied slots of ``seat``'s hand (none if locked), counted up to ``limit``."""
    if locked(g, rf, seat):
        return 0
    at = cell(rf, seat, 0)
    k = 0
    for s in range(g[rf[R_GLEN] + seat]):
        if g[at + s] >= 0:
            k += 1
            if k >= limit:
                break
    return k


@_jit
def open_slots(g: Any, rf: Any, skip: int, limit: int) -> int:
    """The occupied slots of the open hands but ``skip``'s, counted up to ``limit`` (the
    rules only ask whether there are none, one, or two)."""
    k = 0
    for seat in range(rf[R_PLAYERS]):
        if seat != skip:
            k += seat_open(g, seat, rf, limit - k)
            if k >= limit:
                break
    return k


@_inline
def grid_occupied(g: Any, seat: int, rf: Any) -> bool:
    at = cell(rf, seat, 0)
    for s in range(g[rf[R_GLEN] + seat]):  # noqa: SIM110 (a loop numba compiles)
        if g[at + s] >= 0:
            return True
    return False


# ------------------------------------------------------------------------------ legal
@_inline
def current_player(g: Any) -> Any:
    ph = g[PHASE]
    if ph == PH_POLL:
        return g[POLL + g[POLL_I]]
    if ph == PH_GIVE:
        return g[GIVE_SEAT]
    if ph == PH_ROUND_OVER:
        return TERMINAL
    return g[TURN]


@_jit
def legal(g: Any, rf: Any, out: Any, scratch: Any) -> int:
    """The current player's legal actions into ``out``, in ``State.legal_actions`` order."""
    ph = g[PHASE]
    if ph == PH_ROUND_OVER:
        return 0
    seat = current_player(g)
    if ph == PH_POLL:
        return poll_legal(g, seat, rf, out)
    if ph == PH_TURN_START:
        return turn_start_legal(g, seat, rf, out)
    if ph == PH_DRAWN or ph == PH_GIVE:  # noqa: SIM109
        return hand_legal(g, seat, ph, rf, out)
    if ph == PH_KING_DECIDE:
        if g[POWER] == P_LOOK_MAY:
            out[0] = SWITCH | g[LOOK_A] << 5 | g[LOOK_B] << 21
            out[1] = KEEP
            return 2
        n = all_slots(g, rf, scratch)
        return pairs_into(out, 0, SWITCH, scratch, n)
    return power_legal(g, seat, rf, out, scratch)


@_inline
def poll_legal(g: Any, seat: int, rf: Any, out: Any) -> int:
    """Pass, or snap any occupied slot of an open hand (only ``seat``'s own with
    ``snap_others`` off)."""
    out[0] = PASS
    k = 1
    own = rf[R_OWN_SNAPS] != 0
    for p in range(rf[R_PLAYERS]):
        if locked(g, rf, p) or (own and p != seat):
            continue
        at = cell(rf, p, 0)
        for s in range(g[rf[R_GLEN] + p]):
            # Written always, kept if the slot holds a card: no branch on a random hole.
            out[k] = SNAP | (p << 8 | s) << 5
            k += g[at + s] >= 0
    return k


@_inline
def turn_start_legal(g: Any, seat: int, rf: Any, out: Any) -> int:
    k = 0
    if g[CALLER] < 0 and g[TURN_NUMBER] >= rf[R_EARLIEST]:
        out[k] = CAMBIO
        k += 1
    out[k] = DRAW
    k += 1
    if rf[R_DRAW_FROM_DISCARD] and g[PLEN] > 0 and grid_occupied(g, seat, rf):
        out[k] = TAKE
        k += 1
    return k


@_inline
def hand_legal(g: Any, seat: int, ph: int, rf: Any, out: Any) -> int:
    """Swap the held card into a slot (or discard it), or give a slot away."""
    kind = SWAP if ph == PH_DRAWN else GIVE
    at = cell(rf, seat, 0)
    k = 0
    for s in range(g[rf[R_GLEN] + seat]):
        out[k] = kind | s << 5
        k += g[at + s] >= 0
    if ph == PH_DRAWN and rf[R_EXCHANGE] != EXCHANGE_OFF:
        k = exchanges_into(g, seat, rf, out, k)
    if ph == PH_DRAWN and (not g[HELD_FROM_PILE] or k == 0):
        out[k] = DISCARD
        k += 1
    return k


@_jit
def exchanges_into(g: Any, seat: int, rf: Any, out: Any, k: int) -> int:
    """Every exchange of 2 to ``EXCHANGE_MAX`` (4) occupied slots below ``EXCHANGE_SLOTS``
    of ``seat``'s grid, from ``out[k]``: smaller sets first, each size's sets in
    lexicographic order (``state._exchanges``)."""
    at = cell(rf, seat, 0)
    m = min(g[rf[R_GLEN] + seat], EXCHANGE_SLOTS)
    for a in range(m):
        if g[at + a] >= 0:
            for b in range(a + 1, m):
                if g[at + b] >= 0:
                    out[k] = EXCHANGE | ((1 << a) | (1 << b)) << 5
                    k += 1
    for a in range(m):
        if g[at + a] >= 0:
            for b in range(a + 1, m):
                if g[at + b] >= 0:
                    k = exchange_tails(g, at, m, b + 1, (1 << a) | (1 << b), False, out, k)
    for a in range(m):
        if g[at + a] >= 0:
            for b in range(a + 1, m):
                if g[at + b] >= 0:
                    k = exchange_tails(g, at, m, b + 1, (1 << a) | (1 << b), True, out, k)
    return k


@_inline
def exchange_tails(g: Any, at: int, m: int, c0: int, head: int, four: bool, out: Any,
                   k: int) -> int:
    """The exchanges of the two slots ``head`` and one occupied slot from ``c0`` on (or,
    with ``four``, two), in order."""
    for c in range(c0, m):
        if g[at + c] < 0:
            continue
        if not four:
            out[k] = EXCHANGE | (head | 1 << c) << 5
            k += 1
            continue
        for d in range(c + 1, m):
            if g[at + d] >= 0:
                out[k] = EXCHANGE | (head | 1 << c | 1 << d) << 5
                k += 1
    return k


@_inline
def pairs_into(out: Any, k: int, kind: int, scratch: Any, n: int) -> int:
    """Every pair of the ``n`` addresses in ``scratch`` as a ``kind`` action, from ``out[k]``."""
    for a in range(n):
        for b in range(a + 1, n):
            out[k] = kind | scratch[a] << 5 | scratch[b] << 21
            k += 1
    return k


@_inline
def power_legal(g: Any, seat: int, rf: Any, out: Any, scratch: Any) -> int:
    """The legal actions of a power being used (``legal``'s ``PH_POWER`` case). The own and
    the other slots are listed apart (in ``all_slots`` order each) rather than filtered from
    every slot, which branched on every slot's owner."""
    k = 0
    p = g[POWER]
    if p == P_PEEK_OWN or p == P_PEEK_OTHER or p == P_LOOK_ONE:  # noqa: SIM109
        # P_LOOK_ONE: the look at any one card (the switch follows, in PH_KING_DECIDE).
        n = seat_slots(g, seat, rf, scratch, 0) if p == P_PEEK_OWN \
            else other_slots(g, seat, rf, scratch, 0) if p == P_PEEK_OTHER \
            else all_slots(g, rf, scratch)
        for j in range(n):
            out[j] = PEEK | scratch[j] << 5
        k = n
    elif p == P_SWAP_OWN_OTHER or p == P_LOOK_MAY:  # noqa: SIM109
        kind = SWITCH if p == P_SWAP_OWN_OTHER else LOOK
        own = seat_slots(g, seat, rf, scratch, 0)
        n = other_slots(g, seat, rf, scratch, own)
        for a in range(own):
            for b in range(own, n):
                out[k] = kind | scratch[a] << 5 | scratch[b] << 21
                k += 1
    else:
        n = all_slots(g, rf, scratch)
        k = pairs_into(out, k, SWITCH if p == P_SWAP_ANY else LOOK, scratch, n)
    if rf[R_OPTIONAL]:
        out[k] = SKIP
        k += 1
    return k


# ------------------------------------------------------------------------------ flow
@_jit
def end_round(g: Any, reason: int, rf: Any) -> None:
    g[PHASE] = PH_ROUND_OVER
    g[END_REASON] = reason
    n = rf[R_PLAYERS]
    everyone = (1 << (n + 1)) - 1
    for s in range(n):
        at = kcell(rf, s, 0)
        for j in range(g[rf[R_GLEN] + s]):
            g[at + j] = everyone
    g[POLL_LEN] = 0  # State._end empties the poll but leaves poll_i as it was


@_inline
def next_turn(g: Any, rf: Any) -> None:
    if g[TURN_NUMBER] >= rf[R_MAX_TURNS]:
        end_round(g, END_TURN_CAP, rf)
        return
    n = rf[R_PLAYERS]
    t = g[TURN] + 1
    if t == n:
        t = 0
    if t == g[CALLER]:
        t = t + 1 if t + 1 < n else 0
    g[TURN] = t
    g[TURN_NUMBER] += 1
    g[TURN_FINAL] = 1 if g[CALLER] >= 0 else 0
    g[PHASE] = PH_TURN_START
    if g[DLEN] == 0 and (g[PLEN] <= 1 or rf[R_NO_RESHUFFLE]):
        end_round(g, END_DECK, rf)


@_inline
def draw_card(g: Any, rf: Any, mt: Any) -> Any:
    """Top card of the deck, reshuffling the pile (all but its top) if the deck is empty."""
    deck = rf[R_DECK]
    if g[DLEN] == 0:
        plen = g[PLEN]
        if plen <= 1 or rf[R_NO_RESHUFFLE]:
            return EMPTY
        pile = rf[R_PILE]
        top = g[pile + plen - 1]
        for j in range(plen - 1):
            g[deck + j] = g[pile + j]
        shuffle(g, deck, plen - 1, draw_chance(g), mt)
        g[DLEN] = plen - 1
        g[pile] = top
        g[PLEN] = 1
        g[RESHUFFLES] += 1
    g[DLEN] -= 1
    return g[deck + g[DLEN]]


@_inline
def open_poll(g: Any, rf: Any) -> None:
    w = g[WINDOW]
    if w == WINDOW_CLOSED or g[PLEN] == 0 or open_slots(g, rf, -1, 1) == 0:
        next_turn(g, rf)
        return
    no_caller = not rf[R_CALLER_MAY_SNAP]
    caller = g[CALLER]
    k = 0
    if w >= 0:
        if not (no_caller and w == caller):
            g[POLL] = w
            k = 1
    else:
        n = rf[R_PLAYERS]
        start = below(draw_chance(g), n)
        for j in range(n):
            s = start + j
            if s >= n:
                s -= n
            if no_caller and s == caller:
                continue
            g[POLL + k] = s
            k += 1
    if k == 0:
        next_turn(g, rf)
        return
    g[POLL_LEN] = k
    g[POLL_I] = 0
    g[PHASE] = PH_POLL


@_inline
def below(x: Any, n: int) -> Any:
    """``x % n`` for a uint64 ``x``, as an int64. For 2, 4 or 8 players a mask: a 64-bit
    division costs tens of cycles, once a discard, on the way to the poll's first seat."""
    if (n & (n - 1)) == 0:
        return np.int64(x & _U(n - 1))
    return np.int64(x % _U(n))


@_inline
def poll_next(g: Any, rf: Any) -> None:
    g[POLL_I] += 1
    if g[POLL_I] >= g[POLL_LEN]:
        g[POLL_LEN] = 0
        g[POLL_I] = 0
        next_turn(g, rf)


@_inline
def after_discard(g: Any, rf: Any) -> None:
    g[POWER] = P_NONE
    g[LOOK_A] = -1
    g[LOOK_B] = -1
    if g[TURN_FINAL]:
        g[FINAL_LEFT] -= 1
        if g[FINAL_LEFT] <= 0:
            end_round(g, END_CAMBIO, rf)
            return
    open_poll(g, rf)


@_inline
def power_has_target(g: Any, p: int, seat: int, rf: Any) -> bool:
    own = seat_open(g, seat, rf, 2)
    others = open_slots(g, rf, seat, 2)
    if p == P_PEEK_OWN:
        return own > 0
    if p == P_PEEK_OTHER:
        return others > 0
    if p == P_SWAP_OWN_OTHER or p == P_LOOK_MAY:  # noqa: SIM109
        return own > 0 and others > 0
    return own + others >= 2


@_inline
def discard(g: Any, card: int, seat: int, may_fire: bool, rf: Any) -> None:
    g[rf[R_PILE] + g[PLEN]] = card
    g[PLEN] += 1
    g[WINDOW] = WINDOW_CLOSED if rf[R_NO_SNAPPING] else WINDOW_ANYONE
    p = rf[56 + card] if may_fire else P_NONE
    if p != P_NONE and power_has_target(g, p, seat, rf):
        g[POWER] = p
        g[PHASE] = PH_POWER
    else:
        after_discard(g, rf)


@_jit
def snap_succeeded(g: Any, snapper: int, owner: int, rf: Any) -> None:
    if rf[R_AUTO_CALL] and g[CALLER] < 0:
        for s in (snapper, owner):
            if not grid_occupied(g, s, rf):
                g[CALLER] = s
                g[FINAL_LEFT] = rf[R_PLAYERS] - 1
                break
    open_poll(g, rf)


@_inline
def has_room(g: Any, seat: int, rf: Any) -> bool:
    cap = rf[R_MAX_GRID]
    length = g[rf[R_GLEN] + seat]
    if cap < 0 or length < cap:
        return True
    at = cell(rf, seat, 0)
    for s in range(length):  # noqa: SIM110
        if g[at + s] == EMPTY:
            return True
    return False


@_inline
def add_to_grid(g: Any, seat: int, card: int, rf: Any) -> Any:
    """A card into a new slot of ``seat``'s grid, or an empty one once ``max_grid`` is
    reached, seen by nobody; returns the slot."""
    cap = rf[R_MAX_GRID]
    length = g[rf[R_GLEN] + seat]
    at = cell(rf, seat, 0)
    kat = kcell(rf, seat, 0)
    if 0 <= cap <= length:
        for s in range(length):
            if g[at + s] == EMPTY:
                g[at + s] = card
                g[kat + s] = 0
                return s
    g[at + length] = card
    g[kat + length] = 0
    g[rf[R_GLEN] + seat] = length + 1
    return length


@_inline
def snap(g: Any, seat: int, a: int, rf: Any, mt: Any) -> None:
    p = a >> 8
    c = cell(rf, p, a & 255)
    kc = kcell(rf, p, a & 255)
    card = g[c]
    g[SNAP_SEAT] = seat
    g[SNAP_ADDR] = a
    g[SNAP_CARD] = card
    pile = rf[R_PILE]
    if card >> 2 == g[pile + g[PLEN] - 1] >> 2:
        g[SNAP_RIGHT] = 1
        g[pile + g[PLEN]] = card
        g[PLEN] += 1
        g[c] = EMPTY
        g[kc] = 0
        if rf[R_ONE_SNAP]:
            g[WINDOW] = WINDOW_CLOSED
        elif rf[R_SNAPPER_ONLY]:
            g[WINDOW] = seat
        if p != seat and grid_occupied(g, seat, rf):
            g[GIVE_ADDR] = a
            g[GIVE_SEAT] = seat
            g[PHASE] = PH_GIVE
            return
        snap_succeeded(g, seat, p, rf)
        return
    g[SNAP_RIGHT] = 0
    g[kc] = (1 << (rf[R_PLAYERS] + 1)) - 1
    for _ in range(rf[R_PENALTY]):
        if not has_room(g, seat, rf):
            break
        penalty = draw_card(g, rf, mt)
        if penalty < 0:
            end_round(g, END_DECK, rf)
            return
        add_to_grid(g, seat, penalty, rf)
    poll_next(g, rf)


@_jit
def give(g: Any, seat: int, slot: int, rf: Any) -> None:
    a = g[GIVE_ADDR]
    p = a >> 8
    to = cell(rf, p, a & 255)
    fro = cell(rf, seat, slot)
    known = rf[R_KNOWN] - rf[R_GRID]
    g[to] = g[fro]
    g[to + known] = g[fro + known]
    g[fro] = EMPTY
    g[fro + known] = 0
    g[GIVE_ADDR] = -1
    g[GIVE_SEAT] = -1
    snap_succeeded(g, seat, p, rf)


@_jit
def apply(g: Any, action: int, rf: Any, mt: Any) -> None:
    """``State.apply`` for the current player (unchecked).

    The branches that end a power's business (a peek, a switch, a king's choice) meet at
    one :func:`after_discard`: every loop holds this function inlined, and numba compiles
    an inlined helper again at each of its sites (docs/performance.md, "Compiling the
    kernels"). Sharing the swap's and the discard's :func:`discard` too compiled faster
    still but played 4-23% slower."""
    seat = current_player(g)
    g[ACTIONS] += 1
    kind = action & 31
    a = (action >> 5) & 0xFFFF
    settle = (kind == KEEP) | (kind == SKIP)  # a king's choice made: nothing else to do
    if kind == SNAP:
        snap(g, seat, a, rf, mt)
    elif kind == PASS:
        poll_next(g, rf)
    elif kind == DRAW:
        card = draw_card(g, rf, mt)
        if card < 0:
            end_round(g, END_DECK, rf)
            return
        g[HELD] = card
        g[HELD_FROM_PILE] = 0
        g[PHASE] = PH_DRAWN
    elif kind == SWAP:
        c = cell(rf, seat, a)
        old = g[c]
        g[c] = g[HELD]
        g[kcell(rf, seat, a)] = (1 << (rf[R_PLAYERS] + 1)) - 1 if g[HELD_FROM_PILE] \
            else 1 << seat
        g[HELD] = EMPTY
        discard(g, old, seat, rf[R_FIRE_REPLACED] != 0, rf)
    elif kind == DISCARD:
        card = g[HELD]
        g[HELD] = EMPTY
        fires = not g[HELD_FROM_PILE] or rf[R_FIRE_REPLACED] != 0
        discard(g, card, seat, fires, rf)
    elif kind == CAMBIO:
        g[CALLER] = seat
        g[FINAL_LEFT] = rf[R_PLAYERS] - 1
        next_turn(g, rf)
    elif kind == TAKE:
        g[PLEN] -= 1
        g[HELD] = g[rf[R_PILE] + g[PLEN]]
        g[HELD_FROM_PILE] = 1
        g[WINDOW] = WINDOW_CLOSED
        g[PHASE] = PH_DRAWN
    elif kind == PEEK:
        g[kcell(rf, a >> 8, a & 255)] |= 1 << seat
        if g[POWER] == P_LOOK_ONE:  # the look before the switch
            g[LOOK_A] = a
            g[PHASE] = PH_KING_DECIDE
        else:
            settle = True
    elif kind == SWITCH or kind == LOOK:  # noqa: SIM109
        b = action >> 21
        ca = cell(rf, a >> 8, a & 255)
        cb = cell(rf, b >> 8, b & 255)
        known = rf[R_KNOWN] - rf[R_GRID]
        if kind == LOOK:
            bit = 1 << seat
            g[ca + known] |= bit
            g[cb + known] |= bit
            g[LOOK_A] = a
            g[LOOK_B] = b
            g[PHASE] = PH_KING_DECIDE
            return
        t = g[ca]
        g[ca] = g[cb]
        g[cb] = t
        t = g[ca + known]
        g[ca + known] = g[cb + known]
        g[cb + known] = t
        settle = True
    elif kind == GIVE:
        give(g, seat, a, rf)
    elif kind == EXCHANGE:
        exchange(g, seat, a, rf)
    if settle:
        after_discard(g, rf)


@_jit
def exchange(g: Any, seat: int, mask: int, rf: Any) -> None:
    """``State._exchange``: several cards of the grid for the held one. All of one value,
    they go to the pile and the held card takes the lowest slot; otherwise they are shown
    to everyone and stay, and the held card joins the grid face up or is discarded."""
    at = cell(rf, seat, 0)
    known = rf[R_KNOWN] - rf[R_GRID]
    first = -1
    last = -1
    taken = True
    for i in range(EXCHANGE_SLOTS):
        if mask >> i & 1:
            if first < 0:
                first = i
            elif rf[g[at + i]] != rf[g[at + first]]:
                taken = False
            last = i
    held = g[HELD]
    g[HELD] = EMPTY
    everyone = (1 << (rf[R_PLAYERS] + 1)) - 1
    if taken:
        top = g[at + last]
        pile = rf[R_PILE]
        for i in range(last):
            if mask >> i & 1:
                g[pile + g[PLEN]] = g[at + i]
                g[PLEN] += 1
                if i != first:
                    g[at + i] = EMPTY
                    g[at + i + known] = 0
        g[at + last] = EMPTY
        g[at + last + known] = 0
        g[at + first] = held
        g[at + first + known] = everyone if g[HELD_FROM_PILE] else 1 << seat
        discard(g, top, seat, rf[R_FIRE_REPLACED] != 0, rf)
        return
    for i in range(EXCHANGE_SLOTS):
        if mask >> i & 1:
            g[at + i + known] = everyone
    if rf[R_EXCHANGE] == EXCHANGE_KEEP_ALL and has_room(g, seat, rf):
        # The drawn card joins the grid face up (it has been shown with the others).
        slot = add_to_grid(g, seat, held, rf)
        g[kcell(rf, seat, slot)] = everyone
        g[WINDOW] = WINDOW_CLOSED
        after_discard(g, rf)
    else:
        discard(g, held, seat, False, rf)


@_jit
def reset(g: Any, seed: Any, dealer: int, full: Any, rf: Any, mt: Any, swaps: Any) -> None:
    """Shuffle, deal and give the opening peek (``State.__init__`` without ``deck``);
    ``swaps`` is room for ``len(full) - 1`` draws."""
    mt_seed(mt, deal_key(seed))
    swaps_from(mt, full.shape[0], swaps)
    deal(g, seed, dealer, full, rf, swaps)


@_jit
def deal_key(seed: Any) -> Any:
    """The seed of the deal's shuffle: the round's first chance draw."""
    return mix64(_U(seed) * _U(0x100000001B3) + _U(1))


@_jit
def seed_deals(seeds: Any, first: int, count: int, d: int, lanes: Any, keys: Any, kw: Any,
               swaps: Any, mt: Any) -> None:
    """The shuffles of games ``first .. first+count-1``: ``swaps[:, g]`` for game
    ``first + g``, drawn side by side (:func:`mt_seed_lanes`, :func:`deal_swaps`)."""
    for g in range(keys.shape[0]):
        keys[g] = deal_key(seeds[first + g]) if g < count else _U(0)
    mt_seed_lanes(lanes, keys, kw)
    deal_swaps(lanes, d, swaps, mt)


@_jit
def deal(g: Any, seed: Any, dealer: int, full: Any, rf: Any, swaps: Any) -> None:
    """:func:`reset` with the shuffle's indices drawn (``swaps``, as :func:`deal_swaps`)."""
    n = rf[R_PLAYERS]
    for j in range(N_SC):
        g[j] = 0
    g[SEED] = np.int64(_U(seed))
    g[CHANCE] = 1
    total = full.shape[0]
    deck = rf[R_DECK]
    pile = rf[R_PILE]
    for j in range(total):
        g[pile + j] = full[j]
    shuffle_by(g, pile, total, swaps)
    # g[pile:pile + total] is the shuffled list, top first; seat s gets cards 4s .. 4s+3.
    peek = rf[R_OPENING_PEEK]
    for s in range(n):
        g[rf[R_GLEN] + s] = 4
        at = cell(rf, s, 0)
        kat = kcell(rf, s, 0)
        for j in range(4):
            g[at + j] = g[pile + 4 * s + j]
            g[kat + j] = 0
        for j in range(peek):
            g[kat + (2, 3, 0, 1)[j]] = 1 << s
    rest = total - 4 * n
    # The engine pops from the end: the deck is stored bottom first.
    for j in range(rest):
        g[deck + j] = g[pile + total - 1 - j]
    g[DLEN] = rest
    g[PLEN] = 0
    g[DEALER] = dealer
    g[TURN] = dealer
    g[HELD] = EMPTY
    g[POWER] = P_NONE
    g[LOOK_A] = -1
    g[LOOK_B] = -1
    g[CALLER] = -1
    g[WINDOW] = WINDOW_CLOSED
    g[GIVE_ADDR] = -1
    g[GIVE_SEAT] = -1
    g[SNAP_SEAT] = -1
    g[PHASE] = PH_TURN_START
    next_turn(g, rf)


# ------------------------------------------------------------------------------ results
@_jit
def scores_of(g: Any, rf: Any, out: Any) -> None:
    """Each seat's score: its cards' values, then the kamikaze hand and the caller's rules
    where those are on (``State.scores``)."""
    n = rf[R_PLAYERS]
    for s in range(n):
        t = 0
        at = cell(rf, s, 0)
        for j in range(g[rf[R_GLEN] + s]):
            c = g[at + j]
            if c >= 0:
                t += rf[c]
        out[s] = t
    if rf[R_KAMIKAZE] or rf[R_ROUND_ZERO] != ZERO_NOBODY or rf[R_FAILED_CALL]:
        scored(g, rf, out, n)


@_jit
def scored(g: Any, rf: Any, out: Any, n: int) -> None:
    """``state._scored`` on the card totals in ``out[:n]``: a kamikaze hand scores
    ``kamikaze_holder`` for its holders and ``kamikaze_others`` for everyone else, and
    then no other rule applies; otherwise the caller, when not the lowest, adds
    ``failed_call_penalty`` and ``round_zero`` sets the lowest (or a lowest caller) to 0."""
    if rf[R_KAMIKAZE]:
        holders = 0
        for s in range(n):
            cards = twelves = thirteens = 0
            at = cell(rf, s, 0)
            for j in range(g[rf[R_GLEN] + s]):
                c = g[at + j]
                if c >= 0:
                    cards += 1
                    twelves += rf[c] == 12
                    thirteens += rf[c] == 13
            if cards == 4 and twelves == 2 and thirteens == 2:
                holders |= 1 << s
        if holders:
            for s in range(n):
                out[s] = rf[R_KAMIKAZE_HOLDER] if holders >> s & 1 else rf[R_KAMIKAZE_OTHERS]
            return
    low = out[0]
    for s in range(1, n):
        low = min(low, out[s])
    zero = rf[R_ROUND_ZERO]
    caller = g[CALLER]
    for s in range(n):
        if out[s] == low:
            if zero == ZERO_LOWEST or (zero == ZERO_CALLER_IF_LOWEST and s == caller):
                out[s] = 0
        elif s == caller:
            out[s] += rf[R_FAILED_CALL]


@_jit
def winners_mask(g: Any, rf: Any, buf: Any) -> int:
    """The winners as a bitmask of seats (``State.winners``); ``buf[:players]`` gets the
    scores."""
    n = rf[R_PLAYERS]
    scores_of(g, rf, buf)
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
                most = max(most, count_cards(g, s, rf))
        keep = 0
        for s in range(n):
            if tied >> s & 1 and count_cards(g, s, rf) == most:
                keep |= 1 << s
        tied = keep
        caller = g[CALLER]
        if tied & (tied - 1) and caller >= 0 and tied >> caller & 1:
            tied &= ~(1 << caller)
        return tied
    caller = g[CALLER]
    rule = rf[R_CALLER_TIE]
    if rule != CALLER_TIE_NONE and caller >= 0 and tied >> caller & 1:
        if rule == CALLER_TIE_WINS:
            tied = 1 << caller
        elif tied & (tied - 1):
            tied &= ~(1 << caller)
    return tied


@_jit
def count_cards(g: Any, seat: int, rf: Any) -> int:
    k = 0
    at = cell(rf, seat, 0)
    for j in range(g[rf[R_GLEN] + seat]):
        if g[at + j] >= 0:
            k += 1
    return k


# A finished round as one row: the scores, then these columns after them.
RES_WINNERS, RES_TURNS, RES_ACTIONS, RES_END, RES_CALLER, N_RES = range(6)


@_jit
def result_into(g: Any, rf: Any, row: Any) -> None:
    """Round ``g``'s result into ``row``: ``row[:players]`` the scores, then the winners'
    mask, the turn number, the actions, the end reason and the caller."""
    n = rf[R_PLAYERS]
    row[n + RES_WINNERS] = winners_mask(g, rf, row)
    row[n + RES_TURNS] = g[TURN_NUMBER]
    row[n + RES_ACTIONS] = g[ACTIONS]
    row[n + RES_END] = g[END_REASON]
    row[n + RES_CALLER] = g[CALLER]


# ------------------------------------------------------------------------------ batch loops
legal_inline = _inline(cast(Any, legal).py_func)
apply_inline = _inline(cast(Any, apply).py_func)
""":func:`legal` and :func:`apply` compiled into the loops that play whole rounds."""

@_loop
def reset_all(seeds: Any, dealers: Any, full: Any, st: Any, rf: Any, lanes: Any, keys: Any,
              kw: Any, swaps: Any, mt: Any) -> None:
    d = full.shape[0]
    for first in range(0, seeds.shape[0], LANES):
        count = min(LANES, seeds.shape[0] - first)
        seed_deals(seeds, first, count, d, lanes, keys, kw, swaps, mt)
        for g in range(count):
            i = first + g
            deal(st[i], seeds[i], dealers[i], full, rf, swaps[:, g])


@_loop
def legal_all(st: Any, rf: Any, out: Any, counts: Any, scratch: Any) -> None:
    for i in range(st.shape[0]):
        counts[i] = legal(st[i], rf, out[i], scratch)


@_loop
def step_all(actions: Any, st: Any, rf: Any, mt: Any) -> None:
    for i in range(st.shape[0]):
        if st[i, PHASE] != PH_ROUND_OVER and actions[i] >= 0:
            apply(st[i], actions[i], rf, mt)


@_loop
def play_uniform_all(seeds: Any, full: Any, g: Any, rf: Any, mt: Any, out: Any,
                     scratch: Any, policy_seed: int, no_call_before: int, lanes: Any,
                     keys: Any, kw: Any, swaps: Any, res: Any) -> None:
    """Whole rounds of uniform random play (:func:`uniform_rounds`) for any rule set: the
    rules are read from ``rf`` (:mod:`cambio.cards.batch_fixed` compiles the same loop with
    them as constants)."""
    uniform_rounds(seeds, full, g, rf, mt, out, scratch, policy_seed, no_call_before, lanes,
                   keys, kw, swaps, res)


@_inline
def uniform_rounds(seeds: Any, full: Any, g: Any, rf: Any, mt: Any, out: Any,
                   scratch: Any, policy_seed: int, no_call_before: int, lanes: Any,
                   keys: Any, kw: Any, swaps: Any, res: Any) -> None:
    """Whole rounds of uniform random play (``benchmarks/cards_random.py``'s policy: no
    Cambio call before turn ``no_call_before``), the policy drawing from splitmix64. Every
    round is played in the one record ``g`` (it stays in the cache); ``res[i]`` gets round
    ``i``'s :func:`result_into`.

    The policy's next draw ``z`` is computed one action ahead: it does not depend on the
    game, and computed after an action it sat behind that action's branches on random
    outcomes, so every mispredicted branch waited for the splitmix64 chain again."""
    ctr = _U(policy_seed) + _U(1)
    z = mix64(ctr)
    for first in range(0, seeds.shape[0], LANES):
        count = min(LANES, seeds.shape[0] - first)
        seed_deals(seeds, first, count, full.shape[0], lanes, keys, kw, swaps, mt)
        for lane in range(count):
            i = first + lane
            deal(g, seeds[i], rf[R_PLAYERS] - 1, full, rf, swaps[:, lane])
            while g[PHASE] != PH_ROUND_OVER:
                k = legal_inline(g, rf, out, scratch)
                lo = np.int64((out[0] == CAMBIO) & (g[TURN_NUMBER] < no_call_before))
                r = np.int64(((z >> _U(32)) * _U(k - lo)) >> _U(32))
                ctr += _U(1)
                z = mix64(ctr)
                apply_inline(g, out[lo + r], rf, mt)
            result_into(g, rf, res[i])
