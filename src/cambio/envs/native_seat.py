"""The ``memory`` bot's decisions for :class:`~cambio.envs.gymnasium.CardsSeatEnv`, compiled.

The seat env plays on the compiled engine's :class:`~cambio.cards.State`; at a ``memory``
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
from cambio.cards.batch import Batch


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


__all__ = ["NativeMemory"]
