"""Train the ``learned`` card bot: collect ``hard``'s decisions, fit the network, draw its curve.

Three steps, each reproducible from its seed (issue 23, item 3):

``collect``
    Plays ``--games`` 2-player rulebook rounds of ``hard`` (1,024 native rollouts a decision)
    against an opponent -- ``memory`` in two deals of three, else ``expert``, ``snapper`` and
    ``rusher`` in turn, so the positions are not only those ``memory`` leads to -- with ``hard``
    in seat 0 on even deals and seat 1 on odd ones. Each of ``hard``'s decisions with more
    than one legal action becomes a sample: :class:`~cambio.bots.cards.learned.Featurizer`'s
    rows for the legal actions and the index of the one ``hard`` played. Deal ``d``'s seeds
    are ``derive_seed(seed, "learned", d)``, apart from the evaluation deals
    (``benchmarks/cards_strength.py --seed 1``).
``train``
    Fits the network (60 features, two hidden layers of 64 ReLUs, one score per action) by
    cross-entropy over each decision's legal actions, Adam, in numpy; the last tenth of the
    games is held out to report how often the network picks ``hard``'s move. ``--curve``
    also trains on the first 1/8, 1/4, 1/2 of the games and measures every model against
    ``memory`` (``--eval-deals`` deals, seats swapped, ties ``1/k``) for the learning curve
    (a PNG and a markdown table).
``all``
    Both, then writes the weights to ``src/cambio/bots/cards/learned.npz``.

The shipped weights::

    nice -n 15 .venv/bin/python benchmarks/cards_learned.py all --games 2400 --workers 2 \\
        --seed 23 --curve --eval-deals 300 --plot docs/reports/img/cards-learned-curve.png
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.bots.cards import CardBot, make_bot, play_round
from cambio.bots.cards.learned import (
    FEATURE_VERSION,
    FEATURES,
    WEIGHTS_FILE,
    Featurizer,
    LearnedBot,
    Weights,
)
from cambio.cards import Action, CardView, Rules, State
from cambio.seeds import derive_seed

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
Z95 = 1.959963984540054
HIDDEN_UNITS = 64
OTHERS = ("expert", "snapper", "rusher")


def opponent(deal: int) -> str:
    """The teacher's opponent in deal ``deal``: ``memory`` in two deals of three."""
    return OTHERS[(deal // 3) % 3] if deal % 3 == 2 else "memory"


class Recorder:
    """``hard`` at the table, writing down each decision it makes with a choice."""

    def __init__(self, seed: int) -> None:
        self.teacher = make_bot("hard", seed)
        self.name = "hard"
        self.features = Featurizer(seed)
        self.rows: list[F32] = []
        self.labels: list[int] = []

    def act(self, view: CardView) -> Action:
        action = self.teacher.act(view)
        if len(view.legal) > 1:
            self.rows.append(self.features(view))
            self.labels.append(view.legal.index(action))
        return action


def collect_deal(args: tuple[int, int]) -> tuple[list[F32], list[int]]:
    """One deal's samples (the teacher's decisions)."""
    seed, deal = args
    rules = Rules.preset("rulebook")
    state = State(rules, 2, seed=derive_seed(seed, "learned", deal), polled=True)
    teacher = Recorder(derive_seed(seed, "learned", deal, "teacher"))
    other = make_bot(opponent(deal), derive_seed(seed, "learned", deal, "other"))
    bots: list[CardBot] = [teacher, other] if deal % 2 == 0 else [other, teacher]
    play_round(state, bots)
    return teacher.rows, teacher.labels


class Data:
    """Samples as flat rows: decision ``d`` owns rows ``start[d]:start[d + 1]``."""

    def __init__(self, x: F32, start: I64, label: I64, game: I64) -> None:
        self.x, self.start, self.label, self.game = x, start, label, game

    @classmethod
    def load(cls, path: Path) -> Data:
        with np.load(path) as d:
            return cls(d["x"], d["start"], d["label"], d["game"])

    def save(self, path: Path) -> None:
        np.savez_compressed(path, x=self.x, start=self.start, label=self.label, game=self.game)

    def decisions(self) -> int:
        return len(self.label)

    def subset(self, keep: npt.NDArray[np.bool_]) -> Data:
        """The decisions where ``keep`` holds, their rows re-packed."""
        ids = np.flatnonzero(keep)
        sizes = self.start[ids + 1] - self.start[ids]
        rows = _ranges(self.start[ids], sizes)
        start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return Data(self.x[rows], start, self.label[ids], self.game[ids])


def _ranges(starts: I64, sizes: I64) -> I64:
    """The concatenation of ``arange(s, s + n)`` for each start and size."""
    total = int(sizes.sum())
    offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    out: I64 = np.arange(total, dtype=np.int64) + offsets
    return out


def _pack(rows: list[F32], start: list[int], labels: list[int], game_of: list[int]) -> Data:
    return Data(np.concatenate(rows).astype(np.float32), np.array(start, dtype=np.int64),
                np.array(labels, dtype=np.int64), np.array(game_of, dtype=np.int64))


def collect(games: int, seed: int, workers: int, path: Path) -> Data:
    """Plays the deals and saves the samples to ``path`` (every 500 deals too, so a run cut
    short keeps a prefix of the deals: the same samples as a smaller ``--games``)."""
    rows: list[F32] = []
    start = [0]
    labels: list[int] = []
    game_of: list[int] = []
    jobs = [(seed, d) for d in range(games)]
    began = time.time()
    with ProcessPoolExecutor(workers) as pool:
        for deal, (deal_rows, deal_labels) in enumerate(pool.map(collect_deal, jobs,
                                                                 chunksize=4)):
            for r, lab in zip(deal_rows, deal_labels, strict=True):
                rows.append(r)
                start.append(start[-1] + len(r))
                labels.append(lab)
                game_of.append(deal)
            if (deal + 1) % 200 == 0:
                print(f"  {deal + 1} deals, {len(labels)} decisions, "
                      f"{time.time() - began:.0f} s", flush=True)
            if (deal + 1) % 500 == 0:
                _pack(rows, start, labels, game_of).save(path)
    data = _pack(rows, start, labels, game_of)
    data.save(path)
    return data


# ---------------------------------------------------------------------------- training
def _forward(params: list[F32], x: F32) -> tuple[F32, list[F32]]:
    acts = [x]
    h = x
    for i in range(3):
        h = h @ params[2 * i] + params[2 * i + 1]
        if i < 2:
            h = np.maximum(h, 0.0)
            acts.append(h)
    return h[:, 0], acts


def train(data: Data, seed: int, epochs: int, batch: int = 256,
          lr: float = 2e-3) -> dict[str, F32]:
    """The network's arrays (as :class:`~cambio.bots.cards.learned.Weights` reads them)."""
    rng = np.random.default_rng(seed)
    mu = data.x.mean(axis=0)
    sd = data.x.std(axis=0)
    sd[sd < 1e-3] = 1.0
    x = ((data.x - mu) / sd).astype(np.float32)
    sizes = [FEATURES, HIDDEN_UNITS, HIDDEN_UNITS, 1]
    params: list[F32] = []
    for a, b in itertools.pairwise(sizes):
        params.append((rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32))
        params.append(np.zeros(b, dtype=np.float32))
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    n = data.decisions()
    for epoch in range(epochs):
        rate = lr * (0.5 * (1 + math.cos(math.pi * epoch / epochs)))
        order = rng.permutation(n)
        for b0 in range(0, n, batch):
            ids = np.sort(order[b0:b0 + batch])
            sizes_b = data.start[ids + 1] - data.start[ids]
            rows = _ranges(data.start[ids], sizes_b)
            seg = np.concatenate([[0], np.cumsum(sizes_b)[:-1]]).astype(np.int64)
            z, acts = _forward(params, x[rows])
            zmax = np.maximum.reduceat(z, seg)
            e = np.exp(z - np.repeat(zmax, sizes_b))
            p = e / np.repeat(np.add.reduceat(e, seg), sizes_b)
            grad = p.copy()
            grad[seg + data.label[ids]] -= 1.0
            grad /= len(ids)
            g = grad[:, None].astype(np.float32)
            grads: list[F32] = [np.empty(0, dtype=np.float32)] * 6
            for i in (2, 1, 0):
                grads[2 * i] = acts[i].T @ g
                grads[2 * i + 1] = g.sum(axis=0)
                if i:
                    g = (g @ params[2 * i].T) * (acts[i] > 0)
            step += 1
            for j, gr in enumerate(grads):
                m[j] = 0.9 * m[j] + 0.1 * gr
                v[j] = 0.999 * v[j] + 0.001 * gr * gr
                mh = m[j] / (1 - 0.9 ** step)
                vh = v[j] / (1 - 0.999 ** step)
                params[j] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
    arrays: dict[str, F32] = {"mu": mu.astype(np.float32), "sd": sd.astype(np.float32),
                              "version": np.array([FEATURE_VERSION], dtype=np.float32)}
    for i in range(3):
        arrays[f"w{i}"], arrays[f"b{i}"] = params[2 * i], params[2 * i + 1]
    return arrays


def accuracy(weights: Weights, data: Data) -> float:
    """Share of the decisions where the network picks the teacher's action."""
    if not data.decisions():
        return float("nan")
    scores = weights.scores(data.x)
    hits = 0
    for d in range(data.decisions()):
        s = scores[data.start[d]:data.start[d + 1]]
        hits += int(np.argmax(s)) == data.label[d]
    return hits / data.decisions()


# ---------------------------------------------------------------------------- evaluation
def eval_deal(args: tuple[dict[str, F32], str, int, int]) -> float:
    """The learned bot's mean share over the two seatings of one deal (ties 1/k)."""
    arrays, other, seed, deal = args
    weights = Weights(arrays)
    rules = Rules.preset("rulebook")
    total = 0.0
    for rotation in range(2):
        state = State(rules, 2, seed=derive_seed(seed, deal), polled=True)
        bots: list[CardBot] = []
        for seat in range(2):
            bot_seed = derive_seed(seed, deal, rotation, seat)
            bots.append(LearnedBot(bot_seed, weights) if seat == rotation
                        else make_bot(other, bot_seed))
        play_round(state, bots)
        winners = state.winners()
        total += 1.0 / len(winners) if rotation in winners else 0.0
    return total / 2


def evaluate(arrays: dict[str, F32], other: str, deals: int, seed: int,
             workers: int) -> tuple[float, float]:
    """Win share against ``other`` with its 95% half-width, over deals (seats swapped)."""
    with ProcessPoolExecutor(workers) as pool:
        shares = list(pool.map(eval_deal, [(arrays, other, seed, d) for d in range(deals)],
                               chunksize=8))
    a = np.array(shares)
    return float(a.mean()), float(Z95 * a.std(ddof=1) / math.sqrt(len(a)))


def plot(rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    xs = [r["decisions"] for r in rows]
    ys = [100 * r["share"] for r in rows]
    es = [100 * r["half"] for r in rows]
    ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label="learned vs memory (95%)")
    ax.plot(xs, [100 * r["held_out_accuracy"] for r in rows], marker="s", linestyle="--",
            label="picks hard's move, held-out decisions")
    ax.axhline(60, color="grey", linewidth=0.8, linestyle=":")
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("teacher decisions trained on")
    ax.set_ylabel("%")
    ax.set_title("learned card bot: 2 players, rulebook")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run_train(data: Data, args: argparse.Namespace) -> dict[str, F32]:
    games = int(data.game.max()) + 1
    held = data.game >= games - max(1, games // 10)
    test = data.subset(held)
    fractions = (0.125, 0.25, 0.5, 1.0) if args.curve else (1.0,)
    rows: list[dict[str, Any]] = []
    final: dict[str, F32] = {}
    for frac in fractions:
        train_set = data.subset(~held & (data.game < int((games - games // 10) * frac)))
        began = time.time()
        final = train(train_set, args.seed, args.epochs)
        row: dict[str, Any] = {"fraction": frac, "decisions": train_set.decisions(),
                               "train_s": round(time.time() - began, 1),
                               "held_out_accuracy": accuracy(Weights(final), test)}
        if args.curve:
            row["share"], row["half"] = evaluate(final, "memory", args.eval_deals,
                                                 args.eval_seed, args.workers)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.curve:
        print("\n| teacher decisions | held-out agreement with `hard` | vs `memory` (95%) |")
        print("|---:|---:|---|")
        for r in rows:
            print(f"| {r['decisions']:,} | {100 * r['held_out_accuracy']:.1f}% | "
                  f"{100 * r['share']:.1f}% ± {100 * r['half']:.1f} |")
        if args.plot:
            plot(rows, args.plot)
    return final


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("collect", "train", "all"))
    parser.add_argument("--games", type=int, default=2400, help="teacher rounds to record")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", default="learned-data.npz", help="the samples file")
    parser.add_argument("--out", default=str(WEIGHTS_FILE), help="where to write the weights")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--curve", action="store_true", help="also train on 1/8, 1/4, 1/2 "
                        "of the games and measure each model against memory")
    parser.add_argument("--eval-deals", type=int, default=300)
    parser.add_argument("--eval-seed", type=int, default=7,
                        help="the curve's evaluation deals (apart from the final tables')")
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args()
    began = time.time()
    if args.step in ("collect", "all"):
        data = collect(args.games, args.seed, args.workers, Path(args.data))
        print(f"collected {data.decisions()} decisions from {args.games} rounds in "
              f"{time.time() - began:.0f} s", flush=True)
    else:
        data = Data.load(Path(args.data))
    if args.step in ("train", "all"):
        arrays = run_train(data, args)
        np.savez(args.out, **arrays)  # type: ignore[arg-type]
        print(f"wrote {args.out}; {time.time() - began:.0f} s in all")


if __name__ == "__main__":
    main()
