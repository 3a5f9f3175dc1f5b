"""Rollouts per CPU second: the search bots' ``memory``-policy playouts to the end of a round.

The ``hard`` and ``deep`` card bots (and the clairvoyant reference) value a move by loading
sampled worlds into a :class:`~cambio.bots.cards.rollouts.Rollouts` batch and playing every
seat's ``memory`` bot to the end natively. This times exactly that: ``--positions`` seeded
positions (random play from a deal, Cambio never called, 0-40 actions in), each loaded
into ``--rows`` rows and finished, for ``--seconds`` of this process's CPU time
(``time.process_time``), best of ``--repeat`` runs; loading the rows is included, as the
bots pay it too.

    .venv/bin/python benchmarks/cards_rollouts.py --players 2 --rules rulebook
"""

from __future__ import annotations

import argparse
import json
import random
import time
from importlib.metadata import version

from cambio.bots.cards.rollouts import Rollouts, load_state
from cambio.cards import Rules, State
from cambio.cards.actions import CAMBIO


def positions(rules: Rules, players: int, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        s = State(rules, players, seed=seed + i)
        for _ in range(rng.randrange(41)):
            if s.is_over():
                break
            legal = s.legal_actions()
            s.apply(rng.choice([a for a in legal if a != CAMBIO] or legal))
        if not s.is_over():
            out.append(s)
    return out


def rate(pool: Rollouts, states: list[State], rows: int, seconds: float) -> float:
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for s in states:
            for i in range(rows):
                load_state(pool.batch, i, s)
            pool.finish(rows)
            done += rows
    return done / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--rows", type=int, default=64)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    states = positions(rules, args.players, args.positions, args.seed)
    pool = Rollouts(rules, args.players, args.rows)
    rate(pool, states[:1], 1, 0.0)  # load the compiled kernels
    rates = sorted(rate(pool, states, args.rows, args.seconds) for _ in range(args.repeat))
    print(json.dumps({
        "rules": args.rules, "players": args.players, "rows": args.rows,
        "positions": len(states), "rollouts_per_second": round(rates[-1], 1),
        "rollouts_per_second_median": round(rates[len(rates) // 2], 1),
        "versions": {p: version(p) for p in ("numpy", "numba", "llvmlite")}}))


if __name__ == "__main__":
    main()
