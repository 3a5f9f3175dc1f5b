"""The SPRT tool's test logic (benchmarks/sprt.py) on streams whose truth is known."""

from __future__ import annotations

import itertools
import json
import random
from types import ModuleType

import pytest

from tests.support.benchmarks import load_benchmark


def load() -> ModuleType:
    return load_benchmark("sprt")


def run(share: float, seed: int) -> tuple[str | None, int]:
    """Paired deals whose two games B wins with probability ``share`` each."""
    sprt = load()
    test = sprt.Sprt(0.0, 30.0, 0.05, 0.05)
    rng = random.Random(seed)
    for n in range(1, 20_001):
        verdict = test.add((rng.random() < share) / 2 + (rng.random() < share) / 2)
        if verdict is not None:
            return verdict, n
    return None, 20_000


def test_elo_and_score_are_inverse():
    sprt = load()
    assert abs(sprt.score(0.0) - 0.5) < 1e-12
    assert abs(sprt.elo_of(sprt.score(120.0)) - 120.0) < 1e-9
    assert sprt.score(30.0) > 0.5 > sprt.score(-30.0)


def test_a_clearly_better_bot_is_accepted_and_an_equal_one_rejected():
    better = [run(0.70, seed) for seed in range(20)]
    assert all(verdict == "H1" for verdict, _ in better)
    equal = [run(0.50, seed) for seed in range(20)]
    # beta = 0.05: an equal pair may be wrongly accepted now and then, rarely.
    assert sum(verdict == "H0" for verdict, _ in equal) >= 17
    assert all(verdict is not None for verdict, _ in equal)


def test_a_run_of_halves_is_evidence_for_h0_but_ten_are_not_proof():
    """Ten drawn deals (one win each way) between different bots decide nothing; identical
    deterministic bots, drawing every deal, are still rejected within a few dozen."""
    sprt = load()
    test = sprt.Sprt(0.0, 30.0, 0.05, 0.05)
    verdicts = [test.add(0.5) for _ in range(60)]
    assert verdicts[:sprt.MIN_DEALS] == [None] * sprt.MIN_DEALS
    assert "H0" in verdicts and "H1" not in verdicts
    llrs = test.llrs
    assert all(b < a for a, b in itertools.pairwise(llrs[1:]))


def test_a_journal_resumes_its_own_test_and_refuses_another(tmp_path):
    sprt = load()
    path = tmp_path / "sprt.jsonl"
    header = {"a": "hard", "b": "master", "rules": "rulebook", "seed": 7, "elo0": 0.0,
              "elo1": 20.0, "alpha": 0.05, "beta": 0.05}
    assert sprt.resume(path, header) == []              # a new journal: its header written
    with path.open("a", encoding="utf-8") as f:
        for deal, share in enumerate((1.0, 0.5, 0.0), start=1):
            f.write(json.dumps({"deal": deal, "share": share, "llr": 0.0,
                                "verdict": None}) + "\n")
    assert sprt.resume(path, header) == [1.0, 0.5, 0.0]
    with pytest.raises(SystemExit, match="another test"):
        sprt.resume(path, header | {"seed": 8})
