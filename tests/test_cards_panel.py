"""The panel runner (benchmarks/cards_panel.py): every member plays, shares are right."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("cards_panel", BENCHMARKS / "cards_panel.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_a_bot_against_itself_shares_exactly_equally() -> None:
    """A deterministic bot against copies of itself: every rotation of a deal is the same
    game, so its share is 1/players exactly, heads-up and at four."""
    panel = load()
    for players in (2, 4):
        row = panel.pairing("memory", "memory", players, "rulebook", 4 * players, 1, 1)
        assert row["win_share"] == pytest.approx(1 / players)
        assert row["rounds"] == 4 * players


def test_every_panel_member_plays() -> None:
    panel = load()
    assert {"random", "easy", "memory", "tuned", "expert", "search", "rusher",
            "snapper"} <= set(panel.PANEL)
    for member in panel.PANEL:
        row = panel.pairing("memory", member, 2, "wikipedia", 2, 3, 1)
        assert 0.0 <= row["win_share"] <= 1.0
    assert panel.pairing("memory", "random", 2, "rulebook", 40, 1, 1)["win_share"] > 0.7
