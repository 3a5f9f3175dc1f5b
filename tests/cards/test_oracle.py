"""Views against the independent oracle (``tests/cards/oracle.py``), not against themselves.

Random rounds of every preset, polled and real-time, with house rules that move cards in
unusual ways (penalties into a capped grid, two-card penalties, locked callers); at every
version every seat's view and a spectator's must show exactly the cards the oracle says
they have seen, and nothing else.
"""

from __future__ import annotations

from random import Random

import pytest

from cambio.cards import Rules, State, observe
from cambio.cards.actions import SNAP, kind_of
from cambio.cards.rules import CABO_FIRST_EDITION

from .oracle import Oracle

CASES = [
    ("rulebook", {}), ("house", {}), ("wikipedia", {}),
    ("rulebook", {"max_grid": 5, "snap_penalty": 2}),
    ("house", {"lock_caller": True, "caller_may_snap": False, "opening_peek": 1}),
    ("wikipedia", {"empty_grid_calls_cambio": True, "one_snap_per_discard": True,
                   "opening_peek": 4}),
    ("cabo", {}), ("cabo", CABO_FIRST_EDITION), ("cambia", {}), ("evan", {}),
]


@pytest.mark.parametrize("polled", [True, False], ids=["polled", "real-time"])
@pytest.mark.parametrize("preset,overrides", CASES, ids=lambda x: str(x))
def test_every_view_shows_exactly_what_the_oracle_says(preset, overrides, polled):
    rules = Rules.preset(preset, **overrides)
    checked = 0
    for k in range(12):
        players = min(2 + k % 4, rules.max_players or 5)
        state = State(rules, players, seed=k, polled=polled)
        oracle = Oracle.deal(state)
        rng = Random(k)
        while True:
            for viewer in (*range(players), None):
                view = observe(state, viewer)
                assert view.grids == oracle.grids(state, viewer), (viewer, state.history)
                assert view.held == oracle.held(state, viewer), (viewer, state.history)
                checked += 1
            if state.is_over():
                break
            seat = rng.choice(state.actors())
            legal = state.legal_actions(seat)
            snaps = [a for a in legal if kind_of(a) == SNAP]
            others = [a for a in legal if kind_of(a) != SNAP]
            if snaps and (not others or rng.random() < 0.3):
                action = rng.choice(snaps)
            else:
                early = state.turn_number < 4 * players
                action = rng.choice([a for a in others if not (early and a == 0)] or others)
            before = state.clone()
            state.apply(action, seat)
            oracle.apply(before, seat, action, state)
    assert checked > 500
