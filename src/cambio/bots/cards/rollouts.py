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

from collections.abc import Iterable
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from cambio.cards import Rules, State
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch
from cambio.cards.batch_kernels import _inline, _jit

from .memory import MemoryParams
from .native import known_match, memory_act, memory_tables

_NO_SNAP = (-1, 0, 0, 0)
"""The record's last snap (seat, address, card, right) when nobody has snapped."""


def load_state(b: Batch, i: int, s: State) -> None:
    """Make row ``i`` of ``b`` the state ``s`` (a polled round of ``b``'s rules)."""
    load_states(b, i, [s])


def load_states(b: Batch, first: int, states: Iterable[State]) -> None:
    """Make rows ``first``, ``first + 1`` ... of ``b`` the ``states``.

    Each state's fields go into one flat list (:func:`_flatten`), converted once for all
    of them and written into the records by :func:`_load_rows`: a numpy write a field, or
    a call a state, cost more than a rollout's first actions."""
    flat: list[int] = []
    count = 0
    for s in states:
        _flatten(s, flat)
        count += 1
    _load_rows(b.st, first, count, b.rf, np.array(flat, dtype=np.int64))


def _flatten(s: State, flat: list[int]) -> None:
    """Append ``s`` to ``flat``: the record's counters in their order, then the poll, the
    deck, the pile and each grid's length, cards and knowledge masks."""
    seed = s.seed
    poll, deck, pile = s.poll, s.deck, s.pile
    flat += (s.turn, s.turn_number, s.turn_final, s.held, s.held_from_pile, s.power,
             s.look_a, s.look_b, s.caller, s.final_left, s.window, s.give_addr, s.give_seat,
             s.poll_i, len(poll), s.phase, s.end_reason, s.reshuffles, s._chance,
             seed - (1 << 64) if seed >= 1 << 63 else seed, len(deck), len(pile), s.dealer,
             0, *(s.last_snap or _NO_SNAP))
    flat += poll
    flat += deck
    flat += pile
    for cards, masks in zip(s.grids, s.known, strict=True):
        flat.append(len(cards))
        flat += cards
        flat += masks


@_jit
def _load_rows(st: Any, first: int, count: int, rf: Any, flat: Any) -> None:
    """Rows ``first .. first + count - 1`` from :func:`_flatten`'s list: every other cell
    of a record zero, every slot past a grid's length empty."""
    at = 0
    for i in range(first, first + count):
        g = st[i]
        for j in range(g.shape[0]):
            g[j] = 0
        for j in range(k.N_SC):  # TURN .. SNAP_RIGHT, in the record's order
            g[j] = flat[at + j]
        at += k.N_SC
        for j in range(g[k.POLL_LEN]):
            g[k.POLL + j] = flat[at + j]
        at += g[k.POLL_LEN]
        deck = rf[k.R_DECK]
        for j in range(g[k.DLEN]):
            g[deck + j] = flat[at + j]
        at += g[k.DLEN]
        pile = rf[k.R_PILE]
        for j in range(g[k.PLEN]):
            g[pile + j] = flat[at + j]
        at += g[k.PLEN]
        for seat in range(rf[k.R_PLAYERS]):
            m = flat[at]
            at += 1
            g[rf[k.R_GLEN] + seat] = m
            c = k.cell(rf, seat, 0)
            kc = k.kcell(rf, seat, 0)
            for j in range(rf[k.R_SLOTS]):
                g[c + j] = k.EMPTY
            for j in range(m):
                g[c + j] = flat[at + j]
                g[kc + j] = flat[at + m + j]
            at += 2 * m


memory_act_inline = _inline(cast(Any, memory_act).py_func)
"""The memory bot's decision compiled into the rollout loops, with the engine's ``legal``
and ``apply`` (a call passes every array as its whole descriptor)."""


@_jit
def finish_one(g: Any, rf: Any, mt: Any, out: Any, scratch: Any, vidx: Any, vval: Any,
               vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any, kf: Any) -> None:
    """Play game ``g`` to the end of the round, ``memory`` in every seat (seat ``s`` with
    the weights ``prm[s]``).

    A function of its own, called once a round, not compiled into :func:`_finish_all` and
    :func:`_finish_rows`; and ``apply`` compiled into it at one place, not two. numba's
    inlining types a body again at every site, so each copy of this loop cost minutes of
    compiling: 548 s of CPU for the family then, 88 s now, the rollouts as fast
    (docs/performance.md, "Compiling the kernels")."""
    n = rf[k.R_PLAYERS]
    while g[k.PHASE] != k.PH_ROUND_OVER:
        seat = k.current_player(g)
        # memory_act passes a poll unless the seat knows a card of the top's rank: most
        # polls, and they need no list of the legal snaps.
        action = k.PASS
        if g[k.PHASE] == k.PH_POLL:
            top = k.top_of(g, rf)
            if top >= 0 and known_match(g, rf, n, (1 << seat) | (1 << n), top >> 2):
                action = -1
        else:
            action = -1
        if action < 0:
            nleg = k.legal_inline(g, rf, out, scratch)
            action = memory_act_inline(seat, out, nleg, g, rf, vidx, vval, vcount, prm[seat],
                                       vg, cnt, dv, dp, kf)
        k.apply_inline(g, action, rf, mt)


@_jit
def _finish_all(rows: int, st: Any, rf: Any, mt: Any, out: Any, scratch: Any, vidx: Any,
                vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any,
                kf: Any) -> None:
    for i in range(rows):
        finish_one(st[i], rf, mt, out, scratch, vidx, vval, vcount, prm, vg, cnt, dv, dp, kf)


@_jit
def _finish_rows(rows: int, st: Any, rf: Any, mt: Any, out: Any, scratch: Any, vidx: Any,
                 vval: Any, vcount: Any, prm: Any, vg: Any, cnt: Any, dv: Any, dp: Any,
                 kf: Any) -> None:
    for i in range(rows):
        finish_one(st[i], rf, mt, out, scratch, vidx, vval, vcount, prm[i], vg, cnt, dv, dp,
                   kf)


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
        return self._results(rows, 0)[2]

    def outcomes(self, rows: int, seat: int
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each finished row's win share for ``seat`` and ``seat``'s final score (hints
        show both)."""
        share, score, _ = self._results(rows, seat)
        return share, score

    def _results(self, rows: int, seat: int) -> tuple[npt.NDArray[np.float64],
                                                      npt.NDArray[np.float64],
                                                      npt.NDArray[np.int64]]:
        """:func:`_results_all` of rows ``0 .. rows-1``."""
        b = self.batch
        share = np.zeros(rows)
        score = np.zeros(rows)
        scores = np.zeros((rows, self.players), dtype=np.int64)
        _results_all(rows, seat, b.st, b.rf, share, score, scores)
        return share, score, scores


@_jit
def _results_all(rows: int, seat: int, st: Any, rf: Any, share: Any, score: Any,
                 scores: Any) -> None:
    """Row ``i``'s win share for ``seat`` (1 alone, ``1/k`` shared), ``seat``'s final score
    and every seat's: one call for the rows (a call a row cost more than the rollout's
    last actions)."""
    n = rf[k.R_PLAYERS]
    for i in range(rows):
        won = k.winners_mask(st[i], rf, scores[i])
        score[i] = scores[i, seat]
        if won >> seat & 1:
            tied = 0
            for s in range(n):
                tied += won >> s & 1
            share[i] = 1.0 / tied


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


__all__ = ["Rollouts", "load_state", "load_states", "warm"]
