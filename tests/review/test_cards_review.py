"""Card-round reviews: seeded, from the seat's view only, labelled, and memory slips."""

from __future__ import annotations

import random

import pytest

from cambio.bots.cards import make_bot
from cambio.cards import Phase, Rules, State, observe
from cambio.cards.actions import SWAP, kind_of, swap
from cambio.records.cards import Result, export, make_header, record_text, replay
from cambio.records.jsonl import RecordError, parse_record
from cambio.review import LABELS, accuracy_of, label_of
from cambio.review.cards import Searcher, alternatives, review_decision, review_round, slips
from tests.cards.knowledge import memory_rounds, twin_views

ROWS = 128  # small budgets: these tests check behaviour, not the values' precision


def played(seed: int, bots: tuple[str, str] = ("random", "memory")) -> Result:
    rules = Rules.preset("rulebook")
    state = State(rules, 2, seed=seed, polled=True)
    players = [make_bot(name, seed + i) for i, name in enumerate(bots)]
    history = []
    while not state.is_over():
        seat = state.current_player()
        action = players[seat].act(observe(state, seat))
        history.append((seat, action))
        state.apply(action, seat)
    return replay(parse_record(record_text(make_header(rules, 2, seed=seed), history)))


def test_same_record_seat_and_seed_give_the_same_review():
    result = played(5)
    one = review_round(result, 0, rows=ROWS, seed=3)
    assert one.decisions
    assert one.to_json() == review_round(result, 0, rows=ROWS, seed=3).to_json()


def test_every_decision_values_the_choice_and_orders_alternatives():
    review = review_round(played(6), 1, rows=ROWS)
    for d in review.decisions:
        assert len(d.options) >= 2
        wins = [o.win for o in d.options]
        assert wins == sorted(wins, reverse=True)
        assert d.chosen in d.options
        assert d.loss == pytest.approx(max(0.0, 100 * (d.best.win - d.chosen.win)))
        assert d.label == label_of(d.loss)
    assert review.series == [d.chosen.win for d in review.decisions]
    costly = review.costliest()
    assert len(costly) <= 3
    assert [d.loss for d in costly] == sorted((d.loss for d in costly), reverse=True)


def test_review_depends_only_on_the_view():
    """Two deals the seat cannot tell apart get the same review of each decision: the
    review reads the seat's view, never another seat's hidden cards."""
    searcher = Searcher(64)
    rng = random.Random(1)
    compared = 0
    for twins in twin_views(memory_rounds("rulebook", 2), rng, rate=0.3):
        if not twins.moved:
            continue
        chosen = twins.view.legal[0]
        a = review_decision(twins.view, chosen, seed=7, searcher=searcher)
        b = review_decision(twins.twin, chosen, seed=7, searcher=searcher)
        assert a == b
        compared += a is not None
    assert compared >= 5


def test_a_poll_compares_passing_and_known_matches():
    for twins in twin_views(memory_rounds("rulebook", 6), random.Random(2)):
        view = twins.view
        if view.phase == Phase.POLL:
            cands = alternatives(view, view.legal[-1])
            assert cands[0] == view.legal[-1]
            assert len(set(cands)) == len(cands)
            return
    pytest.fail("no snap poll in these rounds")


def test_swapping_out_a_known_lower_card_is_a_memory_slip():
    rng = random.Random(4)
    for twins in twin_views(memory_rounds("rulebook", 10), rng):
        view = twins.view
        me = view.seat
        assert me is not None
        if view.phase != Phase.DRAWN or view.held < 0:
            continue
        value = view.rules.value
        mine = view.grids[me]
        low = [i for i, c in enumerate(mine) if c >= 0 and value(c) < value(view.held)]
        other = [i for i, c in enumerate(mine) if c < 0 or value(c) >= value(view.held)]
        if not low or not other or swap(low[0]) not in view.legal:
            continue
        assert slips(view, swap(low[0]))
        assert "swapped out a known" in slips(view, swap(low[0]))[0]
        assert all(not slips(view, swap(i)) for i in other)
        d = review_decision(view, swap(low[0]), searcher=Searcher(32))
        assert d is not None and d.slips and kind_of(swap(low[0])) == SWAP
        return
    pytest.fail("no decision with a known lower card to swap out")


def test_bad_seat_and_player_eye_records_are_refused():
    result = played(7)
    with pytest.raises(RecordError, match="seat 5"):
        review_round(result, 5, rows=ROWS)
    eyes = replay(parse_record(export(result, 0)))
    with pytest.raises(RecordError, match="full record"):
        review_round(eyes, 0, rows=ROWS)
    with pytest.raises(ValueError, match="16 rollouts"):
        Searcher(8)


def test_labels_and_accuracy_follow_the_documented_thresholds():
    assert [name for name, _ in LABELS] == ["best", "good", "inaccuracy", "mistake", "blunder"]
    assert label_of(0.0) == "best"
    assert label_of(0.5) == "good"
    assert label_of(2.9) == "good"
    assert label_of(3.0) == "inaccuracy"
    assert label_of(7.0) == "mistake"
    assert label_of(15.0) == "blunder"
    assert label_of(100.0) == "blunder"
    assert accuracy_of(0.0) == pytest.approx(100.0, abs=0.01)
    assert 40 < accuracy_of(16.0) < 60
    assert accuracy_of(100.0) == 0.0
