"""The SB3 ``VecEnv`` adapter's contract (skipped without the ``train`` extra): shapes,
seeding, masks for MaskablePPO, dones and terminal observations through autoreset, and a
few MaskablePPO updates through it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from cambio.envs.cards_vector import CardsVectorEnv
from cambio.envs.gymnasium import CardsSeatEnv
from cambio.envs.sb3 import SB3VecEnv
from cambio.envs.vector import BoardVectorEnv


def test_vecenv_contract_through_autoreset() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks

    n = 4
    venv: Any = SB3VecEnv(CardsVectorEnv(n, opponents=("memory",)))
    singles = [CardsSeatEnv(opponents=("memory",)) for _ in range(n)]
    venv.seed(9)
    obs: Any = venv.reset()
    for i, env in enumerate(singles):
        assert (obs[i] == env.reset(seed=9 + i)[0]["observation"]).all()
    assert obs.shape == (n, *venv.observation_space.shape)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        masks = get_action_masks(venv)
        assert masks.dtype == bool and masks.shape == (n, venv.action_space.n)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and dones.shape == (n,)
        for i, env in enumerate(singles):
            o, r, done, _, _ = env.step(int(actions[i]))
            assert dones[i] == done and rewards[i] == r
            if done:
                ended += 1
                assert (infos[i]["terminal_observation"] == o["observation"]).all()
                assert infos[i]["TimeLimit.truncated"] is False
                o, _ = env.reset()
            else:
                assert "terminal_observation" not in infos[i]
            assert (obs[i] == o["observation"]).all()
    assert ended >= n
    both: Any = SB3VecEnv(BoardVectorEnv(2, size=4), tensor_only=False)
    first = both.reset()
    assert set(first) == {"observation", "action_mask"}


def test_maskable_ppo_learns_through_the_adapter() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    venv = SB3VecEnv(CardsVectorEnv(8, opponents=("random",)))
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256


def test_saved_policy_plays_by_name_in_sim_and_tournament(tmp_path: Any) -> None:
    """A MaskablePPO policy saved to a file is the bot ``sb3:PATH``: it reloads to the same
    actions, and plays the same games in-process and on worker processes."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from cambio.bots.cards import make_bot
    from cambio.cards import Rules
    from cambio.sim import tournament
    from cambio.sim.parallel import Where

    venv: Any = SB3VecEnv(CardsVectorEnv(4, opponents=("random",)))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(total_timesteps=128)
    path = tmp_path / "policy.zip"
    model.save(path)
    obs = venv.reset()
    masks = np.stack(venv.env_method("action_masks"))
    again = MaskablePPO.load(path, device="cpu")
    assert (model.predict(obs, action_masks=masks, deterministic=True)[0]
            == again.predict(obs, action_masks=masks, deterministic=True)[0]).all()

    name = f"sb3:{path}"
    assert type(make_bot(name, 0)).__name__ == "AgentBot"
    rules = Rules.preset("rulebook", max_grid=8)
    config = tournament.TournamentConfig(rules, 2, (name, "random"), 20, seed=3)
    here = tournament.summarize(config, tournament.run(config))
    there = tournament.summarize(config, tournament.run(config, where=Where(2)))
    drop = tournament.TIMING_KEYS
    assert {k: v for k, v in here.items() if k not in drop} == \
        {k: v for k, v in there.items() if k not in drop}
    with pytest.raises(ValueError, match="no saved policy"):
        make_bot(f"sb3:{tmp_path / 'missing.zip'}", 0)
