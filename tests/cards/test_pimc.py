"""The panel opponents built unlike the shipped bots (cambio.bots.cards.pimc)."""

from __future__ import annotations

from random import Random

from cambio.bots.cards import make_bot, play_round
from cambio.bots.cards.pimc import PerfectInformationMonteCarloBot, opponent_modeller
from cambio.cards import Rules, State, observe

from .knowledge import memory_rounds, twin_views


def test_pimc_decides_from_its_view_only() -> None:
    """Cards the seat has not seen shuffled, same seed: the same move, and the rollouts do
    overrule the heuristic somewhere (it is not ``expert`` in disguise)."""
    checked = changed = 0
    for t in twin_views(memory_rounds("rulebook", 2), Random(4), rate=0.3):
        bot = PerfectInformationMonteCarloBot(2, rows=64)
        a = bot.act(t.view)
        assert a == PerfectInformationMonteCarloBot(2, rows=64).act(t.twin)
        checked += 1
        changed += a != bot.prior.act(t.view)
    assert checked > 5
    assert changed > 0


def test_pimc_worlds_show_every_card_to_every_seat() -> None:
    state = State(Rules.preset("rulebook"), 2, seed=3)
    bot = PerfectInformationMonteCarloBot(1, rows=64)
    for world in bot.deal(observe(state, 0), 4):
        everyone = (world.public << 1) - 1
        assert all(m == everyone for masks in world.known for m in masks)


def test_the_panel_opponents_play_whole_rounds_by_name() -> None:
    for name in ("pimc", "modeller"):
        state = play_round(State(Rules.preset("house"), 2, seed=5),
                           [make_bot(name, 1), make_bot("memory", 2)])
        assert state.is_over()
    assert opponent_modeller(3).population is not None
