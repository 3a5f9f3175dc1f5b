"""The examples' command lines: a part named alone runs alone, and flags that would select
nothing are refused with a usage error (exit status 2) before anything runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[2]
ALGORITHMS = ROOT / "examples" / "openspiel_algorithms.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, str(ALGORITHMS), *args], capture_output=True,
                          text=True, timeout=120, env=env)


def test_a_part_named_alone_runs_alone_and_prints_a_share_inside_0_1():
    done = run("--parts", "mcts", "--budgets", "2", "--mcts-games", "6")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("MCTS    2 simulations vs random: win share")
    low, high = lines[0].split("(")[1].split(")")[0].split("–")
    assert 0 <= float(low) <= float(high) <= 100


@pytest.mark.parametrize(("args", "why"), [
    (["--parts", "nope"], "name one or more of mcts, mccfr, cfr"),
    (["--parts", ","], "name one or more"),
    (["--parts", "mcts", "--plot", "x.png"], "name both in --parts"),
    (["--parts", "mcts", "--cfr-plot", "y.png"], "name it in --parts"),
])
def test_flags_that_select_nothing_are_refused(args, why):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert why in done.stderr.strip().splitlines()[-1]
