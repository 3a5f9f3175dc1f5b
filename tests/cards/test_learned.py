"""The ``learned`` bot: legal everywhere, blind to what its seat has not seen, deterministic,
its weights read from the package. (Its strength is measured in benchmarks, not here.)"""

from __future__ import annotations

import dataclasses
import importlib.resources
import sys
from pathlib import Path
from random import Random

import numpy as np
import pytest

from cambio.bots.cards import CardBot, ExpectedPointsBot, make_bot, play_round
from cambio.bots.cards.learned import (
    BASE_TABLE,
    FEATURES,
    WEIGHTS_FILE,
    DistilledNetworkBot,
    Featurizer,
    Weights,
    load_weights,
    shipped_tables,
    weights_file,
    weights_table,
)
from cambio.cards import Phase, Rules, State, observe
from cambio.cards.actions import PASS, SWAP, Kind, exchange_slots, kind_of
from cambio.cards.rules import PRESET_NAMES, tables

from .knowledge import twin_views, varied_rounds

PRESETS = ("rulebook", "house", "wikipedia")


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_learned_plays_legal_rounds_to_the_end(preset: str, players: int) -> None:
    opponents = ("memory", "random", "snapper", "expert")
    for k in range(8 if preset in PRESETS else 4):
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


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_presets_actions_have_their_kind_in_the_row(preset: str) -> None:
    """One kind bit per row in every preset: cabo's exchanges (several cards at once) read as
    swaps of all their cards, the only kind without a bit of its own."""
    featurize = Featurizer(0)
    kinds = set()
    for players in (2, 4):
        state = State(Rules.preset(preset), players, seed=3, polled=True)
        bots = [make_bot("expert", s) for s in range(players)]
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            rows = featurize(view)
            for a, row in zip(view.legal, rows, strict=True):
                kind = kind_of(a)
                kinds.add(kind)
                assert row[30:43].sum() == 1.0
                assert row[30 + (SWAP if kind == Kind.EXCHANGE else kind)] == 1.0
            state.apply(bots[seat].act(view), seat)
    assert (Kind.EXCHANGE in kinds) == (preset == "cabo")
    assert (Kind.SNAP in kinds) == Rules.preset(preset).snapping


def test_an_exchange_counts_every_card_it_sends_away() -> None:
    """The row of an exchange of seen cards: the swap bit and the points of all of them."""
    featurize = Featurizer(0)
    values = tables(Rules.preset("cabo")).values
    checked = 0
    for deal in range(4):
        state = State(Rules.preset("cabo"), 2, seed=deal, polled=True)
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            own = view.grids[seat]
            for i, a in enumerate(view.legal):
                slots = exchange_slots(a) if kind_of(a) == Kind.EXCHANGE else []
                if not slots or any(own[j] < 0 for j in slots):
                    continue
                row = featurize(view)[i, 30:]
                sent = sum(int(values[own[j]]) for j in slots)
                assert row[SWAP] == 1.0
                assert row[13 + 4] == pytest.approx(sent / 10)
                assert row[13 + 10] == pytest.approx((sent - int(values[view.held])) / 10)
                checked += 1
            state.apply(make_bot("memory", 0).act(view), seat)
    assert checked > 5


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


