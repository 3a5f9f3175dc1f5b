"""The card game's vector envs on the batch engine: ``num_envs`` games stepped at once.

:class:`CardsVectorEnv` is :class:`~cambio.envs.gymnasium.CardsSeatEnv` for ``num_envs``
games at a time, as a :class:`gymnasium.vector.VectorEnv` (same-step autoreset;
:mod:`cambio.envs.vector`): the agent plays ``seat`` in every game, the other seats are bots.
Native bots (``random``, ``memory``; :mod:`cambio.bots.cards.native`) move inside the
compiled loop and the observations and action numbers are the shared codec's
(:mod:`cambio.envs.cards_codec`), encoded natively; any other bot plays through the Python
bot API on lanes of seat envs. Env ``i`` reset with ``seed + i`` plays exactly the games
``CardsSeatEnv`` reset with ``seed + i`` plays for the same actions (the same deals,
opponents' decisions, observations, masks and rewards; ``tests/envs/test_cards_vector.py``).
:class:`CardsSelfPlayVectorEnv` has the learner play every seat.

>>> env = CardsVectorEnv(4, rules="rulebook", opponents=("memory",))
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == (4, env.codec.size)
True
>>> int(env.single_action_space.n) == env.codec.num_actions
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.bots.cards.native_names import NATIVE_KINDS
from cambio.cards import Rules

from .cards_codec import DEFAULT_SLOTS, CardsCodec, capped_rules
from .cards_native import BatchGames
from .gymnasium import CardsSeatEnv
from .vector import LanesVectorEnv, Obs, SeatVectorEnv, StepResult, _seeds


def _split(obs: Obs, rows: npt.NDArray[np.intp]) -> dict[int, Obs]:
    return {int(i): {key: v[j] for key, v in obs.items()} for j, i in enumerate(rows)}


class CardsVectorEnv(SeatVectorEnv):
    """``num_envs`` card games, seat ``seat`` played by the agent, the others by bots (one
    name per other seat, in seat order). When every opponent has a native version
    (``random``, ``memory``/``medium``) they move inside the batch engine's compiled loop;
    any other bot name (``expert``, ``hard``, an import path...) plays through the Python
    bot API, each game a :class:`~cambio.envs.gymnasium.CardsSeatEnv` lane."""

    def __init__(self, num_envs: int, rules: str | Rules = "rulebook",
                 opponents: Sequence[str] = ("random",), seat: int = 0,
                 slots: int = DEFAULT_SLOTS, **overrides: Any) -> None:
        base = rules if isinstance(rules, Rules) else Rules.preset(rules)
        if overrides:
            base = base.with_overrides(overrides)
        players = len(opponents) + 1
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}")
        self.rules = capped_rules(base, slots)
        self.rules.check_players(players)
        self.players = players
        self.seat = seat
        self.opponents = tuple(opponents)
        self.native = all(o.strip().lower() in NATIVE_KINDS for o in opponents)
        self.codec = CardsCodec(self.rules, players, slots)
        self._spaces(num_envs, self.codec.size, self.codec.num_actions)
        self._lanes: LanesVectorEnv | None = None
        self._games: BatchGames | None = None
        if not self.native:
            self._lanes = LanesVectorEnv([
                CardsSeatEnv(rules=base, opponents=opponents, seat=seat, slots=slots)
                for _ in range(num_envs)])
            return
        names = list(opponents)
        names.insert(seat, "random")  # the agent's seat: never asked
        self._games = BatchGames(num_envs, self.rules, players, slots,
                                  [NATIVE_KINDS[x.strip().lower()] for x in names])
        self.batch = self._games.batch
        self._seats = np.full(num_envs, seat, dtype=np.int64)

    # ------------------------------------------------------------------ the env
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        if self._lanes is not None:
            return self._lanes.reset(seed=seed)
        g = self._games
        assert g is not None
        g.seed(_seeds(seed, self.num_envs))
        g.deal(np.arange(self.num_envs), self.seat)
        g.others(self.seat)
        return g.observe(self._seats), {}

    def step(self, actions: Sequence[int] | npt.NDArray[Any]) -> StepResult:
        """One action number per game: ``(obs, rewards, terminated, truncated, info)``."""
        if self._lanes is not None:
            return self._lanes.step(actions)
        g = self._games
        assert g is not None
        if not g.rngs:
            raise RuntimeError("call reset() first")
        numbers = self._actions(actions)
        g.apply(numbers)
        g.others(self.seat)
        b = self.batch
        over = b.is_over()
        rewards = np.where(over, b.returns()[:, self.seat], 0.0)
        finals: dict[int, Obs] = {}
        if over.any():
            rows = np.flatnonzero(over)
            finals = _split(g.observe(self._seats[rows], rows), rows)
            g.deal(rows, self.seat)
            g.others(self.seat)
        return (g.observe(self._seats), rewards, over, np.zeros(self.num_envs, dtype=bool),
                self.final_info(self.num_envs, finals))

    def action_masks(self) -> npt.NDArray[np.int8]:
        if self._lanes is not None:
            return self._lanes.action_masks()
        assert self._games is not None
        return self._games.observe(self._seats)["action_mask"]


class CardsSelfPlayVectorEnv(SeatVectorEnv):
    """``num_envs`` card games of ``players`` seats, **every seat played by the learner**
    (self-play), on the batch engine. Each step takes one action number per game for the
    seat to act there and returns the observation of the seat to act next, which
    ``info["seat"]`` names. ``rewards`` is ``(num_envs, players)``: each seat's result in
    the games that ended in this step (0 elsewhere); such a game is dealt again at once and
    ``info["final_obs"][i]`` holds every seat's last observation of it, stacked
    (``(players, size)`` and ``(players, actions)``)."""

    def __init__(self, num_envs: int, rules: str | Rules = "rulebook", players: int = 2,
                 slots: int = DEFAULT_SLOTS, **overrides: Any) -> None:
        base = rules if isinstance(rules, Rules) else Rules.preset(rules)
        if overrides:
            base = base.with_overrides(overrides)
        self.rules = capped_rules(base, slots)
        self.rules.check_players(players)
        self.players = players
        self.codec = CardsCodec(self.rules, players, slots)
        self._spaces(num_envs, self.codec.size, self.codec.num_actions)
        self._games = BatchGames(num_envs, self.rules, players, slots, [-1] * players)
        self.batch = self._games.batch
        self._acting = np.full(num_envs, -1, dtype=np.int64)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        g = self._games
        g.seed(_seeds(seed, self.num_envs))
        g.deal(np.arange(self.num_envs), -1)
        return g.observe(self._acting), {"seat": self.batch.current_players().copy()}

    def step(self, actions: Sequence[int] | npt.NDArray[Any]
             ) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                        npt.NDArray[np.bool_], dict[str, Any]]:
        g = self._games
        if not g.rngs:
            raise RuntimeError("call reset() first")
        g.apply(self._actions(actions))
        b = self.batch
        over = b.is_over()
        rewards = np.where(over[:, None], b.returns(), 0.0)
        info: dict[str, Any] = {}
        if over.any():
            rows = np.flatnonzero(over)
            per_seat = [g.observe(np.full(rows.size, s, dtype=np.int64), rows)
                        for s in range(self.players)]
            finals = {int(i): {key: np.stack([o[key][j] for o in per_seat])
                               for key in ("observation", "action_mask")}
                      for j, i in enumerate(rows)}
            info = self.final_info(self.num_envs, finals)
            g.deal(rows, -1)
        info["seat"] = b.current_players().copy()
        return g.observe(self._acting), rewards, over, np.zeros(self.num_envs, dtype=bool), info

    def action_masks(self) -> npt.NDArray[np.int8]:
        return self._games.observe(self._acting)["action_mask"]


__all__ = ["CardsSelfPlayVectorEnv", "CardsVectorEnv"]
