"""``cambio review``: the rich table, the documented ``--json`` shape, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cambio.board import Board, Rules
from cambio.records.board import record_text as board_record
from cambio.records.cards import export

from .test_cards_review import played

CAMBIO = [sys.executable, "-m", "cambio.cli.main"]
REVIEW_KEYS = {"game", "seat", "budget", "seed", "accuracy", "labels", "series", "costliest",
               "slips", "decisions"}
DECISION_KEYS = {"step", "chosen", "best", "loss", "points", "label", "exact", "slips",
                 "options"}
OPTION_KEYS = {"action", "win", "score"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(CAMBIO + ["review", *args], capture_output=True, text=True,
                          timeout=600)


def test_json_output_has_the_documented_shape(tmp_path: Path):
    path = tmp_path / "round.jsonl"
    path.write_text(export(played(5), None))
    out = run(str(path), "--seat", "1", "--json", "--budget", "64", "--seed", "2")
    assert out.returncode == 0, out.stderr
    review = json.loads(out.stdout)
    assert set(review) == REVIEW_KEYS
    assert review["game"] == "cards" and review["seat"] == 1 and review["seed"] == 2
    assert review["budget"] == "64 rollouts"
    assert sum(review["labels"].values()) == len(review["decisions"]) > 0
    assert len(review["series"]) == len(review["decisions"])
    steps = {d["step"] for d in review["decisions"]}
    assert set(review["costliest"]) <= steps and len(review["costliest"]) <= 3
    for d in review["decisions"]:
        assert set(d) == DECISION_KEYS
        assert d["label"] in review["labels"]
        assert set(d["chosen"]) == OPTION_KEYS
        assert all(set(o) == OPTION_KEYS for o in d["options"])
        assert d["chosen"] in d["options"] and d["best"] == d["options"][0]
    again = run(str(path), "--seat", "1", "--json", "--budget", "64", "--seed", "2")
    assert json.loads(again.stdout) == review


def test_table_for_a_dice_game(tmp_path: Path):
    board = Board(Rules(size=3))
    while len(board.move_stack) < 4 and not board.is_over():
        board.push(board.legal_moves()[0])
    path = tmp_path / "dice.jsonl"
    path.write_text(board_record(board))
    out = run(str(path), "--seat", "0")
    assert out.returncode == 0, out.stderr
    assert "Review of seat 0 (board, exact table)" in out.stdout
    assert "accuracy:" in out.stdout


def test_the_dice_search_depth_is_its_own_setting(tmp_path: Path):
    """``--depth`` sets the dice search; the card budget leaves it at its default."""
    board = Board()
    while len(board.move_stack) < 4:
        board.push(board.legal_moves()[0])
    path = tmp_path / "dice5.jsonl"
    path.write_text(board_record(board))
    out = run(str(path), "--seat", "0", "--json", "--depth", "1", "--budget", "16")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["budget"] == "depth 1"


def test_bad_input_is_refused(tmp_path: Path):
    path = tmp_path / "round.jsonl"
    path.write_text(export(played(5), None))
    out = run(str(path), "--seat", "7")
    assert out.returncode == 2 and "seat 7 is not in this round" in out.stderr
    out = run(str(path), "--seat", "0", "--budget", "4")
    assert out.returncode == 2 and "16 rollouts" in out.stderr
    eyes = tmp_path / "eyes.jsonl"
    eyes.write_text(export(played(5), 0))
    out = run(str(eyes), "--seat", "0")
    assert out.returncode == 2 and "full record" in out.stderr


def test_json_output_of_a_dice_game(tmp_path: Path):
    board = Board(Rules(size=3))
    while not board.is_over():
        board.push(board.legal_moves()[-1])
    path = tmp_path / "dice.jsonl"
    path.write_text(board_record(board))
    out = run(str(path), "--seat", "1", "--json")
    assert out.returncode == 0, out.stderr
    review = json.loads(out.stdout)
    assert set(review) == REVIEW_KEYS
    assert review["game"] == "board" and review["budget"] == "exact table"
    assert len(review["series"]) == len(review["decisions"]) > 0
    for d in review["decisions"]:
        assert set(d) == DECISION_KEYS and d["exact"] is True and d["points"] is None
        assert all(set(o) == OPTION_KEYS and o["score"] is None for o in d["options"])
    again = run(str(path), "--seat", "1", "--json")
    assert json.loads(again.stdout) == review
