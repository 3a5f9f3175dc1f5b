"""Card engine speed: random games/s, actions/s and clone()/s on one core.

Random play is uniform over the legal actions of the player to move (snap polls included),
except that Cambio is not called before turn 8. The polled (turn-based) mode is measured,
since that is what simulations and RL use.

Rates are per second of this process's CPU time (``time.process_time``), so other work on a
shared machine does not count against the engine; the best of ``--repeat`` runs is reported,
as ``timeit`` does, with the median beside it.

    .venv/bin/python benchmarks/cards_random.py --players 2 --rules rulebook --json
    .venv/bin/python benchmarks/cards_random.py --players 2 --engine both --json

``--engine batch`` measures the same policy on the batch engine (``cambio.cards.batch``:
whole rounds natively, ``--chunk`` games per call; the policy draws from its own splitmix64
stream instead of ``random.Random``); ``both`` measures both engines in the same run and
reports the ratio. Random play on the batch engine runs the C kernel when it is built and
plays the rule set (``cambio.cards.batch_c``), numba otherwise; ``--kernel c`` or ``numba``
chooses (``c`` fails if it cannot play), and the output says which kernel ran (``"kernel"``)
with the numba, llvmlite and numpy versions and the C kernel's compiler and flags. On numba
it runs the loop compiled for the rule set (``play_uniform(..., fixed=True)``: its first
run compiles it, about a minute, not timed; ``--generic`` for the loop every rule set
shares).

``--policy memory`` seats the ``memory`` bot everywhere instead: ``play_round`` with the
Python bot on the compiled ``State``, against the native bot on the batch engine
(``cambio.bots.cards.native.play_native``), the same games on both.

    .venv/bin/python benchmarks/cards_random.py --players 2 --engine both --policy memory --json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from cambio.bots.cards import ExpectedPointsBot, play_round
from cambio.cards import COMPILED, Rules, State
from cambio.cards.actions import CAMBIO
from cambio.cards.rules import PRESETS


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


def memory_game(rules: Rules, players: int, seed: int) -> int:
    """Play one game of ``memory`` bots (Python); return the number of actions applied."""
    state = State(rules, players, seed=seed)
    play_round(state, [ExpectedPointsBot(seat) for seat in range(players)])
    return state.history_length()


def _timed_games(rules: Rules, players: int, seconds: float, seed: int,
                 policy: str = "random") -> tuple[int, int, float]:
    rng = random.Random(seed)
    games = actions = 0
    start = time.process_time()
    while True:
        if policy == "memory":
            actions += memory_game(rules, players, seed + games)
        else:
            actions += random_game(rules, players, seed + games, rng)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games, actions, elapsed


def _timed_clones(rules: Rules, players: int, seconds: float, seed: int) -> float:
    """clone() calls per CPU second on a state twelve actions into a game."""
    state = State(rules, players, seed=seed)
    for _ in range(12):
        acts = state.legal_actions()
        state.apply(acts[-1] if acts[0] == CAMBIO else acts[0])
    clones = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            state.clone()
        clones += 1000
    return clones / (time.process_time() - start)


def _summary(runs: list[tuple[int, int, float]]) -> dict[str, Any]:
    """Best and median games/s, best actions/s, over timed runs of (games, actions, cpu)."""
    rates = sorted(g / t for g, _, t in runs)
    action_rates = sorted(a / t for _, a, t in runs)
    games = sum(g for g, _, _ in runs)
    actions = sum(a for _, a, _ in runs)
    return {
        "games": games,
        "games_per_second": round(rates[-1], 1),
        "games_per_second_median": round(rates[len(rates) // 2], 1),
        "actions_per_second": round(action_rates[-1], 1),
        "actions_per_game": round(actions / games, 2),
    }


def measure(rules_name: str, players: int, seconds: float, repeat: int,
            seed: int, policy: str = "random") -> dict[str, Any]:
    rules = Rules.preset(rules_name)
    runs = [_timed_games(rules, players, seconds, seed + 1_000_000 * k, policy)
            for k in range(repeat)]
    out = {"policy": policy, "rules": rules_name, "players": players, "compiled": COMPILED,
           **_summary(runs)}
    if policy == "random":
        clones = sorted(_timed_clones(rules, players, min(seconds, 0.5), seed)
                        for _ in range(repeat))
        out["clones_per_second"] = round(clones[-1], 1)
    return out


def _batch_memory(rules: Rules, players: int, seeds: range) -> Any:
    from cambio.bots.cards.native import play_native

    return play_native(rules, players, ["memory"] * players, seeds, [players - 1] * len(seeds),
                       [list(range(players))] * len(seeds))


def _timed_batch(rules: Rules, players: int, seconds: float, seed: int,
                 chunk: int, policy: str = "random",
                 fixed: bool = True, kernel: str = "auto") -> tuple[int, int, float]:
    from cambio.cards.batch import play_uniform

    def play(seeds: range) -> Any:
        if policy == "memory":
            return _batch_memory(rules, players, seeds)
        return play_uniform(rules, players, seeds, policy_seed=seeds[0], fixed=fixed,
                            kernel=kernel)

    play(range(seed, seed + 1))  # load (or compile) the kernels
    games = actions = 0
    start = time.process_time()
    while True:
        res = play(range(seed + games, seed + games + chunk))
        games += chunk
        actions += int(res.actions.sum())
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games, actions, elapsed


def measure_batch(rules_name: str, players: int, seconds: float, repeat: int, seed: int,
                  chunk: int, policy: str = "random", fixed: bool = True,
                  kernel: str = "auto") -> dict[str, Any]:
    from cambio.cards.batch_c import kernel_for

    rules = Rules.preset(rules_name)
    runs = [_timed_batch(rules, players, seconds, seed + 1_000_000 * k, chunk, policy, fixed,
                         kernel) for k in range(repeat)]
    out = {"engine": "batch", "policy": policy, "rules": rules_name, "players": players,
           **_summary(runs)}
    if policy == "random":
        out["kernel"] = "numba" if kernel_for(rules, kernel) is None else "c"
        if out["kernel"] == "numba":
            out["loop"] = "fixed" if fixed else "generic"
    return out


def versions() -> dict[str, Any]:
    """The libraries the batch engine's speed depends on (numba compiles it with llvmlite's
    LLVM; a new release can move its figures by a tenth or more), and the C kernel's
    compiler and flags (``"c": {}`` if it is not built)."""
    from importlib.metadata import version

    from cambio.cards.batch_c import build_info

    out: dict[str, Any] = {name: version(name) for name in ("numba", "llvmlite", "numpy")}
    out["c"] = build_info()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook", choices=sorted(PRESETS))
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    ap.add_argument("--repeat", type=int, default=5, help="runs; the best is reported")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--engine", default="state", choices=["state", "batch", "both"],
                    help="state: the compiled State; batch: cambio.cards.batch; both")
    ap.add_argument("--chunk", type=int, default=4096, help="games per batch call")
    ap.add_argument("--policy", default="random", choices=["random", "memory"],
                    help="random: uniform (no Cambio before turn 8); memory: the memory bot")
    ap.add_argument("--generic", action="store_true",
                    help="random on numba: the loop that reads the rules at run time, not the "
                         "one compiled for them (cambio.cards.batch_fixed)")
    ap.add_argument("--kernel", default="auto", choices=["auto", "c", "numba"],
                    help="random on the batch engine: the C kernel (cambio.cards.batch_c), "
                         "numba, or auto (C when built and able to play the rules)")
    args = ap.parse_args()
    result: dict[str, Any] = {}
    if args.engine in ("state", "both"):
        result = measure(args.rules, args.players, args.seconds, args.repeat, args.seed,
                         args.policy)
    if args.engine in ("batch", "both"):
        batch = measure_batch(args.rules, args.players, args.seconds, args.repeat, args.seed,
                              args.chunk, args.policy, not args.generic, args.kernel)
        if args.engine == "batch":
            result = batch
        else:
            result = {"state": result, "batch": batch,
                      "speedup": round(batch["games_per_second"]
                                       / result["games_per_second"], 2)}
    if args.engine != "state":
        result["versions"] = versions()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
