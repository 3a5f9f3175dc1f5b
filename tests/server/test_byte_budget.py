"""The per-connection byte budget, counted against a clock the test moves:
a connection sending big frames is read at ``rate`` bytes a second once its burst is spent.
(What a flood costs another table is measured by benchmarks/server_flood.py, docs/server.md.)
"""

from __future__ import annotations

from cambio.server.limits import ByteBudget


def test_the_burst_is_free_then_the_rate_is_paid_back() -> None:
    now = [0.0]
    budget = ByteBudget(16384.0, 65536.0, clock=lambda: now[0])
    assert budget.spend(60_000) == 0.0          # within the burst: read on at once
    wait = budget.spend(60_000)                  # 54,464 bytes over
    assert wait == (60_000 - 5_536) / 16384.0
    now[0] += wait                               # the reader waited that long
    assert budget.spend(0) == 0.0                # paid back exactly
    assert budget.spend(100) > 0.0
    now[0] += 3600.0                             # a quiet hour refills only the burst
    assert budget.spend(65536) == 0.0
    assert budget.spend(1) > 0.0


def test_small_messages_at_the_message_rate_never_wait() -> None:
    now = [0.0]
    budget = ByteBudget(16384.0, 65536.0, clock=lambda: now[0])
    for _ in range(20 * 600):                    # ten minutes of 20 messages of 800 bytes a second
        assert budget.spend(800) == 0.0
        now[0] += 0.05


def test_a_zero_rate_is_no_budget() -> None:
    budget = ByteBudget(0.0, 0.0, clock=lambda: 0.0)
    assert all(budget.spend(1 << 20) == 0.0 for _ in range(10))
