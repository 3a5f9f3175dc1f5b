"""Sampled worlds dealt straight into the batch engine's records: ``hard``'s and ``master``'s
worlds, what :func:`~cambio.bots.cards.search.determinize` deals, without a ``State`` each.

A search deals hundreds of worlds a decision. Dealt one ``State`` at a time in Python and
then flattened into a record, they took three quarters of ``master``'s CPU, the rollouts
(numba) a quarter. Here one world of the decision is built the usual way as a template
(the public facts are the same in every world), copied into every row, and a numba kernel
deals each row's unseen cards, knowledge masks and chance seed into it.

The rows are exactly those :func:`load_states` makes of ``determinize``'s worlds, and the
generator ends in the same state: the random numbers are drawn from the bot's own ``Random``
in ``determinize``'s order (a world's seed, then one draw per tilted card and one per
opponent's card it may know; how many depends only on the view), and the kernel repeats
``determinize``'s arithmetic on them (the weighted draw's sum and subtractions in the same
order). ``tests/cards/test_worlds.py`` checks row for row over thousands of views; it is a
mirror of ``determinize`` (ARCHITECTURE.md, "Mirrors").
"""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np

from cambio.cards import EMPTY, HIDDEN, CardView
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch
from cambio.cards.batch_kernels import _jit

from .belief import Belief
from .rollouts import load_states
from .search import tilt_weights, world


def load_worlds(b: Batch, first: int, view: CardView, belief: Belief, rng: Random,
                worlds: int, *, tilt: float = 0.0, knows: float | None = 1.0,
                seat_tilt: dict[int, float] | None = None, face_up: bool = False) -> None:
    """Rows ``first .. first + worlds - 1`` of ``b``: what
    ``load_states(b, first, [determinize(view, belief, rng, tilt=tilt, knows=knows,
    seat_tilt=seat_tilt, cards=c) for c in belief.samples(rng, worlds)])`` makes, with
    ``rng`` left as that leaves it. ``face_up`` (``pimc``'s worlds, with ``knows=None``):
    every slot's card known to every seat and the public."""
    assert not face_up or knows is None
    cards = belief.sample_rows(rng, worlds)
    # One row of weights per tilt in play: row 0 the opponents', then each tilted seat's.
    values = belief.values
    tables = [tilt_weights(tilt, values) if tilt else [0.0] * len(values)]
    table_of: dict[int, int] = {}
    for seat, lam in (seat_tilt or {}).items():
        table_of[seat] = len(tables)
        tables.append(tilt_weights(lam, values))
    plan = _Plan(view, bool(tilt), knows, table_of)
    if face_up:
        everyone = (1 << (view.players + 1)) - 1  # every seat's bit and the public's
        plan.masks = [[everyone] * len(row) for row in plan.masks]
    hidden_held = view.held == HIDDEN
    deck = cards.shape[1] - len(plan.seats) - hidden_held
    load_states(b, first, [world(view, 0, plan.grids, plan.masks,
                                 0 if hidden_held else view.held, [0] * deck)])
    seeds = [0] * worlds
    flat: list[float] = []
    getrandbits, random, extend, each = rng.getrandbits, rng.random, flat.extend, \
        range(plan.draws)
    for w in range(worlds):
        seeds[w] = getrandbits(62)
        extend([random() for _ in each])
    uniforms = np.array(flat, dtype=np.float64).reshape(worlds, plan.draws)
    seats, slots, table, weighed, known = (
        np.array(x, dtype=np.int64)
        for x in (plan.seats, plan.slots, plan.table, plan.weighed, plan.known))
    _deal_rows(b.st, first, b.rf, cards, np.array(seeds, dtype=np.int64), uniforms, seats,
               slots, table, weighed, known, np.array(tables, dtype=np.float64),
               -1.0 if knows is None else float(knows), hidden_held)


