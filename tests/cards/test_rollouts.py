"""Native rollouts finish a state exactly as the Python ``memory`` bots would."""

from __future__ import annotations

from random import Random

import pytest

from cambio.bots.cards import MemoryBot, play_round
from cambio.bots.cards.rollouts import Rollouts, load_state
from cambio.cards import Rules, State, observe


def _midway(rules: Rules, players: int, seed: int, steps: int) -> State:
    """A round played ``steps`` actions into by ``memory`` bots (or less if it ends)."""
    s = State(rules, players, seed=seed, polled=True)
    bots = [MemoryBot(x) for x in range(players)]
    for _ in range(steps):
        if s.is_over():
            break
        seat = s.current_player()
        s.apply(bots[seat].act(observe(s, seat)), seat)
    return s


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 2), ("house", 3),
                                                 ("wikipedia", 4), ("rulebook", 5)])
def test_rows_finish_as_python_memory_bots_finish_the_state(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    rng = Random(players)
    states = [_midway(rules, players, seed, rng.randrange(0, 120)) for seed in range(60)]
    r = Rollouts(rules, players, len(states))
    for i, s in enumerate(states):
        load_state(r.batch, i, s.clone())
    r.finish(len(states))
    for i, s in enumerate(states):
        end = play_round(s, [MemoryBot(x) for x in range(players)])
        assert r.batch.snapshot(i)["grids"] == [list(g) for g in end.grids]
        assert r.batch.snapshot(i)["pile"] == list(end.pile)
        winners = end.winners()
        expected = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        assert [r.shares(len(states), seat)[i] for seat in range(players)] == expected
        assert [r.outcomes(len(states), seat)[1][i] for seat in range(players)] \
            == list(end.scores())
