"""Agent steps per CPU second: the vectorised card env against the single-seat Gymnasium env.

The agent takes the last legal action number (the first would be ``cambio`` at the first
turn), so the policy costs next to nothing and the envs are what is measured; the opponents
are ``memory`` bots (native in the vectorised env, Python in the single env). Both in one
run, one core.

    .venv/bin/python benchmarks/cards_vector_env.py --envs 1024 --seconds 3
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import numpy.typing as npt

from cambio.envs.cards_vector import CardsVectorEnv
from cambio.envs.gymnasium import CardsSeatEnv


def last_legal(masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """Per row, the highest action number the mask allows."""
    return np.asarray(masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1), dtype=np.int64)


def single_rate(rules: str, opponents: tuple[str, ...], seconds: float) -> float:
    env = CardsSeatEnv(rules=rules, opponents=opponents)
    obs, _ = env.reset(seed=1)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs, _, done, _, _ = env.step(last_legal(obs["action_mask"][None, :])[0])
        steps += 1
        if done:
            obs, _ = env.reset()
    return steps / (time.process_time() - start)


def vector_rate(rules: str, opponents: tuple[str, ...], envs: int, seconds: float) -> float:
    env = CardsVectorEnv(envs, rules=rules, opponents=opponents)
    obs, _ = env.reset(seed=1)
    obs, _, _, _, _ = env.step(last_legal(obs["action_mask"]))  # compiled kernels loaded
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs, _, _, _, _ = env.step(last_legal(obs["action_mask"]))
        steps += envs
    return steps / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--opponents", default="memory", help="comma-separated, one per other seat")
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    opponents = tuple(args.opponents.split(","))
    single = single_rate(args.rules, opponents, args.seconds)
    vector = vector_rate(args.rules, opponents, args.envs, args.seconds)
    print(json.dumps({"rules": args.rules, "opponents": list(opponents), "envs": args.envs,
                      "single_steps_per_second": round(single, 1),
                      "vector_steps_per_second": round(vector, 1),
                      "ratio": round(vector / single, 1)}))


if __name__ == "__main__":
    main()
