"""The encodings: action numbers round-trip, and a seat's tensor holds nothing it has not seen."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cambio.cards import Rules, State, observe
from cambio.envs.cards_codec import CardsCodec, capped_rules

PRESETS = ("rulebook", "house", "wikipedia", "cabo", "cambia", "evan")


def played(preset: str, players: int, seed: int, steps: int) -> State:
    rules = capped_rules(Rules.preset(preset), 8)
    state = State(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        legal = [a for a in state.legal_actions() if a != 0] or state.legal_actions()
        state.apply(rng.choice(legal))
    return state


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_action_numbers_round_trip(preset: str, players: int) -> None:
    codec = CardsCodec(capped_rules(Rules.preset(preset), 8), players)
    for seed in range(30):
        state = played(preset, players, seed, seed * 3)
        for seat in range(players):
            for action in state.legal_actions(seat):
                index = codec.encode_action(action, seat)
                assert 0 <= index < codec.num_actions
                assert codec.decode_action(index, seat) == action


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tensor_read_from_the_state_is_the_views(preset: str, players: int) -> None:
    """``encode_state`` (the environments' fast path) gives ``encode(observe(...))``'s
    tensor, and the looked-up action numbers the computed ones, for every seat at every
    position of random rounds (snaps, powers, gives, reshuffles, the end)."""
    rules = capped_rules(Rules.preset(preset), 8)
    codec = CardsCodec(rules, players)
    rng = random.Random(players)
    positions = 0
    for seed in range(25):
        state = State(rules, players, seed=seed)
        while True:
            for seat in range(players):
                want = codec.encode(observe(state, seat))
                got = codec.encode_state(state, seat)
                assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), \
                    (seed, seat, state.history, np.flatnonzero(got != want))
                legal = state.legal_actions(seat)
                numbers = [codec.encode_action(a, seat) for a in legal]
                assert codec.numbers(legal, seat) == numbers
                assert [codec.action_of(i, seat) for i in numbers] == legal
                assert np.flatnonzero(codec.action_mask(legal, seat)).tolist() == \
                    sorted(numbers)
                positions += 1
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert positions > 300


@pytest.mark.parametrize("preset", PRESETS)
def test_unseen_cards_do_not_change_a_seats_tensor(preset: str) -> None:
    """Swap a card the seat has not seen (another's face-down card, or its own unseen one)
    with a deck card: its tensor stays identical. Swapping a card it has seen changes it."""
    players = 3
    codec = CardsCodec(capped_rules(Rules.preset(preset), 8), players)
    unseen_checked = seen_checked = 0
    for seed in range(40):
        state = played(preset, players, seed, 5 + seed * 2)
        if state.is_over() or not state.deck:
            continue
        for seat in range(players):
            before = codec.encode(observe(state, seat))
            bit = (1 << seat) | state.public
            for owner in range(players):
                for slot, card in enumerate(state.grids[owner]):
                    if card < 0:
                        continue
                    other = next((c for c in state.deck if c >> 2 != card >> 2), None)
                    if other is None:
                        continue
                    changed = state.clone()
                    changed.grids[owner][slot] = other
                    changed.deck[changed.deck.index(other)] = card
                    after = codec.encode(observe(changed, seat))
                    if state.known[owner][slot] & bit:
                        assert not np.array_equal(before, after)
                        seen_checked += 1
                    else:
                        assert np.array_equal(before, after)
                        unseen_checked += 1
            # the order of the deck is never seen
            shuffled = state.clone()
            shuffled.deck.reverse()
            assert np.array_equal(before, codec.encode(observe(shuffled, seat)))
    assert unseen_checked > 100 and seen_checked > 20


def test_fields_add_up_and_are_documented() -> None:
    codec = CardsCodec(capped_rules(Rules.preset("rulebook"), 8), 4)
    assert sum(f.size for f in codec.fields) == codec.size
    text = (Path(__file__).parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")
    for f in codec.fields:
        assert f"`{f.name}`" in text, f"docs/envs.md does not describe field {f.name}"


@pytest.mark.parametrize("name", ["pettingzoo", "gymnasium", "openspiel", "agent_bot", "vector",
                                  "cards_vector"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"cambio.envs.{name}"))
    assert result.attempted > 0
    assert result.failed == 0
