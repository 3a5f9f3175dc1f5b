"""Fixtures every test folder may use."""

from __future__ import annotations

import os
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
