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

The simulation has three engines:

* **native**, when the target has an exact twin in the batch rollout kernels (``memory``:
  :func:`~cambio.bots.cards.native.memory_act` plays as ``ExpectedPointsBot`` does, checked
  by ``tests/cards/test_rollouts.py``): thousands of rollouts a decision;
* **reply** (the default for any other bot): ``hard``'s own search first (native
  rollouts, ``memory`` in every seat) names its move and the runner-up; unless the
  runner-up is clearly worse, the two are then compared by worlds in which the target itself
  answers -- its policy drawn afresh, acting on its own views of the world -- until the
  responder's next turn starts, the native kernels finishing the world from there. Exact
  where a move's consequence is decided (the target's next turn: does it take the card we
  discarded, call Cambio, snap?) and affordable against a search bot: a few of the target's
  decisions per world instead of a whole round of them;
* **python** (``reply=False``): the worlds are played to the end of the round on the
  engine with the target in every opponent seat -- exact to the end but slow (a search bot
  as target costs its own search at every simulated turn of every world).

The simulated targets are the target's own class built by its registry name, one per
opponent seat and response, seeded from the responder's seed: their draws are the target
policy's own randomness (a search bot's sampled worlds), not a model of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from random import Random

import numpy as np
import numpy.typing as npt

from cambio.cards import Action, CardView, Phase, State, observe
from cambio.shares import tie_share

from .adaptive import AdaptiveRolloutSearchBot
from .base import CardBot, play_round
from .deep import DEEP_ROWS, BatchRolloutSearchBot, significant_best
from .memory import ExpectedPointsBot
from .rollouts import load_state

NATIVE_TARGETS = frozenset({"memory", "medium"})
"""Bots the rollout kernels play exactly (by their registry names)."""

PYTHON_WORLDS = 8
"""Worlds per stage of the python engine (each candidate is played out in each)."""
REPLY_WORLDS = 4
"""Worlds of the reply engine's first stage (then twice as many while the two moves are
close): a world costs the target's few decisions, about 0.1 s of CPU against ``hard``."""
SCREEN_WORLDS = 16
"""Worlds per candidate, at least, of the first (native) stage: ``hard``'s floor."""
REPLY_CAP = 6
"""The reply stage's cap, in worlds (``worlds``) times this: two stages of two moves."""


class BestResponseSearchBot(AdaptiveRolloutSearchBot):
    """A staged rollout search whose opponents are the target bot itself."""

    name = "exploit"

    def __init__(self, target: str, seed: int = 0, *, rows: int = DEEP_ROWS,
                 cap: int = 8 * DEEP_ROWS, seconds: float | None = None,
                 worlds: int | None = None, reply: bool = True,
                 make_target: Callable[[str, int], CardBot] | None = None) -> None:
        super().__init__(seed, rows=rows, cap=cap, seconds=seconds)
        self.target = target.strip().lower()
        self.native = self.target in NATIVE_TARGETS
        if make_target is None:
            from . import make_bot

            make_target = make_bot
        make_target(self.target, 0)  # a bad name fails here, not at the first decision
        self.make_target = make_target
        if worlds is None:
            worlds = REPLY_WORLDS if reply else PYTHON_WORLDS
        self.reply = reply
        self._sim_rng = Random(seed * 104729 + 3)  # the simulated bots' seeds
        self._targets: dict[int, CardBot] = {}
        if not self.native:
            self.min_worlds = worlds
            self.rows = worlds
            self.cap = worlds * REPLY_CAP if reply else max(worlds, cap // DEEP_ROWS * worlds)

    def search(self, view: CardView, cands: list[Action]) -> Action:
        if self.native or not self.reply:
            return super().search(view, cands)
        # hard's decision first: the exact replies are too dear to spend on every move.
        share, _ = BatchRolloutSearchBot.play_out(
            self, view, cands, max(SCREEN_WORLDS, DEEP_ROWS // len(cands)))
        best = significant_best(share, self.z)
        means = share.mean(axis=1)
        rival = max((c for c in range(len(cands)) if c != best), key=lambda c: means[c])
        d = share[rival] - share[best]
        if d.mean() + self.decided * d.std() / math.sqrt(len(d)) < 0:
            return cands[best]  # clearly worse already where the target plays memory
        return super().search(view, [cands[best], cands[rival]])

    def play_out(self, view: CardView, cands: list[Action], worlds: int
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        if self.native:
            return super().play_out(view, cands, worlds)
        if self.reply:
            return self._play_reply(view, cands, worlds)
        return self._play_python(view, cands, worlds)

    def _target(self, seat: int) -> CardBot:
        """The simulated target of ``seat`` (built once per response and seat)."""
        bot = self._targets.get(seat)
        if bot is None:
            bot = self._targets[seat] = self.make_target(self.target,
                                                         self._sim_rng.getrandbits(62))
        return bot

    def _play_reply(self, view: CardView, cands: list[Action], worlds: int
                    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """As :meth:`play_out`: the target answers each candidate until our next turn
        starts, then the kernels finish the world."""
        me = view.seat
        assert me is not None
        k = len(cands)
        pool = self._rollouts(view, worlds * k)
        mine = ExpectedPointsBot(self.seed)  # our own moves within the reply, as rollouts
        for w, det in enumerate(self.deal(view, worlds)):
            for c, a in enumerate(cands):
                s = det.clone()
                s.apply(a, me)
                until_my_turn(s, me, mine, self._target)
                load_state(pool.batch, c * worlds + w, s)
        pool.finish(worlds * k)
        shares, scores = pool.outcomes(worlds * k, me)
        return shares.reshape(k, worlds), scores.reshape(k, worlds)

    def _play_python(self, view: CardView, cands: list[Action], worlds: int
                     ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """As :meth:`play_out`, on the engine with the target's instances."""
        me = view.seat
        assert me is not None
        shares = np.zeros((len(cands), worlds))
        scores = np.zeros((len(cands), worlds))
        for w, det in enumerate(self.deal(view, worlds)):
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


def until_my_turn(s: State, me: int, mine: CardBot,
                   target: Callable[[int], CardBot]) -> None:
    """Play ``s`` on until seat ``me``'s next turn starts (or the round ends): the other
    seats by their target bots, ``me``'s snaps and the rest of its turn by ``mine``."""
    while not s.is_over():
        seat = s.current_player()
        if seat == me and s.phase == Phase.TURN_START:
            return
        s.apply((mine if seat == me else target(seat)).act(observe(s, seat)), seat)


def exploit_bot(target: str, seed: int = 0) -> BestResponseSearchBot:
    """The best response to ``target`` (a card bot's name)."""
    return BestResponseSearchBot(target, seed)


__all__ = ["NATIVE_TARGETS", "BestResponseSearchBot", "exploit_bot", "until_my_turn"]
