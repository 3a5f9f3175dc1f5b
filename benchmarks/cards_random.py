"""Card engine speed: random games/s, actions/s and clone()/s on one core.

Random play is uniform over the legal actions of the player to move (snap polls included),
except that Cambio is not called before turn 8. The polled (turn-based) mode is measured,
since that is what simulations and RL use.

    .venv/bin/python benchmarks/cards_random.py --players 2 --rules rulebook --json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from cambio.cards import Rules, State
from cambio.cards.actions import CAMBIO


def random_game(rules: Rules, players: int, seed: int, rng: random.Random) -> int:
    """Play one random game; return the number of actions applied."""
    state = State(rules, players, seed=seed)
    rand = rng.random
    legal = state.legal_actions
    apply = state.apply
    actions = 0
    while not state.is_over():
        acts = legal()
        if acts[0] == CAMBIO and state.turn_number < 8:
            acts = acts[1:]
        apply(acts[int(rand() * len(acts))])
        actions += 1
    return actions


def measure(rules_name: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    rules = Rules.preset(rules_name)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while True:
        actions += random_game(rules, players, seed + games, rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    # clone() speed on mid-game states.
    state = State(rules, players, seed=seed)
    for _ in range(12):
        acts = state.legal_actions()
        state.apply(acts[-1] if acts[0] == CAMBIO else acts[0])
    clones = 0
    c_start = time.perf_counter()
    while time.perf_counter() - c_start < min(seconds, 1.0):
        for _ in range(1000):
            state.clone()
        clones += 1000
    c_elapsed = time.perf_counter() - c_start
    return {
        "rules": rules_name,
        "players": players,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "actions_per_game": round(actions / games, 2),
        "clones_per_second": round(clones / c_elapsed, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook", choices=["rulebook", "house", "wikipedia"])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    result = measure(args.rules, args.players, args.seconds, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
