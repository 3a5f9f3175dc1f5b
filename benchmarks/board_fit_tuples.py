"""Fit the ``native`` search's 4x4 n-tuple evaluation to the exact 4x4 table.

The table (``cambio solve board --size 4``, solved here if ``--table`` is not given) is the
training data: positions drawn uniformly from it (those without a line), target +1 won,
0 drawn, -1 lost for the side to move, loss ``(tanh(value) - target)**2``, stochastic
gradient descent with a falling rate. Writes ``src/cambio/bots/board/native_tuples_4x4.npz``
(the weights times ``SCALE``, as integers), which the bot loads; the bot never reads the table.

    .venv/bin/python benchmarks/board_fit_tuples.py --table 4x4.npz --epochs 6 --samples 20000000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from cambio.board import Rules, geometry
from cambio.board.solve import Solution, solve
from cambio.bots.board.native_eval import ENTRIES, SCALE, SHAPES, WEIGHTS_FILE, fit, images


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", type=Path, help="a saved 4x4 solution (else solved here)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--samples", type=int, default=20_000_000, help="positions per epoch")
    ap.add_argument("--rate", type=float, default=0.01, help="first epoch's step size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = ap.parse_args()
    rules = Rules(size=4)
    sol = Solution.load(args.table) if args.table else solve(rules)
    g = geometry(rules)
    lines = np.array(g.lines, dtype=np.int64)
    imgs = images(g)
    w = np.zeros((len(SHAPES), ENTRIES), dtype=np.float64)
    for epoch in range(args.epochs):
        rate = args.rate * 0.5 ** epoch
        t = time.perf_counter()
        loss = fit(sol.table, lines, imgs, args.samples, rate, args.seed + epoch, w)
        print(f"epoch {epoch}: rate {rate:.4g}, mean loss {loss:.4f} "
              f"({time.perf_counter() - t:.0f} s)", flush=True)
    np.savez_compressed(args.out, weights=np.round(w * SCALE).astype(np.int16))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
