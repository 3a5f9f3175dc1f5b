"""Judge a card-bot change with a sequential probability ratio test (SPRT), as chess engine
test servers judge a patch: play paired deals until the evidence decides, no fixed count.

The question is "is B at least ELO1 Elo better than A, rather than only ELO0?" (defaults 0
and 30). Every deal is played with the seats rotated (``cards_strength.play_deal``: the same
deals, seeds ``derive_seed(seed, deal)``, ties 1/k), so one observation is B's mean share of
one deal's rotations; pairing on the deal removes most of the luck of the cards. After each
deal the log-likelihood ratio of H1 (B's expected share is ``score(ELO1)``) against H0
(``score(ELO0)``) is updated with the normal approximation of the generalised SPRT, with the
variance estimated from the deals so far (the method of fishtest's pentanomial SPRT, here
over per-deal shares). The test stops the first time the ratio leaves
``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: above, H1 is accepted (the change is
at least ELO1 better, with error rate alpha); below, H0 (beta). An SPRT may be looked at
after every deal: its error rates already account for it (no peeking bias), unlike
repeated significance tests on a growing sample. ``--max-games`` ends an undecided test.

    .venv/bin/python benchmarks/sprt.py --a memory --b hard --rules rulebook --seed 1
    .venv/bin/python benchmarks/sprt.py --a memory --b memory --seed 1 --plot sprt.png

Decisions are deterministic: deal n's seeds depend only on ``--seed`` and n, and the ratio
is read in deal order even when ``--workers`` plays deals ahead.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from cards_strength import Job, play_deal

MIN_DEALS = 10
"""The variance is estimated from the deals so far: no decision before this many."""
PRIOR_DEALS = 1.0
"""Pseudo-deals of the widest spread (1/4) the variance estimate starts from."""


def score(elo: float) -> float:
    """The expected share of a bot ``elo`` points stronger (the logistic Elo curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(share: float) -> float:
    share = min(max(share, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / share - 1.0)


@dataclass
class Sprt:
    """The running test: per-deal shares in, the log-likelihood ratio and a verdict out."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    shares: list[float] = field(default_factory=list)
    llrs: list[float] = field(default_factory=list)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def add(self, share: float) -> str | None:
        """Add one deal; 'H1' or 'H0' once the ratio leaves the bounds, else None."""
        self.shares.append(share)
        self.llrs.append(self.llr())
        if len(self.shares) < MIN_DEALS:
            return None
        if self.llrs[-1] >= self.upper:
            return "H1"
        if self.llrs[-1] <= self.lower:
            return "H0"
        return None

    def llr(self) -> float:
        n = len(self.shares)
        if n < 2:
            return 0.0
        mean = sum(self.shares) / n
        # The spread is shrunk towards a share's widest, 1/4, by one pseudo-deal. Without it
        # a run of drawn deals (in cambia, ten deals of one win each way) left no spread,
        # and ten deals looked like certainty. Identical deterministic bots, whose every
        # share is exactly 1/2, still decide H0: the variance shrinks as 1/n.
        spread = sum((x - mean) ** 2 for x in self.shares)
        var = (spread + PRIOR_DEALS * 0.25) / (n + PRIOR_DEALS)
        s0, s1 = score(self.elo0), score(self.elo1)
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def resume(path: Path, header: dict[str, Any]) -> list[float]:
    """The shares of the deals a journal holds (none if it does not exist yet: then it is
    started with ``header``). A journal of another test is refused, so that no test goes on
    from another's deals."""
    if not path.exists():
        path.write_text(json.dumps(header) + "\n", encoding="utf-8")
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0]) if lines else {}
    if first != header:
        raise SystemExit(f"{path} is the journal of another test ({first}); this one is "
                         f"{header}: give another --journal")
    return [float(json.loads(line)["share"]) for line in lines[1:] if line.strip()]


def deals(jobs: Iterator[Job], workers: int) -> Iterator[tuple[float, list[float], float]]:
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            yield from pool.map(play_deal, jobs, chunksize=1)
    else:
        yield from map(play_deal, jobs)


