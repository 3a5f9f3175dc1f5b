"""CPU time, wall time and peak memory of the exact 4x4 solve (``cambio solve board --size 4``).

    .venv/bin/python benchmarks/board_solve.py [--size 4] [--runs 3] [--cache warm|cold|both]
        [--json]

Each run is a fresh process, so its CPU seconds (user + system, from ``wait4``) and peak RSS
are those of one command: imports, numba's compile or cache load, the solve. ``warm`` runs
share a numba cache directory filled by one uncounted run first; ``cold`` runs each get an
empty one (``NUMBA_CACHE_DIR``), so they compile. The output names the numba, llvmlite and
numpy versions and the table's SHA-256, so a change that moves any solved value shows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from typing import Any

CHILD = """
import hashlib, json, time
t = time.perf_counter()
from cambio.board import Rules
from cambio.board.solve import solve
imported = time.perf_counter() - t
t = time.perf_counter()
sol = solve(Rules(size={size}))
print(json.dumps({{"solve_seconds": time.perf_counter() - t, "import_seconds": imported,
                  "sha256": hashlib.sha256(sol.table.tobytes()).hexdigest(),
                  **sol.counts()}}))
"""


def run_once(size: int, cache_dir: str) -> dict[str, Any]:
    """One solve in a fresh process using ``cache_dir`` as numba's cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    with subprocess.Popen([sys.executable, "-c", CHILD.format(size=size)], env=env,
                          stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t
    if child.returncode:
        raise SystemExit(f"solve exited with {child.returncode}")
    res: dict[str, Any] = json.loads(out)
    res.update(wall_seconds=wall, cpu_seconds=usage.ru_utime + usage.ru_stime,
               peak_rss_mib=usage.ru_maxrss / 1024)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cache", choices=("warm", "cold", "both"), default="both")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    modes = ("cold", "warm") if args.cache == "both" else (args.cache,)
    runs = []
    with tempfile.TemporaryDirectory() as warm_dir:
        if "warm" in modes:
            run_once(args.size, warm_dir)  # fills the cache; not counted
        for i in range(args.runs):
            for mode in modes:  # interleaved, so load changes hit both alike
                if mode == "warm":
                    res = run_once(args.size, warm_dir)
                else:
                    with tempfile.TemporaryDirectory() as cold_dir:
                        res = run_once(args.size, cold_dir)
                runs.append({"cache": mode, "run": i, **res})
    versions: dict[str, Any] = {p: version(p) for p in ("numba", "llvmlite", "numpy")}
    versions["load"] = round(os.getloadavg()[0], 1)
    if args.json:
        print(json.dumps({"versions": versions, "runs": runs}))
        return
    print(" ".join(f"{k} {v}" for k, v in versions.items()))
    for r in runs:
        print(f"{args.size}x{args.size} {r['cache']}: {r['cpu_seconds']:.2f} s CPU, "
              f"{r['wall_seconds']:.2f} s wall (solve {r['solve_seconds']:.2f} s), peak RSS "
              f"{r['peak_rss_mib']:,.0f} MiB; wins {r['wins']:,} losses {r['losses']:,} "
              f"draws {r['draws']:,} sha256 {r['sha256'][:16]}")


if __name__ == "__main__":
    main()
