"""Simulation balancing: ``memory``'s weights whose rollouts predict how strong play ends.

A search is only as good as its rollouts' values. ``memory``'s weights were tuned to *win*
against ``memory`` (``cards_tune.py``); a rollout policy is better tuned to *predict*
(Silver and Tesauro, "Monte-Carlo simulation balancing", 2009): the value its rollouts give
a position should be the share a strong player actually gets from it. This records the
positions a target bot (``hard``) decides in self-play, with the share each seat got at the
end of its round; deals each position into the worlds the search itself would deal
(:meth:`~cambio.bots.cards.deep.BatchRolloutSearchBot.deal`); and fits the weights every
seat of the rollouts plays (CMA-ES over :data:`cards_tune.SPACE`) to minimise the squared
error between the mean rollout share and the share that was got (the Brier score), on two
deals in three, scored on the third. Every candidate plays the same worlds and chance.

Every deal weighs the same, whatever its length, and at most ``--per-deal`` of its positions
(drawn by the deal's seed) are kept. Without that a few endless rounds decide the fit: in
wikipedia two players left with a red king each can neither call (the caller loses a tie on
points and cards) nor get lower, and draw until the turn cap, thousands of positions of a
round no rollout policy should be fitted to.

    .venv/bin/python benchmarks/cards_balance.py --target hard --rules rulebook \
        --deals 60 --worlds 32 --seed 1 --workers 2

The fitted weights are printed (and in ``--json``); ``cards_strength.py``'s
``master-balanced`` rolls every seat out by them.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cambio.bots.cards import CardBot, make_bot, play_round
from cambio.bots.cards.deep import BatchRolloutSearchBot
from cambio.bots.cards.memory import TUNED, MemoryParams
from cambio.bots.cards.rollouts import Rollouts, load_states
from cambio.cards import CardView, Rules, State
from cambio.seeds import derive_seed
from cambio.shares import tie_share
from cards_imitate import Decision, Recorder, gather
from cards_tune import CALL_LEAD, SPACE, minimise

Position = tuple[int, CardView, float]
"""A recorded position: its deal, the deciding seat's view, and the share that seat got."""


def record_positions(job: tuple[str, int, str, int, int, int]) -> list[Position]:
    """Up to ``keep`` positions (drawn by the deal's seed, in order) of one self-play deal
    of ``target`` where a seat had a choice, each with the share that seat got when the
    round ended."""
    target, players, preset, seed, deal, keep = job
    state = State(Rules.preset(preset), players, seed=derive_seed(seed, deal), polled=True)
    decisions: list[Decision] = []
    bots: list[CardBot] = [Recorder(make_bot(target, derive_seed(seed, deal, seat)), deal,
                                    decisions) for seat in range(players)]
    play_round(state, bots)
    winners = state.winners()
    if len(decisions) > keep:
        picked = np.random.default_rng(derive_seed(seed, deal)).choice(
            len(decisions), keep, replace=False)
        decisions = [decisions[i] for i in sorted(picked)]
    out: list[Position] = []
    for _, view, _ in decisions:
        assert view.seat is not None
        out.append((deal, view, tie_share(view.seat, winners, players)))
    return out


