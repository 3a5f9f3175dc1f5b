"""Stable-Baselines3's ``VecEnv`` over this package's vector envs (needs the ``train`` extra).

>>> from cambio.envs.cards_vector import CardsVectorEnv
>>> venv = SB3VecEnv(CardsVectorEnv(4, opponents=("memory",)))
>>> venv.seed(1)
[1, 2, 3, 4]
>>> venv.reset().shape == (4, venv.observation_space.shape[0])
True

The observation is the tensor alone by default (``MlpPolicy``; ``tensor_only=False`` gives
the dict with the mask, for ``MultiInputPolicy``); masked algorithms (sb3-contrib's
``MaskablePPO``) read the masks through ``env_method("action_masks")``, as its
``get_action_masks`` asks a ``VecEnv``. Episodes end with SB3's conventions: ``dones``, and
the finished game's last observation in ``infos[i]["terminal_observation"]`` (the vector
env's same-step ``final_obs``). Only this module imports Stable-Baselines3: importing
:mod:`cambio.envs` does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.extras import needs

with needs("train", "cambio.envs.sb3"):
    from stable_baselines3.common.vec_env import VecEnv

from .vector import SeatVectorEnv


class SB3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """``env`` (a :class:`~cambio.envs.vector.SeatVectorEnv`) as an SB3 ``VecEnv``."""

    def __init__(self, env: SeatVectorEnv, tensor_only: bool = True) -> None:
        self.env = env
        self.tensor_only = tensor_only
        space: Any = env.single_observation_space
        super().__init__(env.num_envs, space["observation"] if tensor_only else space,
                         env.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None

    def _obs(self, obs: dict[str, npt.NDArray[Any]]) -> Any:
        return obs["observation"] if self.tensor_only else obs

    def reset(self) -> Any:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, _ = self.env.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        return self._obs(obs)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Any, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async() first")
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones).tolist():
            infos[i]["terminal_observation"] = self._obs(info["final_obs"][i])
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return self._obs(obs), rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.env, attr_name, None) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.env.action_masks().astype(bool)
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        seeds: Sequence[int | None] = super().seed(seed)
        return seeds


__all__ = ["SB3VecEnv"]
