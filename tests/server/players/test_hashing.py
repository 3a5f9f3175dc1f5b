"""The hashing budget's order on its own: one slot held by a job the test releases, so who
waits, who is refused and who goes next is decided by the budget alone (no timing)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cambio.server.errors import ProtocolError
from cambio.server.players.hashing import HashBudget


def test_a_full_queue_refuses_the_most_insistent_and_serves_the_fewest_attempts_first(
        ) -> None:
    asyncio.run(_order())


async def _order() -> None:
    budget = HashBudget(workers=1, queue=2)
    gate = threading.Event()
    done: list[str] = []

    def job(name: str) -> str:
        gate.wait(10)
        done.append(name)
        return name

    running = asyncio.create_task(budget.run(1, job, "running"))
    await asyncio.sleep(0)
    flood_a = asyncio.create_task(budget.run(9, job, "flood a"))
    flood_b = asyncio.create_task(budget.run(5, job, "flood b"))
    await asyncio.sleep(0)
    # Full: one more with as many attempts as the most insistent waiting is refused at once.
    with pytest.raises(ProtocolError) as refused:
        await budget.run(9, job, "flood c")
    assert refused.value.status == 503 and refused.value.retry_after
    # A newcomer with fewer attempts takes the place of the most insistent waiting one.
    person = asyncio.create_task(budget.run(1, job, "person"))
    await asyncio.sleep(0)
    with pytest.raises(ProtocolError):
        await flood_a
    gate.set()
    assert list(await asyncio.gather(running, person, flood_b)) == ["running", "person",
                                                                  "flood b"]
    assert done == ["running", "person", "flood b"]  # the person went first
    budget.close()
