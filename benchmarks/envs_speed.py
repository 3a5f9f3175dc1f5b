"""Random steps per CPU second of the card game's research environments, in one run.

* ``openspiel``: ``python_cambio_cards`` (2 players, rulebook) played from the initial state
  to the end: chance nodes sampled by their probabilities, decisions uniform over
  ``legal_actions()``; every applied action (chance ones included) is a step, as in
  OpenSpiel's own random-simulation loops.
* ``pettingzoo``: ``cards_env`` through ``agent_iter``/``last()`` (each turn builds the
  observation and the mask), a uniform legal action per step.
* ``seat_memory``: ``CardsSeatEnv`` against the ``memory`` bot, a uniform legal action
  from the returned mask per step (the bot's moves are not counted as steps).
* ``pettingzoo_engine``, ``seat_memory_engine``: the same two with ``native=False``: the
  round on the compiled engine (``State``) and the observations encoded in Python, instead
  of the batch engine's record and its compiled encoder.

Then the information-state tensor: its size, and calls per CPU second at a position 40
actions into a round. The environments run one after the other in rounds (``--rounds``,
interleaved), each for ``--seconds`` of this process's CPU time (``time.process_time``);
the best round is reported, the median beside it. Versions of numpy, numba and llvmlite are
printed with the figures.

    .venv/bin/python benchmarks/envs_speed.py --seconds 2 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import numpy as np

from cambio.cards import COMPILED


def openspiel_steps(seconds: float, seed: int) -> float:
    import pyspiel

    import cambio.envs.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_cambio_cards")
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    r -= p
                    if r < 0:
                        action = a
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps / (time.process_time() - start)


def pettingzoo_steps(seconds: float, seed: int, native: bool = True) -> float:
    from cambio.envs.pettingzoo import cards_env

    env = cards_env(rules="rulebook", players=2, native=native)
    rng = random.Random(seed)
    steps = 0
    episode = seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.process_time() - start)


def seat_steps(seconds: float, seed: int, native: bool = True) -> float:
    from cambio.envs.gymnasium import CardsSeatEnv

    env = CardsSeatEnv(rules="rulebook", opponents=("memory",), native=native)
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs, _, done, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
        if done:
            obs, _ = env.reset()
    return steps / (time.process_time() - start)


def info_state(seconds: float, seed: int) -> dict[str, Any]:
    """The information-state tensor's size and calls per CPU second, 40 actions in."""
    import pyspiel

    import cambio.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_cambio_cards")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 40:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state.information_state_tensor(player)
        calls += 1
    rate = calls / (time.process_time() - start)
    return {"floats": game.information_state_tensor_size(), "calls_per_second": round(rate, 1)}


MEASURES: dict[str, Callable[[float, int], float]] = {
    "openspiel": openspiel_steps, "pettingzoo": pettingzoo_steps, "seat_memory": seat_steps,
    "pettingzoo_engine": lambda s, seed: pettingzoo_steps(s, seed, native=False),
    "seat_memory_engine": lambda s, seed: seat_steps(s, seed, native=False),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per env a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=",".join(MEASURES), help="comma-separated envs")
    args = ap.parse_args()
    names = args.only.split(",")
    for name in names:  # imports and compiled kernels loaded before timing
        MEASURES[name](0.05, args.seed)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names:
            rates[name].append(MEASURES[name](args.seconds, args.seed + r))
    out: dict[str, Any] = {
        name: {"steps_per_second": round(max(v), 1),
               "steps_per_second_median": round(statistics.median(v), 1)}
        for name, v in rates.items()}
    out["information_state_tensor"] = info_state(min(args.seconds, 1.0), args.seed)
    out["compiled_engine"] = COMPILED
    out["versions"] = {p: version(p) for p in ("numpy", "numba", "llvmlite", "open_spiel",
                                                "pettingzoo", "gymnasium")}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
