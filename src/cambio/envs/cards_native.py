"""The card game's envs on the batch engine, compiled: deals, native opponents, the agent's
action numbers, and observations and masks encoded in the shared codec's layout
(:mod:`cambio.envs.cards_codec`), for :mod:`cambio.envs.cards_vector`'s vector envs and the
single-seat :class:`~cambio.envs.gymnasium.CardsSeatEnv` (:mod:`cambio.envs.native_seat`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.bots.cards.native import memory_act, memory_tables
from cambio.bots.cards.native_names import RANDOM
from cambio.cards import Rules
from cambio.cards import batch_kernels as k
from cambio.cards.actions import (
    CAMBIO,
    DISCARD,
    DRAW,
    EXCHANGE,
    GIVE,
    KEEP,
    LOOK,
    PASS,
    PEEK,
    SKIP,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
)
from cambio.cards.batch import Batch
from cambio.cards.batch_kernels import _inline, _jit
from cambio.extras import needs
from cambio.seeds import derive_seed

from .cards_codec import CLASSES, CardsCodec, card_class

with needs("research", "cambio.envs.cards_native"):
    from gymnasium.utils import seeding

Obs = dict[str, npt.NDArray[Any]]

F32 = npt.NDArray[np.float32]
_FIXED = (CAMBIO, DRAW, TAKE, DISCARD, KEEP, SKIP, PASS)


def _codec_tables(codec: CardsCodec) -> tuple[Any, ...]:
    """What the kernels need of the codec: each action kind's offset (-1: fixed, with its
    index), each card's class, and the classes' totals in the full deck."""
    kinds = np.full(32, -1, dtype=np.int64)
    fixed = np.full(32, -1, dtype=np.int64)
    for index, kind in enumerate(_FIXED):
        fixed[kind] = index
    s, a = codec.slots, codec.addresses
    base = len(_FIXED)
    for kind, off in ((SWAP, base), (GIVE, base + s), (PEEK, base + 2 * s),
                      (SNAP, base + 2 * s + a), (LOOK, base + 2 * s + 2 * a),
                      (SWITCH, base + 2 * s + 2 * a + a * a)):
        kinds[kind] = off
    if codec.rules.multi_exchange:  # one number per set of own slots (its bitmask)
        kinds[EXCHANGE] = base + 2 * s + 2 * a + 2 * a * a
    classes = np.array([card_class(c) for c in range(56)], dtype=np.int64)
    totals = np.array(codec._class_totals, dtype=np.float64)
    return kinds, fixed, classes, totals


@_jit
def rel(address: int, me: int, n: int, slots: int) -> int:
    return ((address >> 8) - me + n) % n * slots + (address & 255)


@_jit
def encode_action(action: int, me: int, n: int, slots: int, kinds: Any, fixed: Any) -> int:
    """``CardsCodec.encode_action``."""
    kind = action & 31
    if fixed[kind] >= 0:
        return int(fixed[kind])
    a = (action >> 5) & 0xFFFF
    off = kinds[kind]
    if kind == SWAP or kind == GIVE or kind == EXCHANGE:  # noqa: SIM109
        return int(off + a)
    if kind == PEEK or kind == SNAP:  # noqa: SIM109
        return int(off + rel(a, me, n, slots))
    return int(off + rel(a, me, n, slots) * n * slots + rel(action >> 21, me, n, slots))


@_jit
def one_hot_seat(v: Any, at: int, who: int, me: int, n: int) -> None:
    if who >= 0:
        v[at + (who - me + n) % n] = 1.0


@_inline
def encode_grids(g: Any, me: int, n: int, slots: int, rf: Any, classes: Any, v: Any) -> int:
    """Each slot, seats from ``me`` on: empty, hidden, or the class of a card ``me`` knows."""
    width = CLASSES + 2
    bit = (1 << me) | (1 << n)
    for s in range(n):
        base = (s - me + n) % n * slots
        for slot in range(slots):
            code = 0
            if slot < g[rf[k.R_GLEN] + s] and g[k.cell(rf, s, slot)] >= 0:
                c = g[k.cell(rf, s, slot)]
                code = 2 + classes[c] if g[k.kcell(rf, s, slot)] & bit else 1
            v[(base + slot) * width + code] = 1.0
    return n * slots * width


@_inline
def encode_cards(g: Any, me: int, at: int, deck_total: int, rf: Any, classes: Any,
                 totals: Any, v: Any) -> int:
    """The held card, where it came from, the pile's top and its classes, the deck's size."""
    width = CLASSES + 2
    held = g[k.HELD]
    if held >= 0:
        seen = g[k.HELD_FROM_PILE] or me == g[k.TURN]
        v[at + (2 + classes[held] if seen else 1)] = 1.0
    else:
        v[at] = 1.0
    at += width
    v[at] = 1.0 if g[k.HELD_FROM_PILE] else 0.0
    at += 1
    plen = g[k.PLEN]
    pile = rf[k.R_PILE]
    v[at + (1 + classes[g[pile + plen - 1]] if plen > 0 else 0)] = 1.0
    at += CLASSES + 1
    for j in range(plen):
        v[at + classes[g[pile + j]]] += 1.0
    for c in range(CLASSES):
        v[at + c] = v[at + c] / totals[c]
    at += CLASSES
    v[at] = g[k.DLEN] / deck_total
    return at + 1


@_inline
def encode_turn(g: Any, me: int, n: int, slots: int, at: int, v: Any, powers: int) -> int:
    """The phase, who acts, whose turn, the caller and the final turns left, the power and
    the king's looked-at slots."""
    ph = g[k.PHASE]
    v[at + ph] = 1.0
    at += 7
    one_hot_seat(v, at, -1 if ph == k.PH_ROUND_OVER else k.current_player(g), me, n)
    at += n
    one_hot_seat(v, at, g[k.TURN], me, n)
    at += n
    caller = g[k.CALLER]
    one_hot_seat(v, at, caller, me, n)
    at += n
    v[at] = g[k.FINAL_LEFT] / n if caller >= 0 else 0.0
    at += 1
    v[at + g[k.POWER]] = 1.0  # the codec's powers are the codes' order
    at += powers
    if g[k.LOOK_A] >= 0:
        v[at + rel(g[k.LOOK_A], me, n, slots)] = 1.0
    if g[k.LOOK_B] >= 0:  # none after evan's queen's look at one card
        v[at + rel(g[k.LOOK_B], me, n, slots)] = 1.0
    return at + n * slots


