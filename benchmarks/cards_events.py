"""What the engine's events cost: random rounds with and without an event list, same process.

Plays the same seeded random rounds (uniform over the legal actions, Cambio not before turn
8) three ways, taking turns so a shared machine's load falls on all of them alike:

* ``plain``: ``state.apply(action)``, no events asked (what search and simulation do);
* ``events``: ``state.apply(action, events=[])``, every event built;
* ``events+seen``: also each event as every seat sees it (``seen_by``), as the server and
  the terminal do.

Rates are per second of this process's CPU time; each figure is the mean of ``--repeat``
runs with its 95% interval (t distribution).

    .venv/bin/python benchmarks/cards_events.py --players 2 --rules rulebook --json

``--records N`` measures instead how fast ``N`` random 3-player rounds' histories become
records (``record_text``: replay, check and write each action), best of 5. It uses nothing
the engine before events lacked, so the same script run with ``PYTHONPATH`` set to an older
tree's ``src`` compares the two.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from cambio.cards import COMPILED, Rules, State
from cambio.cards.actions import CAMBIO
from cambio.records.cards import make_header, record_text

T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}


def play(rules: Rules, players: int, seed: int, *, mode: str) -> int:
    """One random round; returns the number of actions."""
    state = State(rules, players, seed=seed)
    rng = random.Random(seed)
    seats = range(players)
    actions = 0
    while not state.is_over():
        acts = state.legal_actions()
        if acts[0] == CAMBIO and state.turn_number < 8:
            acts = acts[1:]
        action = acts[int(rng.random() * len(acts))]
        if mode == "plain":
            state.apply(action)
        else:
            from cambio.cards.events import Event, seen_by

            events: list[Event] = []
            state.apply(action, events=events)
            if mode == "events+seen":
                for seat in seats:
                    for e in events:
                        seen_by(e, seat)
        actions += 1
    return actions


def rate(run: Callable[[int], int], seconds: float, first_seed: int) -> float:
    """Actions per CPU second over rounds from ``first_seed`` on, for ``seconds``."""
    start = time.process_time()
    actions = 0
    seed = first_seed
    while time.process_time() - start < seconds:
        actions += run(seed)
        seed += 1
    return actions / (time.process_time() - start)


def records_rate(rules: Rules, rounds: int) -> float:
    """Actions per CPU second turned into records (best of 5 passes over the same rounds)."""
    games = []
    for seed in range(rounds):
        state = State(rules, 3, seed=seed)
        play_plain(state, seed)
        games.append((make_header(rules, 3, seed=seed), state.history))
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for header, history in games:
            record_text(header, history)
        best = min(best, time.process_time() - start)
    return sum(len(h) for _, h in games) / best


def play_plain(state: State, seed: int) -> None:
    rng = random.Random(seed)
    while not state.is_over():
        acts = state.legal_actions()
        if acts[0] == CAMBIO and state.turn_number < 8:
            acts = acts[1:]
        state.apply(acts[int(rng.random() * len(acts))])


def interval(xs: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    half = T95.get(len(xs), 2.0) * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0
    return mean, half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook", choices=["rulebook", "house", "wikipedia"])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run and mode")
    ap.add_argument("--repeat", type=int, default=6, help="runs of each mode (2-10)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--records", type=int, default=0, metavar="N",
                    help="measure record writing over N rounds instead")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    if args.records:
        print(f"{records_rate(rules, args.records):,.0f} actions/s into records "
              f"({args.rules}, 3 players, {args.records} rounds, compiled={COMPILED})")
        return
    modes = ["plain", "events", "events+seen"]
    rates: dict[str, list[float]] = {m: [] for m in modes}
    for _ in range(max(2, min(args.repeat, 10))):
        for mode in modes:
            rates[mode].append(rate(partial(play, rules, args.players, mode=mode),
                                    args.seconds, 1))
    out: dict[str, Any] = {"rules": args.rules, "players": args.players, "compiled": COMPILED,
                           "runs": len(rates["plain"])}
    plain = statistics.fmean(rates["plain"])
    for mode in modes:
        mean, half = interval(rates[mode])
        out[mode] = {"actions_per_second": round(mean), "ci95": round(half),
                     "vs_plain": round(mean / plain, 3)}
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.rules}, {args.players} players, compiled={COMPILED}, {out['runs']} runs each")
    for mode in modes:
        r = out[mode]
        print(f"  {mode:<12} {r['actions_per_second']:>10,} actions/s ± {r['ci95']:,} "
              f"({r['vs_plain']:.3f}x plain)")


if __name__ == "__main__":
    main()