def plot(test: Sprt, title: str, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    # From the first deal a decision may be made at: before it the spread of a few equal
    # shares is next to none and the ratio off any scale.
    ax.plot(range(MIN_DEALS, len(test.llrs) + 1), test.llrs[MIN_DEALS - 1:],
            color="tab:blue", label="log-likelihood ratio")
    ax.axhline(test.upper, color="tab:green", linestyle="--", label=f"accept H1 ({test.upper:.2f})")
    ax.axhline(test.lower, color="tab:red", linestyle="--", label=f"accept H0 ({test.lower:.2f})")
    ax.set_xlabel("deals (each played with the seats swapped)")
    ax.set_ylabel("LLR")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="memory", help="the baseline bot")
    parser.add_argument("--b", default="hard", help="the candidate bot")
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=30.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-games", type=int, default=40_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--plot", help="write the ratio's path with its bounds to this PNG")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--journal", help="append each deal's share and the ratio to this "
                        "file (JSON lines), to follow a long test while it runs; the same "
                        "command goes on from the deals it holds")
    a = parser.parse_args()
    players = 2
    test = Sprt(a.elo0, a.elo1, a.alpha, a.beta)
    max_deals = max(MIN_DEALS, a.max_games // players)
    verdict = None
    if a.journal:  # go on from the deals it holds (a finished test only says its verdict)
        header = {"a": a.a, "b": a.b, "rules": a.rules, "seed": a.seed, "elo0": a.elo0,
                  "elo1": a.elo1, "alpha": a.alpha, "beta": a.beta}
        for share in resume(Path(a.journal), header):
            verdict = test.add(share)
            if verdict is not None:
                break
    first = len(test.shares)
    jobs = ((a.b, a.a, players, a.rules, a.seed, d) for d in range(first, max_deals))
    err = Console(stderr=True)
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"{a.b} vs {a.a}", total=max_deals, completed=first)
        for share, _times, _won in ([] if verdict else deals(jobs, a.workers)):
            verdict = test.add(share)
            if a.journal:
                with open(a.journal, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"deal": len(test.shares), "share": share,
                                        "llr": test.llrs[-1], "verdict": verdict}) + "\n")
            bounds = f"({test.lower:.2f}, {test.upper:.2f})"
            progress.update(task, advance=1,
                            description=f"{a.b} vs {a.a}: LLR {test.llrs[-1]:+.2f} in {bounds}")
            if verdict is not None:
                break
    n = len(test.shares)
    mean = sum(test.shares) / n
    out: dict[str, Any] = {
        "a": a.a, "b": a.b, "rules": a.rules, "seed": a.seed, "elo0": a.elo0, "elo1": a.elo1,
        "alpha": a.alpha, "beta": a.beta, "verdict": verdict or "undecided", "deals": n,
        "games": n * players, "share": mean, "elo": elo_of(mean), "llr": test.llrs[-1],
        "bounds": [test.lower, test.upper],
    }
    if a.plot:
        plot(test, f"SPRT {a.b} vs {a.a}, {a.rules}: H1 elo >= {a.elo1:g} vs H0 elo {a.elo0:g}"
                   f" -> {out['verdict']} after {out['games']} games", a.plot)
    if a.json:
        print(json.dumps(out))
        return
    said = {"H1": f"accepted H1: {a.b} is at least {a.elo1:g} Elo better than {a.a}",
            "H0": f"accepted H0: {a.b} is not shown {a.elo1:g} Elo better than {a.a} "
                  f"(at most {a.elo0:g})",
            None: "undecided at --max-games"}[verdict]
    print(f"{said} · {out['games']} games ({n} deals, seats swapped) · {a.b}'s share "
          f"{mean:.1%} ({out['elo']:+.0f} Elo) · LLR {out['llr']:+.2f} in "
          f"({test.lower:.2f}, {test.upper:.2f}) · alpha {a.alpha:g}, beta {a.beta:g}")


if __name__ == "__main__":
    main()