@_inline
def encode_snaps(g: Any, me: int, n: int, slots: int, at: int, classes: Any, v: Any) -> int:
    """The snap window, the seats still to be polled, the seat owed a card, the last snap."""
    a = n * slots
    ph = g[k.PHASE]
    w = g[k.WINDOW]
    v[at + (0 if w == k.WINDOW_ANYONE else 1 if w == k.WINDOW_CLOSED else
            2 + (w - me + n) % n)] = 1.0
    at += 2 + n
    if ph == k.PH_POLL:
        for j in range(g[k.POLL_I], g[k.POLL_LEN]):
            one_hot_seat(v, at, g[k.POLL + j], me, n)
    at += n
    if ph == k.PH_GIVE:
        one_hot_seat(v, at, g[k.GIVE_SEAT], me, n)
    at += n
    if g[k.SNAP_SEAT] >= 0:
        one_hot_seat(v, at, g[k.SNAP_SEAT], me, n)
        v[at + n + rel(g[k.SNAP_ADDR], me, n, slots)] = 1.0
        v[at + n + a + classes[g[k.SNAP_CARD]]] = 1.0
        v[at + n + a + CLASSES] = 1.0 if g[k.SNAP_RIGHT] else 0.0
    return at + n + a + CLASSES + 1


@_jit
def encode(g: Any, me: int, slots: int, deck_total: int, rf: Any, classes: Any, totals: Any,
           v: Any) -> None:
    """``CardsCodec.encode(observe(state, me))`` for game ``g`` into ``v``, section by
    section in the codec's order."""
    n = rf[k.R_PLAYERS]
    for j in range(v.shape[0]):
        v[j] = 0.0
    at = encode_grids(g, me, n, slots, rf, classes, v)
    at = encode_cards(g, me, at, deck_total, rf, classes, totals, v)
    at = encode_turn(g, me, n, slots, at, v, 8 if rf[k.R_LOOK_ONE_USED] else 7)
    at = encode_snaps(g, me, n, slots, at, classes, v)
    v[at] = min(1.0, g[k.TURN_NUMBER] / 200.0)
    v[at + 1] = min(1.0, g[k.RESHUFFLES] / 4.0)


