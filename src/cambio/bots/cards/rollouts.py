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

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from cambio.cards import Rules, State
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch
from cambio.cards.batch_kernels import _inline, _jit

from .memory import MemoryParams
from .native import memory_act, memory_tables


def load_state(b: Batch, i: int, s: State) -> None:
    """Make row ``i`` of ``b`` the state ``s`` (a polled round of ``b``'s rules)."""
    g = b.st[i]  # the game's record (batch_kernels' layout), written in place
    rf = b.rf
    g[:] = 0
    slots = b.slots
    at_grid, at_known, at_glen = int(rf[k.R_GRID]), int(rf[k.R_KNOWN]), int(rf[k.R_GLEN])
    g[at_grid:at_grid + len(s.grids) * slots] = k.EMPTY
    for seat, (cards, masks) in enumerate(zip(s.grids, s.known, strict=True)):
        m = len(cards)
        g[at_glen + seat] = m
        at = seat * slots
        g[at_grid + at:at_grid + at + m] = cards
        g[at_known + at:at_known + at + m] = masks
    deck, pile, poll = s.deck, s.pile, s.poll
    at = int(rf[k.R_DECK])
    g[at:at + len(deck)] = deck
    at = int(rf[k.R_PILE])
    g[at:at + len(pile)] = pile
    g[k.POLL:k.POLL + len(poll)] = poll
    g[k.DLEN], g[k.PLEN] = len(deck), len(pile)
    g[k.TURN], g[k.TURN_NUMBER], g[k.TURN_FINAL] = s.turn, s.turn_number, s.turn_final
    g[k.HELD], g[k.HELD_FROM_PILE] = s.held, s.held_from_pile
    g[k.POWER], g[k.LOOK_A], g[k.LOOK_B] = s.power, s.look_a, s.look_b
    g[k.CALLER], g[k.FINAL_LEFT], g[k.WINDOW] = s.caller, s.final_left, s.window
    g[k.GIVE_ADDR], g[k.GIVE_SEAT] = s.give_addr, s.give_seat
    g[k.POLL_I], g[k.POLL_LEN] = s.poll_i, len(poll)
    g[k.PHASE], g[k.END_REASON], g[k.RESHUFFLES] = s.phase, int(s.end_reason), s.reshuffles
    g[k.CHANCE] = s._chance
    g[k.SEED] = s.seed - (1 << 64) if s.seed >= 1 << 63 else s.seed
    g[k.DEALER] = s.dealer
    snap = s.last_snap
    if snap is None:
        g[k.SNAP_SEAT] = -1
    else:
        g[k.SNAP_SEAT], g[k.SNAP_ADDR], g[k.SNAP_CARD], g[k.SNAP_RIGHT] = snap


memory_act_inline = _inline(cast(Any, memory_act).py_func)
"""The memory bot's decision compiled into the rollout loops, with the engine's ``legal``
and ``apply`` (a call passes every array as its whole descriptor)."""


@_jit
def _finish_all(rows: int, st: Any, rf: Any, mt: Any, out: Any, scratch: Any, vidx: Any,
                vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any,
                kf: Any) -> None:
    for i in range(rows):
        g = st[i]
        while g[k.PHASE] != k.PH_ROUND_OVER:
            nleg = k.legal_inline(g, rf, out, scratch)
            seat = k.current_player(g)
            action = memory_act_inline(seat, out, nleg, g, rf, vidx, vval, vcount, prm[seat], vg,
                                cnt, dv, dp, kf)
            k.apply_inline(g, action, rf, mt)


@_jit
def _finish_rows(rows: int, st: Any, rf: Any, mt: Any, out: Any, scratch: Any, vidx: Any,
                 vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any,
                 kf: Any) -> None:
    for i in range(rows):
        g = st[i]
        while g[k.PHASE] != k.PH_ROUND_OVER:
            nleg = k.legal_inline(g, rf, out, scratch)
            seat = k.current_player(g)
            action = memory_act_inline(seat, out, nleg, g, rf, vidx, vval, vcount, prm[i, seat], vg,
                                cnt, dv, dp, kf)
            k.apply_inline(g, action, rf, mt)


