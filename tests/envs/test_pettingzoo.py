"""PettingZoo's own API and seed tests on both games, and the AEC mapping of snap polls."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cambio.cards import Phase
from cambio.envs.native_seat import BatchTurns
from cambio.envs.pettingzoo import board_env, cards_env

PRESETS = ("rulebook", "house", "wikipedia")
BOARDS = [(4, 2), (4, 3), (5, 2), (5, 3)]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3])
def test_cards_api_and_seed(preset: str, players: int) -> None:
    api_test(cards_env(rules=preset, players=players), num_cycles=300)
    seed_test(lambda: cards_env(rules=preset, players=players), num_cycles=200)


@pytest.mark.parametrize(("size", "players"), BOARDS)
def test_board_api_and_seed(size: int, players: int) -> None:
    api_test(board_env(size=size, players=players), num_cycles=300)
    seed_test(lambda: board_env(size=size, players=players), num_cycles=200)


def test_snap_polls_are_turns_of_the_polled_agent() -> None:
    env = cards_env(rules="rulebook", players=3, native=False)
    env.reset(seed=5)
    game = env.unwrapped.game
    polled = 0
    for agent in env.agent_iter(max_iter=2000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = game.state
        if state.phase == Phase.POLL:
            polled += 1
            assert agent == f"player_{state.poll[state.poll_i]}"
            # pass (action 6) and one snap per occupied slot: nothing else
            legal = set(obs["action_mask"].nonzero()[0])
            assert 6 in legal and len(legal) == 1 + len(state._all_slots())
            env.step(6)
        else:
            env.step(int(obs["action_mask"].nonzero()[0][-1]))
    assert polled > 0


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = cards_env(rules="house", players=2, snap_penalty=2, native=False)
    env.reset(seed=1)
    before = env.unwrapped.game.state.clone()
    obs, *_ = env.last()
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.unwrapped.game.state == before
    assert env.unwrapped.game.rules.snap_penalty == 2


def test_native_illegal_action_raises_and_changes_nothing() -> None:
    env = cards_env(rules="house", players=2, snap_penalty=2)
    assert isinstance(env.unwrapped.game, BatchTurns)
    env.reset(seed=1)
    obs, *_ = env.last()
    before = env.unwrapped.game.record.copy()
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert (env.unwrapped.game.record == before).all()


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("house", 3),
                                                 ("wikipedia", 4), ("cabo", 3), ("cambia", 3),
                                                 ("evan", 2)])
def test_native_rounds_are_the_engines(preset: str, players: int) -> None:
    """On the batch engine the env plays the compiled engine's episodes: the same agent to
    act, observation, mask, rewards and ends at every turn, for the same seeds and
    actions."""
    fast = cards_env(rules=preset, players=players)
    slow = cards_env(rules=preset, players=players, native=False)
    assert isinstance(fast.unwrapped.game, BatchTurns)
    assert not isinstance(slow.unwrapped.game, BatchTurns)
    rng = np.random.default_rng(players)
    turns = 0
    for episode in range(30):
        fast.reset(seed=episode)
        slow.reset(seed=episode)
        for agent, other in zip(fast.agent_iter(), slow.agent_iter(), strict=True):
            assert agent == other
            a, ra, ta, ua, _ = fast.last()
            b, rb, tb, ub, _ = slow.last()
            assert a["observation"].tobytes() == b["observation"].tobytes()
            assert (a["action_mask"] == b["action_mask"]).all()
            assert (ra, ta, ua) == (rb, tb, ub)
            if ta or ua:
                fast.step(None)
                slow.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(a["action_mask"])))
            fast.step(action)
            slow.step(action)
            turns += 1
    assert turns > 150  # uniform play calls Cambio early: rounds of a dozen turns
