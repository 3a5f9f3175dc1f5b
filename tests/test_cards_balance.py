"""Simulation balancing (benchmarks/cards_balance.py): the recorded positions with the
shares their seats got, and the rollout values every candidate's weights are scored by."""

from __future__ import annotations

import numpy as np
import pytest

from cambio.bots.cards.memory import TUNED, MemoryParams
from tests.support.benchmarks import load_benchmark


def test_positions_carry_their_seats_shares_and_the_worlds_replay_alike() -> None:
    balance = load_benchmark("cards_balance")
    positions = [p for deal in range(2)
                 for p in balance.record_positions(("memory", 2, "rulebook", 1, deal))]
    assert {deal for deal, _, _ in positions} == {0, 1}
    for deal in (0, 1):
        got = {view.seat: share for d, view, share in positions if d == deal}
        assert set(got) == {0, 1} and sum(got.values()) == pytest.approx(1.0)
    worlds = balance.Worlds(positions, 4, seed=1)
    first = worlds.values(MemoryParams())
    assert first.shape == (len(positions),) and ((first >= 0) & (first <= 1)).all()
    # Every candidate starts from the same worlds: the same weights give the same values.
    assert np.array_equal(worlds.values(TUNED), worlds.values(TUNED))
    assert np.array_equal(worlds.values(MemoryParams()), first)
    assert not np.array_equal(worlds.values(TUNED), first)
    assert worlds.brier(MemoryParams()) == pytest.approx(
        float(np.mean((first - worlds.got) ** 2)))