@_jit
def play_others(me: int, kinds: Any, st: Any, rf: Any, mt: Any, bot_mt: Any, out: Any,
                scratch: Any, vidx: Any, vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any,
                dv: Any, dp: Any, kf: Any) -> None:
    """Let the native bots move in every game until it is ``me``'s turn or the game is over
    (``bot_mt[i * players + seat]``: game ``i``'s random bot in ``seat``)."""
    n = rf[k.R_PLAYERS]
    for i in range(st.shape[0]):
        g = st[i]
        while g[k.PHASE] != k.PH_ROUND_OVER:
            seat = k.current_player(g)
            if seat == me:
                break
            nleg = k.legal(g, rf, out, scratch)
            if kinds[seat] == RANDOM:
                action = out[k.mt_randbelow(bot_mt[i * n + seat], nleg)]
            else:
                action = memory_act(seat, out, nleg, g, rf, vidx, vval, vcount, prm, vg, cnt,
                                    dv, dp, kf)
            k.apply(g, action, rf, mt)


@_jit
def agent_step(numbers: Any, slots: int, kinds: Any, fixed: Any, st: Any, rf: Any,
               mt: Any, out: Any, scratch: Any) -> int:
    """Apply action number ``numbers[i]`` for the seat to act in every game not over; the
    first game whose number is not legal (nothing is applied then), or -1."""
    n = rf[k.R_PLAYERS]
    for i in range(st.shape[0]):
        if st[i, k.PHASE] == k.PH_ROUND_OVER:
            continue
        me = k.current_player(st[i])
        nleg = k.legal(st[i], rf, out[i], scratch)
        found = False
        for j in range(nleg):
            if encode_action(out[i, j], me, n, slots, kinds, fixed) == numbers[i]:
                out[i, 0] = out[i, j]
                found = True
                break
        if not found:
            return i
    for i in range(st.shape[0]):
        if st[i, k.PHASE] != k.PH_ROUND_OVER:
            k.apply(st[i], out[i, 0], rf, mt)
    return -1


@_inline
def observe_one(g: Any, me: int, slots: int, kinds: Any, fixed: Any, deck_total: int,
                rf: Any, classes: Any, totals: Any, out: Any, scratch: Any, v: Any,
                m: Any) -> None:
    """Game ``g`` as seat ``me`` sees it into ``v``, and that seat's mask into ``m`` (all
    zeros unless ``me`` is to act)."""
    n = rf[k.R_PLAYERS]
    encode(g, me, slots, deck_total, rf, classes, totals, v)
    for j in range(m.shape[0]):
        m[j] = 0
    if g[k.PHASE] != k.PH_ROUND_OVER and k.current_player(g) == me:
        nleg = k.legal(g, rf, out, scratch)
        for j in range(nleg):
            m[encode_action(out[j], me, n, slots, kinds, fixed)] = 1


@_jit
def observe_all(seats: Any, slots: int, kinds: Any, fixed: Any, deck_total: int, st: Any,
                rf: Any, classes: Any, totals: Any, out: Any, scratch: Any, obs: Any,
                mask: Any) -> None:
    """Game ``i`` as seat ``seats[i]`` sees it (-1: the seat to act, or seat 0 once over),
    and that seat's mask."""
    for i in range(st.shape[0]):
        g = st[i]
        me = seats[i]
        if me < 0:
            me = 0 if g[k.PHASE] == k.PH_ROUND_OVER else k.current_player(g)
        observe_one(g, me, slots, kinds, fixed, deck_total, rf, classes, totals, out, scratch,
                    obs[i], mask[i])


ILLEGAL = -2
""":func:`turn_step`'s answer to an action number that is not legal."""


