"""Panel opponents built unlike the shipped bots, so the panel's figures do not only say how
the project's bots fare against their own kind.

* ``pimc`` -- perfect-information Monte Carlo, the classic way card programs search hidden
  information: deal worlds from the view (the exact belief, no tilt: no model of how
  opponents keep cards), turn **every card face up** in each, and score each legal move by
  playing the world out with every seat seeing everything (the clairvoyant's rollouts,
  :mod:`cambio.bots.cards.clairvoyant`, on sampled worlds instead of the true one). The best
  mean wins outright, with no heuristic to defer to. It is blind to the value of information
  (in its worlds a peek teaches nothing) and plays as if opponents knew its cards: the
  "strategy fusion" errors of PIMC, which the shipped searches avoid by keeping each seat's
  knowledge in the worlds.
* ``modeller`` -- an opponent-modelling search: ``deep``'s search whose rollouts play each
  opponent by a policy drawn from a population of styles (``memory``, tuned, an early caller,
  a snap-eager player), the weights updated from what the opponent did this round (its
  wrong snaps); :data:`~cambio.bots.cards.deep.POPULATION`.

Both see only their view: worlds come from the view and their seeded generator.
"""

from __future__ import annotations

from cambio.cards import CardView, State
from cambio.cards.batch import Batch

from .belief import Belief
from .deep import DEEP_ROWS, POPULATION, BatchRolloutSearchBot
from .search import determinize
from .worlds import load_worlds

PIMC_ROWS = 512
"""Rollouts per decision (split between the candidates)."""


class PerfectInformationMonteCarloBot(BatchRolloutSearchBot):
    """Sampled worlds with every card face up; the move with the best mean, prior or not."""

    name = "pimc"

    def __init__(self, seed: int = 0, *, rows: int = PIMC_ROWS) -> None:
        # Panel members stay as they were built: memory's weights in every rollout seat.
        super().__init__(seed, rows=rows, z=0.0, balanced=None)

    def deal(self, view: CardView, worlds: int) -> list[State]:
        belief = Belief(view)
        out = []
        for cards in belief.samples(self.rng, worlds):
            world = determinize(view, belief, self.rng, tilt=0.0, knows=None, cards=cards)
            everyone = (world.public << 1) - 1
            world.known = [[everyone] * len(k) for k in world.known]
            out.append(world)
        return out

    def load_worlds(self, b: Batch, view: CardView, worlds: int) -> None:
        """The worlds of :meth:`deal`, dealt straight into the records."""
        load_worlds(b, 0, view, Belief(view), self.rng, worlds, knows=None, face_up=True)


def opponent_modeller(seed: int = 0) -> BatchRolloutSearchBot:
    """``deep``'s search with opponents drawn from a population of styles, read per round."""
    bot = BatchRolloutSearchBot(seed, rows=DEEP_ROWS, population=POPULATION, infer=True,
                                balanced=None)
    bot.name = "modeller"
    return bot


__all__ = ["PIMC_ROWS", "PerfectInformationMonteCarloBot", "opponent_modeller"]
