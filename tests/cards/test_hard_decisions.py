"""``hard`` decides as the pinned file says: the rollout kernels play the same rollouts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cambio.cards import CardView

from .hard_decisions import PATH, PRESETS, decide, positions


def _pinned() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PATH.read_text().splitlines()]


def test_the_pinned_positions_cover_every_preset_and_table_size() -> None:
    pinned = _pinned()
    assert {(r["preset"], r["players"]) for r in pinned} == {
        (p, n) for p in PRESETS for n in (2, 3, 4)}
    assert len(pinned) >= 300


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_makes_the_pinned_decisions_with_the_pinned_estimates(preset: str) -> None:
    pinned = [r for r in _pinned() if r["preset"] == preset]
    views: dict[tuple[int, int], dict[int, CardView]] = {}
    for r in pinned:
        key = (r["players"], r["seed"])
        if key not in views:
            views[key] = dict(positions(preset, *key))
    overruled = 0
    for r in pinned:
        view = views[(r["players"], r["seed"])][r["step"]]
        got = decide(view, r["seed"] * 31 + r["step"])
        assert got == {"action": r["action"], "estimates": r["estimates"]}, r
        estimates = r["estimates"]
        overruled += bool(estimates) and r["action"] != estimates[0][0]
    assert overruled > 0  # the rollouts did overrule the prior somewhere
