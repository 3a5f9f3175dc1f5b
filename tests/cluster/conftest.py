"""A real redis-server per test module (see :mod:`tests.cluster.redis_server`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .redis_server import RedisServer


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()
