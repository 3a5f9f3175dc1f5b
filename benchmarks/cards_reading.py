"""How well the opponent reading predicts the cards opponents hide (no search, seconds).

Plays heads-up rounds between two bots; at each view of seat 0 and for every opponent slot
the reading bounds (:mod:`cambio.bots.cards.reading`), it scores the true card there (the
benchmark may look at the state; the bots never do) under two per-slot predictions:

* the prior ``deep`` deals with: the exact belief tilted low (``exp(-lambda * value)``,
  :func:`~cambio.bots.cards.expert.opponent_lambda`);
* the same times the reading's likelihood.

It prints the mean log-loss of each (nats per bounded slot and view, lower is better) and the
mean predicted value against the true mean, with a 95% interval on the log-loss gain over
rounds::

    .venv/bin/python benchmarks/cards_reading.py --opponent memory --rounds 300 --seed 1
    .venv/bin/python benchmarks/cards_reading.py --opponent expert --rules house --margin 1
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np

from cambio.bots.cards import make_bot
from cambio.bots.cards.belief import Belief
from cambio.bots.cards.expert import opponent_lambda
from cambio.bots.cards.reading import MARGIN, POWER_MARGIN, SHARPNESS, OpponentReading
from cambio.cards import Rules, State, observe
from cambio.seeds import derive_seed
from cambio.shares import Z95


def score_round(rules: Rules, opponent: str, seed: int, reading: OpponentReading,
                sharpness: float) -> tuple[float, float, int, float, float, float]:
    """One round: summed log-loss without and with the reading, slots scored, and the summed
    predicted value without and with the reading and the true value."""
    state = State(rules, 2, seed=seed)
    bots = [make_bot("memory", derive_seed(seed, "a")), make_bot(opponent, derive_seed(seed, "b"))]
    loss_prior = loss_read = pred_prior = pred = true = 0.0
    n = 0
    while not state.is_over():
        seat = state.current_player()
        view = observe(state, seat)
        if seat == 0:
            reading.update(view)
            lik = reading.log_likelihood(view, sharpness)
            if lik:
                belief = Belief(view)
                values = np.asarray(belief.values, dtype=np.float64)
                pool = np.asarray(belief.pool, dtype=np.float64)
                base = np.log(np.maximum(pool, 1e-300)) - opponent_lambda(view, belief) * values
                for (s, slot), ll in lik.items():
                    card = state.grids[s][slot]
                    for logp, acc in ((base, "prior"), (base + ll, "read")):
                        p = np.exp(logp - logp.max()) * (pool > 0)
                        p /= p.sum()
                        if acc == "prior":
                            loss_prior -= math.log(p[card])
                            pred_prior += float(p @ values)
                        else:
                            loss_read -= math.log(p[card])
                            pred += float(p @ values)
                    true += float(values[card])
                    n += 1
        state.apply(bots[seat].act(view), seat)
    return loss_prior, loss_read, n, pred_prior, pred, true


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", default="memory")
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--margin", type=float, default=MARGIN)
    parser.add_argument("--power-margin", type=float, default=POWER_MARGIN)
    parser.add_argument("--sharpness", type=float, default=SHARPNESS)
    parser.add_argument("--match", type=int, default=1,
                        help="rounds one reading lives through (a match), checks carried")
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args()
    rules = Rules.preset(a.rules)
    gains = []
    tot = np.zeros(6)
    reading = OpponentReading(margin=a.margin, power_margin=a.power_margin)
    for k in range(a.rounds):
        if k % a.match == 0:
            reading = OpponentReading(margin=a.margin, power_margin=a.power_margin)
        r = score_round(rules, a.opponent, derive_seed(a.seed, k), reading, a.sharpness)
        tot += r
        if r[2]:
            gains.append((r[0] - r[1]) / r[2])
    g = np.asarray(gains)
    half = Z95 * float(g.std(ddof=1)) / math.sqrt(len(g)) if len(g) > 1 else math.nan
    out = {"opponent": a.opponent, "rules": a.rules, "rounds": a.rounds, "seed": a.seed,
           "margin": a.margin, "power_margin": a.power_margin, "sharpness": a.sharpness,
           "match": a.match,
           "scored": int(tot[2]), "logloss_prior": tot[0] / tot[2], "logloss_read": tot[1] / tot[2],
           "gain_per_slot": float(g.mean()), "gain_interval": [float(g.mean()) - half,
                                                               float(g.mean()) + half],
           "mean_prior": tot[3] / tot[2], "mean_read": tot[4] / tot[2],
           "mean_true": tot[5] / tot[2]}
    if a.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
