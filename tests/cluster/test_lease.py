"""Leases against a real redis-server: one owner at a time, expiry, renewal, re-taking a
lease Redis lost, release only by the owner."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from cambio.server.cluster.lease import Leases

from .redis_server import RedisServer


def run(coro):
    return asyncio.run(coro)


def test_one_owner_and_expiry(redis_server: RedisServer) -> None:
    async def main() -> None:
        redis = Redis.from_url(redis_server.url)
        a, b = Leases(redis, "a", 0.3), Leases(redis, "b", 0.3)
        assert await a.claim("t1")
        assert not await b.claim("t1")
        assert await b.owner("t1") == "a"
        await b.release("t1")  # not b's: nothing happens
        assert await a.owner("t1") == "a"
        await asyncio.sleep(0.45)  # a stops renewing, as a killed process does
        assert await b.owner("t1") is None
        assert await b.claim("t1")
        assert await a.renew(["t1"]) == ["t1"]  # a learns it lost the table
        await b.release("t1")
        assert await a.owner("t1") is None
        await redis.aclose()

    run(main())


def test_renew_keeps_and_retakes(redis_server: RedisServer) -> None:
    async def main() -> None:
        redis = Redis.from_url(redis_server.url)
        a, b = Leases(redis, "a", 0.3), Leases(redis, "b", 0.3)
        assert await a.claim("t2")
        for _ in range(4):
            await asyncio.sleep(0.15)
            assert await a.renew(["t2"]) == []
        assert not await b.claim("t2")  # renewed past its first expiry
        await redis.delete("cambio:lease:t2")  # what an empty restarted Redis looks like
        assert await a.renew(["t2", "t3"]) == []  # re-taken; t3 taken fresh
        assert await b.owners(["t2", "t3", "t4"]) == ["a", "a", None]
        await redis.aclose()

    run(main())


def test_presence(redis_server: RedisServer) -> None:
    async def main() -> None:
        redis = Redis.from_url(redis_server.url)
        a = Leases(redis, "pa", 0.3)
        await a.announce({"address": "http://127.0.0.1:1"})
        assert await a.worker("pa") == {"address": "http://127.0.0.1:1"}
        assert await a.workers() >= 1
        await a.withdraw()
        assert await a.worker("pa") is None
        await redis.aclose()

    run(main())
