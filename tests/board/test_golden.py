"""Seeded board setups and games pinned step by step (see ``tests/board/golden.py``)."""

from __future__ import annotations

import pytest

from .golden import game_specs, load, replay_spec

GAMES = load()


def test_the_file_covers_every_pinned_configuration():
    stored = [{k: g[k] for k in ("rules", "setup", "lineup", "seed")} for g in GAMES]
    assert stored == game_specs()
    assert {g["termination"] for g in GAMES} >= {"line", "repetition", "move_cap"}
    assert {len(g["winners"]) for g in GAMES} == {0, 1, 2}  # draws, wins and ties
    assert all(g["setup_steps"][0].startswith("roll ") for g in GAMES if g["setup"] == "full")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_replaying_a_golden_game_gives_the_same_positions_and_outcome(index):
    game = GAMES[index]
    assert replay_spec(game) == game