@_inline
def apply_number(number: int, slots: int, kinds: Any, fixed: Any, g: Any, rf: Any, mt: Any,
                 out: Any, scratch: Any) -> bool:
    """Apply action number ``number`` for the seat to act in ``g``; False (nothing applied)
    if it is not legal there."""
    if g[k.PHASE] == k.PH_ROUND_OVER:
        return False
    me = k.current_player(g)
    n = rf[k.R_PLAYERS]
    nleg = k.legal(g, rf, out, scratch)
    for j in range(nleg):
        if encode_action(out[j], me, n, slots, kinds, fixed) == number:
            k.apply(g, out[j], rf, mt)
            return True
    return False


# The codes of turn_step and seat_step: a header, then the codec's tables.
(C_SLOTS, C_DECK_TOTAL, C_ACTIONS, C_SCRATCH, C_KINDS) = range(5)
C_FIXED = C_KINDS + 32
C_CLASSES = C_FIXED + 32
N_CODES = C_CLASSES + 56


def turn_tables(games: BatchGames) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`turn_step`'s ``codes`` (the slots, the full deck's size, the room for the
    legal actions and the scratch, then the action kinds' offsets, the fixed actions' and
    each card's class) and its ``work`` array (the legal actions, the scratch, the
    generator's state): a call of one game costs mostly its arguments, so the tables
    travel as two arrays rather than eight."""
    b = games.batch
    codes = np.zeros(N_CODES, dtype=np.int64)
    codes[:C_KINDS] = (games.codec.slots, games.codec.deck_total, b.max_actions,
                       b._scratch.shape[0])
    codes[C_KINDS:C_FIXED] = games._kinds_off
    codes[C_FIXED:C_CLASSES] = games._fixed
    codes[C_CLASSES:] = games._classes
    work = np.zeros(b.max_actions + b._scratch.shape[0] + b.mt.shape[0], dtype=np.int64)
    return codes, work


@_inline
def unpacked(codes: Any, work: Any) -> tuple[Any, ...]:
    """:func:`turn_tables`' arrays apart: the kinds' offsets, the fixed actions', the
    classes; the legal actions, the scratch, the generator's state."""
    a = codes[C_ACTIONS]
    s = a + codes[C_SCRATCH]
    return (codes[C_KINDS:C_FIXED], codes[C_FIXED:C_CLASSES], codes[C_CLASSES:], work[:a],
            work[a:s], work[s:])


@_jit
def turn_step(number: int, v: Any, m: Any, codes: Any, totals: Any, g: Any, rf: Any,
              work: Any) -> int:
    """One turn of one game, as the AEC env takes it: apply action number ``number`` for
    the seat to act in ``g`` (``number < 0``: none, the game as it is), then encode the view
    and mask of the seat to act next into ``v`` and ``m`` (``codes`` and ``work``:
    :func:`turn_tables`). Returns that seat, ``-1`` once the round is over (nothing
    encoded), or :data:`ILLEGAL` (nothing applied or encoded): one call a turn, where the
    step and the observation were two."""
    slots = codes[C_SLOTS]
    kinds, fixed, classes, out, scratch, mt = unpacked(codes, work)
    if number >= 0 and not apply_number(number, slots, kinds, fixed, g, rf, mt, out, scratch):
        return ILLEGAL
    if g[k.PHASE] == k.PH_ROUND_OVER:
        return -1
    me = k.current_player(g)
    observe_one(g, me, slots, kinds, fixed, codes[C_DECK_TOTAL], rf, classes, totals, out,
                scratch, v, m)
    return int(me)


