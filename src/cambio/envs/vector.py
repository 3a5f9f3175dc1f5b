"""Gymnasium vector envs for both games: many games stepped together, one seat learning.

Both are :class:`gymnasium.vector.VectorEnv`\\ s with the single seat env's spaces
(``single_observation_space`` is :class:`~cambio.envs.gymnasium.SeatEnv`'s dict of
``observation`` and ``action_mask``; ``single_action_space`` its ``Discrete``), batched
observations (a dict of ``(num_envs, ...)`` arrays) and **same-step autoreset**, declared as
``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``: a game that ends is dealt again in
the same ``step``; the returned observation is the new game's, the reward and
``terminated`` the finished one's, and the finished game's last observation is in
``info["final_obs"][i]`` (``info["_final_obs"]`` marks which), as Gymnasium's
``SyncVectorEnv`` gives them in that mode. Env ``i`` reset with ``seed + i`` plays the games
a single seat env reset with ``seed + i`` plays for the same actions, its later games those
the single env plays after each ``reset()`` without a seed.

* :class:`LanesVectorEnv` -- any seat envs side by side (every bot, Python engine);
* :class:`BoardVectorEnv` -- the board game's (:class:`~cambio.envs.gymnasium.BoardSeatEnv`
  lanes);
* :class:`~cambio.envs.cards_vector.CardsVectorEnv` -- the card game's, on the batch engine
  when every opponent has a native version, on lanes otherwise.

An action the mask forbids raises ``ValueError`` naming the env (nothing is applied);
:meth:`action_masks` gives the current masks for masked algorithms.

>>> env = BoardVectorEnv(2, size=4, opponents=("greedy",))
>>> obs, info = env.reset(seed=0)
>>> obs["action_mask"].shape == (2, env.single_action_space.n)
True
>>> env.metadata["autoreset_mode"].value
'SameStep'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.extras import needs

with needs("research", "cambio.envs.vector"):
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

from .gymnasium import BoardSeatEnv, SeatEnv

Obs = dict[str, npt.NDArray[Any]]
StepResult = tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                   npt.NDArray[np.bool_], dict[str, Any]]


class SeatVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """What both games' vector envs share: the spaces, the metadata, the final-observation
    info and the action check."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,  # noqa: RUF012 (gymnasium's)
                "render_modes": []}

    def _spaces(self, num_envs: int, obs_size: int, num_actions: int) -> None:
        self.num_envs = num_envs
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
        })
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _actions(self, actions: Sequence[int] | npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        numbers = np.asarray(actions, dtype=np.int64)
        if numbers.shape != (self.num_envs,):
            raise ValueError(f"{self.num_envs} actions expected, got shape {numbers.shape}")
        return numbers

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """``seed``: env ``i`` gets ``seed + i``, or one seed per env (None: fresh)."""
        raise NotImplementedError

    def action_masks(self) -> npt.NDArray[np.int8]:
        raise NotImplementedError

    @staticmethod
    def final_info(num_envs: int, finals: dict[int, Obs]) -> dict[str, Any]:
        """Gymnasium's same-step final observations: an object array (one observation dict
        per finished env, None elsewhere) and its mask."""
        info: dict[str, Any] = {}
        if finals:
            final = np.full(num_envs, None, dtype=object)
            mask = np.zeros(num_envs, dtype=bool)
            for i, o in finals.items():
                final[i] = o
                mask[i] = True
            info["final_obs"], info["_final_obs"] = final, mask
        return info


class LanesVectorEnv(SeatVectorEnv):
    """Seat envs stepped one after the other (any opponents, the Python engines)."""

    def __init__(self, lanes: Sequence[SeatEnv]) -> None:
        if not lanes:
            raise ValueError("at least one env")
        self.lanes = list(lanes)
        first = self.lanes[0]
        self._spaces(len(self.lanes), first.game.obs_size, first.game.num_actions)
        self._started = False

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        seeds = _seeds(seed, self.num_envs)
        obs = [lane.reset(seed=s)[0] for lane, s in zip(self.lanes, seeds, strict=True)]
        self._started = True
        return _stack(obs), {}

    def step(self, actions: Sequence[int] | npt.NDArray[Any]) -> StepResult:
        if not self._started:
            raise RuntimeError("call reset() first")
        numbers = self._actions(actions)
        for i, lane in enumerate(self.lanes):
            mask = lane.action_masks()
            if not 0 <= numbers[i] < mask.size or not mask[numbers[i]]:
                raise ValueError(f"action {int(numbers[i])} is not legal in env {i}")
        obs, finals = [], {}
        rewards = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, dtype=bool)
        for i, lane in enumerate(self.lanes):
            o, r, terminated, truncated, _ = lane.step(int(numbers[i]))
            rewards[i], done[i] = r, terminated or truncated
            if done[i]:
                finals[i] = o
                o, _ = lane.reset()
            obs.append(o)
        return (_stack(obs), rewards, done, np.zeros(self.num_envs, dtype=bool),
                self.final_info(self.num_envs, finals))

    def action_masks(self) -> npt.NDArray[np.int8]:
        return np.stack([lane.action_masks() for lane in self.lanes])


class BoardVectorEnv(LanesVectorEnv):
    """``num_envs`` board games, seat ``seat`` learning, ``opponents`` the board bots
    (:class:`~cambio.envs.gymnasium.BoardSeatEnv`'s arguments)."""

    def __init__(self, num_envs: int, size: int = 5, opponents: Sequence[str] = ("random",),
                 seat: int = 0, **fields: Any) -> None:
        super().__init__([BoardSeatEnv(size=size, opponents=opponents, seat=seat, **fields)
                          for _ in range(num_envs)])


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    if seed is None:
        return [None] * n
    if isinstance(seed, int):
        return [seed + i for i in range(n)]
    if len(seed) != n:
        raise ValueError(f"{n} seeds expected")
    return list(seed)


def _stack(obs: list[dict[str, Any]]) -> Obs:
    return {"observation": np.stack([o["observation"] for o in obs]),
            "action_mask": np.stack([o["action_mask"] for o in obs])}


__all__ = ["BoardVectorEnv", "LanesVectorEnv", "SeatVectorEnv"]
