"""``cambio sim cards`` on 1 process, on N processes and on a local Ray, in the same run.

Runs the same configuration (default: 2 random bots, rulebook, 20,000 rounds, seed 1) with
``--workers 1`` and ``--workers N`` alternately, ``--repeat`` times each, then once on a local
Ray; checks every summary is identical but for timing, and prints each run's games/s, the best
of each, and the speed-up (best N over best 1). Wall-clock time: on a shared machine the load
average is printed before and after, since other work takes cores away from the workers. The
CPU time per 1,000 games (this process plus its workers) shows what the runner itself costs,
whatever the load.

    .venv/bin/python benchmarks/sim_parallel.py --games 20000 --workers 2 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from cambio.cards import Rules
from cambio.sim.cards import TIMING_KEYS, SimConfig, choose_engine, simulate
from cambio.sim.parallel import Where


def fixed(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engine", default="auto", help="auto, batch or python (as the CLI)")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bots = tuple(args.bots.split(",")) * (args.players if "," not in args.bots else 1)
    config = SimConfig(Rules.preset(args.rules), args.players, bots, args.games, args.seed)
    engine = choose_engine(config, args.engine)
    load_before = os.getloadavg()
    rates: dict[str, list[float]] = {"1": [], str(args.workers): []}
    cpu: dict[str, list[float]] = {"1": [], str(args.workers): []}
    reference: dict[str, Any] | None = None
    for _ in range(args.repeat):
        for w in (1, args.workers):
            before = os.times()
            summary = simulate(config, where=Where(workers=w), engine=engine)
            after = os.times()
            used = sum(after[i] - before[i] for i in range(4))  # self and children, user+sys
            rates[str(w)].append(summary["games_per_second"])
            cpu[str(w)].append(used / args.games * 1000)
            print(f"workers {w}: {summary['games_per_second']:,.0f} games/s "
                  f"(wall), {used / args.games * 1000:.3f} CPU s per 1,000 games", flush=True)
            reference = reference or fixed(summary)
            assert fixed(summary) == reference, "summaries differ"
    ray_rate = None
    if not args.no_ray:
        summary = simulate(config, where=Where(workers=args.workers, ray="local"),
                           engine=engine)
        assert fixed(summary) == reference, "the Ray summary differs"
        ray_rate = summary["games_per_second"]
        print(f"ray local ({args.workers} CPUs): {ray_rate:,.0f} games/s (start-up included)")
    best1, bestn = max(rates["1"]), max(rates[str(args.workers)])
    assert reference is not None
    result = {
        "games": args.games, "players": args.players, "rules": args.rules, "bots": list(bots),
        "seed": args.seed, "engine": engine, "workers": args.workers, "cpus": os.cpu_count(),
        "games_per_second": rates, "best_1": best1, f"best_{args.workers}": bestn,
        "speedup": bestn / best1, "ray_local": ray_rate,
        "cpu_seconds_per_1000_games": cpu,
        "wins": reference["wins"], "mean_score": reference["mean_score"],
        "identical": True, "load_before": load_before, "load_after": os.getloadavg(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"engine {engine}; wins {reference['wins']} · mean score {reference['mean_score']} "
              "(identical in every run)")
        print(f"best: 1 worker {best1:,.0f} games/s, {args.workers} workers {bestn:,.0f} "
              f"games/s: {bestn / best1:.2f}x")
        print(f"CPU per 1,000 games (self + workers), best: 1 worker {min(cpu['1']):.3f} s, "
              f"{args.workers} workers {min(cpu[str(args.workers)]):.3f} s")
        print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} "
              f"({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
