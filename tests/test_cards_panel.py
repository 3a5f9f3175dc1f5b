"""The panel runner (benchmarks/cards_panel.py): every member plays, shares are right."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.support.benchmarks import load_benchmark


def load() -> ModuleType:
    return load_benchmark("cards_panel")


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
