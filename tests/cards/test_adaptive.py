"""The ``adaptive`` bot (the ``master`` level): more worlds only where the decision is close
and worth something; decisions from the view only."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import numpy as np
import pytest

from cambio.bots.cards import CARD_BOTS, BatchRolloutSearchBot, make_bot, play_round
from cambio.bots.cards.adaptive import AdaptiveRolloutSearchBot, _best, _still_in
from cambio.bots.cards.balanced import BALANCED
from cambio.bots.cards.memory import TUNED, MemoryParams
from cambio.cards import CardView, Phase, Rules, State, observe
from cambio.cards.actions import CAMBIO

from .knowledge import memory_decisions, memory_rounds, twin_views


def small(seed: int = 1, **options: Any) -> AdaptiveRolloutSearchBot:
    return AdaptiveRolloutSearchBot(seed, rows=64, cap=512, **options)


def test_adaptive_decisions_depend_only_on_the_view() -> None:
    """Same seed, cards the seat has not seen shuffled: every decision and every budget
    spent is the same; some decisions stop after the first stage and some go on."""
    spent: list[int] = []
    for t in twin_views(memory_rounds("rulebook", 3), Random(3), rate=0.3):
        bot = small()
        a = bot.act(t.view)
        twin = small()
        assert a == twin.act(t.twin)
        assert bot.last_rollouts == twin.last_rollouts
        spent.append(bot.last_rollouts)
    assert len(spent) > 10
    first_stage = [n for n in spent if 0 < n <= 64 + 16]
    assert first_stage and max(spent) > 64 + 16


def test_the_same_seed_makes_the_same_decisions() -> None:
    state = State(Rules.preset("house"), 3, seed=4)
    views = []
    bots = [make_bot("memory", s) for s in range(3)]
    while not state.is_over():
        seat = state.current_player()
        view = observe(state, seat)
        if len(view.legal) > 1:
            views.append(view)
        state.apply(bots[seat].act(view), seat)
    one, two = small(9), small(9)
    assert [one.act(v) for v in views[:15]] == [two.act(v) for v in views[:15]]


def test_a_decided_or_worthless_decision_gets_no_more_worlds() -> None:
    prior = [0.0, 1.0] * 50
    # A challenger that wins every world the prior loses: clearly better.
    assert _still_in([prior, [1.0] * 100], np.zeros(2), [0, 1], 3.0, 0.01) == [0]
    # Challengers that play out exactly as the prior: nothing to gain.
    assert _still_in([prior, list(prior), list(prior)], np.zeros(3), [0, 1, 2], 3.0, 0.01) == [0]
    # A close challenger (a few worlds better, a few worse) stays; a clearly worse one goes.
    close = list(prior)
    close[0], close[1] = 1.0, 0.0
    close[2] = 1.0
    worse = [0.0] * 100
    assert _still_in([prior, close, worse], np.zeros(3), [0, 1, 2], 3.0, 0.01) == [0, 1]


def test_a_held_margin_takes_no_gain_smaller_than_the_first_stage_would() -> None:
    """Over 1,600 worlds a challenger that wins 8 more (half a point) is 2.8 standard errors
    clear, so ``z`` 1 takes it; held at the margin of a first stage of 100 worlds it must
    clear one standard error of 100 worlds, 0.7 points, and the prior stays. One that
    wins 80 more (5 points) passes either way."""
    rng = np.random.default_rng(5)
    prior = rng.integers(0, 2, 1600).astype(float)
    small_gain = prior.copy()
    small_gain[np.flatnonzero(prior == 0)[:8]] = 1.0
    large_gain = prior.copy()
    large_gain[np.flatnonzero(prior == 0)[:80]] = 1.0
    for challenger, held in ((small_gain, 0), (large_gain, 1)):
        shares = [list(prior), list(challenger)]
        assert _best(shares, np.zeros(2), 1.0) == 1
        assert _best(shares, np.zeros(2), 1.0, first=100) == held
        assert _best(shares, np.zeros(2), 1.0, first=1600) == 1


def test_master_asks_two_standard_errors_in_wikipedia_heads_up_only() -> None:
    """Heads-up in wikipedia ``master`` chooses as with ``z`` 2 and not as with 1 (a few of
    the close decisions differ); at 3 players there, and heads-up in rulebook, as with 1."""
    def moves(bot: Callable[[], AdaptiveRolloutSearchBot], views: list[CardView]) -> list[int]:
        return [bot().act(v) for v in views]

    duel = memory_decisions(2, 60, "wikipedia")
    shipped = moves(lambda: small(3), duel)
    assert shipped == moves(lambda: small(3, z=2.0, z_at={}), duel)
    assert shipped != moves(lambda: small(3, z=1.0, z_at={}), duel)
    for preset, players in (("wikipedia", 3), ("rulebook", 2)):
        views = memory_decisions(players, 30, preset)
        assert moves(lambda: small(3), views) == moves(lambda: small(3, z=1.0, z_at={}), views)


def test_master_is_the_adaptive_bot_and_a_level() -> None:
    assert isinstance(make_bot("master", 0), AdaptiveRolloutSearchBot)
    assert CARD_BOTS.level("master").name == "adaptive"
    with pytest.raises(ValueError, match="cap"):
        AdaptiveRolloutSearchBot(0, rows=1024, cap=512)


@pytest.mark.parametrize("players", [2, 4])
def test_master_plays_legal_rounds(players: int) -> None:
    state = State(Rules.preset("wikipedia"), players, seed=players)
    bots = [small(s) if s % 2 == 0 else make_bot("memory", s) for s in range(players)]
    assert play_round(state, bots).is_over()  # play_round raises on an illegal action


def _turn_starts_with_a_call(players: int, rounds: int) -> list[CardView]:
    """Views of turn starts of ``players``-seat `memory` rounds at which Cambio is legal,
    `memory` calling or not."""
    views = []
    for k in range(rounds):
        state = State(Rules.preset("rulebook"), players, seed=100 + k, polled=True)
        bots = [make_bot("memory", k) for _ in range(players)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if view.phase == Phase.TURN_START and CAMBIO in view.legal:
                views.append(view)
            state.apply(bots[seat].act(view), seat)
    return views


@pytest.mark.parametrize("make", [
    lambda margin: BatchRolloutSearchBot(5, rows=64, call_margin=margin),
    lambda margin: AdaptiveRolloutSearchBot(5, rows=64, cap=256, call_margin=margin),
])
def test_a_call_margin_holds_back_calls_at_its_table_size_only(
        make: Callable[[tuple[float, ...]], BatchRolloutSearchBot]) -> None:
    """A margin of a whole win at 4 players overrules every searched call there (no
    rollout gain can pay it) and leaves every heads-up decision as it was."""
    views = _turn_starts_with_a_call(4, 6)
    plain = [make((0.0,)).act(v) for v in views]
    assert CAMBIO in plain  # the plain search does call at some of these turns
    assert CAMBIO not in [make((0.0, 0.0, 1.0)).act(v) for v in views]
    duel = _turn_starts_with_a_call(2, 3)
    assert [make((0.0,)).act(v) for v in duel] == [make((0.0, 0.0, 1.0)).act(v) for v in duel]


def test_master_rolls_heads_up_out_by_its_presets_balanced_weights_only() -> None:
    """Heads-up in house, wikipedia, evan and cambia (and their house-rule variants) every
    seat of ``master``'s rollouts plays that preset's balanced weights; in rulebook only its
    own seat does, the opponents keeping ``memory``'s defaults; cabo and other table sizes
    keep theirs."""
    bot = make_bot("master", 0)
    assert isinstance(bot, AdaptiveRolloutSearchBot)
    fitted = BALANCED[("rulebook", 2)]
    house = BALANCED[("house", 2)]
    assert fitted != house
    assert bot.rollout_params(Rules.preset("rulebook"), 2) == (fitted, None)
    assert bot.rollout_params(Rules.preset("rulebook", value_jack=5), 2) == (fitted, None)
    assert bot.rollout_params(Rules.preset("house"), 2) == (house, house)
    evan, cambia = BALANCED[("evan", 2)], BALANCED[("cambia", 2)]
    assert len({fitted, house, evan, cambia}) == 4
    assert bot.rollout_params(Rules.preset("evan"), 2) == (evan, evan)
    assert bot.rollout_params(Rules.preset("cambia"), 2) == (cambia, cambia)
    assert bot.rollout_params(Rules.preset("evan"), 3) == (None, None)
    assert bot.rollout_params(Rules.preset("cabo"), 2) == (None, None)
    gated = BALANCED[("wikipedia", 2)]
    assert gated == MemoryParams(call_lead=0.0)
    assert bot.rollout_params(Rules.preset("wikipedia"), 2) == (gated, gated)
    assert bot.rollout_params(Rules.preset("house"), 4) == (TUNED, None)
    assert bot.rollout_params(Rules.preset("rulebook"), 4) == (TUNED, None)
    hard = make_bot("hard", 0)
    assert isinstance(hard, BatchRolloutSearchBot)
    assert hard.rollout_params(Rules.preset("rulebook"), 2) == (None, None)
    # The pool's seats play them, and the decisions change with them.
    view = memory_decisions(2, 1)[0]
    assert view.seat is not None
    pool = bot._rollouts(view, 64)
    assert np.array_equal(pool.tables[3][view.seat], pool.params_row(fitted))
    assert np.array_equal(pool.tables[3][1 - view.seat], pool.params_row(None))
    assert not np.array_equal(pool.params_row(fitted), pool.params_row(None))

    def plays(balanced: dict[tuple[str, int], MemoryParams] | None) -> list[int]:
        master = AdaptiveRolloutSearchBot(3, rows=64, cap=128, balanced=balanced)
        return [master.act(v) for v in memory_decisions(2, 40)]

    assert plays(dict(BALANCED)) != plays(None)


def test_master_rolls_its_own_seat_out_by_the_tuned_weights_from_four_players() -> None:
    """``master``'s own later turns in its rollouts: ``memory.TUNED`` at 4 players (where it
    measured better), ``memory``'s defaults heads-up and at 3."""
    bot = make_bot("master", 0)
    assert isinstance(bot, AdaptiveRolloutSearchBot)
    assert bot.own_params(4) is TUNED
    assert bot.own_params(2) is None
    assert bot.own_params(3) is None
