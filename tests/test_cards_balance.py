"""Simulation balancing (benchmarks/cards_balance.py): the recorded positions with the
shares their seats got, and the rollout values every candidate's weights are scored by."""

from __future__ import annotations

import numpy as np
import pytest
from rich.progress import Progress

from cambio.bots.cards.memory import TUNED, MemoryParams
from tests.support.benchmarks import load_benchmark


def test_positions_carry_their_seats_shares_and_the_worlds_replay_alike() -> None:
    balance = load_benchmark("cards_balance")
    positions = [p for deal in range(2)
                 for p in balance.record_positions(("memory", 2, "rulebook", 1, deal, 999))]
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
    # Each deal weighs the same however many positions it has.
    errors = (first - worlds.got) ** 2
    per_deal = [float(np.mean(errors[[d == deal for d, _, _ in positions]])) for deal in (0, 1)]
    assert worlds.brier(MemoryParams()) == pytest.approx(sum(per_deal) / 2)


def test_a_long_deal_keeps_a_seeded_sample_of_its_positions_in_order() -> None:
    balance = load_benchmark("cards_balance")
    every = balance.record_positions(("memory", 2, "rulebook", 1, 0, 999))
    kept = balance.record_positions(("memory", 2, "rulebook", 1, 0, 5))
    again = balance.record_positions(("memory", 2, "rulebook", 1, 0, 5))
    assert len(every) > 5 and len(kept) == 5
    turns = [view.turn_number for _, view, _ in kept]
    assert turns == sorted(turns)
    assert [v.to_json() for _, v, _ in kept] == [v.to_json() for _, v, _ in again]
    assert set(turns) <= {view.turn_number for _, view, _ in every}


def test_a_held_call_gate_stays_put_while_the_other_weights_are_fitted() -> None:
    """``--call-lead-at``: CMA-ES moves the fitted weights and never the held gate."""
    tune = load_benchmark("cards_tune")
    held = MemoryParams(call_lead=0.0)
    assert tune.params_of(tune.unit_of(TUNED), base=held).call_lead == 0.0
    assert tune.params_of(tune.unit_of(TUNED)).call_lead == MemoryParams().call_lead
    met: list[MemoryParams] = []

    def loss(p: MemoryParams) -> float:
        met.append(p)
        return abs(p.cambio_total - 7.0)

    with Progress(disable=True) as bar:
        value, best = tune.minimise(loss, generations=3, popsize=4, sigma=0.2, seed=1,
                                    bar=bar, start=held)
    assert {p.call_lead for p in met} == {0.0}
    assert best.call_lead == 0.0 and value < abs(MemoryParams().cambio_total - 7.0)
