"""The table's actor on its own: jobs run one at a time in arrival order, a lobby call gets
its job's result or error, and a failed write is handed to the callback it was given."""

from __future__ import annotations

import asyncio

import pytest

from cambio.server.errors import ProtocolError
from cambio.server.store import StoreFailed
from cambio.server.table.actor import Actor


def test_a_job_that_waits_is_not_overtaken_by_the_next() -> None:
    async def main() -> list[str]:
        actor = Actor("table t", lambda why: None)
        actor.start()
        gate = asyncio.Event()
        seen: list[str] = []

        async def slow() -> None:
            seen.append("slow starts")
            await gate.wait()
            seen.append("slow ends")

        async def quick() -> None:
            seen.append("quick")

        actor.post(slow)
        actor.post(quick)
        for _ in range(5):
            await asyncio.sleep(0)  # let the actor run as far as it can
        assert seen == ["slow starts"]
        gate.set()
        await actor.call(quick)
        await actor.stop()
        return seen

    assert asyncio.run(main()) == ["slow starts", "slow ends", "quick", "quick"]


def test_a_call_returns_its_jobs_result_or_raises_its_error() -> None:
    async def main() -> None:
        actor = Actor("table t", lambda why: None)
        actor.start()

        async def answer(x: int) -> int:
            return x * 2

        async def refuse() -> int:
            raise ProtocolError("conflict", "the game has already started")

        assert await actor.call(answer, 21) == 42
        with pytest.raises(ProtocolError, match="already started"):
            await actor.call(refuse)
        assert await actor.call(answer, 1) == 2  # the actor goes on
        await actor.stop()

    asyncio.run(main())


def test_a_failed_write_is_reported_and_the_next_jobs_run() -> None:
    async def main() -> None:
        failed: list[str] = []
        actor = Actor("table t", failed.append)
        actor.start()
        done = asyncio.Event()

        async def write() -> None:
            raise StoreFailed("disk full")

        async def broken() -> None:
            raise ValueError("a bug")  # logged only

        async def after() -> None:
            done.set()

        actor.post(write)
        actor.post(broken)
        actor.post(after)
        await done.wait()
        assert failed == ["a write failed (StoreFailed: disk full)"]
        await actor.stop()

    asyncio.run(main())


def test_last_active_is_when_it_was_last_asked() -> None:
    now = [100.0]
    actor = Actor("table t", lambda why: None, now=lambda: now[0])
    assert actor.last_active == 100.0
    now[0] = 160.0
    actor.touch()
    assert actor.last_active == 160.0
