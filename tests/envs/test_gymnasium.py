"""Gymnasium's env checker on both games, and episodes against the bots."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cambio.envs.gymnasium import BoardSeatEnv, CardsSeatEnv


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_cards_env_checker(preset: str) -> None:
    check_env(CardsSeatEnv(rules=preset, opponents=("memory", "random"), seat=1),
              skip_render_check=True)


@pytest.mark.parametrize(("size", "opponents"), [(4, ("greedy",)), (4, ("random", "greedy")),
                                                 (5, ("greedy",)), (5, ("random", "greedy"))])
def test_board_env_checker(size: int, opponents: tuple[str, ...]) -> None:
    check_env(BoardSeatEnv(size=size, opponents=opponents), skip_render_check=True)


def test_illegal_actions_are_replaced_and_reported() -> None:
    env = CardsSeatEnv(rules="rulebook", opponents=("random",))
    obs, _ = env.reset(seed=2)
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True


def test_same_seed_same_episode() -> None:
    def episode(seed: int) -> list[float]:
        env = CardsSeatEnv(rules="house", opponents=("memory",))
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        trace = [float(obs["observation"].sum())]
        done = False
        while not done:
            action = env.action_space.sample(obs["action_mask"])
            obs, reward, done, _, _ = env.step(action)
            trace += [float(obs["observation"].sum()), reward]
        return trace

    assert episode(7) == episode(7)
    assert episode(7) != episode(8)


def test_rewards_are_the_round_result() -> None:
    env = BoardSeatEnv(size=4, opponents=("greedy",))
    results = set()
    for seed in range(12):
        obs, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            action = int(obs["action_mask"].nonzero()[0][0])
            obs, reward, done, truncated, _ = env.step(action)
            assert not truncated
        results.add(reward)
        assert reward in (-1.0, 0.0, 1.0)
    assert -1.0 in results  # the first legal move every time loses to greedy sometimes


@pytest.mark.parametrize(("preset", "opponents", "seat"), [
    ("rulebook", ("memory",), 0), ("house", ("memory", "random"), 1),
    ("wikipedia", ("medium", "memory", "memory"), 2), ("cabo", ("memory",), 1),
    ("cambia", ("memory", "random"), 0), ("evan", ("memory", "memory"), 2)])
def test_native_opponents_play_the_python_bots_games(preset, opponents, seat) -> None:
    """Native opponents on the batch engine give the episodes the Python bots give on the
    compiled engine: the same observations, masks, rewards and ends for the same seeds and
    actions."""
    fast = CardsSeatEnv(rules=preset, opponents=opponents, seat=seat)
    slow = CardsSeatEnv(rules=preset, opponents=opponents, seat=seat, native=False)
    assert fast.batch is not None and slow.batch is None and slow._memory is None
    _same_episodes(fast, slow, np.random.default_rng(len(preset)))


def test_native_memory_beside_a_python_bot_plays_its_games() -> None:
    """With an opponent that has no native version the round stays on the compiled engine
    and only the memory bot's decisions are compiled: the same episodes again."""
    fast = CardsSeatEnv(rules="house", opponents=("memory", "rusher"), seat=1)
    slow = CardsSeatEnv(rules="house", opponents=("memory", "rusher"), seat=1, native=False)
    assert fast.batch is None and fast._memory is not None and slow._memory is None
    _same_episodes(fast, slow, np.random.default_rng(7), history=True)


def _same_episodes(fast: CardsSeatEnv, slow: CardsSeatEnv, rng: np.random.Generator,
                   history: bool = False) -> None:
    steps = 0
    for episode in range(20):
        a, _ = fast.reset(seed=episode)
        b, _ = slow.reset(seed=episode)
        done = False
        while True:
            assert a["observation"].tobytes() == b["observation"].tobytes()
            assert (a["action_mask"] == b["action_mask"]).all()
            if history:
                assert fast.cards.state.history == slow.cards.state.history
            if done:
                break
            action = int(rng.choice(np.flatnonzero(a["action_mask"])))
            a, ra, done, _, _ = fast.step(action)
            b, rb, done_b, _, _ = slow.step(action)
            assert (ra, done) == (rb, done_b)
            steps += 1
    assert steps > 50
