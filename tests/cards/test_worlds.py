"""Worlds dealt straight into records (``cambio.bots.cards.worlds``) are ``determinize``'s:
the same rows, the same draws, so ``hard`` and ``master`` decide as they did."""

from __future__ import annotations

from itertools import cycle
from random import Random

import pytest

from cambio.bots.cards import make_bot
from cambio.bots.cards.belief import Belief
from cambio.bots.cards.deep import BatchRolloutSearchBot
from cambio.bots.cards.expert import opponent_lambda
from cambio.bots.cards.pimc import PerfectInformationMonteCarloBot
from cambio.bots.cards.rollouts import load_states
from cambio.bots.cards.search import determinize
from cambio.bots.cards.worlds import load_worlds
from cambio.cards import CardView, Rules, State, observe
from cambio.cards.batch import Batch

from .knowledge import memory_decisions

PRESETS = ("rulebook", "house", "wikipedia", "cambia", "evan")

WORLDS = 5


def _settings(view: CardView, belief: Belief) -> list[dict[str, object]]:
    """``hard``'s (tilted, every card it may know known), a guessed knowledge, the view's
    own masks, a tilted seat on top of the opponents' tilt, and ``pimc``'s (face up)."""
    assert view.seat is not None
    other = (view.seat + 1) % view.players
    return [{"tilt": opponent_lambda(view, belief, 1.0), "knows": 1.0, "seat_tilt": None},
            {"tilt": 0.0, "knows": 0.6, "seat_tilt": None},
            {"tilt": 0.0, "knows": None, "seat_tilt": None},
            {"tilt": 0.4, "knows": 0.9, "seat_tilt": {other: 1.7}},
            {"tilt": 0.0, "knows": None, "seat_tilt": None, "face_up": True}]


def _reference(view: CardView, belief: Belief, rng: Random, how: dict[str, object]
               ) -> list[State]:
    """``determinize``'s worlds, as ``hard`` dealt them; face up as ``pimc`` deals them."""
    how = dict(how)
    face_up = how.pop("face_up", False)
    worlds = [determinize(view, belief, rng, cards=cards, **how)  # type: ignore[arg-type]
              for cards in belief.samples(rng, WORLDS)]
    if face_up:
        for w in worlds:
            w.known = [[(w.public << 1) - 1] * len(k) for k in w.known]
    return worlds


@pytest.mark.parametrize("preset", PRESETS)
def test_every_row_is_determinize_s_world_and_the_generator_ends_the_same(preset):
    """Every decision of seeded `memory` rounds at 2-4 seats, each of five ways of dealing:
    the rows equal those of ``load_states`` over ``determinize``'s worlds, cell for cell
    (cards, knowledge masks, held card, deck order, chance seed, public facts), and the
    bot's generator is left where ``determinize`` leaves it."""
    rules = Rules.preset(preset)
    checked = 0
    for players in (2, 3, 4):
        b = Batch(rules, players, 1 + WORLDS)
        for k in range(3):
            state = State(rules, players, seed=k, polled=True)
            bots = [make_bot("memory", k) for _ in range(players)]
            ways = cycle(range(5))
            while not state.is_over():
                seat = state.current_player()
                view = observe(state, seat)
                belief = Belief(view)
                how = _settings(view, belief)[next(ways)]
                want_rng, got_rng = Random(checked), Random(checked)
                load_states(b, 1, _reference(view, belief, want_rng, how))
                want = b.st[1:].copy()
                b.st[:] = 7  # nothing of the reference's rows may survive
                load_worlds(b, 1, view, belief, got_rng, WORLDS, **how)  # type: ignore[arg-type]
                assert b.st[1:].tolist() == want.tolist()
                assert got_rng.getstate() == want_rng.getstate()
                checked += 1
                state.apply(bots[seat].act(view), seat)
    assert checked > 500


def _state_by_state(cls: type[BatchRolloutSearchBot]) -> type[BatchRolloutSearchBot]:
    """``cls`` with its worlds dealt one ``State`` at a time by its own ``deal``."""

    class StateByState(cls):  # type: ignore[valid-type,misc]
        def load_worlds(self, b: Batch, view: CardView, worlds: int) -> None:
            load_states(b, 0, self.deal(view, worlds))

    return StateByState


@pytest.mark.parametrize("bot", [BatchRolloutSearchBot, PerfectInformationMonteCarloBot])
@pytest.mark.parametrize("players", [2, 4])
def test_the_search_decides_as_it_did_with_its_worlds_dealt_state_by_state(bot, players):
    """``hard``'s search (tilted worlds) and ``pimc`` (every card face up): the same seed,
    the same decisions, over decisions of several moves."""
    fast, slow = bot(5), _state_by_state(bot)(5)
    views = memory_decisions(players, 40, "house")
    assert [fast.act(v) for v in views] == [slow.act(v) for v in views]
