"""Tune ``memory``'s weights for win share against ``memory`` itself, with CMA-ES.

Hand tuning moved one weight at a time (docs/reports/cards-strength.md, "What was tried"); this
optimises all of :class:`~cambio.bots.cards.memory.MemoryParams` at once. Every candidate plays
the same deals (common random numbers), each deal twice or ``players`` times with the seats
rotated, on the batch engine with the native ``memory`` bot
(:func:`cambio.bots.cards.native.memory_actions`), so a candidate costs about a second for
thousands of rounds. The objective is the candidate's win share against ``memory`` (a round
won alone 1, shared by ``k`` winners ``1/k``); the best candidate of the search is then
re-measured on fresh deals, so the figure printed at the end is not the optimiser's
(selection-biased) estimate.

    .venv/bin/python benchmarks/cards_tune.py --players 2 --rules rulebook --deals 3000 \
        --generations 30 --seed 1

A tuned parameter set is a fair bot's constants: it sees only its view, as ``memory`` does.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields, replace

import cma
import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import Progress

from cambio.bots.cards.memory import MemoryParams
from cambio.bots.cards.native import memory_actions
from cambio.cards import Rules
from cambio.cards.batch import Batch
from cambio.seeds import derive_seed
from cambio.shares import share_interval

# name, low, high: the box the search may explore (CMA-ES works on [0, 1] per weight).
Space = tuple[tuple[str, float, float], ...]
"""Weights a search explores: each by name, with its box (low, high)."""
SPACE: Space = (
    ("cambio_total", -2.0, 10.0),
    ("cambio_hidden", 0.0, 2.0),
    ("cambio_relax", 0.0, 2.0),
    ("relax_after", 1.0, 12.0),
    ("info_own", 0.0, 30.0),
    ("info_other", 0.0, 6.0),
    ("risk", -2.0, 4.0),
    ("snap_odds", 0.0, 1.5),
    ("min_snap_gain", 0.0, 10.0),
    ("swap_power", 0.0, 2.0),
)
INTEGER = {"cambio_hidden", "relax_after"}
CALL_LEAD: tuple[str, float, float] = ("call_lead", -10.0, 10.0)
"""The call gate's box, searched only when a command asks for it: by default the gate is
off (it never binds), so every fit made before it existed is made again the same way."""


def params_of(x: Sequence[float], space: Space = SPACE,
              base: MemoryParams | None = None) -> MemoryParams:
    """The weights a point of the unit box stands for (integers rounded; weights outside
    ``space`` keep ``base``'s, by default ``memory``'s defaults)."""
    kw: dict[str, float | int] = {}
    for (name, lo, hi), u in zip(space, x, strict=True):
        v = lo + (hi - lo) * min(1.0, max(0.0, float(u)))
        kw[name] = round(v) if name in INTEGER else round(v, 3)
    return replace(base or MemoryParams(), **kw)


def unit_of(p: MemoryParams, space: Space = SPACE) -> list[float]:
    """Where ``p`` lies in the unit box of ``space`` (clipped to it)."""
    d = asdict(p)
    return [min(1.0, max(0.0, (d[name] - lo) / (hi - lo))) for name, lo, hi in space]


def minimise(loss: Callable[[MemoryParams], float], *, generations: int, popsize: int,
             sigma: float, seed: int, bar: Progress, label: str = "CMA-ES",
             space: Space = SPACE, start: MemoryParams | None = None
             ) -> tuple[float, MemoryParams]:
    """The weights of least ``loss`` met by CMA-ES from ``start`` (``memory``'s defaults
    unless given; the start itself included) over ``space``, and that loss; the weights
    outside ``space`` stay ``start``'s. A task of ``bar`` follows the generations."""
    origin = start or MemoryParams()
    es = cma.CMAEvolutionStrategy(unit_of(origin, space), sigma,
                                  {"bounds": [0, 1], "popsize": popsize, "seed": seed,
                                   "verbose": -9})
    best = (loss(origin), origin)
    task = bar.add_task(label, total=generations)
    for _ in range(generations):
        xs = es.ask()
        losses = [loss(params_of(x, space, origin)) for x in xs]
        for x, value in zip(xs, losses, strict=True):
            if value < best[0]:
                best = (value, params_of(x, space, origin))
        es.tell(xs, losses)
        bar.advance(task)
    return best


def deal_shares(rules: Rules, players: int, seeds: Sequence[int], mine: MemoryParams,
                theirs: MemoryParams) -> npt.NDArray[np.float64]:
    """Per deal: the mean win share of one ``mine`` seat against ``players - 1`` ``theirs``
    seats, over every rotation (the ``mine`` seat takes each seat in turn)."""
    n = len(seeds)
    out = np.zeros(n)
    for rot in range(players):
        b = Batch(rules, players, n)
        b.reset(seeds, [0] * n)
        while not b.is_over().all():
            a = memory_actions(b, mine)
            c = memory_actions(b, theirs)
            b.step(np.where(b.current_players() == rot, a, c))
        # cambio.shares.tie_share over every row at once: 1/k for each of k winners.
        w = b.winners().astype(np.float64)
        out += w[:, rot] / np.maximum(1.0, w.sum(axis=1))
    return out / players


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--deals", type=int, default=3000, help="deals per candidate")
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--popsize", type=int, default=12)
    ap.add_argument("--sigma", type=float, default=0.2)
    ap.add_argument("--check", type=int, default=10000, help="fresh deals for the winner")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    base = MemoryParams()
    train = [derive_seed(args.seed, d) for d in range(args.deals)]
    fresh = [derive_seed(args.seed + 1_000_003, d) for d in range(args.check)]
    es = cma.CMAEvolutionStrategy(unit_of(base), args.sigma,
                                  {"bounds": [0, 1], "popsize": args.popsize,
                                   "seed": args.seed, "verbose": -9})
    best: tuple[float, MemoryParams] = (-1.0, base)
    history: list[dict[str, object]] = []
    console = Console(stderr=True)
    with Progress(console=console) as bar:
        task = bar.add_task("CMA-ES", total=args.generations)
        for gen in range(args.generations):
            xs = es.ask()
            scores = []
            for x in xs:
                p = params_of(x)
                s = float(deal_shares(rules, args.players, train, p, base).mean())
                scores.append(s)
                if s > best[0]:
                    best = (s, p)
            es.tell(xs, [-s for s in scores])
            mean_p = params_of(es.mean)
            history.append({"generation": gen, "best": max(scores),
                            "median": float(np.median(scores)), "mean": asdict(mean_p)})
            console.print(f"gen {gen}: best {max(scores):.4f} median "
                          f"{float(np.median(scores)):.4f} overall {best[0]:.4f} {best[1]}")
            bar.advance(task)
    final = {"best": best[1], "mean": params_of(es.mean)}
    report: dict[str, object] = {"players": args.players, "rules": args.rules,
                                 "deals": args.deals, "generations": args.generations,
                                 "popsize": args.popsize, "seed": args.seed,
                                 "history": history, "check_deals": args.check}
    for label, p in final.items():
        m, lo, hi = share_interval(list(deal_shares(rules, args.players, fresh, p, base)))
        report[label] = {"params": asdict(p), "win_share": m, "low": lo, "high": hi}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for label in final:
        r = report[label]
        assert isinstance(r, dict)
        console.print(f"{label}: {r['win_share']:.4f} ({r['low']:.4f}-{r['high']:.4f}) on "
                      f"{args.check} fresh deals, {r['params']}")


assert {f.name for f in fields(MemoryParams)} == {name for name, _, _ in (*SPACE, CALL_LEAD)}

if __name__ == "__main__":
    main()
