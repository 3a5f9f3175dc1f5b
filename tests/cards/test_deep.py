"""The ``deep`` bot (``hard``): legal everywhere, blind to unseen cards, its candidates."""

from __future__ import annotations

import dataclasses
from random import Random

import numpy as np
import pytest

from cambio.bots.cards import BatchRolloutSearchBot, make_bot
from cambio.bots.cards.belief import Belief
from cambio.bots.cards.deep import POPULATION, SNAP_EAGER, candidates
from cambio.bots.cards.hints import suggest
from cambio.bots.cards.memory import TUNED, MemoryParams
from cambio.cards import HIDDEN, Phase, Rules, State, observe
from cambio.cards.actions import PASS, SWITCH, addr_seat, arg_a, arg_b, kind_of

from .knowledge import memory_decisions, memory_rounds, twin_views

PRESETS = ("rulebook", "house", "wikipedia", "cabo", "cambia", "evan")


@pytest.mark.parametrize("preset", PRESETS)
def test_deep_decisions_depend_only_on_the_view(preset: str) -> None:
    """Same seed, cards the seat has not seen shuffled: every decision is the same."""
    checked = 0
    changed = 0
    for t in twin_views(memory_rounds(preset, 3), Random(preset), rate=0.3):
        bot = BatchRolloutSearchBot(1, rows=64, z=0.0)
        a = bot.act(t.view)
        assert a == BatchRolloutSearchBot(1, rows=64, z=0.0).act(t.twin)
        checked += 1
        changed += a != bot.prior.act(t.view)
    assert checked > 10
    assert changed > 0  # the rollouts did overrule the prior somewhere


