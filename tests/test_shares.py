"""One meaning of a win share: the tie rule and the interval live in cambio.shares only.

Every report (``cambio sim``, ``tournament``, ``exploit``, the examples, the benchmarks) counts
a tie of ``k`` seats as ``1/k`` and prints Wilson-style intervals inside [0, 1] through
:mod:`cambio.shares`. The scan below fails when a second definition appears: a Wilson
formula, a hand-written 95% quantile, ``1 / len(winners)``, or an interval function that
does not go through the helper. ``cambio sim``'s output itself is checked against its game
records, tie by tie, in tests/cards/test_sim.py (test_records_replay_and_match_the_summary).
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from cambio.shares import difference_interval, interval_of_sums, share_interval, tie_share

ROOT = Path(__file__).resolve().parents[1]
HELPER = ROOT / "src" / "cambio" / "shares.py"
SCANNED = ("src", "benchmarks", "examples", "scripts")
NOT_SHARES = {
    "benchmarks/cards_events.py::interval": "actions per second over repeated timings",
    "benchmarks/store_commits.py::interval": "commit rates and latencies over repeated runs",
}
"""Interval functions over timings, not win shares (Student's t over a few runs)."""
HELPERS = {"share_interval", "interval_of_sums", "difference_interval", "interval"}


def python_files() -> list[Path]:
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py") if p != HELPER)


def calls(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            out.add(f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute)
                    else "")
    return out


def second_definitions(path: Path) -> list[str]:
    where = path.relative_to(ROOT).as_posix()
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
              and f"{where}::{f.name}" in NOT_SHARES for n in ast.walk(f)}
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, float) \
                and abs(node.value - 1.96) < 0.01:
            found.append(f"{where}:{node.lineno}: a 95% quantile of its own ({node.value})")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) \
                and isinstance(node.left, ast.Constant) and node.left.value == 1 \
                and isinstance(node.right, ast.Call) and "winner" in ast.unparse(node.right):
            found.append(f"{where}:{node.lineno}: a tie rule of its own "
                         f"({ast.unparse(node)}): use cambio.shares.tie_share")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = node.name.lower()
            if "wilson" in name:
                found.append(f"{where}:{node.lineno}: {node.name}, a Wilson interval of its own")
            elif "interval" in name and f"{where}::{node.name}" not in NOT_SHARES \
                    and not calls(node) & HELPERS:
                found.append(f"{where}:{node.lineno}: {node.name} computes an interval without "
                             "cambio.shares")
    return found


def test_the_tie_rule_and_the_interval_are_defined_once():
    found = [f for path in python_files() for f in second_definitions(path)]
    assert found == []


def test_the_scan_finds_a_second_definition(tmp_path):
    """The scan is not vacuous: the old forms it replaced are all caught."""
    old = tmp_path / "old.py"
    old.write_text(
        "def wilson(k, n, z=1.96): return k / n\n"
        "def score_interval(points): return sum(points) / len(points)\n"
        "def share(w, seat): return 1.0 / len(w.winners) if seat in w.winners else 0.0\n")
    found = second_definitions_at(old)
    assert len(found) == 4, found


def second_definitions_at(path: Path) -> list[str]:
    global ROOT
    saved, ROOT = ROOT, path.parent
    try:
        return second_definitions(path)
    finally:
        ROOT = saved


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's score interval as textbooks write it, to compare with."""
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 4), (7, 20), (20, 20), (512, 1000)])
def test_win_or_lose_games_get_wilsons_interval(k, n):
    mean, low, high = share_interval([1.0] * k + [0.0] * (n - k))
    assert mean == pytest.approx(k / n)
    assert (low, high) == pytest.approx(wilson(k, n))


def test_ties_count_one_over_k_and_narrow_the_interval_only_as_far_as_they_vary():
    assert [tie_share(s, [0, 2], 3) for s in range(3)] == [0.5, 0.0, 0.5]
    assert [tie_share(s, [], 4) for s in range(4)] == [0.25] * 4  # a draw
    assert [tie_share(s, [1], 2) for s in range(2)] == [0.0, 1.0]
    # Half the games won, or every game a 2-way tie: the same mean, but the ties vary less.
    won_half = share_interval([1.0, 0.0] * 10)
    all_tied = share_interval([0.5] * 20)
    assert won_half[0] == all_tied[0] == 0.5
    assert won_half[1] < all_tied[1] < 0.5 < all_tied[2] < won_half[2]


def test_intervals_stay_inside_their_bounds_and_totals_give_the_same_interval():
    points = [1.0, 0.5, 0.0, 1.0, 1 / 3, 0.0, 1.0]
    n, total, squares = len(points), sum(points), sum(p * p for p in points)
    assert interval_of_sums(n, total, squares) == share_interval(points)
    for sample in ([1.0] * 5, [0.0] * 5, [1.0], points):
        mean, low, high = share_interval(sample)
        assert 0.0 <= low <= mean <= high <= 1.0
    assert share_interval([1.0]) == (1.0, 0.0, 1.0)  # one game says nothing
    diff, low, high = difference_interval([0.5, -0.5, 0.0, 0.0, 1.0])
    assert -1.0 <= low < diff < high <= 1.0
    assert difference_interval([0.0] * 6) == (0.0, 0.0, 0.0)  # two runs that played alike
    with pytest.raises(ValueError, match="no games"):
        share_interval([])
