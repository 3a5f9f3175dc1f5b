"""The search bot: legal everywhere, blind to unseen cards, budgets, determinizations."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from cambio.bots.cards import RolloutSearchBot, make_bot
from cambio.bots.cards.belief import Belief
from cambio.bots.cards.search import caller_tilt, determinize, is_final_turn, parse_budget
from cambio.cards import HIDDEN, Rules, State, observe
from cambio.cards.actions import CAMBIO

from .knowledge import memory_rounds, several_moves, twin_views

PRESETS = ("rulebook", "house", "wikipedia")


@pytest.mark.parametrize("preset", PRESETS)
def test_determinizations_agree_with_the_view(preset):
    rng = Random(preset)
    for k in range(8):
        players = 2 + k % 3
        state = State(Rules.preset(preset), players, seed=k)
        bots = [make_bot("memory", k) for _ in range(players)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            det = determinize(view, Belief(view), rng)
            again = observe(det, seat)
            # who has seen what is guessed here (``knows``), so only that may differ
            assert replace(again, seen=view.seen) == view
            assert sorted(det.all_cards()) == sorted(state.all_cards())
            exact = determinize(view, Belief(view), rng, knows=None)
            assert observe(exact, seat) == view  # with the view's masks, nothing differs
            assert [list(k) for k in exact.known] == state.known
            state.apply(bots[seat].act(view), seat)


@pytest.mark.parametrize("preset", PRESETS)
def test_search_decisions_depend_only_on_the_view(preset):
    """Same seed, cards the seat has not seen shuffled: every decision is the same."""
    checked = 0
    for t in twin_views(memory_rounds(preset, 3), Random(preset), rate=0.25):
        assert RolloutSearchBot(1, iterations=12).act(t.view) == \
            RolloutSearchBot(1, iterations=12).act(t.twin)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("preset", PRESETS)
def test_last_turn_search_depends_only_on_the_view(preset):
    """After another seat calls, every decision of the seat's last turn is searched; with
    the cards it has not seen shuffled, it decides the same."""
    checked = 0
    for t in twin_views(memory_rounds(preset, 12), Random(preset),
                        want=lambda view: is_final_turn(view) and several_moves(view)):
        assert RolloutSearchBot(1, iterations=0, final=16).act(t.view) == \
            RolloutSearchBot(1, iterations=0, final=16).act(t.twin)
        checked += 1
    assert checked > 10


def test_the_caller_is_dealt_low_cards():
    """The last-turn model: a caller's unseen cards are tilted towards a low total."""
    state = State(Rules.preset("rulebook"), 2, seed=3)
    state.apply(CAMBIO, state.current_player())
    view = observe(state, state.current_player())
    assert is_final_turn(view)
    belief = Belief(view)
    assert view.caller is not None
    lam = caller_tilt(view, belief)[view.caller]
    assert lam > 0
    rng = Random(0)
    grid = view.grids[view.caller]
    totals = []
    for _ in range(300):
        det = determinize(view, belief, rng, seat_tilt={view.caller: lam})
        totals.append(sum(belief.values[det.grids[view.caller][i]]
                          for i, c in enumerate(grid) if c == HIDDEN))
    assert sum(totals) / len(totals) < belief.mean() * sum(c == HIDDEN for c in grid) / 2


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_and_search_play_legal_rounds(preset):
    for k in range(2):
        players = 2 + 2 * k
        state = State(Rules.preset(preset), players, seed=k)
        names = ["search:8it", "hard", "expert", "easy"][:players]
        bots = [make_bot(n, k) for n in names]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            action = bots[seat].act(view)
            assert action in view.legal
            state.apply(action, seat)


def test_budgets():
    assert parse_budget("300ms") == {"seconds": 0.3, "iterations": None}
    assert parse_budget("4000it") == {"iterations": 4000, "seconds": None}
    with pytest.raises(ValueError):
        make_bot("search:fast", 0)
    bot = make_bot("search:5ms", 0)
    assert isinstance(bot, RolloutSearchBot) and bot.seconds == 0.005


def test_search_estimates_are_reported_for_hints():
    state = State(Rules.preset("rulebook"), 2, seed=5)
    bot = RolloutSearchBot(0, iterations=40, focused=False)
    view = observe(state, state.current_player())
    action = bot.act(view)
    assert action in view.legal
    assert set(bot.last_estimates) == set(view.legal)
    assert all(0 <= e.win_share <= 1 and -10 < e.score < 100
               for e in bot.last_estimates.values())
