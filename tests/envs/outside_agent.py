"""A bot defined outside the package, for the tests that seat it by import path.

It is not imported as part of the tests package: the tests name it by its file path
(``tests/envs/outside_agent.py:card_bot``), as a researcher names their own module.
"""

from __future__ import annotations

from random import Random
from typing import Any

from cambio.bots.board.base import RandomSetupChoices
from cambio.cards import Action, CardView


class LastOrRandom:
    """Plays the last legal action, or (one time in three, from its seed) a random one."""

    name = "last-or-random"

    def __init__(self, seed: int, bias: float = 1 / 3) -> None:
        self.rng = Random(seed)
        self.bias = bias

    def act(self, view: CardView) -> Action:
        if self.rng.random() < self.bias:
            return self.rng.choice(view.legal)
        return view.legal[-1]


def card_bot(seed: int, bias: str = "0.333") -> LastOrRandom:
    return LastOrRandom(seed, float(bias))


class FirstMove(RandomSetupChoices):
    """A board bot that plays the first legal move."""

    name = "first-move"

    def __init__(self, seed: int) -> None:
        self.rng = Random(seed)

    def choose(self, board: Any) -> Any:
        return board.legal_moves()[0]


def board_bot(rules: Any, seed: int) -> FirstMove:
    return FirstMove(seed)
