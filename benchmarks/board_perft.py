"""Perft speed: bulk-counted leaves per CPU second from the perft test positions.

    .venv/bin/python benchmarks/board_perft.py [--json]

Each position is counted to the deepest depth listed in tests/board/perft.txt (the counts
are checked), best of 3 runs; rates are per CPU second of this process.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cambio.board import Board, Rules
from cambio.board.perft import perft

DATA = Path(__file__).resolve().parent.parent / "tests" / "board" / "perft.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rows = []
    total_leaves = 0
    total_seconds = 0.0
    for raw in DATA.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        name, players, size, line, position, counts = (x.strip() for x in raw.split(";"))
        expected = [int(c) for c in counts.split()]
        board = Board(Rules(players=int(players), size=int(size), line=int(line)), position)
        depth = len(expected)
        best = float("inf")
        for _ in range(args.runs):
            t = time.process_time()
            leaves = perft(board, depth)
            best = min(best, time.process_time() - t)
            assert leaves == expected[-1], (name, leaves)
        rows.append({"position": name, "depth": depth, "leaves": leaves, "seconds": best,
                     "leaves_per_second": leaves / best})
        total_leaves += leaves
        total_seconds += best
    summary = {"positions": rows, "leaves": total_leaves, "seconds": total_seconds,
               "leaves_per_second": total_leaves / total_seconds}
    if args.json:
        print(json.dumps(summary))
        return
    for r in rows:
        print(f"{r['position']:14s} depth {r['depth']}  {r['leaves']:>10,} leaves  "
              f"{r['seconds']:7.3f} s  {r['leaves_per_second']:>12,.0f} leaves/s")
    print(f"{'all':14s}          {total_leaves:>10,} leaves  {total_seconds:7.3f} s  "
          f"{summary['leaves_per_second']:>12,.0f} leaves/s")


if __name__ == "__main__":
    main()
