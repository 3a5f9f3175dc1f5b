"""``memory``'s call gate: with ``call_lead`` set it calls Cambio only when it thinks itself
the lowest of the table by that lead (what a call needs in wikipedia, where the caller
loses a tie); by default the gate never binds."""

from __future__ import annotations

import math

import pytest

from cambio.bots.cards import MemoryParams
from cambio.bots.cards.memory import ExpectedPointsBot, _Knowledge
from cambio.cards import Phase
from cambio.cards.actions import CAMBIO

from .knowledge import memory_decisions

RASH = MemoryParams(cambio_total=99.0, cambio_hidden=4)
"""Weights that call at every turn start the gate lets through."""


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("lead", [0.0, 2.5, -4.0])
def test_a_call_waits_until_every_opponent_looks_higher_by_the_lead(players: int,
                                                                      lead: float) -> None:
    views = [v for v in memory_decisions(players, 300)
             if v.phase == Phase.TURN_START and CAMBIO in v.legal]
    rash = ExpectedPointsBot(0, RASH)
    gated = ExpectedPointsBot(0, MemoryParams(cambio_total=99.0, cambio_hidden=4,
                                              call_lead=lead))
    outcomes = set()
    for view in views:
        gated._setup(view)
        k = _Knowledge(view, gated._values, gated._full, gated.params)
        lowest = all(k.own_total() + lead < k.total(s)
                     for s in range(view.players) if s != view.seat)
        calls = gated.act(view) == CAMBIO
        assert calls == (rash.act(view) == CAMBIO and lowest), view
        outcomes.add((calls, lowest))
    # The gate both let calls through and held them back.
    assert (True, True) in outcomes and (False, False) in outcomes


def test_the_default_gate_never_binds() -> None:
    """Without a lead ``memory`` calls whenever its own total and unseen cards allow, also
    when an opponent looks lower."""
    assert MemoryParams().call_lead == -math.inf
    rash = ExpectedPointsBot(0, RASH)
    behind = 0
    for view in memory_decisions(2, 300):
        if view.phase != Phase.TURN_START or CAMBIO not in view.legal:
            continue
        rash._setup(view)
        k = _Knowledge(view, rash._values, rash._full, rash.params)
        if k.own_total() >= k.total(1 - k.me):
            behind += 1
            snap = rash._best_snap(view, k)
            assert rash.act(view) == (CAMBIO if snap is None else snap)
    assert behind > 0
