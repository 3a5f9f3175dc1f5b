"""The public API outside bots import keeps its names; a moved name keeps a deprecated
alias for a release."""

from __future__ import annotations

import importlib

import pytest


def test_the_old_seeds_path_works_and_warns() -> None:
    from cambio.seeds import derive_seed

    with pytest.warns(DeprecationWarning, match="cambio.seeds.derive_seed"):
        from cambio.sim.seeds import derive_seed as old
    assert old is derive_seed
    assert old(1, 2, 3) == derive_seed(1, 2, 3)


def test_the_old_seeds_path_still_refuses_unknown_names() -> None:
    module = importlib.import_module("cambio.sim.seeds")
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


@pytest.mark.parametrize(("module", "names"), [
    ("cambio.cards", ("CardView", "observe", "Action", "Phase", "Rules", "State", "HIDDEN",
                      "EMPTY", "action_text", "parse_action")),
    ("cambio.cards.actions", ("kind_of", "arg_a", "arg_b", "addr", "addr_seat", "addr_slot",
                              "encode", "swap", "peek", "snap", "switch", "look", "give",
                              "CAMBIO", "DRAW", "TAKE", "SWAP", "DISCARD", "PASS", "SNAP")),
    ("cambio.seeds", ("derive_seed",)),
    ("cambio.bots.cards", ("BOTS", "CardBot", "make_bot", "check_bot_name", "play_round")),
])
def test_documented_modules_keep_their_names(module: str, names: tuple[str, ...]) -> None:
    """The names docs/cards-bots.md tells an outside bot to use."""
    m = importlib.import_module(module)
    missing = [n for n in names if not hasattr(m, n)]
    assert not missing
