"""CHEATING reference bot: it reads the whole state, every face-down card AND the deck order.

A fair ceiling for measuring how far a fair bot is from perfect information. The project's
:class:`~cambio.bots.cards.oracle.OracleBot` sees every card on the table but not the deck,
and plays a heuristic on that view, so it is a weak ceiling (``memory`` with every card face
up). This bot sees the future too: at every decision it copies the TRUE state -- deck order
and the chance seed of later reshuffles included -- into native rollout rows
(:func:`~cambio.bots.cards.rollouts.load_state`), once per legal candidate, applies the
candidate and plays each row to the end of the round with ``memory`` in every seat. In the
rows every seat knows every card on the table (:data:`MODELS`: modelling the opponents as
knowing only what they have seen fits ``memory`` opponents exactly but loses to the oracle).
The candidate with the best win share (then the lowest final score) is played; ties keep
the omniscient prior's choice (``memory`` with every card face up, as the oracle plays).

Not a player: it is not in :data:`cambio.bots.cards.BOTS`, so no command, lobby or table can
seat it; ``benchmarks/cards_strength.py`` offers it as ``clairvoyant``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cambio.cards import Action, CardView, State, observe

from .memory import TUNED, ExpectedPointsBot
from .rollouts import Rollouts, load_state

MODELS: tuple[tuple[bool, bool], ...] = ((False, True),)
"""The opponent models the rollouts average over, one row each: (``memory.TUNED`` weights
rather than the defaults, every opponent knowing every card on the table rather than only
what it has seen). The default, opponents that know every card (the pessimistic model),
was the best of four tried, 80 rulebook rounds each against the oracle / ``memory``:
true knowledge with default and tuned weights 40% / 99%; those plus omniscient 73% / 100%;
omniscient with default and tuned weights 87% / 98%; omniscient alone 91% / 99%."""


class ClairvoyantBot:
    """Sees every card and the deck order (cheats); picks the move whose true future, over
    a few ``memory`` models of the opponents, ends best."""

    name = "clairvoyant (cheating)"

    def __init__(self, state: Callable[[], State], seed: int = 0,
                 models: tuple[tuple[bool, bool], ...] = MODELS) -> None:
        self.state = state
        self.seed = seed
        self.models = models
        self.prior = ExpectedPointsBot(seed)
        self._pools: dict[tuple[int, int, bool], Rollouts] = {}

    def _pool(self, true: State, need: int, me: int, tuned: bool) -> Rollouts:
        """Rollouts with default or tuned opponents (own seat: default weights)."""
        key = (id(true.rules), true.n, tuned)
        pool = self._pools.get(key)
        if pool is None or pool.rows < need:
            pool = self._pools[key] = Rollouts(true.rules, true.n, max(need, 64),
                                               TUNED if tuned else None)
        if tuned:
            for seat in range(true.n):
                pool.seat_params(seat, None if seat == me else TUNED)
        return pool

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
        share = np.zeros(k)
        score = np.zeros(k)
        for tuned, omniscient in self.models:
            pool = self._pool(true, k, me, tuned)
            b = pool.batch
            world = full if omniscient else true
            for c in range(k):
                load_state(b, c, world)
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