def test_a_margin_per_test_overrules_the_prior_only_where_the_plain_margin_does() -> None:
    """``per_test`` raises the margin with the number of candidates and keeps it at two: on
    the same worlds (same seed), a prior it overrules is overruled by the plain margin too,
    and with two candidates both choose alike."""
    overruled = {False: 0, True: 0}
    pairs = 0
    for k in range(4):
        players = 2 + k % 3
        state = State(Rules.preset(PRESETS[k % 3]), players, seed=k)
        bots = [make_bot("memory", k) for _ in range(players)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if len(view.legal) > 1:
                plain = BatchRolloutSearchBot(k, rows=128)
                strict = BatchRolloutSearchBot(k, rows=128, per_test=True)
                a, b = plain.act(view), strict.act(view)
                prior = plain.prior.act(view)
                if b != prior:
                    assert a != prior
                if len(candidates(view, prior)) == 2:
                    assert a == b
                    pairs += 1
                overruled[False] += a != prior
                overruled[True] += b != prior
            state.apply(bots[seat].act(view), seat)
    assert pairs > 0
    assert overruled[True] < overruled[False]


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_plays_legal_rounds(preset: str) -> None:
    for k in range(2):
        players = 2 + 2 * k
        state = State(Rules.preset(preset), players, seed=k)
        bots = [make_bot(n, k) for n in ["hard", "memory", "hard", "easy"][:players]]
        assert isinstance(bots[0], BatchRolloutSearchBot)
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            action = bots[seat].act(view)
            assert action in view.legal
            state.apply(action, seat)
        # Searched natively (every preset), never by the compiled engine's fallback.
        assert bots[0]._python_search is None and bots[0]._pool is not None


def test_candidates_pair_our_card_with_theirs_in_a_blind_swap() -> None:
    """At a swap power, swapping two of ours or two of theirs cannot lower our total, so
    only mixed pairs (and the prior) are compared; a poll compares a snap with passing."""
    seen_power = seen_poll = False
    for seed in range(40):
        state = State(Rules.preset("rulebook"), 3, seed=seed)
        bots = [make_bot("memory", seed) for _ in range(3)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            prior = bots[seat].act(view)
            cands = candidates(view, prior)
            assert cands[0] == prior and set(cands) <= set(view.legal)
            if view.phase == Phase.POWER and any(kind_of(a) == SWITCH for a in view.legal):
                seen_power = True
                for a in cands[1:]:
                    if kind_of(a) == SWITCH:
                        assert (addr_seat(arg_a(a)) == seat) != (addr_seat(arg_b(a)) == seat)
            if view.phase == Phase.POLL and prior != PASS:
                seen_poll = True
                assert cands == [prior, PASS]
            state.apply(prior, seat)
    assert seen_power and seen_poll


def test_a_hint_is_the_hard_move_with_the_rollouts_estimates() -> None:
    """The hint is what ``deep`` plays from the same view and seed, and reports that move's
    estimated win chance and final score; the runner-up is the best other candidate."""
    seen = 0
    for seed in range(6):
        state = State(Rules.preset("rulebook"), 2, seed=seed)
        bots = [make_bot("memory", seed) for _ in range(2)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if view.phase == Phase.DRAWN and len(view.legal) > 2:
                bot = BatchRolloutSearchBot(seed, rows=256)
                hint = suggest(view, seed=seed, rows=256)
                assert hint.action == bot.act(view)
                est = bot.last_estimates
                assert set(est) == set(candidates(view, bot.prior.act(view)))
                assert hint.win_share == est[hint.action].win_share
                assert hint.score == est[hint.action].score
                assert all(0.0 <= e.win_share <= 1.0 and e.score >= 0 for e in est.values())
                others = [a for a in est if a != hint.action]
                assert hint.runner_up is not None and len(others) >= 1
                assert hint.runner_up_win == max(est[a].win_share for a in others)
                seen += 1
            state.apply(bots[seat].act(view), seat)
    assert seen >= 6


def test_a_population_search_decides_from_the_view_only() -> None:
    """deep with opponents drawn from the population (and inferred from wrong snaps): the
    cards the seat has not seen, shuffled, change no decision; the population changes
    some decisions of hard."""
    checked = 0
    changed = 0
    rounds = (r for k, preset in enumerate(PRESETS) for r in memory_rounds(preset, 1, first=k))
    for t in twin_views(rounds, Random(5), rate=0.3):
        def population() -> BatchRolloutSearchBot:
            return BatchRolloutSearchBot(1, rows=64, z=0.0, population=POPULATION, infer=True)
        a = population().act(t.view)
        assert a == population().act(t.twin)
        changed += a != BatchRolloutSearchBot(1, rows=64, z=0.0).act(t.view)
        checked += 1
    assert checked > 10
    assert changed > 0


def test_wrong_snaps_make_the_snap_eager_model_likelier() -> None:
    bot = BatchRolloutSearchBot(1, population=POPULATION, infer=True)
    state = State(Rules.preset("rulebook"), 3, seed=2, polled=True)
    view = observe(state, 0)
    bot._observe(dataclasses.replace(view, last_snap=(2, 0x201, 5, False)))
    bot._observe(dataclasses.replace(view, last_snap=(2, 0x201, 5, False)))  # the same snap
    bot._observe(dataclasses.replace(view, last_snap=(1, 0x100, 7, True)))   # a right one
    eager = [p for p, _ in POPULATION].index(SNAP_EAGER)
    assert bot._weights(2)[eager] == pytest.approx(4 * POPULATION[eager][1])
    assert bot._weights(1) == [w for _, w in POPULATION]
    later = dataclasses.replace(view, turn_number=0, last_snap=None)
    bot._observe(dataclasses.replace(view, turn_number=5))
    bot._observe(later)                                                     # a new round
    assert bot._weights(2) == [w for _, w in POPULATION]


def test_own_rollout_weights_hold_from_their_table_size_only() -> None:
    """Our own seat's rollout weights (here: calling at once) change decisions at the
    tables they are for and none at smaller ones."""
    rash = MemoryParams(cambio_total=99.0, cambio_hidden=4)

    def plays(players: int, own: MemoryParams | None) -> list[int]:
        bot = BatchRolloutSearchBot(3, rows=64, self_params=own, self_from=4)
        return [bot.act(v) for v in memory_decisions(players, 40)]

    assert plays(2, rash) == plays(2, None)
    assert plays(4, rash) != plays(4, None)
    assert BatchRolloutSearchBot(3, self_params=rash, self_from=4).own_params(3) is None


def test_the_other_seats_rollout_weights_change_the_decisions() -> None:
    """Weights for the other seats in the rollouts (here: calling at once) are played: the
    same views get other moves, and our own seat's weights stay what they were."""
    rash = MemoryParams(cambio_total=99.0, cambio_hidden=4)

    def plays(others: MemoryParams | None) -> list[int]:
        bot = BatchRolloutSearchBot(3, rows=64, others_params=others)
        return [bot.act(v) for v in memory_decisions(2, 40)]

    assert plays(rash) != plays(None)
    bot = BatchRolloutSearchBot(3, rows=64, self_params=TUNED, others_params=rash)
    view = memory_decisions(2, 1)[0]
    pool = bot._rollouts(view, 64)
    assert view.seat is not None
    assert np.array_equal(pool.tables[3][view.seat], pool.params_row(TUNED))
    assert np.array_equal(pool.tables[3][1 - view.seat], pool.params_row(rash))


def test_a_lower_hidden_scale_deals_the_opponents_lower_unseen_cards() -> None:
    """``hidden_scale`` below 1 models an opponent that keeps lower cards than ``memory``:
    the worlds give its cards we have not seen a lower mean; our own stay as they were."""
    view = next(v for v in memory_decisions(2, 80) if v.turn_number >= 6)
    assert view.seat is not None
    other = 1 - view.seat
    values = Belief(view).values
    hidden = [i for i, c in enumerate(view.grids[other]) if c == HIDDEN]
    assert hidden

    def mean_unseen(scale: float, seat: int, slots: list[int]) -> float:
        bot = BatchRolloutSearchBot(5, hidden_scale=scale)
        worlds = bot.deal(view, 400)
        return float(np.mean([values[w.grids[seat][i]] for w in worlds for i in slots]))

    assert mean_unseen(0.5, other, hidden) < mean_unseen(1.0, other, hidden) - 0.5
    own = [i for i, c in enumerate(view.grids[view.seat]) if c == HIDDEN]
    if own:
        assert abs(mean_unseen(0.5, view.seat, own) - mean_unseen(1.0, view.seat, own)) < 0.8


def test_hard_holds_wikipedias_rollout_calls_back_heads_up_only() -> None:
    """Heads-up in wikipedia (and its house-rule variants), where the caller loses a tie,
    every seat of ``hard``'s rollouts calls only when it thinks itself lowest; everywhere
    else, and in the panel's ``pimc`` and ``modeller``, ``memory``'s defaults play."""
    gate = MemoryParams(call_lead=0.0)
    hard = make_bot("hard", 0)
    assert isinstance(hard, BatchRolloutSearchBot)
    wikipedia = Rules.preset("wikipedia")
    assert hard.rollout_params(wikipedia, 2) == (gate, gate)
    assert hard.rollout_params(Rules.preset("wikipedia", value_jack=5), 2) == (gate, gate)
    assert hard.rollout_params(wikipedia, 3) == (None, None)
    for preset in ("rulebook", "house", "cabo", "cambia", "evan"):
        assert hard.rollout_params(Rules.preset(preset), 2) == (None, None)
    for member in ("pimc", "modeller"):
        bot = make_bot(member, 0)
        assert isinstance(bot, BatchRolloutSearchBot)
        assert bot.rollout_params(wikipedia, 2) == (None, None)
    # The pool's seats play the gate.
    state = State(wikipedia, 2, seed=4)
    view = observe(state, state.current_player())
    assert view.seat is not None
    pool = hard._rollouts(view, 64)
    for seat in range(2):
        assert np.array_equal(pool.tables[3][seat], pool.params_row(gate))
