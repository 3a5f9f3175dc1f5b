"""Time and peak memory of the exact 4x4 solve (what ``cambio solve board --size 4`` does).

    .venv/bin/python benchmarks/board_solve.py [--size 4] [--runs 3] [--json]

Each run is a fresh process (so numba's compile cache and the peak RSS are those of one
command); the first run after an edit of ``cambio/board/solve.py`` also compiles.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

CHILD = """
import json, resource, time
t = time.perf_counter()
from cambio.board import Rules
from cambio.board.solve import solve
imported = time.perf_counter() - t
t = time.perf_counter()
sol = solve(Rules(size={size}))
print(json.dumps({{"solve_seconds": time.perf_counter() - t, "import_seconds": imported,
                  **sol.counts()}}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs = []
    for _ in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CHILD.format(size=args.size)],
                              check=True, capture_output=True, text=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        res = json.loads(done.stdout)
        res.update(wall_seconds=wall, cpu_seconds=(after.ru_utime + after.ru_stime)
                   - (before.ru_utime + before.ru_stime),
                   peak_rss_mib=after.ru_maxrss / 1024)
        runs.append(res)
    if args.json:
        print(json.dumps(runs))
        return
    for r in runs:
        print(f"{args.size}x{args.size}: process {r['wall_seconds']:.2f} s wall, "
              f"{r['cpu_seconds']:.2f} s CPU (solve {r['solve_seconds']:.2f} s), peak RSS "
              f"{r['peak_rss_mib']:,.0f} MiB; wins {r['wins']:,} losses {r['losses']:,} "
              f"draws {r['draws']:,}")


if __name__ == "__main__":
    main()
