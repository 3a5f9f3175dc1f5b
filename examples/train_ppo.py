"""Train a masked PPO agent (sb3-contrib's MaskablePPO) on the card game, then measure it.

The agent plays seat 0 of a 2-player rulebook round against a bot (``--opponent``, default
``memory``) through
``cambio.envs.gymnasium.CardsSeatEnv`` (grids capped at 8 slots, the env's encoding). Every
``--eval-every`` steps it plays ``--eval-games`` rounds against ``random`` and ``memory`` with
``cambio.sim.cards.simulate`` (the same code as ``cambio sim cards``, seeded, seats as in the
sim), which draws the learning curve. The final model is measured the same way on
``--final-games`` rounds per opponent, with 95% intervals.

Needs the ``train`` extra (PyTorch; not installed by ``make test``)::

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python examples/train_ppo.py --steps 150000 --plot docs/img/ppo-cards.png
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from cambio.bots.cards import BOTS
from cambio.cards import Rules
from cambio.envs.agent_bot import AgentBot
from cambio.envs.cards_codec import CardsCodec, capped_rules
from cambio.envs.gymnasium import CardsSeatEnv
from cambio.sim.cards import SimConfig, simulate

Z95 = 1.959963984540054
RULES = capped_rules(Rules.preset("rulebook"), 8)
"""Replaced in main() by --rule overrides (every measurement uses the training rules)."""


class TensorOnly(gym.ObservationWrapper):  # type: ignore[type-arg]
    """The observation tensor alone (the mask goes to MaskablePPO via action_masks())."""

    def __init__(self, env: CardsSeatEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]
        self.seat_env = env

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.seat_env.action_masks()


def versus(model: MaskablePPO, opponent: str, games: int, seed: int) -> tuple[float, float]:
    """Win rate of the agent (seat 0) against ``opponent`` over ``games`` seeded rounds of
    ``cambio.sim.cards.simulate``, and the half-width of its 95% interval."""
    codec = CardsCodec(RULES, 2)

    def agent(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    BOTS["ppo"] = lambda _seed: AgentBot(codec, agent, name="ppo")
    try:
        summary = simulate(SimConfig(RULES, 2, ("ppo", opponent), games, seed))
    finally:
        del BOTS["ppo"]
    p = summary["win_rate"][0]
    return p, Z95 * math.sqrt(p * (1 - p) / games)


class Curve(BaseCallback):  # type: ignore[misc]
    def __init__(self, every: int, games: int, seed: int) -> None:
        super().__init__()
        self.every, self.games, self.seed = every, games, seed
        self.rows: list[tuple[int, float, float, float, float]] = []

    def evaluate(self) -> None:
        r, rh = versus(self.model, "random", self.games, self.seed)
        m, mh = versus(self.model, "memory", self.games, self.seed + 1)
        self.rows.append((self.num_timesteps, r, rh, m, mh))
        print(f"{self.num_timesteps:7d} steps: vs random {r:.1%} ±{rh:.1%}, "
              f"vs memory {m:.1%} ±{mh:.1%}", flush=True)

    def _on_training_start(self) -> None:
        self.evaluate()

    def _on_step(self) -> bool:
        if self.num_timesteps % self.every == 0:
            self.evaluate()
        return True


def plot(rows: list[tuple[int, float, float, float, float]], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    steps = [r[0] for r in rows]
    for i, name in ((1, "vs random"), (3, "vs memory")):
        ax.errorbar(steps, [r[i] for r in rows], yerr=[r[i + 1] for r in rows], fmt="o-",
                    capsize=3, label=name)
    ax.set_xlabel("training steps (agent decisions)")
    ax.set_ylabel("win rate of the agent, seat 0 (95% interval)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150_000)
    parser.add_argument("--eval-every", type=int, default=25_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--final-games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--opponent", default="memory", help="the bot it trains against")
    parser.add_argument("--rule", action="append", default=[],
                        help="a house rule KEY=VALUE on top of rulebook (repeatable)")
    parser.add_argument("--plot", default=None)
    args = parser.parse_args()
    global RULES
    RULES = capped_rules(Rules.preset("rulebook", **dict(r.split("=", 1) for r in args.rule)), 8)
    env = TensorOnly(CardsSeatEnv(rules=RULES, opponents=(args.opponent,)))
    env.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048,
                        batch_size=256, learning_rate=3e-4, gamma=1.0, ent_coef=args.ent_coef)
    curve = Curve(args.eval_every, args.eval_games, args.seed + 100)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=curve)
    print(f"trained {args.steps:,} steps in {time.perf_counter() - start:.0f} s")
    for opponent in ("random", "memory"):
        p, half = versus(model, opponent, args.final_games, args.seed + 1000)
        print(f"final, {args.final_games} rounds vs {opponent}: win rate {p:.1%} "
              f"[{p - half:.1%}, {p + half:.1%}]")
    if args.plot:
        rules = "rulebook" + "".join(f", {r}" for r in args.rule)
        plot(curve.rows, args.plot,
             f"MaskablePPO trained vs {args.opponent}, cards ({rules}, 2 players)")
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
