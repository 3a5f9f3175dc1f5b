"""Dice-game reviews: exact on solvable boards, by the native search elsewhere."""

from __future__ import annotations

import pytest

from cambio.board import Board, Rules
from cambio.bots.board import make_bot
from cambio.bots.board.perfect import solution_for
from cambio.records.board import Result, record_text, replay
from cambio.records.jsonl import RecordError, parse_record
from cambio.review.board import review_game


def played(rules: Rules, bots: tuple[str, str], seed: int, cap: int = 40) -> Result:
    board = Board(rules)
    players = [make_bot(name, rules, seed + i) for i, name in enumerate(bots)]
    while not board.is_over() and len(board.move_stack) < cap:
        board.push(players[board.turn].choose(board))
    return replay(parse_record(record_text(board)))


def test_a_perfect_player_makes_only_best_moves_on_a_solved_board():
    rules = Rules(size=3)
    result = played(rules, ("perfect", "random"), seed=1)
    review = review_game(result, 0)
    assert review.decisions and review.budget == "exact table"
    assert all(d.exact and d.label == "best" for d in review.decisions)
    assert review.accuracy == pytest.approx(100.0, abs=0.01)
    shape = review.to_json()
    assert shape["game"] == "board" and shape["costliest"] == []
    assert all(d["points"] is None and d["chosen"]["score"] is None
               for d in shape["decisions"])


def test_exact_values_are_the_tables():
    rules = Rules(size=3)
    table = solution_for(rules)
    result = played(rules, ("random", "random"), seed=2)
    review = review_game(result, 1)
    board = Board(rules)
    by_step = {d.step: d for d in review.decisions}
    for i, move in enumerate(result.board.move_stack):
        if i in by_step:
            values = table.move_values(board)
            want = {board.move_text(m): (1 + (v > 0) - (v < 0)) / 2 for m, v in values.items()}
            assert {o.action: o.win for o in by_step[i].options} == want
        board.push(move)


def test_searched_review_on_the_published_board():
    result = played(Rules(), ("random", "greedy"), seed=3, cap=6)
    review = review_game(result, 0, depth=1)
    assert review.budget == "depth 1"
    assert len(review.decisions) == 3
    for d in review.decisions:
        assert not d.exact
        assert all(0.0 <= o.win <= 1.0 for o in d.options)
        assert d.best.win >= d.chosen.win


def test_bad_seat_is_refused():
    result = played(Rules(size=3), ("random", "random"), seed=4)
    with pytest.raises(RecordError, match="seat 2"):
        review_game(result, 2)


def test_same_record_gives_the_same_review_and_forced_results_are_exact():
    """Nothing in a dice review is random; a forced result the search proves within its
    depth is valued as the result itself (won 1, lost 0), not as an estimate."""
    result = played(Rules(), ("greedy", "random"), seed=11, cap=200)
    out = result.board.outcome
    assert out is not None and out.winners == (0,)
    loser = review_game(result, 1, depth=4)
    assert loser.to_json() == review_game(result, 1, depth=4).to_json()
    last = loser.decisions[-1]
    assert last.chosen.win == 0.0 and last.best.win > 0.0  # it walked into a forced loss
    assert last.loss == pytest.approx(100 * last.best.win)
    winner = review_game(result, 0, depth=1).decisions[-1]
    assert winner.chosen.win == 1.0 and winner.label == "best"  # the winning push
    for d in loser.decisions + review_game(result, 0, depth=1).decisions:
        if d.exact:
            assert all(o.win in (0.0, 0.5, 1.0) for o in d.options)
