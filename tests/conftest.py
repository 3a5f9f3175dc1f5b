"""Fixtures every test folder may use."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from .support import schedule
from .support.postgres import PostgresCluster


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--longest-first", action="store_true", help=(
        "hand tests out in small units under -n (a measured test alone, a module's others a "
        "few at a time, the cluster tests in two units), longest measured first "
        "(tests/support/schedule.py)"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tier markers (``-m browser``, ``-m "not slow"``...); with ``--longest-first``,
    the longest measured tests first (tests/support/schedule.py)."""
    for item in items:
        schedule.mark(item)
    if config.getoption("longest_first"):
        schedule.longest_first(items)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--longest-first`` and ``-n N``: tests handed out in small units
    (:class:`tests.support.schedule.Scheduling`). Else xdist's own."""
    if not config.getoption("longest_first") or config.getvalue("dist") != "load":
        return None
    return schedule.Scheduling(config, log)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A real PostgreSQL server for this test process (started on first use)."""
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(autouse=True)
def _rule_caches_cleared_under_mutmut() -> None:
    """Under ``make mutation`` only: empty the rules cores' per-rule-set caches before each
    test. mutmut forks every mutant from a process whose caches the unmutated code already
    filled, so a mutant of a cached function (the flattened rules, the card tables, the
    board geometry) would never run and would "survive" untested."""
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    from cambio.board import rules as board_rules
    from cambio.cards import rules as card_rules
    from cambio.cards import state as card_state

    card_state._FAST.clear()
    card_state._full_deck.cache_clear()
    card_rules.tables.cache_clear()
    card_rules._overrides.cache_clear()
    board_rules.geometry.cache_clear()
    board_rules._geometry.cache_clear()
