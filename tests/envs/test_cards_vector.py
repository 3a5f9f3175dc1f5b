"""The vectorised card env against the Gymnasium single-seat env, game for game.

Env ``i`` of :class:`CardsVectorEnv` reset with ``seed + i`` must see exactly what a
:class:`CardsSeatEnv` reset with ``seed + i`` sees for the same actions: the same
observation tensors and masks after every step, the same rewards, the same new deals after
each finished game.
"""

from __future__ import annotations

import numpy as np
import pytest

from cambio.envs.cards_vector import CardsVectorEnv
from cambio.envs.gymnasium import CardsSeatEnv


@pytest.mark.parametrize(("rules", "opponents", "seat", "overrides"), [
    ("rulebook", ("memory",), 0, {}),
    ("house", ("random", "memory"), 1, {}),
    ("wikipedia", ("memory", "random", "medium"), 3, {"max_grid": 5, "snap_penalty": 2}),
    ("house", ("memory", "memory"), 2, {"power_trigger": "end_of_turn_discard",
                                        "power_nine_ten": "swap_any"}),
])
def test_each_vector_env_plays_the_single_env_games(rules, opponents, seat, overrides):
    n = 6
    vec = CardsVectorEnv(n, rules=rules, opponents=opponents, seat=seat, **overrides)
    singles = [CardsSeatEnv(rules=rules, opponents=opponents, seat=seat, **overrides)
               for _ in range(n)]
    obs, info = vec.reset(seed=40)
    for i, env in enumerate(singles):
        o, _ = env.reset(seed=40 + i)
        assert (obs[i] == o["observation"]).all()
        assert (info["action_mask"][i] == o["action_mask"]).all()
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(150):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for i, env in enumerate(singles):
            o, r, done, _, _ = env.step(int(actions[i]))
            assert terminated[i] == done
            assert rewards[i] == r
            if done:
                finished += 1
                o, _ = env.reset()
            assert (obs[i] == o["observation"]).all(), i
            assert (info["action_mask"][i] == o["action_mask"]).all(), i
    assert finished >= n  # every env went through at least one new deal on average


def test_illegal_numbers_and_unknown_bots_are_refused():
    vec = CardsVectorEnv(3, opponents=("memory",))
    with pytest.raises(RuntimeError, match="reset"):
        vec.step([0, 0, 0])
    _, info = vec.reset(seed=1)
    illegal = [int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]
    before = vec.batch.sc.copy()
    with pytest.raises(ValueError, match="is not legal in env 0"):
        vec.step(illegal)
    assert (vec.batch.sc == before).all()  # nothing applied
    with pytest.raises(ValueError, match="3 actions expected"):
        vec.step([0, 1])
    with pytest.raises(ValueError, match="no native version of expert"):
        CardsVectorEnv(2, opponents=("expert",))
