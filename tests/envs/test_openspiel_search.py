"""The card game for OpenSpiel's information-set algorithms: perfect-recall information
states, ``resample_from_infostate`` from the search bots' determinization, and OpenSpiel's
``ISMCTSBot`` playing whole rounds."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cambio.envs.openspiel as cambio_openspiel
from cambio.cards import Phase, Rules, RulesError, card_code, deck_cards
from cambio.envs.cards_codec import card_class

SHORT = {"players": 2, "max_turns": 4}


def play_random(state: Any, rng: random.Random, until: int | None = None) -> Any:
    """Random play (chance by its probabilities) until ``until`` decisions or the end."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if until is not None and decisions == until:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    return state


def by_class(text: str) -> str:
    """An information-state string with each card named by its class (the tensors'
    abstraction: suits matter only through a king's colour)."""
    return CARD.sub(lambda m: f"c{CLASS_OF[m.group(0)]}" if m.group(0) in CLASS_OF
                    else m.group(0), text)


CLASS_OF = {card_code(c): card_class(c) for c in set(deck_cards(2, 2))}
CARD = re.compile(r"\b[0-9A-Z]{2}\b")


def test_information_state_is_perfect_recall_and_not_the_observation() -> None:
    """Decision points with the same current observation but different histories have
    different information states: every two different histories (strings, cards read as
    their classes) have different tensors, and equal ones equal tensors."""
    game = pyspiel.load_game("python_cambio_cards", SHORT)
    by_obs: dict[tuple[int, bytes], dict[str, bytes]] = defaultdict(dict)
    for seed in range(150):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            p = state.current_player()
            obs = np.asarray(state.observation_tensor(p), dtype=np.float32).tobytes()
            info = np.asarray(state.information_state_tensor(p), dtype=np.float32).tobytes()
            seen = by_obs[(p, obs)]
            string = by_class(state.information_state_string(p))
            assert seen.setdefault(string, info) == info
            state.apply_action(rng.choice(state.legal_actions()))
    for infos in by_obs.values():
        assert len(set(infos.values())) == len(infos)  # different histories, different tensors
    assert game.information_state_tensor_size() > game.observation_tensor_size()


def test_two_poll_orders_meet_at_one_observation_with_two_information_states() -> None:
    """A discard polled from each of the three seats in turn, everyone passing: seat 1's
    next observation is the same, its history (who passed when) is not."""
    game = pyspiel.load_game("python_cambio_cards", {"players": 3, "rules": "rulebook"})
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    state.apply_action(1)  # seat 0 draws
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(3)  # and discards
    if state.current_player() >= 0:
        state.apply_action(5)  # skips the power
    assert state.is_chance_node() and len(state.chance_outcomes()) == 3  # who is asked first
    infos = []
    for first in range(3):
        branch = state.clone()
        branch.apply_action(first)
        while branch.state.phase == Phase.POLL:
            branch.apply_action(6)  # pass
        assert branch.current_player() == 1
        infos.append((branch.observation_tensor(1), branch.information_state_string(1),
                      branch.information_state_tensor(1)))
    assert infos[0][0] == infos[1][0] == infos[2][0]
    assert len({i[1] for i in infos}) == 3
    assert len({tuple(i[2]) for i in infos}) == 3


def test_information_state_tensor_bound_follows_the_turn_cap() -> None:
    game = pyspiel.load_game("python_cambio_cards", SHORT)
    obs = game.observation_tensor_size()
    per_turn = cambio_openspiel.STEPS_PER_TURN_BASE + 2 * cambio_openspiel.STEPS_PER_TURN_PER_SEAT
    steps = 4 * per_turn
    assert game.information_state_tensor_size() == 2 * obs + steps * (2 + 3)
    tight = pyspiel.load_game("python_cambio_cards", {**SHORT, "recall_steps": 3})
    state = play_random(tight.new_initial_state(), random.Random(1), until=4)
    with pytest.raises(ValueError, match="recall_steps"):
        state.information_state_tensor(0)


