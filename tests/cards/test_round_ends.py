"""Rounds between bots end: no seeded round between two strong bots runs to the
turn cap."""

from __future__ import annotations

import pytest

from cambio.bots.cards import OpponentModelBot
from cambio.cards import EMPTY, Rules, State, observe
from cambio.cards.cards import parse_card
from cambio.sim import run
from cambio.sim.cards import SimConfig

CAPPED = (178, 497, 512, 1195)
"""Rounds of ``SimConfig(wikipedia, 2, (expert, expert), seed=1)`` that ran to the
1,000-turn cap before the fix: one seat had no cards left, the other one red king (-1), and
neither called (the call was valued as a sure loss against an empty grid)."""


@pytest.mark.parametrize("k", CAPPED)
def test_seeded_rounds_that_hit_the_cap_now_end_by_a_call(k: int) -> None:
    config = SimConfig(Rules.preset("wikipedia"), 2, ("expert", "expert"), 2000, seed=1)
    played = run.play_one(config.run_config(), k)
    assert played.end == "cambio"
    # A turn is at least one action: the capped rounds took 1,000 turns and more.
    assert played.plies < 400


def test_a_call_against_an_empty_grid_is_valued_as_the_rules_score_it() -> None:
    """Seat 1 holds only a red king (-1) against an empty grid: calling wins outright; on
    0 against 0 it wins by holding more cards when ties go by cards (wikipedia), half
    the time when ties are shared (rulebook)."""
    for preset, card, expected in (("wikipedia", "KH", 1.0), ("wikipedia", "XB", 1.0),
                                   ("rulebook", "XB", 0.5), ("rulebook", "5C", 0.0)):
        rules = Rules.preset(preset)
        state = State(rules, 2, seed=1, polled=True)
        c = parse_card(card)
        gone = [x for g in state.grids for x in g]  # to the pile: every card still counted
        (state.deck if c in state.deck else gone).remove(c)
        state.pile = [*state.pile, *gone]
        state.grids = [[EMPTY] * len(state.grids[0]), [c]]
        everyone = (state.public << 1) - 1
        state.known = [[0] * len(state.grids[0]), [everyone]]
        p = OpponentModelBot(0).win_if_call(observe(state, 1))
        assert p == pytest.approx(expected), (preset, card)
