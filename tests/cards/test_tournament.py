"""``cambio tournament cards``: schedule, win shares, reproducible JSON, order independence."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cambio.cards import Rules
from cambio.sim.tournament import (
    TIMING_KEYS,
    GameResult,
    TournamentConfig,
    play_game,
    run,
    schedule,
    shares,
    summarize,
)

CAMBIO = [sys.executable, "-m", "cambio.cli.main"]


def untimed(summary: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def test_schedule_is_a_round_robin():
    assert schedule(("a", "b", "c"), 2) == (("a", "b"), ("a", "c"), ("b", "c"))
    assert schedule(("h", "m"), 4) == (("h", "h", "h", "m"), ("h", "h", "m", "m"),
                                       ("h", "m", "m", "m"))


@pytest.mark.parametrize("players", [2, 3])
def test_seats_rotate_evenly(players):
    config = TournamentConfig(Rules.preset("rulebook"), players, ("random", "memory", "easy"),
                              1, seed=0)
    cycle = len(config.lineups) * players
    seats: Counter[tuple[str, int]] = Counter()
    for k in range(cycle):
        for s, name in enumerate(config.lineup(k)):
            seats[name, s] += 1
    per_bot = {name: {seats[name, s] for s in range(players)} for name in config.bots}
    assert all(len(counts) == 1 for counts in per_bot.values()), per_bot


def test_win_share_splits_ties():
    r = GameResult(0, ("a", "b", "a", "c"), (3, 3, 3, 9), (0, 1, 2), (1,) * 4, (0.0,) * 4)
    assert shares(r) == {"a": pytest.approx(2 / 3), "b": pytest.approx(1 / 3), "c": 0.0}


def test_same_seed_same_summary_in_any_order():
    config = TournamentConfig(Rules.preset("house"), 2, ("random", "memory"), 40, seed=3)
    results = run(config)
    first = summarize(config, results)
    shuffled = results[:]
    random.Random(1).shuffle(shuffled)
    assert untimed(summarize(config, shuffled)) == untimed(first)
    assert untimed(summarize(config, run(config))) == untimed(first)
    again = play_game(config, 7)
    assert (again.seats, again.scores, again.winners) == (results[7].seats, results[7].scores,
                                                          results[7].winners)
    two = first["pairs"]
    ab, ba = two["random vs memory"], two["memory vs random"]
    assert ab["games"] == ba["games"] == 40
    assert ab["win_share"] + ba["win_share"] == pytest.approx(1.0)
    assert first["ratings"]["memory"]["mu"] > first["ratings"]["random"]["mu"]
    other = TournamentConfig(config.rules, 2, config.bots, 40, seed=4)
    assert untimed(summarize(other, run(other))) != untimed(first)


def test_missing_games_are_refused():
    config = TournamentConfig(Rules.preset("rulebook"), 2, ("random", "memory"), 3)
    with pytest.raises(ValueError):
        summarize(config, run(config)[:2])


def test_cli_json_is_reproducible_and_plots(tmp_path: Path):
    plot = tmp_path / "t.png"
    cmd = [*CAMBIO, "tournament", "cards", "--bots", "random,memory,easy", "--players", "2",
           "--rules", "wikipedia", "--games", "30", "--seed", "1", "--json"]
    first = subprocess.run([*cmd, "--plot", str(plot)], capture_output=True, text=True,
                           check=True)
    second = subprocess.run(cmd, capture_output=True, text=True, check=True)
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert untimed(a) == untimed(b)
    assert set(a["ratings"]) == {"random", "memory", "easy"}
    assert {"mu", "low", "high"} <= set(a["ratings"]["memory"])
    assert set(a["pairs"]["memory vs easy"]) >= {"games", "win_share"}
    assert plot.stat().st_size > 1000


def test_cli_rejects_bad_bots_without_traceback():
    out = subprocess.run([*CAMBIO, "tournament", "cards", "--bots", "memory"],
                         capture_output=True, text=True)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    out = subprocess.run([*CAMBIO, "tournament", "cards", "--bots", "memory,nobot"],
                         capture_output=True, text=True)
    assert out.returncode != 0 and "nobot" in out.stderr and "Traceback" not in out.stderr


def test_board_tournament_runs_through_the_same_schedule():
    from cambio.board import Rules as BoardRules

    config = TournamentConfig(BoardRules(players=2), 2, ("random", "greedy"), 12, seed=2,
                              game="board")
    first = summarize(config, run(config))
    assert untimed(summarize(config, run(config))) == untimed(first)
    pair = first["pairs"]["greedy vs random"]
    assert pair["games"] == 12 and pair["win_share"] > 0.5
    assert first["game"] == "board"
    out = subprocess.run([*CAMBIO, "tournament", "board", "--bots", "random,greedy",
                          "--games", "6", "--seed", "1", "--json", "--no-progress"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["pairs"]["greedy vs random"]["games"] == 6
