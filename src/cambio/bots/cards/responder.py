"""A best response by search: a player that knows the opponents' policy exactly.

``cambio exploit`` asks how much a fixed bot gives away. A learned policy answers with a
lower bound only as good as its training; this one answers by search: at every decision the
responder compares its moves by paired rollouts (``adaptive``'s staged search, itself
``deep``'s) in which **every other seat is played by the target's own policy** -- the target
simulated exactly, not a model of it -- and its own later moves by ``memory``.

What the responder knows is the target's *policy*, never its cards: the worlds are dealt
from the responder's view (the exact belief, opponents' unseen cards tilted low, each card
known by exactly the seats the public ``seen`` masks name -- so the simulated target knows
in each world what the real one knows), with the responder's own seeded generator.

The simulation has two engines:

* **native**, when the target has an exact twin in the batch rollout kernels (``memory``:
  :func:`~cambio.bots.cards.native.memory_act` plays as ``ExpectedPointsBot`` does, checked
  by ``tests/cards/test_rollouts.py``): thousands of rollouts a decision;
* **python**, for any other bot: the worlds are played out on the engine with a fresh,
  seeded instance of the target in each opponent seat, acting on its own views -- exact but
  slow (a search bot as target costs its own search at every simulated turn), so with a
  smaller budget (``worlds``).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import numpy as np
import numpy.typing as npt

from cambio.cards import Action, CardView
from cambio.shares import tie_share

from .adaptive import AdaptiveRolloutSearchBot
from .base import CardBot, play_round
from .belief import Belief
from .deep import DEEP_ROWS
from .expert import opponent_lambda
from .memory import ExpectedPointsBot
from .search import caller_tilt, determinize, is_final_turn

NATIVE_TARGETS = frozenset({"memory", "medium"})
"""Bots the rollout kernels play exactly (by their registry names)."""

PYTHON_WORLDS = 8
"""Worlds per stage of the python engine (each candidate is played out in each)."""


class BestResponseSearchBot(AdaptiveRolloutSearchBot):
    """A staged rollout search whose opponents are the target bot itself."""

    name = "exploit"

    def __init__(self, target: str, seed: int = 0, *, rows: int = DEEP_ROWS,
                 cap: int = 8 * DEEP_ROWS, seconds: float | None = None,
                 worlds: int = PYTHON_WORLDS,
                 make_target: Callable[[str, int], CardBot] | None = None) -> None:
        super().__init__(seed, rows=rows, cap=cap, seconds=seconds)
        self.target = target.strip().lower()
        self.native = self.target in NATIVE_TARGETS
        if make_target is None:
            from . import make_bot

            make_target = make_bot
        make_target(self.target, 0)  # a bad name fails here, not at the first decision
        self.make_target = make_target
        self.python_worlds = worlds
        self._sim_rng = Random(seed * 104729 + 3)  # the simulated bots' seeds
        if not self.native:
            self.min_worlds = worlds
            self.rows = worlds
            self.cap = max(worlds, cap // DEEP_ROWS * worlds)

    def play_out(self, view: CardView, cands: list[Action], worlds: int
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        if self.native:
            return super().play_out(view, cands, worlds)
        return self._play_python(view, cands, worlds)

    def _play_python(self, view: CardView, cands: list[Action], worlds: int
                     ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """As :meth:`play_out`, on the engine with the target's instances."""
        me = view.seat
        assert me is not None
        belief = Belief(view)
        lam = opponent_lambda(view, belief)
        seat_tilt = caller_tilt(view, belief) if is_final_turn(view) else None
        shares = np.zeros((len(cands), worlds))
        scores = np.zeros((len(cands), worlds))
        for w, cards in enumerate(belief.samples(self.rng, worlds)):
            det = determinize(view, belief, self.rng, tilt=lam, knows=None,
                              seat_tilt=seat_tilt, cards=cards)
            seeds = [self._sim_rng.getrandbits(62) for _ in range(view.players)]
            for c, a in enumerate(cands):
                s = det.clone()
                s.apply(a, me)
                # The same bot seeds for every candidate: paired, as the native rows are.
                bots: list[CardBot] = [
                    ExpectedPointsBot(seeds[seat]) if seat == me
                    else self.make_target(self.target, seeds[seat])
                    for seat in range(view.players)]
                play_round(s, bots)
                shares[c, w] = tie_share(me, s.winners(), s.n)
                scores[c, w] = s.scores()[me]
        return shares, scores


def exploit_bot(target: str, seed: int = 0) -> BestResponseSearchBot:
    """The best response to ``target`` (a card bot's name)."""
    return BestResponseSearchBot(target, seed)


__all__ = ["NATIVE_TARGETS", "BestResponseSearchBot", "exploit_bot"]
