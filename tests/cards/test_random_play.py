"""Random-play invariants over thousands of seeded games (OpenSpiel's ``random_sim_test``).

At every step of every game: card conservation, only the seats that may act have actions,
and at sampled steps: a clone equals the original and stays equal under the same action,
a state whose unseen cards are shuffled looks identical to the seat (same view, same
legal actions), and (in those sampled games, at every step) the record of who saw which
card is exact. At the end of every game: that record shows everything, the record replays
to the same final state, returns are in bounds, and the same seed gives the same game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cambio.cards import Phase, Rules, State, observe
from cambio.cards.actions import CAMBIO, PASS, SNAP, kind_of
from cambio.records.cards import export, make_header, replay, run
from cambio.records.jsonl import parse_record

from .knowledge import check_knowledge_record, permute_unseen

PRESETS = ["rulebook", "house", "wikipedia"]
# (players, games) per preset: over 1,500 games per preset, 2-8 and 12 players.
SIZES = [(2, 500), (3, 300), (4, 250), (5, 150), (6, 120), (7, 80), (8, 80), (12, 40)]


def policy_move(state: State, rng: random.Random, sane: bool) -> tuple[int, int]:
    """A random (seat, action). ``sane`` snaps rarely and calls Cambio late, for long games."""
    seat = state.current_player() if state.polled else rng.choice(state.actors())
    acts = state.legal_actions(seat)
    if sane:
        calm = [a for a in acts if kind_of(a) != SNAP and (a != CAMBIO or
                                                        state.turn_number > 12)]
        if calm and rng.random() < 0.95:
            acts = calm
    return seat, rng.choice(acts)


def run_game(preset: str, players: int, seed: int, *, polled: bool, sane: bool,
             deep: bool) -> State:
    rules = Rules.preset(preset)
    state = State(rules, players, seed=seed, polled=polled)
    full = Counter(state.all_cards())
    rng = random.Random(seed * 7 + 1)
    steps = 0
    while not state.is_over():
        steps += 1
        assert steps < 20_000
        actor = state.current_player()
        assert state.legal_actions(actor), "the current player must have an action"
        if polled:
            for other in range(players):
                if other != actor:
                    assert state.legal_actions(other) == []
        seat, action = policy_move(state, rng, sane)
        if deep and rng.random() < 0.15:
            twin = state.clone()
            assert twin == state
            look = rng.randrange(players)
            shuffled = permute_unseen(state, look, rng)
            assert observe(shuffled, look) == observe(state, look)
            assert shuffled.legal_actions(look) == state.legal_actions(look)
            twin.apply(action, seat)
            state.apply(action, seat)
            assert twin == state
        else:
            state.apply(action, seat)
        if deep:
            assert Counter(state.all_cards()) == full
            check_knowledge_record(state)
    assert Counter(state.all_cards()) == full
    check_knowledge_record(state)
    assert state.legal_actions(0) == [] and state.current_player() < 0
    assert state.winners() and all(-1.0 <= r <= 1.0 for r in state.returns())
    return state


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players,games", SIZES)
def test_random_play_invariants(preset, players, games):
    if preset == "wikipedia" and players > 8:
        players = 8
    for k in range(games):
        polled = k % 3 != 2
        deep = k % 10 == 0
        state = run_game(preset, players, seed=k, polled=polled, sane=k % 2 == 1, deep=deep)
        if k % 5 == 0:
            header = make_header(state.rules, players, seed=k, polled=polled)
            played = run(header, [(s, a, 0, {}) for s, a in state.history])
            result = replay(parse_record(export(played, None)))
            assert result.state == state


@pytest.mark.parametrize("preset", ["cabo", "cambia", "evan"])
@pytest.mark.parametrize("players,games", [(2, 120), (3, 80), (4, 60)])
def test_random_play_invariants_of_other_groups_rules(preset, players, games):
    """The same invariants for the other groups' presets (cabo seats at most 4)."""
    for k in range(games):
        polled = k % 3 != 2
        state = run_game(preset, players, seed=k, polled=polled, sane=k % 2 == 1,
                         deep=k % 10 == 0)
        if k % 5 == 0:
            header = make_header(state.rules, players, seed=k, polled=polled)
            played = run(header, [(s, a, 0, {}) for s, a in state.history])
            result = replay(parse_record(export(played, None)))
            assert result.state == state


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_game(preset):
    for seed in range(30):
        a = run_game(preset, 4, seed, polled=True, sane=True, deep=False)
        b = run_game(preset, 4, seed, polled=True, sane=True, deep=False)
        assert a.history == b.history and a.scores() == b.scores()
    decks = {tuple(State(Rules.preset(preset), 4, seed=s).deck) for s in range(30)}
    assert len(decks) == 30


def test_polled_games_offer_passes_to_every_eligible_seat():
    seen_poll = 0
    for seed in range(200):
        s = State(Rules.preset("rulebook"), 3, seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            if s.phase == Phase.POLL:
                seen_poll += 1
                assert PASS in s.legal_actions()
            s.apply(rng.choice(s.legal_actions()))
    assert seen_poll > 1000
