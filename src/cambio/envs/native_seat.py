"""Compiled help for :class:`~cambio.envs.gymnasium.CardsSeatEnv`: the whole round
(:class:`BatchSeatGame`), or the ``memory`` bot's decisions alone (:class:`NativeMemory`).

When every opponent has a native version and the batch engine plays the rules, the seat env
plays on :class:`BatchSeatGame`: the round lives in a one-game batch record and the bots'
moves, the observation and the mask are computed there, as :class:`~cambio.envs.cards_vector.
CardsVectorEnv` computes them for many games (the same deals, decisions, observations and
rewards as the compiled engine's round; ``tests/envs/test_gymnasium.py``).

Otherwise the seat env plays on the compiled engine's :class:`~cambio.cards.State`; at a ``memory``
opponent's turn the state is copied into a one-game batch record
(:func:`cambio.bots.cards.rollouts.load_state`, as the hard bot's rollouts do) and the
native port of the bot (:func:`cambio.bots.cards.native.memory_act`) decides there. It
reads the seat's view only and makes the Python bot's exact decisions
(``tests/cards/test_native_bots.py``), so the episodes are the same; it costs a few
microseconds instead of building a view and scoring it in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cambio.bots.cards.native import memory_all, memory_tables
from cambio.bots.cards.rollouts import load_state
from cambio.cards import Action, Rules, State
from cambio.cards import batch_kernels as k
from cambio.cards.batch import Batch

from .cards_codec import CardsCodec, Mask, Vector
from .cards_native import BatchGames
from .turns import OVER, _Coded


class NativeMemory:
    """``act(state)``: the memory bot's action for the player to move in ``state``."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.batch = Batch(rules, players, 1)
        self.tables: tuple[Any, ...] = memory_tables(self.batch)
        self.chosen = np.zeros(1, dtype=np.int64)

    def act(self, state: State) -> Action:
        b = self.batch
        load_state(b, 0, state)
        memory_all(b.st, b.rf, b._acts[0], b._scratch, self.chosen, *self.tables)
        return int(self.chosen[0])


class BatchTurns(_Coded[CardsCodec]):
    """A :class:`~cambio.envs.turns.TurnGame` on the batch engine: one round in a one-game
    record, every seat played from outside (``kinds``: a native bot per seat, asked only by
    :class:`BatchSeatGame`). Each position's observation and mask of a seat are encoded
    once, when first asked for."""

    def __init__(self, rules: Rules, players: int, slots: int,
                 kinds: list[int] | None = None) -> None:
        self.rules = rules
        self.players = players
        self.games = BatchGames(1, rules, players, slots,
                                [-1] * players if kinds is None else kinds)
        self.codec: CardsCodec = self.games.codec
        self.record = self.games.batch.st[0]
        """The round (:mod:`cambio.cards.batch_kernels`' record)."""
        self._number = np.zeros(1, dtype=np.int64)
        self._scores = np.zeros(players, dtype=np.int64)
        self._seats = [np.full(1, s, dtype=np.int64) for s in range(players)]
        self._views: dict[int, tuple[Vector, Mask]] = {}
        """Per seat, its observation and mask of the current position, once asked for."""

    def reset(self, seed: int) -> None:
        self.games.deal_seeded(0, seed, -1)
        self._views.clear()

    def current(self) -> int:
        g = self.record
        phase = g[k.PHASE]
        if phase == k.PH_ROUND_OVER:
            return OVER
        if phase == k.PH_POLL:
            return int(g[k.POLL + g[k.POLL_I]])
        return int(g[k.GIVE_SEAT] if phase == k.PH_GIVE else g[k.TURN])

    def _seen(self, seat: int) -> tuple[Vector, Mask]:
        view = self._views.get(seat)
        if view is None:
            obs = self.games.observe(self._seats[seat])
            view = self._views[seat] = (obs["observation"][0], obs["action_mask"][0])
        return view

    def observe(self, seat: int) -> Vector:
        return self._seen(seat)[0]

    def mask(self, seat: int) -> Mask:
        return self._seen(seat)[1]

    def step(self, index: int) -> None:
        self._number[0] = index
        self.games.apply(self._number)
        self._views.clear()

    def returns(self) -> list[float]:
        """``Batch.returns`` of the one game, without its arrays."""
        n = self.players
        if self.record[k.PHASE] != k.PH_ROUND_OVER:
            return [0.0] * n
        won = k.winners_mask(self.record, self.games.batch.rf, self._scores)
        if won == (1 << n) - 1:
            return [0.0] * n
        return [1.0 if won >> s & 1 else -1.0 for s in range(n)]

    def __repr__(self) -> str:
        return repr(self.games.batch.snapshot(0))


class BatchSeatGame(BatchTurns):
    """:class:`BatchTurns` for seat ``seat`` against native bots (``kinds``, one per seat;
    the seat's own is never asked). The bots move in :meth:`bots`, all of them until the
    seat must act or the round is over."""

    def __init__(self, rules: Rules, players: int, slots: int, kinds: list[int],
                 seat: int) -> None:
        super().__init__(rules, players, slots, kinds)
        self.seat = seat

    def reset(self, seed: int) -> None:
        self.games.deal_seeded(0, seed, self.seat)
        self._views.clear()

    def bots(self) -> None:
        self.games.others(self.seat)
        self._views.clear()


__all__ = ["BatchSeatGame", "BatchTurns", "NativeMemory"]
