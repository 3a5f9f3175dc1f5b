"""The paired difference of two strength runs (benchmarks/cards_strength.py --paired).

Two bots measured against the same opponent on the same seeded deals: the tool reads the two
journals, pairs them deal by deal, and refuses journals that are not the same deals."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.benchmarks import BENCHMARKS, load_benchmark


def load() -> ModuleType:
    return load_benchmark("cards_strength")


def run(strength: ModuleType, first: str, other: str, path: Path, *, seed: int = 1,
        deals: int = 6) -> list[tuple[float, list[float], float]]:
    results: list[tuple[float, list[float], float]] = strength.play_journaled(
        first, other, 2, "rulebook", seed, deals, 1, path)
    return results


def test_the_difference_is_the_two_runs_shares_and_its_interval_is_paired(tmp_path) -> None:
    strength = load()
    base = run(strength, "random", "memory", tmp_path / "a.jsonl")
    other = run(strength, "expert", "memory", tmp_path / "b.jsonl")
    p = strength.paired(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert (p["base"], p["other"], p["opponent"], p["deals"], p["rounds"]) == (
        "random", "expert", "memory", 6, 12)
    for name, xs, ys in (("win_share", [r[0] for r in base], [r[0] for r in other]),
                         ("won_or_tied", [r[2] for r in base], [r[2] for r in other])):
        a, b = sum(xs) / 6, sum(ys) / 6
        f = p[name]
        assert (f["base"], f["other"]) == (pytest.approx(a), pytest.approx(b))
        assert f["difference"] == pytest.approx(b - a)
        diffs = [y - x for x, y in zip(xs, ys, strict=True)]
        half = 1.959963984540054 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        assert (f["low"], f["high"]) == (pytest.approx(max(-1, b - a - half)),
                                         pytest.approx(min(1, b - a + half)))


def test_a_run_against_itself_differs_by_nothing_and_only_common_deals_count(tmp_path) -> None:
    strength = load()
    run(strength, "easy", "memory", tmp_path / "a.jsonl")
    run(strength, "easy", "memory", tmp_path / "b.jsonl", deals=4)
    p = strength.paired(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert p["deals"] == 4
    assert p["win_share"]["difference"] == 0.0
    assert p["win_share"]["low"] == p["win_share"]["high"] == 0.0


def test_journals_of_other_deals_are_refused(tmp_path) -> None:
    strength = load()
    run(strength, "easy", "memory", tmp_path / "a.jsonl", deals=2)
    run(strength, "random", "memory", tmp_path / "seed.jsonl", seed=2, deals=2)
    run(strength, "random", "easy", tmp_path / "opponent.jsonl", deals=2)
    (tmp_path / "notes.txt").write_text("hard beat search\n")
    for other, why in (("seed.jsonl", "seed 1, .* has 2"), ("opponent.jsonl", "against easy"),
                       ("notes.txt", "run header")):
        with pytest.raises(SystemExit, match=why):
            strength.paired(tmp_path / "a.jsonl", tmp_path / other)


def test_the_command_prints_the_pair_as_json_and_plays_nothing(tmp_path) -> None:
    strength = load()
    run(strength, "random", "memory", tmp_path / "a.jsonl", deals=3)
    run(strength, "memory", "memory", tmp_path / "b.jsonl", deals=3)
    before = (tmp_path / "b.jsonl").read_text()
    out = subprocess.run([sys.executable, str(BENCHMARKS / "cards_strength.py"), "--paired",
                          str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--json"],
                         capture_output=True, text=True, check=True)
    p = json.loads(out.stdout)
    assert p == strength.paired(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert (tmp_path / "b.jsonl").read_text() == before
    words = subprocess.run([sys.executable, str(BENCHMARKS / "cards_strength.py"), "--paired",
                            str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")],
                           capture_output=True, text=True, check=True).stdout
    assert words.startswith("memory minus random, both against memory")
