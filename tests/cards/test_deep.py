"""The ``deep`` bot (``hard``): legal everywhere, blind to unseen cards, its candidates."""

from __future__ import annotations

from random import Random

import pytest

from cambio.bots.cards import DeepBot, make_bot
from cambio.bots.cards.deep import candidates
from cambio.cards import Phase, Rules, State, observe
from cambio.cards.actions import PASS, SWITCH, addr_seat, arg_a, arg_b, kind_of

from .knowledge import permute_unseen

PRESETS = ("rulebook", "house", "wikipedia")


@pytest.mark.parametrize("preset", PRESETS)
def test_deep_decisions_depend_only_on_the_view(preset: str) -> None:
    """Same seed, cards the seat has not seen shuffled: every decision is the same."""
    rng = Random(preset)
    checked = 0
    changed = 0
    for k in range(3):
        players = 2 + k % 2
        state = State(Rules.preset(preset), players, seed=k)
        bots = [make_bot("memory", k) for _ in range(players)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if len(view.legal) > 1 and rng.random() < 0.3:
                twin = permute_unseen(state, seat, rng)
                bot = DeepBot(k, rows=64, z=0.0)
                a = bot.act(view)
                b = DeepBot(k, rows=64, z=0.0).act(observe(twin, seat))
                assert a == b
                checked += 1
                changed += a != bot.prior.act(view)
            state.apply(bots[seat].act(view), seat)
    assert checked > 10
    assert changed > 0  # the rollouts did overrule the prior somewhere


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_plays_legal_rounds(preset: str) -> None:
    for k in range(2):
        players = 2 + 2 * k
        state = State(Rules.preset(preset), players, seed=k)
        bots = [make_bot(n, k) for n in ["hard", "memory", "hard", "easy"][:players]]
        assert isinstance(bots[0], DeepBot)
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            action = bots[seat].act(view)
            assert action in view.legal
            state.apply(action, seat)


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
