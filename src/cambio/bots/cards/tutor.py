"""The ``tutor`` bot: the card tutorial's opponent, whose every move the tutorial's scripted
deal can count on.

It draws from the deck and discards what it drew, every turn: it never swaps, never takes
from the pile, never snaps and never calls Cambio. So on the tutorial's fixed deck
(:mod:`cambio.server.tutorial`) its discards are known in advance whatever the newcomer does
(a snap the tutorial teaches waits for one of them), and it leaves the newcomer's cards
alone. A power it must use (none on the tutorial's deck) takes the first legal choice.
"""

from __future__ import annotations

from cambio.cards import Action, CardView
from cambio.cards.actions import DISCARD, DRAW, KEEP, PASS, SKIP, kind_of

PREFERRED = (PASS, DRAW, DISCARD, SKIP, KEEP)
"""What it does whenever it may, first first: let a snap go, draw, discard, skip a power."""


class TutorBot:
    """Draws and discards; the same choice for the same view (it has no randomness)."""

    name = "tutor"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: CardView) -> Action:
        legal = view.legal
        kinds = {kind_of(a): a for a in reversed(legal)}
        for kind in PREFERRED:
            if kind in kinds:
                return kinds[kind]
        return legal[0]