def test_the_training_script_plays_the_table_it_is_given(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rules cabo --players 4`` end to end on a tiny run (``expert`` teaching, to stay
    fast): every sample is a 4-player cabo decision, and the weights it writes play."""
    from tests.support.benchmarks import load_benchmark

    script = load_benchmark("cards_learned")
    paths = {k: tmp_path / f"{k}.npz" for k in ("data", "dagger", "out")}
    monkeypatch.setattr(sys, "argv", [
        "cards_learned.py", "all", "--rules", "cabo", "--players", "4", "--teacher", "expert",
        "--games", "8", "--dagger-games", "4", "--workers", "1", "--epochs", "2", "--curve",
        "--eval-deals", "2", "--data", str(paths["data"]), "--dagger-data",
        str(paths["dagger"]), "--out", str(paths["out"])])
    script.main()
    for name in ("data", "dagger"):
        data = script.Data.load(paths[name])
        assert data.decisions() > 20
        assert np.all(data.x[:, 6] == 1.0)  # players / 4: every table had four
    weights = load_weights(paths["out"])
    state = State(Rules.preset("cabo"), 4, seed=1, polled=True)
    play_round(state, [DistilledNetworkBot(s, weights) for s in range(4)])
    assert state.is_over()


def test_the_heads_up_deals_are_the_original_ones() -> None:
    """Two players: the teacher in seat ``deal % 2`` against :func:`opponent`'s bot, as
    before ``--players`` (the rulebook weights' command reproduces them)."""
    from tests.support.benchmarks import load_benchmark

    script = load_benchmark("cards_learned")
    teacher = ExpectedPointsBot(0)
    for deal in range(6):
        bots = script.table_bots(teacher, deal, 2, 23, "learned")
        assert bots[deal % 2] is teacher
        assert bots[1 - deal % 2].name == script.opponent(deal)
    four = script.table_bots(teacher, 5, 4, 23, "learned")
    assert four[1] is teacher and len(four) == 4


def test_learned_with_a_table_plays_those_weights_anywhere() -> None:
    bot = make_bot("learned:rulebook-2p", 3)
    assert isinstance(bot, DistilledNetworkBot) and bot.weights is load_weights(WEIGHTS_FILE)
    for spec in ("learned:nowhere-2p", "learned:rulebook-99p", "learned:rulebook"):
        with pytest.raises(ValueError, match="no learned weights for"):
            make_bot(spec, 0)


def test_every_shipped_table_is_package_data() -> None:
    package = importlib.resources.files("cambio.bots.cards")
    tables_ = shipped_tables()
    assert BASE_TABLE in tables_ and len(tables_) > 1
    for preset, players in tables_:
        path = weights_file(preset, players)
        assert package.joinpath(path.name).is_file()
        assert load_weights(path).layers[0][0].shape[0] == FEATURES
        assert weights_table(preset, players) == (preset, players)


def test_a_table_without_weights_plays_the_nearest_that_ship() -> None:
    """Same preset, nearest count (a tie to the larger), else rulebook by the same rule."""
    shipped = set(shipped_tables())
    assert {("house", 2), ("wikipedia", 2), ("rulebook", 4), ("cabo", 2)} <= shipped
    assert ("rulebook", 3) not in shipped and ("cabo", 4) not in shipped
    assert weights_table("cabo", 4) == ("cabo", 2)
    assert weights_table("rulebook", 3) == ("rulebook", 4)
    assert weights_table("rulebook", 6) == ("rulebook", 4)
    some = (("rulebook", 2), ("rulebook", 4), ("house", 2), ("house", 6))
    assert weights_table("house", 4, some) == ("house", 6)  # 2 away either side: larger
    assert weights_table("house", 3, some) == ("house", 2)
    assert weights_table("evan", 2, some) == ("rulebook", 2)  # no evan weights: rulebook's
    assert weights_table("evan", 3, some) == ("rulebook", 4)
    assert weights_table("evan", 8, (("house", 2),)) == BASE_TABLE


@pytest.mark.parametrize(("rules", "players", "table"), [
    (Rules.preset("house"), 2, "house-2p"),
    (Rules.preset("house", value_jack=5), 2, "house-2p"),  # a variant: its preset's
    (Rules.preset("rulebook"), 3, "rulebook-4p"),
    (Rules.preset("wikipedia"), 2, "wikipedia-2p"),
])
def test_the_bot_plays_the_weights_of_its_table(rules: Rules, players: int,
                                                table: str) -> None:
    """Every move of a round is the one the chosen table's weights pick; the rulebook
    heads-up weights would have played otherwise somewhere (the choice matters)."""
    bot = DistilledNetworkBot(1)
    chosen = DistilledNetworkBot.trained_for(table, 1)
    base = DistilledNetworkBot.trained_for("rulebook-2p", 1)
    others = [ExpectedPointsBot(s) for s in range(players)]
    decided = differed = 0
    for deal in range(4):
        state = State(rules, players, seed=deal, polled=True)
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if seat == 0:
                action = bot.act(view)
                assert action == chosen.act(view)
                decided += 1
                differed += action != base.act(view)
            else:
                action = others[seat].act(view)
            state.apply(action, seat)
    assert decided > 40 and differed > 0
