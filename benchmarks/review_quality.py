"""Quality and cost of card-round reviews (``cambio review``).

Rounds are played heads-up on the rulebook preset: the reviewed bot (``random``, ``easy``,
``memory`` and ``hard`` in turn, round by round) in seat 0 against ``memory``; seat 0 is
reviewed at the default budget (``--rows``) and again at four times it. Printed:

* **agreement**: on the decisions where the 4x review's two best actions differ by more
  than one point of expected final score, the share where the default review names the same
  best action (with its 95% interval);
* **accuracy by bot**: the mean of the rounds' accuracies and its 95% interval (normal,
  :func:`cambio.shares.difference_interval` on accuracy / 100);
* **cost**: CPU seconds (``time.process_time``) per reviewed round at the default budget,
  median and 95th percentile.

Each finished round is appended to ``--out`` (JSON Lines); a run started again with the
same file plays only the rounds missing from it, and ``--minutes`` stops a run in time, so
the figures are those of every round in the file::

    nice -n 10 .venv/bin/python benchmarks/review_quality.py --rounds 200 --seed 1 \
        --out review-quality.jsonl --minutes 25
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from statistics import median, quantiles
from typing import Any

from cambio.bots.cards import make_bot, play_round
from cambio.cards import Rules, State
from cambio.records.cards import make_header, record_text, replay
from cambio.records.jsonl import parse_record
from cambio.review.cards import REVIEW_ROWS, review_round
from cambio.seeds import derive_seed
from cambio.shares import difference_interval, interval_of_sums, share_text

BOTS = ("random", "easy", "memory", "hard")


class Recorder:
    """Wraps a bot to keep the round's history (the record ``cambio review`` reads)."""

    def __init__(self, bot: Any, seat: int, history: list[tuple[int, int]]) -> None:
        self.bot, self.seat, self.history = bot, seat, history
        self.name = getattr(bot, "name", "bot")

    def act(self, view: Any) -> int:
        action = int(self.bot.act(view))
        self.history.append((self.seat, action))
        return action


def one_round(k: int, seed: int, rows: int) -> dict[str, Any]:
    name = BOTS[k % len(BOTS)]
    game_seed = derive_seed(seed, k)
    rules = Rules.preset("rulebook")
    history: list[tuple[int, int]] = []
    bots = [Recorder(make_bot(name, game_seed), 0, history),
            Recorder(make_bot("memory", game_seed + 1), 1, history)]
    play_round(State(rules, 2, seed=game_seed, polled=True), bots)
    result = replay(parse_record(record_text(make_header(rules, 2, seed=game_seed), history)))
    start = time.process_time()
    review = review_round(result, 0, rows=rows, seed=k)
    cpu = time.process_time() - start
    reference = review_round(result, 0, rows=4 * rows, seed=k + 1_000_000)
    pairs = []
    for d, ref in zip(review.decisions, reference.decisions, strict=True):
        top = ref.options[:2]
        gap = abs((top[0].score or 0.0) - (top[1].score or 0.0))
        pairs.append({"gap": gap, "same": d.best.action == ref.best.action})
    return {"round": k, "bot": name, "accuracy": review.accuracy, "cpu": cpu,
            "decisions": len(review.decisions), "pairs": pairs}


def report(rows: list[dict[str, Any]]) -> None:
    print(f"rounds: {len(rows)}")
    clear = [p["same"] for r in rows for p in r["pairs"] if p["gap"] > 1.0]
    if clear:
        mean, low, high = interval_of_sums(len(clear), sum(clear), sum(clear))
        print(f"agreement with 4x budget where the two best differ by > 1 point: "
              f"{share_text(mean, low, high)} of {len(clear)} decisions")
    for name in BOTS:
        accs = [r["accuracy"] / 100 for r in rows if r["bot"] == name
                and r["accuracy"] is not None]
        if accs:
            mean, low, high = difference_interval(accs)
            print(f"accuracy {name:>7}: {100 * mean:5.1f} ({100 * low:.1f}-{100 * high:.1f})"
                  f" over {len(accs)} rounds")
    cpus = sorted(r["cpu"] for r in rows)
    if len(cpus) >= 2:
        p95 = quantiles(cpus, n=20, method="inclusive")[-1]
        print(f"CPU per reviewed round: median {median(cpus):.2f} s, p95 {p95:.2f} s; "
              f"decisions per round: median {median(r['decisions'] for r in rows)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rows", type=int, default=REVIEW_ROWS,
                    help="rollouts per decision of the default review")
    ap.add_argument("--out", type=Path, default=Path("review-quality.jsonl"))
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    args = ap.parse_args()
    done: list[dict[str, Any]] = []
    if args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines() if line]
    have = {r["round"] for r in done}
    stop = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    with args.out.open("a") as fh:
        for k in range(args.rounds):
            if k in have:
                continue
            if stop is not None and time.monotonic() >= stop:
                break
            row = one_round(k, args.seed, args.rows)
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done.append(row)
    report(sorted(done, key=lambda r: r["round"]))


if __name__ == "__main__":
    main()
