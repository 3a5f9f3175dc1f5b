"""The ``random`` bot: a uniform choice among the legal actions, from its own seeded generator.

It is the baseline every other bot is measured against, and the cheapest way to reach odd
corners of the rules (wrong snaps, powers on empty grids) in tests.
"""

from __future__ import annotations

from random import Random

from cambio.cards import Action, CardView


class RandomBot:
    """Uniform over ``view.legal``; the same seed gives the same choices for the same views."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = Random(seed)

    def act(self, view: CardView) -> Action:
        legal = view.legal
        return legal[self._rng.randrange(len(legal))]
