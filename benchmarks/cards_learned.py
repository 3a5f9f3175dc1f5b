"""Train the ``learned`` card bot: collect ``hard``'s decisions, fit the network, draw its curve.

Three steps, each reproducible from its seed:

``collect``
    Plays ``--games`` rounds of ``hard`` (1,024 native rollouts a decision) in ``--rules``
    (rulebook) at ``--players`` (2) against opponents -- ``memory`` in two deals of three,
    else ``expert``, ``snapper`` and ``rusher`` in turn, so the positions are not only those
    ``memory`` leads to (at more players each other seat counts as a deal of its own in
    that sequence: two opponents in three are ``memory``) -- with ``hard`` in seat
    ``deal % players``. Each of ``hard``'s decisions with more
    than one legal action becomes a sample: :class:`~cambio.bots.cards.learned.Featurizer`'s
    rows for the legal actions and the index of the one ``hard`` played. Deal ``d``'s seeds
    are ``derive_seed(seed, "learned", d)``, apart from the evaluation deals
    (``benchmarks/cards_strength.py --seed 1``).
``train``
    Fits the network (60 features, two hidden layers of 64 ReLUs, one score per action) by
    cross-entropy over each decision's legal actions, Adam, in numpy; the last tenth of the
    games is held out to report how often the network picks ``hard``'s move. ``--curve``
    also trains on the first 1/8, 1/4, 1/2 of the games and measures every model against
    ``memory`` (``--eval-deals`` deals of ``--eval-seed``, seats swapped, ties ``1/k``) for
    the learning curve (a PNG and a markdown table).
``--dagger-games N``
    Then DAgger: ``N`` more deals (seeds ``derive_seed(seed, "dagger", d)``) in which the
    trained network plays and ``hard`` only says what it would have played; the network is
    trained again on both sets (the last point of the curve).
``all``
    Collect, then train; writes the weights to the file the bot reads at that table
    (``src/cambio/bots/cards/learned.npz`` for rulebook heads-up, else
    ``learned-<preset>-<n>p.npz`` beside it).

The DAgger games and the curve's evaluation are played at the same table. The shipped
rulebook heads-up weights (docs/cards-strength.md gives the others' commands and the wall
times)::

    nice -n 15 .venv/bin/python benchmarks/cards_learned.py all --games 3000 \
        --dagger-games 500 --workers 2 --seed 23 --curve --eval-deals 300 \
        --plot docs/img/cards-learned-curve.png

(``collect`` and ``train`` run the two halves; ``train`` reuses ``--data`` and, if it
exists, ``--dagger-data``.)
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cambio.bots.cards import CardBot, make_bot, play_round
from cambio.bots.cards.learned import (
    BASE_TABLE,
    FEATURE_VERSION,
    FEATURES,
    DistilledNetworkBot,
    Featurizer,
    Weights,
    table_name,
    weights_file,
)
from cambio.cards import Action, CardView, Rules, State
from cambio.cards.rules import PRESET_NAMES
from cambio.seeds import derive_seed
from cambio.shares import share_interval, tie_share

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
HIDDEN_UNITS = 64
OTHERS = ("expert", "snapper", "rusher")


def opponent(deal: int) -> str:
    """The teacher's opponent in deal ``deal``: ``memory`` in two deals of three."""
    return OTHERS[(deal // 3) % 3] if deal % 3 == 2 else "memory"


class Recorder:
    """``hard`` at the table, writing down each decision it makes with a choice.

    With a ``student`` (DAgger) the student's move is played and ``hard``'s only written
    down: the samples then come from the positions the student leads to.
    """

    def __init__(self, seed: int, student: Weights | None = None,
                 teacher: str = "hard") -> None:
        self.teacher = make_bot(teacher, seed)
        self.student = student
        self.name = teacher
        self.features = Featurizer(seed)
        self.rows: list[F32] = []
        self.labels: list[int] = []

    def act(self, view: CardView) -> Action:
        action = self.teacher.act(view)
        if len(view.legal) == 1:
            return action
        rows = self.features(view)
        self.rows.append(rows)
        self.labels.append(view.legal.index(action))
        if self.student is None:
            return action
        return view.legal[int(np.argmax(self.student.scores(rows)))]


@dataclass(frozen=True)
class Table:
    """Where the games are played, and who teaches: every deal, the DAgger deals and the
    curve's evaluation use the same preset and player count."""

    preset: str = "rulebook"
    players: int = 2
    teacher: str = "hard"


Job = tuple[int, int, str, dict[str, F32] | None, Table]


def table_bots(teacher: CardBot, deal: int, players: int, seed: int,
               stage: str) -> list[CardBot]:
    """The teacher in seat ``deal % players``; the others from :func:`opponent` (heads-up:
    exactly the original 2-player deals, so the rulebook weights reproduce)."""
    bots: list[CardBot] = []
    for k in range(players - 1):
        name = opponent(deal) if players == 2 else opponent(deal * (players - 1) + k)
        suffix = ("other",) if players == 2 else ("other", k)
        bots.append(make_bot(name, derive_seed(seed, stage, deal, *suffix)))
    bots.insert(deal % players, teacher)
    return bots


def collect_deal(job: Job) -> tuple[list[F32], list[int]]:
    """One deal's samples (the teacher's decisions); ``stage`` names the deals' seeds."""
    seed, deal, stage, student, table = job
    state = State(Rules.preset(table.preset), table.players,
                  seed=derive_seed(seed, stage, deal), polled=True)
    teacher = Recorder(derive_seed(seed, stage, deal, "teacher"),
                       Weights(student) if student is not None else None, table.teacher)
    play_round(state, table_bots(teacher, deal, table.players, seed, stage))
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

    def concat(self, other: Data) -> Data:
        """Both sets (``other``'s games numbered after this one's)."""
        return Data(np.concatenate([self.x, other.x]),
                    np.concatenate([self.start, other.start[1:] + self.start[-1]]),
                    np.concatenate([self.label, other.label]),
                    np.concatenate([self.game, other.game + int(self.game.max()) + 1]))

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


def collect(games: int, seed: int, workers: int, path: Path, stage: str = "learned",
            student: dict[str, F32] | None = None, table: Table = Table()) -> Data:
    """Plays the deals and saves the samples to ``path`` (every 500 deals too, so a run cut
    short keeps a prefix of the deals: the same samples as a smaller ``--games``)."""
    rows: list[F32] = []
    start = [0]
    labels: list[int] = []
    game_of: list[int] = []
    jobs: list[Job] = [(seed, d, stage, student, table) for d in range(games)]
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
def eval_deal(args: tuple[dict[str, F32], str, int, int, str, int]) -> float:
    """The learned bot's mean share over every seating of one deal (ties 1/k): the learned
    bot in each seat in turn, ``other`` in the rest."""
    arrays, other, seed, deal, preset, players = args
    weights = Weights(arrays)
    rules = Rules.preset(preset)
    total = 0.0
    for rotation in range(players):
        state = State(rules, players, seed=derive_seed(seed, deal), polled=True)
        bots: list[CardBot] = []
        for seat in range(players):
            bot_seed = derive_seed(seed, deal, rotation, seat)
            bots.append(DistilledNetworkBot(bot_seed, weights) if seat == rotation
                        else make_bot(other, bot_seed))
        play_round(state, bots)
        total += tie_share(rotation, state.winners(), players)
    return total / players


def evaluate(arrays: dict[str, F32], other: str, deals: int, seed: int, workers: int,
             preset: str = "rulebook", players: int = 2) -> tuple[float, float]:
    """Win share against ``other`` with its 95% half-width, over deals (seats rotated)."""
    jobs = [(arrays, other, seed, d, preset, players) for d in range(deals)]
    with ProcessPoolExecutor(workers) as pool:
        shares = list(pool.map(eval_deal, jobs, chunksize=8))
    mean, low, high = share_interval(shares)
    return mean, (high - low) / 2


def plot(rows: list[dict[str, Any]], path: str, preset: str, players: int) -> None:
    """Win share against ``memory`` and agreement with ``hard`` by training decisions (the
    DAgger model, trained on more, is the last point)."""
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
    ax.axhline(100 / players, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("teacher decisions trained on")
    ax.set_ylabel("%")
    ax.set_title(f"learned card bot: {players} players, {preset}")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def _row(stage: str, train_set: Data, test: Data, args: argparse.Namespace,
         arrays: dict[str, F32], seconds: float) -> dict[str, Any]:
    row: dict[str, Any] = {"stage": stage, "decisions": train_set.decisions(),
                           "train_s": round(seconds, 1),
                           "held_out_accuracy": accuracy(Weights(arrays), test)}
    if args.curve:
        row["share"], row["half"] = evaluate(arrays, "memory", args.eval_deals,
                                             args.eval_seed, args.workers, args.rules,
                                             args.players)
    print(json.dumps(row), flush=True)
    return row


def split(data: Data) -> tuple[Data, Data]:
    """The training games and the held-out last tenth."""
    games = int(data.game.max()) + 1
    held = data.game >= games - max(1, games // 10)
    return data.subset(~held), data.subset(held)


def run_train(data: Data, args: argparse.Namespace, rows: list[dict[str, Any]],
              dagger: Data | None = None) -> dict[str, F32]:
    """Trains on the imitation games (and the curve's prefixes of them), or on those and
    the DAgger games; appends each model's figures to ``rows``."""
    base, test = split(data)
    if dagger is not None:
        union = base.concat(dagger)
        began = time.time()
        arrays = train(union, args.seed, args.epochs)
        rows.append(_row("imitation + DAgger", union, test, args, arrays, time.time() - began))
        return arrays
    games = int(base.game.max()) + 1
    fractions = (0.125, 0.25, 0.5, 1.0) if args.curve else (1.0,)
    arrays = {}
    for frac in fractions:
        train_set = base.subset(base.game < max(1, int(games * frac)))
        began = time.time()
        arrays = train(train_set, args.seed, args.epochs)
        rows.append(_row(f"imitation, {frac:g} of the games", train_set, test, args, arrays,
                         time.time() - began))
    return arrays


def report(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print("\n| model | teacher decisions | held-out agreement with `hard` | vs `memory` (95%) |")
    print("|---|---:|---:|---|")
    for r in rows:
        share = f"{100 * r['share']:.1f}% ± {100 * r['half']:.1f}" if "share" in r else "-"
        print(f"| {r['stage']} | {r['decisions']:,} | {100 * r['held_out_accuracy']:.1f}% | "
              f"{share} |")
    if args.plot and all("share" in r for r in rows):
        plot(rows, args.plot, args.rules, args.players)


def table_of(args: argparse.Namespace) -> Table:
    return Table(args.rules, args.players, args.teacher)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("collect", "train", "all"))
    parser.add_argument("--games", type=int, default=3000, help="teacher rounds to record")
    parser.add_argument("--dagger-games", type=int, default=0,
                        help="then this many rounds of the imitation model, labelled by hard")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", default="rulebook", choices=PRESET_NAMES,
                        help="the preset every game (teacher, DAgger, curve) is played in")
    parser.add_argument("--players", type=int, default=2, help="players at every table")
    parser.add_argument("--teacher", default="hard", help="the bot whose decisions are "
                        "learned (hard; a cheap one only to try the pipeline)")
    parser.add_argument("--data", help="the samples file (default learned-data.npz, "
                        "learned-data-PRESET-Np.npz for another table)")
    parser.add_argument("--dagger-data", help="the DAgger samples (default likewise)")
    parser.add_argument("--out", help="where to write the weights (default: the bot's file "
                        "for the table, weights_file(PRESET, N))")
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--curve", action="store_true", help="also train on 1/8, 1/4, 1/2 "
                        "of the games and measure every model against memory")
    parser.add_argument("--eval-deals", type=int, default=300)
    parser.add_argument("--eval-seed", type=int, default=7,
                        help="the curve's evaluation deals (apart from the final tables')")
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args()
    Rules.preset(args.rules).check_players(args.players)
    table = (args.rules, args.players)
    tag = "" if table == BASE_TABLE else f"-{table_name(*table)}"
    args.data = args.data or f"learned-data{tag}.npz"
    args.dagger_data = args.dagger_data or f"learned-dagger{tag}.npz"
    args.out = args.out or str(weights_file(args.rules, args.players))
    began = time.time()
    if args.step in ("collect", "all"):
        data = collect(args.games, args.seed, args.workers, Path(args.data),
                       table=table_of(args))
        print(f"collected {data.decisions()} decisions from {args.games} rounds in "
              f"{time.time() - began:.0f} s", flush=True)
    else:
        data = Data.load(Path(args.data))
    if args.step == "collect":
        return
    rows: list[dict[str, Any]] = []
    arrays = run_train(data, args, rows)
    if args.dagger_games:
        path = Path(args.dagger_data)
        if args.step == "all" or not path.exists():
            collect(args.dagger_games, args.seed, args.workers, path, "dagger", arrays,
                    table_of(args))
            print(f"DAgger games collected; {time.time() - began:.0f} s in all", flush=True)
        arrays = run_train(data, args, rows, Data.load(path))
    report(rows, args)
    np.savez(args.out, **arrays)  # type: ignore[arg-type]
    print(f"wrote {args.out}; {time.time() - began:.0f} s in all")


if __name__ == "__main__":
    main()
