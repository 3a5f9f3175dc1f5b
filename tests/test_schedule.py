"""The order and units ``--longest-first`` hands tests out in (tests/support/schedule.py)."""

from __future__ import annotations

from dataclasses import dataclass

from .support import schedule

LONG = "tests/cards/test_sim.py::test_cli_json_contract_and_determinism"
KILLS = schedule.ALONE


@dataclass
class Item:
    nodeid: str


def test_a_modules_tests_go_together_in_pieces_and_measured_tests_alone() -> None:
    quick = [f"tests/cards/test_rules.py::test_{i}" for i in range(schedule.CHUNK + 3)]
    ids = [quick[0], LONG, *quick[1:], "tests/cluster/test_workers.py::test_a", KILLS,
           "tests/web/test_fit.py::test_every_decision_fits_the_screen[phone]"]
    got = schedule.units(ids)
    assert {got[i] for i in quick[:schedule.CHUNK]} == {"tests/cards/test_rules.py#0"}
    assert {got[i] for i in quick[schedule.CHUNK:]} == {"tests/cards/test_rules.py#1"}
    assert got[LONG] == LONG
    assert got[ids[-1]] == ids[-1]  # a measured function: each parameter alone
    assert got["tests/cluster/test_workers.py::test_a"] == "cluster"
    assert got[KILLS] == "cluster-kills"


def test_longest_units_first_each_units_tests_together_in_their_order() -> None:
    items = [Item("tests/a.py::test_1"), Item(LONG), Item("tests/b.py::test_1"),
             Item("tests/a.py::test_2"), Item(KILLS), Item("tests/b.py::test_2")]
    schedule.longest_first(items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [KILLS, LONG, "tests/a.py::test_1",
                                        "tests/a.py::test_2", "tests/b.py::test_1",
                                        "tests/b.py::test_2"]
