"""Seeded games pinned action by action (see ``tests/cards/golden.py``)."""

from __future__ import annotations

import pytest

from .golden import game_specs, load, replay_spec

GAMES = load()


def test_the_file_covers_every_pinned_configuration():
    stored = [{k: g[k] for k in ("preset", "overrides", "players", "lineup", "seed", "dealer")}
              for g in GAMES]
    assert stored == game_specs()
    assert {g["end_reason"] for g in GAMES} == {"cambio", "deck_exhausted"}
    assert sum(g["reshuffles"] for g in GAMES) > 0


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_replaying_a_golden_game_gives_the_same_legal_actions_and_end(index):
    game = GAMES[index]
    assert replay_spec(game) == game
