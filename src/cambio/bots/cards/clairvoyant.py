"""CHEATING reference bot: it reads the whole state, every face-down card AND the deck order.

A fair ceiling for measuring how far a fair bot is from perfect information. The project's
:class:`~cambio.bots.cards.oracle.OracleBot` sees every card on the table but not the deck,
and plays a heuristic on that view, so it is a weak ceiling (``memory`` with every card face
up). This bot sees the future too: at every decision it copies the TRUE state -- deck order
and the chance seed of later reshuffles included -- into native rollout rows
(:func:`~cambio.bots.cards.rollouts.load_state`), once per legal candidate, applies the
candidate and plays each row to the end of the round with ``memory`` in every seat, its own
seat marked as knowing every card on the table (the others keep exactly what they know).
The candidate with the best win share (then the lowest final score) is played; ties keep
the omniscient prior's choice (``memory`` with every card face up, as the oracle plays).

Because the rows start from the true state, a rollout is the round's actual future if every
other seat really plays ``memory``; against other opponents it is the best prediction a
``memory`` model gives. ``rows`` copies per candidate differ only in the opponents'
weights (default and ``memory.TUNED``, alternately), which makes the estimate less
dependent on one model of the opponents.

Not a player: it is not in :data:`cambio.bots.cards.BOTS`, so no command, lobby or table can
seat it; ``benchmarks/cards_strength.py`` offers it as ``clairvoyant``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cambio.cards import Action, CardView, State, observe

from .memory import TUNED, MemoryBot
from .rollouts import Rollouts, load_state


class ClairvoyantBot:
    """Sees every card and the deck order (cheats); picks the move whose true future, with
    ``memory`` opponents, ends best."""

    name = "clairvoyant (cheating)"

    def __init__(self, state: Callable[[], State], seed: int = 0, rows: int = 2) -> None:
        self.state = state
        self.seed = seed
        self.rows = max(1, rows)
        self.prior = MemoryBot(seed)
        self._pools: dict[tuple[int, int], tuple[Rollouts, Rollouts]] = {}

    def _pool(self, true: State, need: int, me: int) -> list[Rollouts]:
        """Rollouts with default and with tuned opponents (own seat: default weights)."""
        key = (id(true.rules), true.n)
        pools = self._pools.get(key)
        if pools is None or pools[0].rows < need:
            rows = max(need, 64)
            plain = Rollouts(true.rules, true.n, rows)
            tuned = Rollouts(true.rules, true.n, rows, TUNED)
            pools = self._pools[key] = (plain, tuned)
        tuned = pools[1]
        for seat in range(true.n):
            tuned.seat_params(seat, None if seat == me else TUNED)
        return [pools[r % 2] for r in range(self.rows)]

    def act(self, view: CardView) -> Action:
        legal = view.legal
        me = view.seat
        if len(legal) == 1 or me is None:
            return legal[0]
        true = self.state().clone()
        everyone = (true.public << 1) - 1
        full = true.clone()
        full.known = [[everyone] * len(k) for k in full.known]
        prior = self.prior.act(observe(full, me))
        mine = 1 << me
        true.known = [[m | mine for m in masks] for masks in true.known]
        cands = [prior, *[a for a in legal if a != prior]]
        k = len(cands)
        pools = self._pool(true, k, me)
        share = np.zeros(k)
        score = np.zeros(k)
        for pool in pools:
            b = pool.batch
            for c in range(k):
                load_state(b, c, true)
            b.step(np.concatenate([np.array(cands, dtype=np.int64),
                                   np.full(b.games - k, -1, dtype=np.int64)]))
            pool.finish(k)
            s, sc = pool.outcomes(k, me)
            share += s
            score += sc
        best = 0
        for c in range(1, k):
            if (share[c], -score[c]) > (share[best], -score[best]):
                best = c
        return cands[best]


__all__ = ["ClairvoyantBot"]