def test_max_num_players_is_what_the_game_accepts() -> None:
    most = pyspiel.load_game("python_cambio_cards").get_type().max_num_players
    assert most == cambio_openspiel.MOST_CARD_PLAYERS
    Rules.preset("house").check_players(most)
    with pytest.raises(RulesError):
        Rules.preset("house").check_players(most + 1)
    nine = pyspiel.load_game("python_cambio_cards", {"players": 9, "rules": "house"})
    assert play_random(nine.new_initial_state(), random.Random(2)).is_terminal()


def test_resample_keeps_the_information_state_and_reads_only_the_view() -> None:
    """The sampled world: the same information state (string and tensor), observation and
    legal actions for the seat; different hidden cards across samples; the same world for
    two states the seat cannot tell apart (it never reads what the seat has not seen)."""
    game = pyspiel.load_game("python_cambio_cards", {"players": 3, "rules": "house"})
    differed = 0
    for seed in range(12):
        state = play_random(game.new_initial_state(), random.Random(seed), until=seed % 7)
        if state.is_terminal():
            continue
        p = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        worlds = [state.resample_from_infostate(p, sampler) for _ in range(4)]
        for w in worlds:
            assert w.information_state_string(p) == state.information_state_string(p)
            assert w.information_state_tensor(p) == state.information_state_tensor(p)
            assert w.observation_tensor(p) == state.observation_tensor(p)
            assert w.legal_actions() == state.legal_actions()
            assert sorted(w.state.all_cards()) == sorted(state.state.all_cards())
            play_random(w, random.Random(seed))  # a world plays on to the end
            assert w.is_terminal()
        differed += len({str(w) for w in worlds}) > 1

        class Fixed:
            def __call__(self) -> float:
                return 0.25

        a = state.resample_from_infostate(p, Fixed())
        b = state.resample_from_infostate(p, Fixed())
        assert str(a) == str(b)
    assert differed >= 6


def test_resample_refuses_chance_nodes() -> None:
    game = pyspiel.load_game("python_cambio_cards", SHORT)
    with pytest.raises(ValueError, match="decision"):
        game.new_initial_state().resample_from_infostate(
            0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def play_match(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    returns: list[float] = state.returns()
    return returns


@pytest.mark.parametrize("opponent", ["random", "mcts"])
def test_ismcts_plays_whole_rounds(opponent: str) -> None:
    """OpenSpiel's own ``ISMCTSBot`` (sampling worlds with ``resample_from_infostate``)
    plays rounds to the end in both seats, against a random player and against OpenSpiel's
    ``MCTSBot`` (which searches the true state)."""
    game = pyspiel.load_game("python_cambio_cards", SHORT)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    for seat in (0, 1):
        search = ismcts.ISMCTSBot(game, evaluator, 2.0, 12, random_state=rng)
        other = (pyspiel.make_uniform_random_bot(1 - seat, 3) if opponent == "random"
                 else mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=rng))
        bots = [search, other] if seat == 0 else [other, search]
        returns = play_match(game, bots, rng)
        assert sorted(set(returns)) in ([-1.0, 1.0], [0.0], [1.0])
        assert search._root_node is not None  # it searched (a decision with a choice)


def test_resample_is_the_same_for_states_the_seat_cannot_tell_apart() -> None:
    """Two deals that differ only in seat 1's unseen cards: seat 0's sampled worlds, from
    the same sampler values, are the same world."""
    game = pyspiel.load_game("python_cambio_cards", {"players": 2})
    deal = list(range(4, 12))
    other = deal[:]
    other[4], other[5] = 40, 44  # seat 1's unseen slots: tens instead of twos
    states = []
    for cards in (deal, other):
        state = game.new_initial_state()
        for card in cards:
            state.apply_action(card)
        states.append(state)
    assert str(states[0]) != str(states[1])

    class Fixed:
        def __call__(self) -> float:
            return 0.625

    a, b = (s.resample_from_infostate(0, Fixed()) for s in states)
    assert str(a) == str(b)
    assert a.information_state_string(1) == b.information_state_string(1)
