"""The server tests run against both stores: every test that takes ``server``,
``database`` or ``databases`` runs once on SQLite and once on PostgreSQL (a real cluster,
:mod:`tests.support.postgres`). One real server process per store per test worker
(see :mod:`tests.server.harness`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..support.databases import BACKENDS, Database, NewDatabase, sqlite_database
from .harness import ServerProcess


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


@pytest.fixture(scope="session")
def databases(backend: str, request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> NewDatabase:
    """Makes a new empty database of this run's store: ``databases(name)``."""
    cluster = request.getfixturevalue("postgres") if backend == "postgres" else None

    def new(name: str) -> Database:
        folder = tmp_path_factory.mktemp(name)
        if cluster is None:
            return sqlite_database(folder)
        return Database("postgres", cluster.create_database(), folder)

    return new


@pytest.fixture
def database(databases: NewDatabase) -> Database:
    """A new empty database for one test."""
    return databases("db")


@pytest.fixture(scope="session")
def server(databases: NewDatabase) -> Iterator[ServerProcess]:
    proc = ServerProcess(databases("server"), bot_speed=40.0, round_pause=0.3).start()
    try:
        yield proc
    finally:
        proc.stop()
