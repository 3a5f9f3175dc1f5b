"""PettingZoo's own API and seed tests on both games, and the AEC mapping of snap polls."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, seed_test

from cambio.cards import Phase
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
    env = cards_env(rules="rulebook", players=3)
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
    env = cards_env(rules="house", players=2, snap_penalty=2)
    env.reset(seed=1)
    before = env.unwrapped.game.state.clone()
    obs, *_ = env.last()
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.unwrapped.game.state == before
    assert env.unwrapped.game.rules.snap_penalty == 2