@_jit
def seat_step(number: int, v: Any, m: Any, me: int, codes: Any, totals: Any, st: Any,
              rf: Any, work: Any, bots: Any, bot_mt: Any, vidx: Any, vval: Any, vcount: Any,
              prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any, kf: Any) -> int:
    """:func:`turn_step` for the single-seat env of seat ``me`` in the one game of ``st``:
    after the action, the native bots (``bots``, :func:`play_others`) move until it is
    ``me``'s turn again or the round is over, and ``me``'s view is encoded. Returns ``me``,
    ``-1`` once over, or :data:`ILLEGAL` (nothing applied, no bot moved)."""
    g = st[0]
    slots = codes[C_SLOTS]
    kinds, fixed, classes, out, scratch, mt = unpacked(codes, work)
    if number >= 0 and not apply_number(number, slots, kinds, fixed, g, rf, mt, out, scratch):
        return ILLEGAL
    play_others(me, bots, st, rf, mt, bot_mt, out, scratch, vidx, vval, vcount, prm, vg, cnt,
                dv, dp, kf)
    if g[k.PHASE] == k.PH_ROUND_OVER:
        return -1
    observe_one(g, me, slots, kinds, fixed, codes[C_DECK_TOTAL], rf, classes, totals, out,
                scratch, v, m)
    return me


class BatchGames:
    """The batch engine's side of both card vector envs: deals, native opponents, agent
    steps and observations, on the codec's numbers."""

    def __init__(self, num_envs: int, rules: Rules, players: int, slots: int,
                 kinds: list[int]) -> None:
        self.rules = rules
        self.num_envs = num_envs
        self.players = players
        self.codec = CardsCodec(rules, players, slots)
        self.batch = Batch(rules, players, num_envs)
        self.kinds = np.array(kinds, dtype=np.int64)
        self._bot_mt = np.zeros((num_envs * players, 625), dtype=np.int64)
        self._memory = memory_tables(self.batch)
        self._kinds_off, self._fixed, self._classes, self._totals = _codec_tables(self.codec)
        self.rngs: list[np.random.Generator] = []

    def seed(self, seeds: Sequence[int | None]) -> None:
        """Env ``i``'s generator is seeded ``seeds[i]`` (fresh entropy if None)."""
        self.rngs = [seeding.np_random(s)[0] for s in seeds]

    def deal(self, games: npt.NDArray[np.intp], learner: int) -> None:
        for i in games.tolist():
            self.deal_seeded(i, int(self.rngs[i].integers(0, 2**62)), learner)

    def deal_seeded(self, i: int, game_seed: int, learner: int) -> None:
        """Deal game ``i`` from ``game_seed`` and seed its random bots from it, as
        :class:`~cambio.envs.gymnasium.CardsSeatEnv` seeds its Python bots."""
        b = self.batch
        n = self.players
        k.reset(b.st[i], np.uint64(game_seed), n - 1, b.full, b.rf, b.mt, b.swaps[:, 0])
        for s in range(n):
            if s != learner and self.kinds[s] == RANDOM:
                k.mt_seed(self._bot_mt[i * n + s], np.uint64(derive_seed(game_seed, s, 1)))

    def others(self, learner: int) -> None:
        b = self.batch
        play_others(learner, self.kinds, b.st, b.rf, b.mt, self._bot_mt, b._acts[0],
                    b._scratch, *self._memory)

    def apply(self, numbers: npt.NDArray[np.int64]) -> None:
        b = self.batch
        bad = agent_step(numbers, self.codec.slots, self._kinds_off, self._fixed, b.st, b.rf,
                         b.mt, b._acts, b._scratch)
        if bad >= 0:
            raise ValueError(f"action {int(numbers[bad])} is not legal in env {bad}")

    def observe(self, seats: npt.NDArray[np.int64], rows: npt.NDArray[np.intp] | None = None
                ) -> Obs:
        """Each game (or each of ``rows``) as ``seats[i]`` sees it (-1: the seat to act)."""
        b = self.batch
        st = b.st if rows is None else b.st[rows]
        count = st.shape[0]
        obs = np.zeros((count, self.codec.size), dtype=np.float32)
        mask = np.zeros((count, self.codec.num_actions), dtype=np.int8)
        observe_all(seats, self.codec.slots, self._kinds_off, self._fixed,
                    self.codec.deck_total, st, b.rf, self._classes, self._totals, b._acts[0],
                    b._scratch, obs, mask)
        return {"observation": obs, "action_mask": mask}


__all__ = ["ILLEGAL", "BatchGames", "Obs", "encode", "encode_action", "observe_all", "seat_step",
           "turn_step", "turn_tables"]
