"""``cambio sim cards``: seeded summaries, the --json contract, records that replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cambio.cards import Rules
from cambio.records.cards import replay
from cambio.records.jsonl import load_record
from cambio.sim.cards import TIMING_KEYS, SimConfig, game_seed, simulate
from cambio.sim.report import rate_text

CAMBIO = [sys.executable, "-m", "cambio.cli.main"]


def untimed(summary: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


@pytest.mark.parametrize("preset", ["rulebook", "house", "wikipedia"])
def test_same_seed_same_summary(preset):
    config = SimConfig(Rules.preset(preset), 3, ("memory", "random", "memory"), 60, seed=4)
    first, second = simulate(config), simulate(config)
    assert untimed(first) == untimed(second)
    other = simulate(SimConfig(config.rules, 3, config.bots, 60, seed=5))
    assert untimed(other) != untimed(first)


def test_seeds_of_games_differ_and_dealer_rotates():
    seeds = {game_seed(1, k) for k in range(1000)}
    assert len(seeds) == 1000
    config = SimConfig(Rules.preset("rulebook"), 3, ("random",) * 3, 6, seed=1)
    assert [config.dealer(k) for k in range(6)] == [0, 1, 2, 0, 1, 2]


def test_summary_counts_add_up():
    config = SimConfig(Rules.preset("wikipedia"), 4, ("memory",) * 4, 80, seed=9)
    s = simulate(config)
    assert s["games"] == 80
    # Every round is won alone or tied; a tie of k seats gives each 1/k of a win.
    assert sum(s["wins"]) + s["ties"] == 80
    assert 2 * s["ties"] <= sum(s["tied_wins"]) <= 4 * s["ties"]
    assert sum(s["win_share"]) == pytest.approx(1)
    assert sum(s["end_reasons"].values()) == 80
    memory = s["by_bot"]["memory"]
    assert (memory["wins"], memory["tied_wins"]) == (sum(s["wins"]), sum(s["tied_wins"]))
    assert memory["win_share"] == pytest.approx(0.25)
    for share, (low, high) in [*zip(s["win_share"], s["win_share_interval"], strict=True),
                               (memory["win_share"], memory["win_share_interval"])]:
        assert 0 <= low < share < high <= 1


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CAMBIO, *args], capture_output=True, text=True, timeout=120,
                          check=False)


def test_cli_json_contract_and_determinism():
    args = ["sim", "cards", "--players", "4", "--rules", "rulebook", "--bots",
            "random,memory,memory,memory", "--games", "150", "--seed", "1", "--json"]
    first, second = run_cli(*args), run_cli(*args, "--no-progress")
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)  # exactly one JSON object on stdout
    assert out["games"] == 150 and out["players"] == 4
    assert out["games_per_second"] > 0
    assert len(out["wins"]) == len(out["mean_score"]) == 4
    assert out["bots"] == ["random", "memory", "memory", "memory"]
    assert out["win_share"][0] < min(out["win_share"][1:])
    assert untimed(out) == untimed(json.loads(second.stdout))
    assert "150/150" in first.stderr  # the progress bar went to stderr


def test_cli_table_names_seats_bots_and_the_dealer_rotation():
    done = run_cli("sim", "cards", "-p", "2", "--bots", "memory", "--games", "20",
                   "--no-progress")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for word in ("seat", "bot", "wins", "tied", "win share (95%)", "mean score", "games/s",
                 "mean turns", "mean actions", "k mod players", "1/k"):
        assert word in text
    assert text.count("memory") >= 2


def test_cli_rejects_bad_options_without_traceback():
    for args in (["--bots", "random,memory"], ["--bots", "nosuchbot"],
                 ["--rule", "nosuchrule=1"], ["--rule", "lock_caller"],
                 ["--rules", "nosuchpreset"], ["--players", "1"]):
        done = run_cli("sim", "cards", "--players", "3", "--games", "2", *args)
        assert done.returncode != 0
        assert "Traceback" not in done.stderr


def test_rule_overrides_reach_the_games():
    done = run_cli("sim", "cards", "--players", "2", "--rules", "house", "--rule",
                   "earliest_cambio_turn=7", "--rule", "lock_caller=true", "--games", "30",
                   "--json", "--no-progress")
    out = json.loads(done.stdout)
    assert out["rules"] == {"preset": "house",
                            "overrides": {"earliest_cambio_turn": 7, "lock_caller": True}}
    assert out["mean_turns"] >= 7  # random bots call Cambio at once when they may


def test_records_replay_and_match_the_summary(tmp_path: Path):
    done = run_cli("sim", "cards", "--players", "3", "--rules", "house", "--games", "25",
                   "--seed", "3", "--record", str(tmp_path), "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    files = sorted(tmp_path.glob("game-*.jsonl"))
    assert [f.name for f in files[:2]] == ["game-00001.jsonl", "game-00002.jsonl"]
    assert len(files) == 25
    wins, tied, shares = [0, 0, 0], [0, 0, 0], [0.0, 0.0, 0.0]
    for f in files:
        result = replay(load_record(f)).summary()
        assert result["validated"] and result["over"]
        for s in result["winners"]:
            (wins if len(result["winners"]) == 1 else tied)[s] += 1
            shares[s] += 1 / len(result["winners"])  # a tie of k counts 1/k for each
    assert summary["ties"] > 0  # this seed has tied rounds: the rule below is exercised
    assert (wins, tied) == (summary["wins"], summary["tied_wins"])
    assert [x / 25 for x in shares] == pytest.approx(summary["win_share"])
    shown = run_cli("replay", str(files[3]), "--json")
    assert shown.returncode == 0, shown.stderr
    assert set(json.loads(shown.stdout)) >= {"scores", "winners"}


def test_cli_plays_cabo_with_one_seat_per_bot_named():
    done = run_cli("sim", "cards", "--rules", "cabo", "--bots", "hard,memory", "--games", "2",
                   "--seed", "1", "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["players"] == 2 and summary["rules"]["preset"] == "cabo"
    assert summary["games"] == 2 and sum(summary["wins"]) >= 2
    native = run_cli("sim", "cards", "--rules", "cabo", "--bots", "memory", "--games", "2",
                     "--seed", "1", "--json", "--engine", "batch", "--no-progress")
    assert native.returncode == 0, native.stderr  # the batch kernels play every preset
    assert json.loads(native.stdout)["games"] == 2


def test_a_slow_simulations_rate_keeps_its_digits():
    # A search bot's 0.26 games/s once printed as "0 games/s".
    assert [rate_text(x) for x in (0.2642, 5.4, 45.25, 100.4, 18_545.2, None)] == [
        "0.264", "5.4", "45.2", "100", "18,545", "-"]
