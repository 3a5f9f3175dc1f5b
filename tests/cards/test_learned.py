"""The ``learned`` bot: legal everywhere, blind to what its seat has not seen, deterministic,
its weights read from the package. (Its strength is measured in benchmarks, not here.)"""

from __future__ import annotations

import dataclasses
import importlib.resources
from pathlib import Path
from random import Random

import numpy as np
import pytest

from cambio.bots.cards import CardBot, ExpectedPointsBot, make_bot, play_round
from cambio.bots.cards.learned import (
    FEATURES,
    WEIGHTS_FILE,
    DistilledNetworkBot,
    Featurizer,
    Weights,
    load_weights,
)
from cambio.cards import Phase, Rules, State, observe
from cambio.cards.actions import PASS

from .knowledge import twin_views, varied_rounds

PRESETS = ("rulebook", "house", "wikipedia")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_learned_plays_legal_rounds_to_the_end(preset: str, players: int) -> None:
    opponents = ("memory", "random", "snapper", "expert")
    for k in range(8):
        state = State(Rules.preset(preset), players, seed=100 * players + k, polled=True)
        bots: list[CardBot] = [make_bot("learned" if s == k % players
                                        else opponents[(k + s) % 4], k * 10 + s)
                               for s in range(players)]
        play_round(state, bots)  # raises on an illegal answer
        assert state.is_over()


def test_learned_stays_legal_in_real_time_rounds() -> None:
    """Polled by the server's way: a poll-shaped view (pass or snap) at random moments."""
    rng = Random(5)
    bot = DistilledNetworkBot(3)
    polls = 0
    for k in range(6):
        state = State(Rules.preset(PRESETS[k % 3]), 2 + k % 3, seed=k, polled=False)
        others = [ExpectedPointsBot(s) for s in range(state.n)]
        while not state.is_over():
            seat = state.current_player()
            snappers = [s for s in range(state.n) if s != seat and state.can_snap(s)]
            if snappers and rng.random() < 0.5:
                s = rng.choice(snappers)
                view = observe(state, s)
                poll = dataclasses.replace(view, phase=Phase.POLL, legal=(PASS, *view.legal))
                action = bot.act(poll)
                assert action in poll.legal
                polls += 1
                if action != PASS:
                    state.apply(action, s)
                continue
            view = observe(state, seat)
            action = bot.act(view) if seat == 0 else others[seat].act(view)
            assert action in view.legal
            state.apply(action, seat)
    assert polls > 20


def test_learned_decides_from_the_view_only() -> None:
    """The cards the seat has not seen, shuffled: same view, same features, same action."""
    checked = differed = 0
    for t in twin_views(varied_rounds(9), Random("learned"), rate=0.5):
        assert t.twin == t.view
        assert np.array_equal(Featurizer(1)(t.view), Featurizer(1)(t.twin))
        assert DistilledNetworkBot(1).act(t.view) == DistilledNetworkBot(1).act(t.twin)
        checked += 1
        differed += t.moved
    assert checked > 80 and differed > checked // 2


def _actions(seed: int) -> list[int]:
    state = State(Rules.preset("house"), 3, seed=11, polled=True)
    bots: list[CardBot] = [make_bot("learned", seed), ExpectedPointsBot(1),
                           make_bot("learned", seed)]
    out: list[int] = []
    while not state.is_over():
        seat = state.current_player()
        action = bots[seat].act(observe(state, seat))
        out.append(action)
        state.apply(action, seat)
    return out


def test_learned_is_deterministic_for_a_seed() -> None:
    first = _actions(4)
    assert len(first) > 20
    assert _actions(4) == first


def test_one_feature_row_per_legal_action() -> None:
    state = State(Rules.preset("rulebook"), 4, seed=2, polled=True)
    featurize = Featurizer(0)
    seen_kinds = set()
    for _ in range(60):
        if state.is_over():
            break
        seat = state.current_player()
        view = observe(state, seat)
        rows = featurize(view)
        assert rows.shape == (len(view.legal), FEATURES) and rows.dtype == np.float32
        assert np.isfinite(rows).all()
        seen_kinds.add(view.phase)
        state.apply(ExpectedPointsBot(0).act(view), seat)
    assert {Phase.TURN_START, Phase.DRAWN} <= seen_kinds


def test_a_spectators_view_is_refused() -> None:
    state = State(Rules.preset("rulebook"), 2, seed=1, polled=True)
    with pytest.raises(ValueError, match="spectator"):
        Featurizer(0)(observe(state, None))


def test_weights_are_package_data_and_checked_on_load(tmp_path: Path) -> None:
    shipped = importlib.resources.files("cambio.bots.cards").joinpath("learned.npz")
    assert shipped.is_file() and Path(str(shipped)) == WEIGHTS_FILE
    weights = load_weights()
    assert weights.layers[0][0].shape[0] == FEATURES
    with np.load(WEIGHTS_FILE) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["version"] = np.array([-7], dtype=np.float32)
    stale = tmp_path / "stale.npz"
    np.savez(stale, **arrays)
    with pytest.raises(ValueError, match="features v-7"):
        load_weights(stale)


def test_training_fits_a_known_rule_and_the_bot_reads_what_it_wrote(tmp_path: Path) -> None:
    """``benchmarks/cards_learned.py``'s numpy trainer on decisions whose right action is
    the one with the largest feature 50 (of 8 noisy ones): it learns the rule (the gradient
    code is right), and the weights it writes load and rank actions the same way."""
    from tests.support.benchmarks import load_benchmark

    script = load_benchmark("cards_learned")
    rng = np.random.default_rng(3)
    sizes = rng.integers(2, 7, size=600)
    start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    x = np.zeros((int(start[-1]), FEATURES), dtype=np.float32)
    x[:, 46:54] = rng.standard_normal((int(start[-1]), 8))  # seven distractors
    label = np.array([int(np.argmax(x[start[d]:start[d + 1], 50])) for d in range(600)])
    data = script.Data(x, start, label, np.arange(600) // 6)
    train, test = script.split(data)
    assert train.decisions() == 540 and test.decisions() == 60
    assert np.array_equal(train.concat(test).label, data.label)
    arrays = script.train(train, 1, epochs=25)
    assert script.accuracy(Weights(arrays), test) > 0.85
    np.savez(tmp_path / "w.npz", **arrays)
    assert script.accuracy(load_weights(tmp_path / "w.npz"), test) == \
        script.accuracy(Weights(arrays), test)
