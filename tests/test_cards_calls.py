"""Where a bot's share goes by who ended the round (benchmarks/cards_calls.py): the rows of
a deal, their summary and the deal-by-deal pairing of two runs."""

from __future__ import annotations

import pytest

from tests.support.benchmarks import load_benchmark


def test_a_deal_splits_its_rounds_by_who_called_and_pairs_with_itself() -> None:
    calls = load_benchmark("cards_calls")
    rows = [r for deal in range(3) for r in calls.play_deal(("expert", "memory", 4,
                                                             "rulebook", 1, deal, ()))]
    assert len(rows) == 12  # every deal with the bot in each of the 4 seats
    assert {r["who"] for r in rows} <= {"bot", "opponent", "none"}
    for r in rows:
        assert (r["round"] >= 0) == (r["who"] != "none")
        assert r["estimate"] is None  # expert searches nothing
        assert r["times"]
        assert r["final_by"] == {}
    s = calls.summary(rows)
    groups = [s[w] for w in ("bot", "opponent", "none") if w in s]
    assert sum(g["rounds"] for g in groups) == 12
    assert sum(g["share"] * g["rounds"] for g in groups) == pytest.approx(12 * s["share"])
    same = calls.paired(rows, rows)
    assert (same["deals"], same["difference"]) == (3, 0.0)
    lost = [dict(r, share=0.0) for r in rows]
    worse = calls.paired(rows, lost)
    assert worse["difference"] == pytest.approx(-s["share"])


def test_final_turns_replayed_by_the_same_bots_end_as_played() -> None:
    """``--final-by``: each of the bot's calls finished again with the other seats played
    by a given bot. Replayed by the very bots that played (deterministic ones), a call ends
    as it did; by another, the game played is untouched (the rows match a run without)."""
    calls = load_benchmark("cards_calls")
    plain = [r for deal in range(6) for r in calls.play_deal(("expert", "memory", 2,
                                                              "rulebook", 2, deal, ()))]
    replayed = [r for deal in range(6) for r in calls.play_deal(
        ("expert", "memory", 2, "rulebook", 2, deal, ("memory", "random")))]
    own = [r for r in replayed if r["who"] == "bot"]
    assert own, "no call of the bot's in these deals"
    for r in own:
        assert r["final_by"]["memory"] == r["share"]
        assert set(r["final_by"]) == {"memory", "random"}
    assert [(r["who"], r["round"], r["share"]) for r in plain] == \
        [(r["who"], r["round"], r["share"]) for r in replayed]
    s = calls.summary(replayed)["bot"]
    assert s["final_by_calls"] == len(own)
    assert s["final_by"]["memory"] == pytest.approx(s["final_by_real"])
