"""The ``easy`` bot: the ``memory`` bot with a seeded habit of slipping.

A beginner-friendly opponent should make the mistakes people make -- a careless draw choice,
a forgotten snap -- not random snaps that hand out penalty cards. So it plays as ``memory``
but, with probability ``slip``, picks a random legal move instead of the considered one
(never a snap and never Cambio), and it notices a snap it could make only half of the time.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from cambio.cards import Action, CardView, Phase
from cambio.cards.actions import CAMBIO, PASS, SNAP, kind_of

from ..renamed import renamed
from .memory import ExpectedPointsBot


class SlippingBot:
    name = "easy"

    def __init__(self, seed: int = 0, slip: float = 0.3) -> None:
        self.rng = Random(seed)
        self.slip = slip
        self.memory = ExpectedPointsBot(seed)

    def act(self, view: CardView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        choice = self.memory.act(view)
        if kind_of(choice) == SNAP:
            return choice if self.rng.random() < 0.5 else (PASS if PASS in legal else
                                                            self._slip(view, choice))
        if view.phase != Phase.POLL and self.rng.random() < self.slip:
            return self._slip(view, choice)
        return choice

    def _slip(self, view: CardView, choice: Action) -> Action:
        plain = [a for a in view.legal if kind_of(a) not in (SNAP, CAMBIO)]
        return self.rng.choice(plain) if plain else choice


__all__ = ["SlippingBot"]

if not TYPE_CHECKING:  # the old name, for one release (mypy sees only the new one)
    __getattr__ = renamed(__name__, {"EasyBot": "SlippingBot"})
