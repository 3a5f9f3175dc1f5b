"""Native rollouts finish a state exactly as the Python ``memory`` bots would."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest

from cambio.bots.cards import CardBot, ExpectedPointsBot, play_round
from cambio.bots.cards.memory import TUNED
from cambio.bots.cards.rollouts import Rollouts, load_state, load_states
from cambio.cards import Rules, State, observe
from cambio.cards import batch_kernels as k
from cambio.cards.batch import state_snapshot


def _midway(rules: Rules, players: int, seed: int, steps: int) -> State:
    """A round played ``steps`` actions into by ``memory`` bots (or less if it ends)."""
    s = State(rules, players, seed=seed, polled=True)
    bots = [ExpectedPointsBot(x) for x in range(players)]
    for _ in range(steps):
        if s.is_over():
            break
        seat = s.current_player()
        s.apply(bots[seat].act(observe(s, seat)), seat)
    return s


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("house", 3),
                                                 ("wikipedia", 4), ("rulebook", 5),
                                                 ("cabo", 2), ("cabo", 4), ("cambia", 2),
                                                 ("cambia", 4), ("evan", 3)])
def test_rows_finish_as_python_memory_bots_finish_the_state(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    rng = Random(players)
    states = [_midway(rules, players, seed, rng.randrange(0, 120)) for seed in range(60)]
    r = Rollouts(rules, players, len(states))
    for i, s in enumerate(states):
        load_state(r.batch, i, s.clone())
    r.finish(len(states))
    for i, s in enumerate(states):
        end = play_round(s, [ExpectedPointsBot(x) for x in range(players)])
        assert r.batch.snapshot(i)["grids"] == [list(g) for g in end.grids]
        assert r.batch.snapshot(i)["pile"] == list(end.pile)
        winners = end.winners()
        expected = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        assert [r.shares(len(states), seat)[i] for seat in range(players)] == expected
        assert [r.outcomes(len(states), seat)[1][i] for seat in range(players)] \
            == list(end.scores())


@pytest.mark.parametrize(("preset", "players", "seat"), [("rulebook", 2, 1), ("wikipedia", 4, 2)])
def test_a_seat_with_its_own_weights_plays_as_memory_with_those_weights(
        preset: str, players: int, seat: int) -> None:
    rules = Rules.preset(preset)
    rng = Random(seat)
    states = [_midway(rules, players, seed, rng.randrange(0, 60)) for seed in range(40)]
    r = Rollouts(rules, players, len(states))
    r.seat_params(seat, TUNED)
    for i, s in enumerate(states):
        load_state(r.batch, i, s.clone())
    r.finish(len(states))
    differs = 0
    for i, s in enumerate(states):
        bots: list[CardBot] = [ExpectedPointsBot(x) for x in range(players)]
        bots[seat] = ExpectedPointsBot(seat, TUNED)
        end = play_round(s.clone(), bots)
        assert r.batch.snapshot(i)["grids"] == [list(g) for g in end.grids]
        plain = play_round(s.clone(), [ExpectedPointsBot(x) for x in range(players)])
        differs += plain.grids != end.grids
    assert differs > 0  # the weights changed some rounds, so the check above has teeth


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("house", 3)])
def test_each_row_plays_with_its_own_weights_per_seat(preset: str, players: int) -> None:
    """finish_with: row i's seat s plays memory with prm[i, s] -- rows alternate which seat
    plays the tuned weights, and each row ends as Python memory bots with those weights end
    the same state."""
    rules = Rules.preset(preset)
    rng = Random(players)
    states = [_midway(rules, players, seed, rng.randrange(0, 60)) for seed in range(30)]
    r = Rollouts(rules, players, len(states))
    plain, tuned = r.params_row(None), r.params_row(TUNED)
    prm = np.array([[tuned if s == i % players else plain for s in range(players)]
                    for i in range(len(states))])
    for i, s in enumerate(states):
        load_state(r.batch, i, s.clone())
    r.finish_with(len(states), prm)
    differs = 0
    for i, s in enumerate(states):
        bots: list[CardBot] = [ExpectedPointsBot(x) for x in range(players)]
        bots[i % players] = ExpectedPointsBot(0, TUNED)
        end = play_round(s.clone(), bots)
        assert r.batch.snapshot(i)["grids"] == [list(g) for g in end.grids]
        differs += play_round(s.clone(), [ExpectedPointsBot(x) for x in range(players)]).grids \
            != end.grids
    assert differs > 0


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("house", 3),
                                                 ("wikipedia", 4), ("cabo", 3), ("cambia", 3),
                                                 ("evan", 2)])
def test_a_loaded_row_is_the_state_and_plays_on_as_it(preset: str, players: int) -> None:
    """load_state(s) write every field the kernels read, over whatever the row held: the row's
    snapshot is the state's, and both play on alike to the end of the round (reshuffles and
    poll orders, drawn from the seed and the chance counter, included)."""
    rules = Rules.preset(preset)
    rng = Random(players)
    noise = np.random.default_rng(players)
    r = Rollouts(rules, players, 2)
    b = r.batch
    checked = 0
    for seed in range(30):
        s = _midway(rules, players, seed, rng.randrange(0, 120))
        # Noise in the rows loaded (both rows must hold games: the batch steps every row).
        if seed % 2:
            b.st[1] = noise.integers(-3, 60, b.st.shape[1])
            load_state(b, 1, s)
        else:  # several at once, as the search bots load their worlds
            b.st[:] = noise.integers(-3, 60, b.st.shape)
            other = _midway(rules, players, seed + 100, rng.randrange(0, 120))
            load_states(b, 0, [other, s])
            assert b.snapshot(0) == state_snapshot(other)
        signed = s.seed - (1 << 64) if s.seed >= 1 << 63 else s.seed
        assert b.st[1, [k.SEED, k.DEALER, k.ACTIONS]].tolist() == [signed, s.dealer, 0]
        while True:
            assert b.snapshot(1) == state_snapshot(s)
            if s.is_over():
                break
            acts, counts = b.legal_actions()
            legal = s.legal_actions()
            assert acts[1, :counts[1]].tolist() == legal
            action = rng.choice(legal)
            s.apply(action)
            b.step([-1, action])
            checked += 1
    assert checked > (100 if preset == "cabo" else 150)  # cabo's rounds are short: no snaps