class Worlds:
    """Every position's worlds, loaded once into one batch and restored for each
    candidate, so that the candidates meet the same worlds and chance."""

    def __init__(self, positions: list[Position], worlds: int, seed: int) -> None:
        first = positions[0][1]
        self.worlds = worlds
        self.pool = Rollouts(first.rules, first.players, len(positions) * worlds)
        dealer = BatchRolloutSearchBot(seed)
        for i, (_, view, _) in enumerate(positions):
            load_states(self.pool.batch, i * worlds, dealer.deal(view, worlds))
        self.start = self.pool.batch.st.copy()
        self.seats = np.repeat([view.seat for _, view, _ in positions], worlds)
        self.got = np.array([share for _, _, share in positions])
        deals = np.array([deal for deal, _, _ in positions])
        _, index, counts = np.unique(deals, return_inverse=True, return_counts=True)
        # Every deal weighs the same, shared by its positions.
        self.weight = 1.0 / counts[index] / len(counts)

    def values(self, params: MemoryParams) -> npt.NDArray[np.float64]:
        """Each position's value by rollouts with ``params`` in every seat: the deciding
        seat's mean share over its worlds."""
        pool = self.pool
        rows = len(self.seats)
        pool.batch.st[:] = self.start
        for seat in range(pool.players):
            pool.seat_params(seat, params)
        pool.finish(rows)
        share = np.zeros(rows)
        for seat in range(pool.players):
            mine = self.seats == seat
            share[mine] = pool.shares(rows, seat)[mine]
        return share.reshape(-1, self.worlds).mean(axis=1)

    def brier(self, params: MemoryParams) -> float:
        """The squared error of :meth:`values` against the shares got, averaged over the
        positions of each deal and then over the deals."""
        return float(np.sum(self.weight * (self.values(params) - self.got) ** 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default="hard")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="rulebook")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=32, help="worlds a position")
    ap.add_argument("--per-deal", type=int, default=64,
                    help="positions kept of each deal, at most")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--popsize", type=int, default=10)
    ap.add_argument("--sigma", type=float, default=0.2)
    ap.add_argument("--call-lead", action="store_true",
                    help="fit the call gate too (memory calls only when it thinks itself "
                         "lowest by this lead), starting from a lead of 0")
    ap.add_argument("--call-lead-at", type=float, metavar="LEAD",
                    help="hold the call gate at this lead and fit the other weights")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.call_lead and args.call_lead_at is not None:
        ap.error("--call-lead fits the gate, --call-lead-at holds it: one or the other")
    console = Console(stderr=True)
    jobs = [(args.target, args.players, args.rules, args.seed, d, args.per_deal)
            for d in range(args.deals)]
    with Progress(console=console) as bar:
        positions = gather(record_positions, jobs, args.workers, bar,
                           f"{args.target}'s positions")
        train = Worlds([p for p in positions if p[0] % 3 != 2], args.worlds, args.seed)
        test = Worlds([p for p in positions if p[0] % 3 == 2], args.worlds, args.seed + 1)
        gated = args.call_lead
        held = None if args.call_lead_at is None else MemoryParams(call_lead=args.call_lead_at)
        _, fitted = minimise(train.brier, generations=args.generations,
                             popsize=args.popsize, sigma=args.sigma, seed=args.seed, bar=bar,
                             space=(*SPACE, CALL_LEAD) if gated else SPACE,
                             start=MemoryParams(call_lead=0.0) if gated else held)
    rows = {"memory": MemoryParams(), **({} if held is None else {"memory, gated": held}),
            "tuned": TUNED, "fitted": fitted}
    scored: dict[str, dict[str, Any]] = {
        name: {"train": train.brier(p), "test": test.brier(p),
               "mean_value": float(np.sum(test.weight * test.values(p)))}
        for name, p in rows.items()}
    report = {"target": args.target, "players": args.players, "rules": args.rules,
              "deals": args.deals, "worlds": args.worlds, "per_deal": args.per_deal,
              "call_lead": args.call_lead, "call_lead_at": args.call_lead_at,
              "seed": args.seed,
              "positions": len(positions), "train": len(train.got), "test": len(test.got),
              "mean_got": float(np.sum(test.weight * test.got)), "fitted": asdict(fitted),
              "brier": scored}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    table = Table(title=f"rollout values against {args.target}'s outcomes "
                        f"({len(test.got)} held-out positions, {args.rules}, "
                        f"{args.players}p; mean share got {report['mean_got']:.3f})")
    for column in ("weights", "Brier, train", "Brier, held out", "mean value, held out"):
        table.add_column(column, justify="left" if column == "weights" else "right")
    for name, s in scored.items():
        table.add_row(name, f"{s['train']:.4f}", f"{s['test']:.4f}", f"{s['mean_value']:.3f}")
    Console().print(table)
    print("fitted:", fitted)


if __name__ == "__main__":
    main()
