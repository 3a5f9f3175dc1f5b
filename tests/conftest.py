"""Fixtures every test folder may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .support.postgres import PostgresCluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A real PostgreSQL server for this test process (started on first use)."""
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()
