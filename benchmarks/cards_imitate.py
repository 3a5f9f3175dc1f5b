"""How well ``memory``'s weights predict another bot's moves, and the weights that predict
them best.

A search rolls its opponents out by ``memory``; against an opponent that plays otherwise its
worlds go on as they would not. This records the decisions a target bot makes (every one
with more than one legal move, in self-play or against ``--other``), then asks which
:class:`~cambio.bots.cards.memory.MemoryParams` make ``memory`` choose the same move most
often: CMA-ES over :data:`cards_tune.SPACE`, fitted on two deals in three and reported on
the third (held out), against ``memory``'s defaults and the tuned weights.

    .venv/bin/python benchmarks/cards_imitate.py --target hard --rules rulebook \
        --deals 150 --seed 1 --workers 2

The fitted weights are printed (and in ``--json``); a search may roll its opponents out by
them (``cards_strength.py``'s ``master-opp-fit`` experiment).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cambio.bots.cards import CardBot, ExpectedPointsBot, make_bot, play_round
from cambio.bots.cards.memory import TUNED, MemoryParams
from cambio.cards import Action, CardView, Phase, Rules, State
from cambio.seeds import derive_seed
from cards_tune import minimise

J = TypeVar("J")
T = TypeVar("T")

Decision = tuple[int, CardView, Action]
"""A recorded decision: the deal it came from, what the bot saw, and what it chose."""


class Recorder:
    """A bot that plays as ``bot`` and keeps every decision it had a choice in."""

    def __init__(self, bot: CardBot, deal: int, into: list[Decision]) -> None:
        self.bot = bot
        self.name = bot.name
        self.deal = deal
        self.into = into

    def act(self, view: CardView) -> Action:
        action = self.bot.act(view)
        if len(view.legal) > 1:
            self.into.append((self.deal, view, action))
        return action


def record_deal(job: tuple[str, str, int, str, int, int]) -> list[Decision]:
    """The target's decisions in one deal, in every seat it takes (both, in self-play)."""
    target, other, players, preset, seed, deal = job
    rules = Rules.preset(preset)
    out: list[Decision] = []
    for rotation in range(players if target != other else 1):
        state = State(rules, players, seed=derive_seed(seed, deal), polled=True)
        bots: list[CardBot] = []
        for seat in range(players):
            name = target if seat == rotation or target == other else other
            bot = make_bot(name, derive_seed(seed, deal, rotation, seat))
            bots.append(Recorder(bot, deal, out) if name == target else bot)
        play_round(state, bots)
    return out


def gather(record: Callable[[J], list[T]], jobs: list[J], workers: int, bar: Progress,
           label: str) -> list[T]:
    """What ``record`` returns for each job, in order, played by ``workers`` processes while
    a task of ``bar`` follows the jobs."""
    out: list[T] = []
    task = bar.add_task(label, total=len(jobs))
    with ProcessPoolExecutor(workers) as pool:
        for got in pool.map(record, jobs, chunksize=2):
            out += got
            bar.advance(task)
    return out


def agreement(decisions: Sequence[Decision], params: MemoryParams) -> float:
    """The share of ``decisions`` where ``memory`` with ``params`` makes the same move."""
    if not decisions:
        return 0.0
    bot = ExpectedPointsBot(0, params)
    return sum(bot.act(view) == action for _, view, action in decisions) / len(decisions)


def by_phase(decisions: Sequence[Decision], params: MemoryParams) -> dict[str, float]:
    """:func:`agreement` per phase of the decision."""
    groups: dict[str, list[Decision]] = {}
    for d in decisions:
        groups.setdefault(Phase(d[1].phase).name.lower(), []).append(d)
    return {phase: agreement(ds, params) for phase, ds in sorted(groups.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default="hard")
    ap.add_argument("--other", default=None, help="the other seats (default: the target)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--generations", type=int, default=15)
    ap.add_argument("--popsize", type=int, default=10)
    ap.add_argument("--sigma", type=float, default=0.2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    other = args.other or args.target
    console = Console(stderr=True)
    jobs = [(args.target, other, args.players, args.rules, args.seed, d)
            for d in range(args.deals)]
    with Progress(console=console) as bar:
        decisions = gather(record_deal, jobs, args.workers, bar, f"{args.target}'s decisions")
        train = [d for d in decisions if d[0] % 3 != 2]
        test = [d for d in decisions if d[0] % 3 == 2]
        _, fitted = minimise(lambda p: -agreement(train, p), generations=args.generations,
                             popsize=args.popsize, sigma=args.sigma, seed=args.seed, bar=bar)
    rows = {"memory": MemoryParams(), "tuned": TUNED, "fitted": fitted}
    phases = dict(Counter(Phase(d[1].phase).name.lower() for d in decisions))
    agreed: dict[str, dict[str, Any]] = {
        name: {"train": agreement(train, p), "test": agreement(test, p),
               "by_phase": by_phase(test, p)} for name, p in rows.items()}
    report = {
        "target": args.target, "other": other, "players": args.players,
        "rules": args.rules, "deals": args.deals, "seed": args.seed,
        "decisions": len(decisions), "train": len(train), "test": len(test),
        "phases": phases, "fitted": asdict(fitted), "agreement": agreed}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    table = Table(title=f"memory's weights predicting {args.target}'s moves "
                        f"({len(test)} held-out decisions, {args.rules}, {args.players}p)")
    table.add_column("weights")
    table.add_column("train", justify="right")
    table.add_column("held out", justify="right")
    for phase, n in phases.items():
        table.add_column(f"{phase} ({n})", justify="right")
    for name, a in agreed.items():
        table.add_row(name, f"{a['train']:.1%}", f"{a['test']:.1%}",
                      *(f"{a['by_phase'].get(ph, 0.0):.1%}" for ph in phases))
    Console().print(table)
    print("fitted:", fitted)


if __name__ == "__main__":
    main()
