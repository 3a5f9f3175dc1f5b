"""Rollouts per CPU second: the search bots' ``memory``-policy playouts to the end of a round.

The ``hard`` and ``deep`` card bots (and the clairvoyant reference) value a move by loading
sampled worlds into a :class:`~cambio.bots.cards.rollouts.Rollouts` batch and playing every
seat's ``memory`` bot to the end natively. This times exactly that: ``--positions`` seeded
positions (random play from a deal, Cambio never called, 0-40 actions in), each loaded
into ``--rows`` rows and finished, for ``--seconds`` of this process's CPU time
(``time.process_time``), best of ``--repeat`` runs; loading the rows and reading their
results (win shares and scores) are included, as the bots pay them too.

``--hard`` times the ``hard`` bot's whole decisions instead (the worlds sampled from the
view in Python, loaded, copied per candidate, played out and compared) at ``--positions``
seeded positions of ``memory`` rounds, each decided ``--rows`` rollouts at a time; the
figure is the rollouts those decisions played per CPU second.

    .venv/bin/python benchmarks/cards_rollouts.py --players 2 --rules rulebook
    .venv/bin/python benchmarks/cards_rollouts.py --hard
"""

from __future__ import annotations

import argparse
import json
import random
import time
from importlib.metadata import version

from cambio.bots.cards import make_bot
from cambio.bots.cards.deep import DEEP_ROWS, BatchRolloutSearchBot
from cambio.bots.cards.rollouts import Rollouts, load_state
from cambio.cards import CardView, Rules, State, observe
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
            pool.outcomes(rows, 0)
            done += rows
    return done / (time.process_time() - start)


def views(rules: Rules, players: int, count: int, seed: int) -> list[CardView]:
    """Views with a choice, every fifth of seeded rounds between ``memory`` bots."""
    out: list[CardView] = []
    k = seed
    while len(out) < count:
        s = State(rules, players, seed=k, polled=True)
        bots = [make_bot("memory", k + x) for x in range(players)]
        choices = 0
        while not s.is_over() and len(out) < count:
            seat = s.current_player()
            view = observe(s, seat)
            if len(view.legal) > 1:
                choices += 1
                if choices % 5 == 0:
                    out.append(view)
            s.apply(bots[seat].act(view), seat)
        k += 1
    return out


def hard_rate(bot: BatchRolloutSearchBot, positions: list[CardView], seconds: float
              ) -> float:
    """Rollouts per CPU second of ``bot``'s decisions at ``positions`` (a decision with one
    candidate plays none but its time counts)."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for view in positions:
            bot.act(view)
            k = len(bot.last_estimates)
            if k:
                done += max(bot.min_worlds, bot.rows // k) * k
    return done / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--rows", type=int, default=None,
                    help="rows a position (default 64), or hard's rollouts a decision "
                         "(default its 1,024)")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hard", action="store_true", help="time hard's decisions")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    versions = {p: version(p) for p in ("numpy", "numba", "llvmlite")}
    if args.hard:
        args.rows = args.rows or DEEP_ROWS
        bot = BatchRolloutSearchBot(args.seed, rows=args.rows)
        seen = views(rules, args.players, args.positions, args.seed)
        hard_rate(bot, seen[:2], 1e-9)  # one pass: load the compiled kernels
        rates = sorted(hard_rate(bot, seen, args.seconds) for _ in range(args.repeat))
        print(json.dumps({
            "bot": "hard", "rules": args.rules, "players": args.players, "rows": args.rows,
            "positions": len(seen), "rollouts_per_second": round(rates[-1], 1),
            "rollouts_per_second_median": round(rates[len(rates) // 2], 1),
            "versions": versions}))
        return
    args.rows = args.rows or 64
    states = positions(rules, args.players, args.positions, args.seed)
    pool = Rollouts(rules, args.players, args.rows)
    rate(pool, states[:1], 1, 1e-9)  # one pass: load the compiled kernels
    rates = sorted(rate(pool, states, args.rows, args.seconds) for _ in range(args.repeat))
    print(json.dumps({
        "rules": args.rules, "players": args.players, "rows": args.rows,
        "positions": len(states), "rollouts_per_second": round(rates[-1], 1),
        "rollouts_per_second_median": round(rates[len(rates) // 2], 1),
        "versions": versions}))


if __name__ == "__main__":
    main()
