"""One real server process per test worker (see :mod:`tests.server.harness`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import ServerProcess


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db: Path = tmp_path_factory.mktemp("server") / "cambio.sqlite3"
    proc = ServerProcess(db, bot_speed=40.0, round_pause=0.3).start()
    try:
        yield proc
    finally:
        proc.stop()
