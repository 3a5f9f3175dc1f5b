"""How well ``memory``'s weights predict a bot's moves (benchmarks/cards_imitate.py): the
recorded decisions and the agreement they are scored by."""

from __future__ import annotations

from cambio.bots.cards.memory import TUNED, MemoryParams
from tests.support.benchmarks import load_benchmark


def test_memory_predicts_itself_exactly_and_other_weights_less() -> None:
    imitate = load_benchmark("cards_imitate")
    decisions = [d for deal in range(3)
                 for d in imitate.record_deal(("memory", "memory", 2, "rulebook", 1, deal))]
    assert decisions and {deal for deal, _, _ in decisions} == {0, 1, 2}
    assert all(len(view.legal) > 1 and action in view.legal for _, view, action in decisions)
    assert imitate.agreement(decisions, MemoryParams()) == 1.0
    assert imitate.agreement(decisions, TUNED) < 1.0
    phases = imitate.by_phase(decisions, MemoryParams())
    assert phases and set(phases.values()) == {1.0}


def test_only_the_target_seat_is_recorded_against_another_bot() -> None:
    imitate = load_benchmark("cards_imitate")
    decisions = imitate.record_deal(("memory", "random", 2, "rulebook", 1, 0))
    # memory took each seat once; random's moves would not agree with memory's.
    assert {view.seat for _, view, _ in decisions} == {0, 1}
    assert imitate.agreement(decisions, MemoryParams()) == 1.0