class _Plan:
    """How ``determinize`` deals ``view``'s unseen slots, in its order: each one's seat,
    slot, weights row (``-1``: untilted), and the indices of its tilted draw and of its
    knowing draw among a world's random numbers (``-1``: none); and the template's grids
    and knowledge masks (an unseen card 0 there, dealt per world)."""

    def __init__(self, view: CardView, tilted: bool, knows: float | None,
                 table_of: dict[int, int]) -> None:
        me = view.seat
        assert me is not None
        self.seats: list[int] = []
        self.slots: list[int] = []
        self.table: list[int] = []
        self.weighed: list[int] = []
        self.known: list[int] = []
        self.grids: list[list[int]] = []
        self.masks: list[list[int]] = []
        self.draws = 0
        for seat, grid in enumerate(view.grids):
            theirs = seat != me
            row: list[int] = []
            kk: list[int] = []
            for i, c in enumerate(grid):
                if c == HIDDEN:
                    self._unseen(seat, i, table_of.get(seat, 0 if tilted else -1)
                                 if theirs else -1, knows is not None and theirs)
                row.append(0 if c == HIDDEN else c)
                if c == EMPTY:
                    kk.append(0)
                elif knows is None:
                    kk.append(view.seen[seat][i])
                else:  # 0 for our own unseen card; an opponent's is dealt per world
                    kk.append(0 if c == HIDDEN else (1 << me) | (1 << seat))
            self.grids.append(row)
            self.masks.append(kk)

    def _unseen(self, seat: int, slot: int, table: int, may_know: bool) -> None:
        self.seats.append(seat)
        self.slots.append(slot)
        self.table.append(table)
        self.weighed.append(self.draws if table >= 0 else -1)
        self.draws += table >= 0
        self.known.append(self.draws if may_know else -1)
        self.draws += may_know


@_jit
def _deal_rows(st: Any, first: int, rf: Any, cards: Any, seeds: Any, uniforms: Any,
               seats: Any, slots: Any, table: Any, weighed: Any, known: Any,
               weights: Any, knows: float, hidden_held: bool) -> None:
    """Copy row ``first`` (the template; once world 0 is dealt into it, every cell a world
    deals is dealt again in each row, so it serves as well) to the rows after it, then deal
    world ``w``'s cards ``cards[w]`` into row ``first + w`` as ``determinize`` pops them:
    the unseen slot ``h`` takes the last card, after a tilted draw (``uniforms[w,
    weighed[h]]`` against ``weights[table[h]]``) has swapped its pick there; a seat knows
    its card if ``uniforms[w, known[h]] < knows``; then the held card if unseen, then the deck."""
    width = st.shape[1]
    deck_at = rf[k.R_DECK]
    for w in range(cards.shape[0]):
        g = st[first + w]
        if w:
            for j in range(width):
                g[j] = st[first, j]
        c = cards[w]
        top = c.shape[0]
        g[k.SEED] = seeds[w]
        for h in range(seats.shape[0]):
            if table[h] >= 0:
                j = _weighted_index(c, top, weights[table[h]], uniforms[w, weighed[h]])
                c[j], c[top - 1] = c[top - 1], c[j]
            top -= 1
            g[k.cell(rf, seats[h], slots[h])] = c[top]
            if known[h] >= 0:
                g[k.kcell(rf, seats[h], slots[h])] = \
                    (1 << seats[h]) if uniforms[w, known[h]] < knows else 0
        if hidden_held:
            top -= 1
            g[k.HELD] = c[top]
        for j in range(top):
            g[deck_at + j] = c[j]


@_jit
def _weighted_index(c: Any, top: int, weights: Any, u: float) -> int:
    """``search._weighted_index`` over ``c[:top]``: the first index at which ``u`` times the
    total, less the weights taken in order, falls to zero or below (else the last)."""
    total = 0.0
    for i in range(top):
        total += weights[c[i]]
    left = u * total
    for i in range(top):
        left -= weights[c[i]]
        if left <= 0.0:
            return i
    return top - 1


def warm() -> None:
    """Compile :func:`_deal_rows` into numba's cache (with the rollouts, at install)."""
    from cambio.cards import Rules, State, observe

    state = State(Rules.preset("rulebook"), 2, seed=0, polled=True)
    view = observe(state, state.current_player())
    b = Batch(state.rules, 2, 2)
    load_worlds(b, 0, view, Belief(view), Random(0), 2, tilt=0.5)


__all__ = ["load_worlds", "warm"]
