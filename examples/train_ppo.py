"""Train a masked PPO agent (sb3-contrib's MaskablePPO) on the card game, then measure it.

The agent plays seat 0 of a 2-player rulebook round against a bot (``--opponent``, default
``memory``) through ``cambio.envs.cards_vector.CardsVectorEnv`` (``--envs`` games at once,
grids capped at 8 slots, the env's encoding) and ``cambio.envs.sb3.SB3VecEnv``. Every
``--eval-every`` steps (the first step count past each multiple: the env steps ``--envs``
at a time) the policy is saved to ``--save`` and seated by name, ``sb3:PATH``,
for ``--eval-games`` rounds against ``random`` and ``memory`` with
``cambio.sim.cards.simulate`` (the same code as ``cambio sim cards``, seeded, seats as in the
sim), which draws the learning curve. At the end the policy is saved, reloaded and checked to
play the same actions, and measured the same way on ``--final-games`` rounds per opponent.
Every figure is a win share (a tie counts half a win) with its 95% interval, as ``cambio sim``
prints it (``cambio.shares``). The saved file plays anywhere a bot is named::

    .venv/bin/cambio tournament cards --bots sb3:ppo-cards.zip,random,memory --rule max_grid=8

Needs the ``train`` extra (PyTorch; not installed by ``make test``)::

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python examples/train_ppo.py --steps 150000 --plot docs/img/ppo-cards.png
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from cambio.cards import Rules
from cambio.envs.cards_codec import capped_rules
from cambio.envs.cards_vector import CardsVectorEnv
from cambio.envs.sb3 import SB3VecEnv
from cambio.shares import share_text
from cambio.sim.cards import SimConfig, simulate

Share = tuple[float, float, float]
"""A win share, then its 95% interval's low and high ends."""
RULES = capped_rules(Rules.preset("rulebook"), 8)
"""Replaced in main() by --rule overrides (every measurement uses the training rules)."""


def versus(model: Any, opponent: str, games: int, seed: int, path: str) -> Share:
    """The agent's (seat 0's) win share against ``opponent`` over ``games`` seeded rounds of
    ``cambio.sim.cards.simulate``, with its 95% interval. The model is saved to ``path`` and
    seated by name (``sb3:PATH``), as ``cambio sim``, ``cambio tournament`` and
    ``--workers``/``--ray`` seat it."""
    model.save(path)
    summary = simulate(SimConfig(RULES, 2, (f"sb3:{path}", opponent), games, seed))
    low, high = summary["win_share_interval"][0]
    return summary["win_share"][0], low, high


class Curve(BaseCallback):  # type: ignore[misc,unused-ignore]
    """Measures the policy at the start and each time training passes a multiple of
    ``every`` steps (steps come ``--envs`` at a time, so rarely onto the multiple itself)."""

    def __init__(self, every: int, games: int, seed: int, path: str) -> None:
        super().__init__()
        self.every, self.games, self.seed, self.path = every, games, seed, path
        self.next = every
        self.rows: list[tuple[int, Share, Share]] = []

    def evaluate(self) -> None:
        r = versus(self.model, "random", self.games, self.seed, self.path)
        m = versus(self.model, "memory", self.games, self.seed + 1, self.path)
        self.rows.append((self.num_timesteps, r, m))
        print(f"{self.num_timesteps:7d} steps: vs random {share_text(*r)}, "
              f"vs memory {share_text(*m)}", flush=True)

    def _on_training_start(self) -> None:
        self.evaluate()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.evaluate()
            while self.next <= self.num_timesteps:
                self.next += self.every
        return True


def check_reload(model: MaskablePPO, path: str, venv: SB3VecEnv) -> None:
    """The saved file is the policy: reloaded, it picks the same actions."""
    again = MaskablePPO.load(path, device="cpu")
    obs = venv.reset()
    masks = np.stack(venv.env_method("action_masks"))
    a, _ = model.predict(obs, action_masks=masks, deterministic=True)
    b, _ = again.predict(obs, action_masks=masks, deterministic=True)
    if not (a == b).all():
        raise SystemExit(f"the policy reloaded from {path} does not play as the trained one")


def plot(rows: list[tuple[int, Share, Share]], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    steps = [r[0] for r in rows]
    for i, name in ((1, "vs random"), (2, "vs memory")):
        shares = [r[i] for r in rows]
        ax.errorbar(steps, [s[0] for s in shares],
                    yerr=[[s[0] - s[1] for s in shares], [s[2] - s[0] for s in shares]],
                    fmt="o-", capsize=3, label=name)
    ax.set_xlabel("training steps (agent decisions)")
    ax.set_ylabel("win share of the agent, seat 0 (95% interval)")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150_000)
    parser.add_argument("--eval-every", type=int, default=25_000,
                        help="measure each time training passes a multiple of this many steps")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--final-games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--opponent", default="memory", help="the bot it trains against")
    parser.add_argument("--rule", action="append", default=[],
                        help="a house rule KEY=VALUE on top of rulebook (repeatable)")
    parser.add_argument("--envs", type=int, default=1,
                        help="games stepped together (CardsVectorEnv through SB3VecEnv)")
    parser.add_argument("--save", default="ppo-cards.zip", help="where the policy is saved")
    parser.add_argument("--plot", default=None)
    args = parser.parse_args()
    for flag in ("steps", "eval_every", "eval_games", "final_games", "envs"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag.replace('_', '-')} must be at least 1")
    global RULES
    RULES = capped_rules(Rules.preset("rulebook", **dict(r.split("=", 1) for r in args.rule)), 8)
    venv = SB3VecEnv(CardsVectorEnv(args.envs, rules=RULES, opponents=(args.opponent,)))
    venv.seed(args.seed)
    model = MaskablePPO("MlpPolicy", venv, seed=args.seed, verbose=0,
                        n_steps=max(1, 2048 // args.envs), batch_size=256, learning_rate=3e-4,
                        gamma=1.0, ent_coef=args.ent_coef)
    curve = Curve(args.eval_every, args.eval_games, args.seed + 100, args.save)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=curve)
    print(f"trained {args.steps:,} steps in {time.perf_counter() - start:.0f} s")
    model.save(args.save)
    check_reload(model, args.save, venv)
    print(f"saved: {args.save} (seat it anywhere as the bot sb3:{args.save}; grids capped at 8: "
          f"--rule max_grid=8)")
    for opponent in ("random", "memory"):
        share = versus(model, opponent, args.final_games, args.seed + 1000, args.save)
        print(f"final, {args.final_games} rounds vs {opponent}: win share {share_text(*share)}")
    if args.plot:
        rules = "rulebook" + "".join(f", {r}" for r in args.rule)
        plot(curve.rows, args.plot,
             f"MaskablePPO trained vs {args.opponent}, cards ({rules}, 2 players)")
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
