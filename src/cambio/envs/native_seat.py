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
from .cards_native import ILLEGAL, BatchGames, seat_step, turn_step, turn_tables
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
    :class:`BatchSeatGame`).

    A turn is one compiled call (:func:`~cambio.envs.cards_native.turn_step`): the action
    applied, then the observation and mask of the seat to act next encoded into fresh
    arrays, which is what an AEC loop asks for next (``last()``); the seat to act is its
    answer, kept rather than read back from the record. Another seat's view is encoded
    when first asked for."""

    def __init__(self, rules: Rules, players: int, slots: int,
                 kinds: list[int] | None = None) -> None:
        self.rules = rules
        self.players = players
        self.games = BatchGames(1, rules, players, slots,
                                [-1] * players if kinds is None else kinds)
        self.codec: CardsCodec = self.games.codec
        b = self.games.batch
        self.record = b.st[0]
        """The round (:mod:`cambio.cards.batch_kernels`' record)."""
        codes, work = turn_tables(self.games)
        # turn_step's arguments after the action number and the two output arrays.
        self._tables = (codes, self.games._totals, self.record, b.rf, work)
        self._scores = np.zeros(players, dtype=np.int64)
        self._seats = [np.full(1, s, dtype=np.int64) for s in range(players)]
        self._current = OVER
        self._views: dict[int, tuple[Vector, Mask]] = {}
        """Per seat, its observation and mask of the current position, once encoded."""

    def reset(self, seed: int) -> None:
        self.games.deal_seeded(0, seed, -1)
        self._turn(-1)

    def _turn(self, number: int) -> None:
        """:func:`turn_step` (``number < 0``: no action), keeping the seat to act and its
        view; ``ValueError`` (nothing changed) if the number is not legal."""
        v = np.empty(self.codec.size, dtype=np.float32)
        m = np.empty(self.codec.num_actions, dtype=np.int8)
        seat = self._kernel(number, v, m)
        if seat == ILLEGAL:
            raise ValueError(f"action {number} is not legal for seat {self._current}")
        self._current = seat
        self._views = {} if seat == OVER else {seat: (v, m)}

    def _kernel(self, number: int, v: Vector, m: Mask) -> int:
        seat: int = turn_step(number, v, m, *self._tables)
        return seat

    def current(self) -> int:
        return self._current

    def view(self, seat: int) -> tuple[Vector, Mask]:
        view = self._views.get(seat)
        if view is None:
            obs = self.games.observe(self._seats[seat])
            view = self._views[seat] = (obs["observation"][0], obs["action_mask"][0])
        return view

    def observe(self, seat: int) -> Vector:
        return self.view(seat)[0]

    def mask(self, seat: int) -> Mask:
        return self.view(seat)[1]

    def step(self, index: int) -> None:
        self._turn(index)

    def returns(self) -> list[float]:
        """``Batch.returns`` of the one game, without its arrays."""
        n = self.players
        if self._current != OVER:
            return [0.0] * n
        won = k.winners_mask(self.record, self.games.batch.rf, self._scores)
        if won == (1 << n) - 1:
            return [0.0] * n
        return [1.0 if won >> s & 1 else -1.0 for s in range(n)]

    def __repr__(self) -> str:
        return repr(self.games.batch.snapshot(0))


class BatchSeatGame(BatchTurns):
    """:class:`BatchTurns` for seat ``seat`` against native bots (``kinds``, one per seat;
    the seat's own is never asked). The bots move within the seat's turns
    (:func:`~cambio.envs.cards_native.seat_step`: the seat's action, the bots' moves up to
    its next turn and its view, one compiled call), and after a deal in :meth:`bots`."""

    def __init__(self, rules: Rules, players: int, slots: int, kinds: list[int],
                 seat: int) -> None:
        super().__init__(rules, players, slots, kinds)
        self.seat = seat
        g = self.games
        codes, totals, _, rf, work = self._tables
        self._seat_tables = (seat, codes, totals, g.batch.st, rf, work, g.kinds, g._bot_mt,
                             *g._memory)

    def _kernel(self, number: int, v: Vector, m: Mask) -> int:
        seat: int = seat_step(number, v, m, *self._seat_tables)
        return seat

    def reset(self, seed: int) -> None:
        self.games.deal_seeded(0, seed, self.seat)
        self._turn(-1)

    def bots(self) -> None:
        self._turn(-1)


__all__ = ["BatchSeatGame", "BatchTurns", "NativeMemory"]
