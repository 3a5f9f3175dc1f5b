"""The exact solver on 3x3: against a plain fixed-point iteration written with the engine's
Board, its distances, its table file, and the perfect bot built on it."""

import itertools

import pytest

from cambio.board import PASS, Board, Rules
from cambio.board.bitboard import has_line, legal_pushes, push2
from cambio.board.rules import OtherLine
from cambio.board.setup import quick_setup
from cambio.board.solve import Solution, solve
from cambio.bots.board import BoardBot, GreedyBot, play_game
from cambio.bots.board.perfect import PerfectBot

# Counts over all 3**9 assignments, side to move (pinned: any change to the rules core or
# the solver that moves them must be explained).
EXPECTED = {
    "owner": {"positions": 19683, "wins": 12037, "losses": 6866, "draws": 780},
    "mover_loses": {"positions": 19683, "wins": 12453, "losses": 7134, "draws": 96},
}


def fixed_point(rules):
    """Win/loss/draw of every position by iterating to a fixed point (slow, obvious)."""
    b = Board(rules)
    g = b.g
    positions = []
    for digits in itertools.product(range(3), repeat=g.cells):
        x = sum(1 << i for i, d in enumerate(digits) if d == 1)
        o = sum(1 << i for i, d in enumerate(digits) if d == 2)
        positions.append((x, o))
    val = {}
    for x, o in positions:
        lx, lo = has_line(x, g.lines), has_line(o, g.lines)
        if lx and lo:
            val[x, o] = 1 if rules.other_line == "mover_loses" else 0
        elif lx or lo:
            val[x, o] = 1 if lx else -1

    def children(x, o):
        moves = legal_pushes((x, o), 0, g)
        if not moves:
            return [(o, x)]
        return [(b2, a2) for a2, b2 in (push2(x, o, m, g) for m in moves)]

    kids = {p: children(*p) for p in positions if p not in val}
    changed = True
    while changed:
        changed = False
        for p, cs in kids.items():
            if p in val:
                continue
            vs = [val.get(c) for c in cs]
            if -1 in vs:
                val[p], changed = 1, True
            elif all(v == 1 for v in vs):
                val[p], changed = -1, True
    return positions, val, kids


def assert_matches_fixed_point(rules: Rules, sol: Solution) -> None:
    """Every entry's sign is the fixed point's value and its distance the best play's."""
    positions, val, kids = fixed_point(rules)
    for p in positions:
        e = sol.entry(*p)
        assert (e > 0) - (e < 0) == val.get(p, 0), p
        if p in kids and e:
            child = [sol.entry(*c) for c in kids[p]]
            if e > 0:  # quickest win: one more than the quickest lost child
                assert e - 1 == min(-c for c in child if c < 0)
            else:  # slowest loss: one more than the slowest won child
                assert -e - 1 == max(c for c in child if c > 0)


@pytest.mark.parametrize("rule", ["owner", "mover_loses"])
def test_3x3_solution_matches_a_fixed_point_iteration(rule: OtherLine) -> None:
    rules = Rules(size=3, other_line=rule)
    sol = solve(rules)
    assert sol.counts() == EXPECTED[rule]
    assert_matches_fixed_point(rules, sol)


def test_lines_of_two_match_a_fixed_point_iteration() -> None:
    # Most positions already hold a line, the rest are decided within a few plies: other
    # levels of the queue than the default rules give.
    rules = Rules(size=3, line=2)
    assert_matches_fixed_point(rules, solve(rules))


def test_progress_counts_every_position_then_every_decided_one() -> None:
    # Small chunks also stop the queue mid-level: the table must not change.
    done: list[int] = []
    sol = solve(Rules(size=3), done.append, chunk=1000)
    assert (sol.table == solve(Rules(size=3)).table).all()
    counts = sol.counts()
    assert sum(done) == 3 ** 9 + counts["wins"] + counts["losses"]
    assert len(done) > (counts["wins"] + counts["losses"]) // 1000


def test_solution_reads_boards_and_round_trips_through_a_file(tmp_path):
    sol = solve(Rules(size=3))
    b = Board(Rules(size=3), "xx1/3/o1o x")
    assert sol.value(b) == 1 and sol.distance(b) == 1
    assert [b.move_text(m) for m in sol.best_moves(b)] == ["a3>"]
    b.play("a3>")
    assert b.outcome is not None and b.outcome.winners == (0,)
    path = tmp_path / "t.npz"
    sol.save(path)
    again = Solution.load(path)
    assert again.rules == sol.rules
    assert (again.table == sol.table).all()


def test_solver_refuses_what_it_cannot_do():
    from cambio.board import RulesError

    with pytest.raises(RulesError):
        solve(Rules(size=5))
    with pytest.raises(RulesError):
        solve(Rules(size=4, players=3))


def test_perfect_play_never_loses_a_won_or_drawn_3x3_start():
    rules = Rules(size=3, max_plies=200)
    sol = solve(rules)
    for seed in range(20):
        start = quick_setup(rules, seed)
        value = sol.value(start)
        for perfect_seat in (0, 1):
            bots: list[BoardBot] = [GreedyBot(seed), GreedyBot(seed)]
            bots[perfect_seat] = PerfectBot(sol, seed)
            board = play_game(Board(rules, start.position()), bots)
            mover_value = value if perfect_seat == 0 else -value
            assert board.outcome is not None
            if mover_value >= 0:
                assert perfect_seat in board.outcome.winners or not board.outcome.winners \
                    or len(board.outcome.winners) > 1
            if mover_value > 0:
                assert board.outcome.winners == (perfect_seat,)


def test_move_values_cover_every_legal_move():
    sol = solve(Rules(size=3))
    b = quick_setup(Rules(size=3), 2)
    vals = sol.move_values(b)
    assert set(vals) == set(b.legal_moves()) - {PASS}
