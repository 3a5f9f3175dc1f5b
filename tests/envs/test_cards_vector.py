"""The vector envs against the single-seat envs, game for game, through same-step autoreset.

Env ``i`` of a vector env reset with ``seed + i`` must see exactly what a single seat env
reset with ``seed + i`` sees for the same actions: the same observation tensors and masks
after every step, the same rewards, the finished game's last observation in
``info["final_obs"]``, and the same new deals after each finished game.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import cambio.envs  # noqa: F401  (registers the gymnasium ids)
from cambio.cards import Rules
from cambio.envs.cards_codec import capped_rules
from cambio.envs.cards_vector import CardsSelfPlayVectorEnv, CardsVectorEnv
from cambio.envs.gymnasium import BoardSeatEnv, CardsSeatEnv, SeatEnv
from cambio.envs.turns import OVER, CardsTurns
from cambio.envs.vector import BoardVectorEnv, SeatVectorEnv


def random_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def lockstep(vec: SeatVectorEnv, singles: list[SeatEnv], seed: int, steps: int) -> int:
    """Step ``vec`` and ``singles`` together; return how many games finished."""
    assert vec.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, _ = vec.reset(seed=seed)
    for i, env in enumerate(singles):
        o, _ = env.reset(seed=seed + i)
        for key in ("observation", "action_mask"):
            assert (obs[key][i] == o[key]).all()
    assert obs in vec.observation_space
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(steps):
        actions = random_actions(obs["action_mask"], rng)
        assert (vec.action_masks() == obs["action_mask"]).all()
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for i, env in enumerate(singles):
            o, r, done, _, _ = env.step(int(actions[i]))
            assert terminated[i] == done
            assert rewards[i] == r
            assert bool(info.get("_final_obs", np.zeros(len(singles)))[i]) == done
            if done:
                finished += 1
                final = info["final_obs"][i]
                for key in ("observation", "action_mask"):
                    assert (final[key] == o[key]).all(), i
                o, _ = env.reset()
            for key in ("observation", "action_mask"):
                assert (obs[key][i] == o[key]).all(), (i, key)
    return finished


@pytest.mark.parametrize(("rules", "opponents", "seat", "overrides"), [
    ("rulebook", ("memory",), 0, {}),
    ("house", ("random", "memory"), 1, {}),
    ("wikipedia", ("memory", "random", "medium"), 3, {"max_grid": 5, "snap_penalty": 2}),
    ("house", ("memory", "memory"), 2, {"power_trigger": "end_of_turn_discard",
                                        "power_nine_ten": "swap_any"}),
    ("cabo", ("memory",), 1, {}),
    ("cambia", ("memory", "random"), 1, {}),
    ("evan", ("random", "memory"), 0, {}),
])
def test_each_vector_env_plays_the_single_env_games(rules: str, opponents: tuple[str, ...],
                                                    seat: int, overrides: dict[str, Any]) -> None:
    n = 6
    vec = CardsVectorEnv(n, rules=rules, opponents=opponents, seat=seat, **overrides)
    assert vec.native
    singles: list[SeatEnv] = [CardsSeatEnv(rules=rules, opponents=opponents, seat=seat,
                                           **overrides) for _ in range(n)]
    assert lockstep(vec, singles, 40, 150) >= n


def test_python_bots_play_on_lanes_with_the_same_games() -> None:
    vec = CardsVectorEnv(3, opponents=("expert",), seat=1)
    assert not vec.native
    singles: list[SeatEnv] = [CardsSeatEnv(opponents=("expert",), seat=1) for _ in range(3)]
    assert lockstep(vec, singles, 7, 60) >= 3


def test_board_vector_env_plays_the_single_env_games() -> None:
    vec = BoardVectorEnv(3, size=4, opponents=("greedy",))
    singles: list[SeatEnv] = [BoardSeatEnv(size=4, opponents=("greedy",)) for _ in range(3)]
    assert lockstep(vec, singles, 11, 60) >= 3


def test_self_play_steps_every_seat_as_the_engine_does() -> None:
    """Each lane of the self-play env is the seat-by-seat game (the turn interface the
    PettingZoo env uses) dealt from the same seed: the acting seat, its observation and
    mask, and every seat's result and last observation."""
    n, players, seed = 4, 3, 21
    vec = CardsSelfPlayVectorEnv(n, rules="house", players=players)
    rules = capped_rules(Rules.preset("house"), 8)
    rngs = [seeding.np_random(seed + i)[0] for i in range(n)]
    games = [CardsTurns(rules, players, 8) for _ in range(n)]
    for g, r in zip(games, rngs, strict=True):
        g.reset(int(r.integers(0, 2**62)))
    obs, info = vec.reset(seed=seed)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(300):
        for i, g in enumerate(games):
            assert info["seat"][i] == g.current()
            assert (obs["observation"][i] == g.observe(g.current())).all()
            assert (obs["action_mask"][i] == g.mask(g.current())).all()
        actions = random_actions(obs["action_mask"], rng)
        obs, rewards, terminated, _, info = vec.step(actions)
        assert rewards.shape == (n, players)
        for i, g in enumerate(games):
            g.step(int(actions[i]))
            assert terminated[i] == (g.current() == OVER)
            if terminated[i]:
                finished += 1
                assert list(rewards[i]) == g.returns()
                final = info["final_obs"][i]
                for s in range(players):
                    assert (final["observation"][s] == g.observe(s)).all()
                g.reset(int(rngs[i].integers(0, 2**62)))
            else:
                assert not rewards[i].any()
    assert finished >= n


def test_illegal_numbers_are_refused() -> None:
    vec = CardsVectorEnv(3, opponents=("memory",))
    with pytest.raises(RuntimeError, match="reset"):
        vec.step([0, 0, 0])
    obs, _ = vec.reset(seed=1)
    illegal = [int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]]
    before = vec.batch.sc.copy()
    with pytest.raises(ValueError, match="is not legal in env 0"):
        vec.step(illegal)
    assert (vec.batch.sc == before).all()  # nothing applied
    with pytest.raises(ValueError, match="3 actions expected"):
        vec.step([0, 1])
    with pytest.raises(ValueError, match="unknown bot"):
        CardsVectorEnv(2, opponents=("nobody",))
    lanes = BoardVectorEnv(2, size=4)
    obs, _ = lanes.reset(seed=1)
    with pytest.raises(ValueError, match="not legal in env 1"):
        lanes.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"][:1]] + [99])


def test_registered_ids_make_the_envs() -> None:
    single = gym.make("cambio/Cards-v0", opponents=("memory",))
    check_env(single.unwrapped)
    board = gym.make("cambio/Board-v0", size=4)
    check_env(board.unwrapped)
    vec = gym.make_vec("cambio/Cards-v0", num_envs=3, opponents=("memory",))
    assert isinstance(vec, CardsVectorEnv) and vec.num_envs == 3 and vec.native
    bvec = gym.make_vec("cambio/Board-v0", num_envs=2, size=4)
    assert isinstance(bvec, BoardVectorEnv)
    obs, _ = bvec.reset(seed=0)
    assert obs["observation"].shape == (2, bvec.lanes[0].game.obs_size)
