"""OpenSpiel's random-simulation checks (invariants, serialization, clone) on both games,
and the card game's explicit chance: every card is conserved and every draw's outcome has
its exact probability."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest

import cambio.envs.openspiel as cambio_openspiel
from cambio.cards import Phase, action_text, observe
from cambio.envs.cards_codec import CLASSES, card_class
from cambio.envs.openspiel import view_text

PRESETS = ("rulebook", "house", "wikipedia")
BOARDS = [(4, 2), (4, 3), (5, 2), (5, 3)]


@pytest.mark.parametrize("preset", PRESETS)
def test_cards_random_sim(preset: str) -> None:
    game = pyspiel.load_game("python_cambio_cards", {"players": 3, "rules": preset})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_cards_house_rules_parameter() -> None:
    game = pyspiel.load_game("python_cambio_cards", {
        "players": 2, "rules": "house", "house_rules": "snap_penalty:2;lock_caller:true"})
    state = game.new_initial_state()
    assert state.g.rules.snap_penalty == 2 and state.g.rules.lock_caller
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    short = pyspiel.load_game("python_cambio_cards", {"players": 3, "max_turns": 2})
    assert short.new_initial_state().g.rules.max_turns == 2
    for seed in range(20):
        rng = random.Random(seed)
        state = short.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.state.turn_number <= 2


@pytest.mark.parametrize(("size", "players"), BOARDS)
def test_board_random_sim(size: int, players: int) -> None:
    game = pyspiel.load_game("python_cambio_board", {"players": players, "size": size})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def long_round(seed: int, house_rules: str) -> tuple[Counter[str], int]:
    """A random round in which nobody calls Cambio for a long time (so the deck runs out
    and the pile is reshuffled), checking conservation and chance at every step."""
    game = pyspiel.load_game("python_cambio_cards", {"players": 2, "rules": "rulebook",
                                                     "house_rules": house_rules, "slots": 24})
    state = game.new_initial_state()
    rng = random.Random(seed)
    full = Counter(state.g.full_deck)
    seen: Counter[str] = Counter()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            if state.pending is not None:
                s, drawn, cut = state.state, state.drawn, state.from_deck
                source = Counter(s.deck) - Counter(drawn) if len(drawn) < cut else \
                    Counter(s.pile[:-1]) - Counter(drawn[cut:])
                total = sum(source.values())
                assert outcomes == [(c, n / total) for c, n in sorted(source.items())]
                seen["reshuffle draw" if len(state.drawn) >= state.from_deck else "draw"] += 1
                if state.reshuffle and state.from_deck > 0:
                    seen["draw across a reshuffle"] += 1
            elif state.poll_chance:
                seen["poll"] += 1
            actions, probs = zip(*outcomes, strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            legal = state.legal_actions()
            late = state.state.turn_number > 150
            choice = [a for a in legal if a != 0] if not late else legal
            state.apply_action(rng.choice(choice or legal))
        if state.state is not None:
            assert Counter(state.state.all_cards()) == full
    return seen, state.state.reshuffles


def test_cards_chance_covers_deal_draws_reshuffles_and_polls() -> None:
    seen: Counter[str] = Counter()
    reshuffles = 0
    for seed in range(6):
        s, r = long_round(seed, "snap_penalty:3")
        seen += s
        reshuffles += r
    assert reshuffles > 0
    for kind in ("draw", "reshuffle draw", "poll", "draw across a reshuffle"):
        assert seen[kind] > 0, kind


def test_cards_state_agrees_with_engine_phase() -> None:
    game = pyspiel.load_game("python_cambio_cards", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        engine = state.state
        assert state.current_player() == engine.current_player()
        if engine.phase == Phase.POLL:
            assert state.legal_actions()[0] == 6  # pass
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns() == state.state.returns()
    assert len(state.history()) <= cambio_openspiel.MAX_CARDS_LENGTH


def test_cards_information_states_hold_no_unseen_card() -> None:
    """Two deals that differ only in seat 1's unseen top row (slots 0 and 1) and one deck
    card give every seat the same information state and tensors, though the states differ."""
    game = pyspiel.load_game("python_cambio_cards", {"players": 2})
    deal = list(range(4, 12))  # card codes: the four aces, then the four twos
    other = deal[:]
    other[4], other[5] = 40, 44  # seat 1's slots 0 and 1: tens instead
    states = []
    for cards in (deal, other):
        state = game.new_initial_state()
        for card in cards:
            state.apply_action(card)
        state.apply_action(state.legal_actions()[1 if state.legal_actions()[0] == 0 else 0])
        state.apply_action(20)  # chance: seat 0 draws a 5
        states.append(state)
    a, b = states
    assert str(a) != str(b)
    for seat in range(2):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    # a card a seat has seen does show: seat 0's own bottom row differs here
    third = deal[:]
    third[2] = 48
    c = game.new_initial_state()
    for card in third:
        c.apply_action(card)
    fresh = game.new_initial_state()
    for card in deal:
        fresh.apply_action(card)
    assert c.information_state_string(0) != fresh.information_state_string(0)
    assert c.information_state_string(1) == fresh.information_state_string(1)


def reference_history(state: cambio_openspiel.CambioCardsState, seat: int, steps: int,
                      actions: int) -> np.ndarray:
    """The information-state tensor's history rows written one number at a time."""
    n = state.g.players
    rows = np.zeros((steps, n + 3), dtype=np.float32)
    for i, (actor, number, a, b) in enumerate(state.steps[seat]):
        rows[i, actor] = 1.0
        rows[i, n] = (number + 1) / actions
        rows[i, n + 1] = 0.0 if a < 0 else (card_class(a) + 1) / CLASSES
        rows[i, n + 2] = 0.0 if b < 0 else (card_class(b) + 1) / CLASSES
    return rows.ravel()


@pytest.mark.parametrize("preset", PRESETS)
def test_cards_information_states_are_the_views_step_by_step(preset: str) -> None:
    """At every node of random rounds: each seat's information-state string is, line by
    line, the text of its view after each step; its tensor is the encoding of its view, its
    opening view and its history rows. One observer serves every call (long rounds, then
    short ones), so rows left from an earlier call would show."""
    game = pyspiel.load_game("python_cambio_cards",
                             {"players": 3, "rules": preset, "max_turns": 30})
    codec = game.codec
    size = codec.size
    steps = game.shared.recall_steps
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(len(preset))
    checked = 0
    for _ in range(6):
        state = game.new_initial_state()
        texts: list[list[str]] = [[] for _ in range(3)]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                state.apply_action(rng.choice([a for a, _ in outcomes]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            engine = state.state
            if engine is None or state.is_chance_node():
                continue
            last = action_text(engine.history[-1][1]) if engine.history else "deal"
            for seat in range(3):
                if len(texts[seat]) < len(state.seen[seat]):
                    texts[seat].append(f"{last} | {view_text(observe(engine, seat))}")
                assert state.information_state_string(seat) == \
                    f"seat {seat}\n" + "\n".join(texts[seat])
                observer.set_from(state, seat)
                t = observer.tensor
                assert t[:size].tobytes() == codec.encode(observe(engine, seat)).tobytes()
                assert t[size:2 * size].tobytes() == state.opening[seat].tobytes()
                assert t[2 * size:].tobytes() == reference_history(
                    state, seat, steps, codec.num_actions).tobytes()
                checked += 1
    assert checked > 150
