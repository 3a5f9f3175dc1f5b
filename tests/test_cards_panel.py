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


def test_a_report_reads_the_journals_and_plays_nothing(tmp_path) -> None:
    """An interrupted pairing's journal shows its first deals; a pairing never started is
    left out; the report's figures are the journal's, the same as the finished pairing's."""
    panel = load()
    assert panel.pairing("memory", "random", 2, "rulebook", 12, 1, 1, tmp_path,
                         report=True) is None
    assert not list(tmp_path.iterdir())  # a report writes no journal
    whole = panel.pairing("memory", "random", 2, "rulebook", 12, 1, 1, tmp_path)
    journal = next(tmp_path.iterdir())
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:4]) + "\n")  # the header and three of six deals
    part = panel.pairing("memory", "random", 2, "rulebook", 12, 1, 1, tmp_path, report=True)
    assert (part["rounds"], part["of"]) == (6, 12)
    journal.write_text("\n".join(lines) + "\n")
    again = panel.pairing("memory", "random", 2, "rulebook", 12, 1, 1, tmp_path, report=True)
    assert again == whole
    assert len(journal.read_text().splitlines()) == len(lines)  # nothing played or added


def test_a_best_responses_row_reports_the_bots_exploitability() -> None:
    """Against ``exploit:BOT`` the row says what the response wins above one half (the
    bot's share's complement), its interval mirrored; no other row has one."""
    panel = load()
    row = panel.pairing("memory", "exploit:memory", 2, "rulebook", 4, 1, 1)
    assert row["exploitability"] == pytest.approx(0.5 - row["win_share"])
    assert row["exploitability_low"] == pytest.approx(0.5 - row["high"])
    assert row["exploitability_high"] == pytest.approx(0.5 - row["low"])
    assert panel.exploitability_text(row).startswith(f"{row['exploitability']:+.1%} (")
    other = panel.pairing("memory", "random", 2, "rulebook", 4, 1, 1)
    assert "exploitability" not in other
    assert panel.exploitability_text(other) == ""
