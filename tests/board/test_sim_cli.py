"""Simulation, ratings and the command line (driven through typer's runner)."""

import json
import math

import pytest
from typer.testing import CliRunner

from cambio.board import Rules
from cambio.cli.main import app
from cambio.records.board import replay
from cambio.records.jsonl import load_record
from cambio.sim.board import SimConfig, round_robin, simulate
from cambio.sim.ratings import SCALE, elo

runner = CliRunner()


def test_simulation_is_seeded_and_adds_up(tmp_path):
    config = SimConfig(Rules(), ("random", "greedy"), 12, seed=5, record_dir=tmp_path)
    a, b = simulate(config), simulate(SimConfig(Rules(), ("random", "greedy"), 12, seed=5))
    for key in ("wins", "ties", "draws", "mean_plies", "end_reasons"):
        assert a[key] == b[key]
    assert sum(a["wins"]) + a["draws"] + sum(a["ties"]) // 2 == 12
    assert math.isclose(sum(a["points"]), 12)
    records = sorted(tmp_path.glob("*.jsonl"))
    assert len(records) == 12
    assert replay(load_record(records[0])).summary()["over"]


def test_simulation_rejects_a_wrong_number_of_bots():
    with pytest.raises(ValueError):
        SimConfig(Rules(players=3), ("random", "random"), 1)


def test_sim_board_json_shape():
    r = runner.invoke(app, ["sim", "board", "--players", "3", "--bots", "greedy,random,mcts:20",
                            "--games", "3", "--seed", "4", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 3 and len(out["wins"]) == 3
    assert out["games_per_second"] > 0
    r = runner.invoke(app, ["sim", "board", "--bots", "random", "--games", "2", "--no-progress"])
    assert r.exit_code == 0 and "seat" in r.stdout
    r = runner.invoke(app, ["sim", "board", "--bots", "nobody", "--games", "2"])
    assert r.exit_code != 0


def test_solve_board_json(tmp_path):
    table = tmp_path / "t.npz"
    r = runner.invoke(app, ["solve", "board", "--size", "3", "--json", "--no-progress",
                            "--out", str(table), "--position", "xx1/3/o1o x"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert (out["wins"], out["losses"], out["draws"]) == (12037, 6866, 780)
    assert out["position"]["value"] == "win" and out["position"]["best_moves"] == ["a3>"]
    assert table.exists()
    r = runner.invoke(app, ["solve", "board", "--size", "5", "--no-save"])
    assert r.exit_code != 0
    r = runner.invoke(app, ["solve", "board", "--size", "3", "--position", "nonsense"])
    assert r.exit_code != 0


def test_play_board_through_a_pipe_and_replay(tmp_path):
    record = tmp_path / "game.jsonl"
    moves = "\n".join(["help", "nonsense", "moves"] + ["a1>", "e2<", "b1^", "c5v", "a3>",
                                                       "e4<", "d1^", "a5>"] * 10) + "\n"
    r = runner.invoke(app, ["play", "board", "--bots", "human,random", "--seed", "2",
                            "--record", str(record)], input=moves)
    assert r.exit_code == 0, r.output
    assert "is not a move" in r.stdout
    if record.exists():
        r2 = runner.invoke(app, ["replay", str(record), "--json"])
        assert r2.exit_code == 0 and json.loads(r2.stdout)["game"] == "board"
    r = runner.invoke(app, ["play", "board", "--hot-seat", "--players", "3", "--seed", "1"],
                      input="quit\n")
    assert r.exit_code == 0 and "unfinished" in r.stdout


def test_replay_shows_a_board_record(tmp_path):
    # The view is the terminal's (records never import it); the CLI composes the two.
    out = tmp_path / "recs"
    r = runner.invoke(app, ["sim", "board", "--bots", "random,random", "--games", "1",
                            "--seed", "4", "--record", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    record = sorted(out.iterdir())[0]
    result = replay(load_record(record))
    first = next(ev["move"] for ev in result.events if "move" in ev)
    r = runner.invoke(app, ["replay", str(record)])
    assert r.exit_code == 0, r.output
    assert "moves" in r.stdout and f"start {result.board.start}" in r.stdout
    assert first in r.stdout


def test_replay_refuses_a_bad_board_record(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"format": "cambio-record", "version": 1, "game": "board",
                               "start": "5/5/5/5/5 x"}) + "\n"
                   + json.dumps({"seat": 1, "move": "a1>"}) + "\n")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "line 2" in r.output


def test_elo_recovers_a_known_gap():
    # 76 % against a rated opponent is about +200 Elo.
    results = [("a", "b", 1.0)] * 760 + [("a", "b", 0.0)] * 240
    ra, rb = elo(results, anchor="b", prior_draws=0.0)
    expected = SCALE * math.log(0.76 / 0.24)
    assert math.isclose(ra.elo, expected, abs_tol=0.5)
    assert ra.low < ra.elo < ra.high and rb.elo == 0.0
    # The standard error of a log-odds estimate from n games is 1 / sqrt(n p (1 - p)).
    half = 1.959964 * SCALE / math.sqrt(1000 * 0.76 * 0.24)
    assert math.isclose(ra.high - ra.elo, half, rel_tol=0.01)


def test_elo_stays_finite_when_a_player_wins_everything_and_orders_players():
    results = [("strong", "weak", 1.0)] * 20 + [("mid", "weak", 0.75)] * 20 \
        + [("strong", "mid", 1.0)] * 20
    ratings = {r.name: r for r in elo(results)}
    assert ratings["strong"].elo > ratings["mid"].elo > ratings["weak"].elo
    assert all(math.isfinite(r.low) and math.isfinite(r.high) for r in ratings.values())
    assert math.isclose(sum(r.elo for r in ratings.values()), 0.0, abs_tol=1e-6)
    with pytest.raises(ValueError):
        elo([("a", "a", 1.0)])
    with pytest.raises(ValueError):
        elo([("a", "b", 1.5)])


def test_round_robin_swaps_seats():
    games = round_robin(Rules(size=4), ["random", "greedy"], 4, seed=1)
    assert [g.bots for g in games] == [("random", "greedy"), ("greedy", "random")] * 2
    assert all(math.isclose(sum(g.points), 1.0) for g in games)
