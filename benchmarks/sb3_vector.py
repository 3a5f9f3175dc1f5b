"""MaskablePPO's training steps per second: through the vector env's SB3 adapter against
SB3's ``DummyVecEnv`` of single seat envs, in one run.

Both train sb3-contrib's ``MaskablePPO`` (MLP policy, the same hyper-parameters and number
of parallel games) on seat 0 of a 2-player rulebook round against ``--opponent``, for the
same number of timesteps on one thread (``torch.set_num_threads(1)``); a timestep is one
agent decision. The figure is timesteps / wall seconds of ``learn()``, updates included.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/sb3_vector.py --envs 16 --steps 32768
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any


def rate(venv: Any, steps: int, seed: int) -> float:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=1024, n_epochs=4,
                        seed=seed, device="cpu", gamma=1.0)
    model.learn(total_timesteps=1024)  # warm-up: compiled kernels, torch
    start = time.perf_counter()
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=32768)
    ap.add_argument("--opponent", default="memory")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    from cambio.envs.cards_vector import CardsVectorEnv
    from cambio.envs.gymnasium import CardsSeatEnv, TensorOnly
    from cambio.envs.sb3 import SB3VecEnv

    torch.set_num_threads(1)
    opponents = (args.opponent,)
    vector = SB3VecEnv(CardsVectorEnv(args.envs, opponents=opponents))
    vector.seed(args.seed)
    dummy = DummyVecEnv([lambda: TensorOnly(CardsSeatEnv(opponents=opponents))
                         for _ in range(args.envs)])
    dummy.seed(args.seed)
    fast = rate(vector, args.steps, args.seed)
    slow = rate(dummy, args.steps, args.seed)
    print(json.dumps({"envs": args.envs, "timesteps": args.steps, "opponent": args.opponent,
                      "threads": torch.get_num_threads(),
                      "omp": os.environ.get("OMP_NUM_THREADS"),
                      "vector_adapter_steps_per_second": round(fast),
                      "dummy_vec_env_steps_per_second": round(slow),
                      "ratio": round(fast / slow, 2)}))


if __name__ == "__main__":
    main()