class Rollouts:
    """A reusable batch of ``rows`` worlds for one rule set and table size."""

    def __init__(self, rules: Rules, players: int, rows: int,
                 params: MemoryParams | None = None) -> None:
        self.batch = Batch(rules, players, rows)
        vidx, vval, vcount, prm, *rest = memory_tables(self.batch, params)
        self.tables = (vidx, vval, vcount, np.tile(prm, (players, 1)), *rest)
        self.rules = rules
        self.players = players
        self.rows = rows

    def seat_params(self, seat: int, params: MemoryParams | None) -> None:
        """Let ``seat``'s ``memory`` play the rollouts with ``params`` (``None``: the
        defaults) -- a search can model its own later play with stronger weights than its
        opponents'."""
        self.tables[3][seat] = memory_tables(self.batch, params)[3]

    def finish(self, rows: int) -> None:
        """Play rows ``0 .. rows-1`` to the end of the round, ``memory`` in every seat (with
        each seat's weights)."""
        b = self.batch
        _finish_all(rows, b.st, b.rf, b.mt, b._acts[0], b._scratch, *self.tables)

    def params_row(self, params: MemoryParams | None) -> npt.NDArray[np.float64]:
        """The kernel's parameter vector for ``params`` (for :meth:`finish_with`)."""
        row: npt.NDArray[np.float64] = memory_tables(self.batch, params)[3]
        return row

    def finish_with(self, rows: int, prm: npt.NDArray[np.float64]) -> None:
        """As :meth:`finish`, with each row's own weights for each seat: ``prm[i, seat]``
        (rows x players x :meth:`params_row`), so that the worlds of one search can give
        an opponent different policies."""
        b = self.batch
        vidx, vval, vcount, _, *rest = self.tables
        _finish_rows(rows, b.st, b.rf, b.mt, b._acts[0], b._scratch, vidx, vval, vcount, prm,
                     *rest)

    def shares(self, rows: int, seat: int) -> npt.NDArray[np.float64]:
        """Each finished row's win share for ``seat`` (1 alone, ``1/k`` shared)."""
        return self.outcomes(rows, seat)[0]

    def scores(self, rows: int) -> npt.NDArray[np.int64]:
        """Each finished row's final score for every seat (rows x players): what a match
        standing adds to the totals (:mod:`cambio.bots.cards.match_value`)."""
        b = self.batch
        out = np.zeros((rows, self.players), dtype=np.int64)
        buf = np.zeros(self.players, dtype=np.int64)
        for i in range(rows):
            k.winners_mask(b.st[i], b.rf, buf)
            out[i] = buf
        return out

    def outcomes(self, rows: int, seat: int
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each finished row's win share for ``seat`` and ``seat``'s final score (hints
        show both)."""
        b = self.batch
        buf = np.zeros(self.players, dtype=np.int64)
        share = np.zeros(rows)
        score = np.zeros(rows)
        for i in range(rows):
            mask = int(k.winners_mask(b.st[i], b.rf, buf))
            score[i] = buf[seat]
            if mask >> seat & 1:
                share[i] = 1.0 / bin(mask).count("1")
        return share, score


def warm() -> None:
    """Compile the rollout kernels into numba's on-disk cache (``make`` runs this once at
    install): compiled cold, the first ``hard`` decision of a process would take most of a
    minute; from the cache it takes about a second."""
    r = Rollouts(Rules.preset("rulebook"), 2, 1)
    load_state(r.batch, 0, State(r.rules, 2, seed=0))
    r.finish(1)
    r.shares(1, 0)
    load_state(r.batch, 0, State(r.rules, 2, seed=0))
    r.finish_with(1, np.tile(r.params_row(None), (1, 2, 1)))


__all__ = ["Rollouts", "load_state", "warm"]
