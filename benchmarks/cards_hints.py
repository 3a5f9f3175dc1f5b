"""CPU per hint: ``cambio.bots.cards.hints.suggest`` (what the web table's Hint button and
``cambio play cards --hint`` show) at ``--decisions`` decisions with a card in hand, taken
from seeded heads-up rulebook rounds between ``memory`` bots. Prints p50, p95 and the mean
of ``time.process_time`` per hint (the first hint, which loads the kernels, is not counted),
and a digest of every suggestion, so that two versions of the code can be shown to give the
same hints::

    nice -n 5 .venv/bin/python benchmarks/cards_hints.py --decisions 101
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from cambio.bots.cards import make_bot
from cambio.bots.cards.hints import suggest
from cambio.cards import CardView, Phase, Rules, State, observe


def decisions(count: int, seed: int) -> list[CardView]:
    """The first ``count`` views with a drawn card in hand, rounds ``seed``, ``seed + 1``..."""
    views: list[CardView] = []
    k = 0
    while len(views) < count:
        state = State(Rules.preset("rulebook"), 2, seed=seed + k, polled=True)
        bots = [make_bot("memory", k) for _ in range(2)]
        k += 1
        while not state.is_over() and len(views) < count:
            seat = state.current_player()
            view = observe(state, seat)
            if view.phase == Phase.DRAWN:
                views.append(view)
            state.apply(bots[seat].act(view), seat)
    return views


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=101)
    ap.add_argument("--seed", type=int, default=500)
    args = ap.parse_args()
    views = decisions(args.decisions, args.seed)
    suggest(views[0])  # loads the kernels
    ms: list[float] = []
    out = []
    for view in views:
        start = time.process_time()
        out.append(suggest(view))
        ms.append((time.process_time() - start) * 1000)
    p95 = statistics.quantiles(ms, n=20)[18]
    digest = hashlib.sha256(repr(out).encode()).hexdigest()[:16]
    print(f"{len(ms)} hints: p50 {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, "
          f"mean {statistics.fmean(ms):.0f} ms of CPU; suggestions' digest {digest}")


if __name__ == "__main__":
    main()
