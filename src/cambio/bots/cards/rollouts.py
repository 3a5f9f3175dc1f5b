"""Native rollouts for search: many :class:`~cambio.cards.State` s played out at once.

A search compares moves by playing each one out in many sampled worlds. On the Python
engine a rollout costs a millisecond or more, so a decision can afford tens of them; here
the worlds are copied into the rows of a :class:`~cambio.cards.batch.Batch` and played to
the end of the round by the native ``memory`` bot in every seat
(:func:`~cambio.bots.cards.native.memory_act`), a few tens of microseconds each, so a
decision can afford thousands.

The rows are the states exactly (the batch engine mirrors ``State`` field by field, chance
included), so a row finishes as ``play_round`` with ``memory`` bots would finish the state
(``tests/cards/test_rollouts.py`` checks it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.cards import Rules, State
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch
from cambio.cards.batch_kernels import _jit

from .memory import MemoryParams
from .native import memory_act, memory_tables


def load_state(b: Batch, i: int, s: State) -> None:
    """Make row ``i`` of ``b`` the state ``s`` (a polled round of ``b``'s rules)."""
    b.st[i] = 0
    grid, known, glen = b.grid[i], b.known[i], b.glen[i]
    grid.fill(k.EMPTY)
    for seat, (g, kk) in enumerate(zip(s.grids, s.known, strict=True)):
        m = len(g)
        glen[seat] = m
        grid[seat, :m] = g
        known[seat, :m] = kk
    deck, pile = s.deck, s.pile
    b.deck[i, :len(deck)] = deck
    b.pile[i, :len(pile)] = pile
    poll = s.poll
    b.poll[i, :len(poll)] = poll
    sc = b.sc[i]
    sc[k.DLEN], sc[k.PLEN] = len(deck), len(pile)
    sc[k.TURN], sc[k.TURN_NUMBER], sc[k.TURN_FINAL] = s.turn, s.turn_number, s.turn_final
    sc[k.HELD], sc[k.HELD_FROM_PILE] = s.held, s.held_from_pile
    sc[k.POWER], sc[k.LOOK_A], sc[k.LOOK_B] = s.power, s.look_a, s.look_b
    sc[k.CALLER], sc[k.FINAL_LEFT], sc[k.WINDOW] = s.caller, s.final_left, s.window
    sc[k.GIVE_ADDR], sc[k.GIVE_SEAT] = s.give_addr, s.give_seat
    sc[k.POLL_I], sc[k.POLL_LEN] = s.poll_i, len(poll)
    sc[k.PHASE], sc[k.END_REASON], sc[k.RESHUFFLES] = s.phase, int(s.end_reason), s.reshuffles
    sc[k.CHANCE] = s._chance
    sc[k.SEED] = np.uint64(s.seed).astype(np.int64)
    sc[k.DEALER] = s.dealer
    snap = s.last_snap
    if snap is None:
        sc[k.SNAP_SEAT] = -1
    else:
        sc[k.SNAP_SEAT], sc[k.SNAP_ADDR], sc[k.SNAP_CARD], sc[k.SNAP_RIGHT] = snap


@_jit
def _finish_all(rows: int, st: Any, rf: Any, mt: Any, out: Any, scratch: Any, vidx: Any,
                vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any,
                kf: Any) -> None:
    for i in range(rows):
        g = st[i]
        while g[k.PHASE] != k.PH_ROUND_OVER:
            nleg = k.legal(g, rf, out, scratch)
            action = memory_act(k.current_player(g), out, nleg, g, rf, vidx, vval, vcount,
                                prm, vg, cnt, dv, dp, kf)
            k.apply(g, action, rf, mt)


class Rollouts:
    """A reusable batch of ``rows`` worlds for one rule set and table size."""

    def __init__(self, rules: Rules, players: int, rows: int,
                 params: MemoryParams | None = None) -> None:
        self.batch = Batch(rules, players, rows)
        self.tables = memory_tables(self.batch, params)
        self.rules = rules
        self.players = players
        self.rows = rows

    def finish(self, rows: int) -> None:
        """Play rows ``0 .. rows-1`` to the end of the round, ``memory`` in every seat."""
        b = self.batch
        _finish_all(rows, b.st, b.rf, b.mt, b._acts[0], b._scratch, *self.tables)

    def shares(self, rows: int, seat: int) -> npt.NDArray[np.float64]:
        """Each finished row's win share for ``seat`` (1 alone, ``1/k`` shared)."""
        b = self.batch
        buf = np.zeros(self.players, dtype=np.int64)
        out = np.zeros(rows)
        for i in range(rows):
            mask = int(k.winners_mask(b.st[i], b.rf, buf))
            if mask >> seat & 1:
                out[i] = 1.0 / bin(mask).count("1")
        return out


def warm() -> None:
    """Compile the rollout kernels into numba's on-disk cache (``make`` runs this once at
    install): compiled cold, the first ``hard`` decision of a process would take most of a
    minute; from the cache it takes about a second."""
    r = Rollouts(Rules.preset("rulebook"), 2, 1)
    load_state(r.batch, 0, State(r.rules, 2, seed=0))
    r.finish(1)
    r.shares(1, 0)


__all__ = ["Rollouts", "load_state", "warm"]
