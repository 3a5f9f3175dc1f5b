"""The compiled search (``native``) against the Python reference and the exact solution."""

import subprocess
import sys
from random import Random
from typing import Any

import pytest
from numba import types

from cambio.board import Board, Rules
from cambio.board.setup import quick_setup
from cambio.board.solve import solve
from cambio.bots.board import AlphaBetaBot, make_bot, native_search, play_game
from cambio.bots.board.native import CompiledAlphaBetaBot, search_value
from cambio.bots.board.native_search import MATE_ZONE

WIN_NOW = "o1o2/5/1xxxx/o4/5 x"
MUST_BLOCK = "x4/5/x2x1/5/1oooo x"


def positions(rules: Rules, count: int, seed: int) -> list[Board]:
    """Boards reached by 0-14 random plies from seeded quick setups (games still going)."""
    rng = Random(seed)
    out: list[Board] = []
    i = 0
    while len(out) < count:
        board = quick_setup(rules, seed * 1000 + i)
        i += 1
        for _ in range(rng.randrange(15)):
            if board.outcome is not None:
                break
            board.push(rng.choice(board.legal_moves()))
        if board.outcome is None:
            out.append(board)
    return out


CASES = [
    (Rules(size=4), "maxn", 4, 30),
    (Rules(), "maxn", 3, 30),
    (Rules(other_line="mover_loses"), "maxn", 3, 15),
    (Rules(players=3), "maxn", 3, 20),
    (Rules(players=3), "paranoid", 3, 20),
]


@pytest.mark.parametrize("rules,three,max_depth,count", CASES)
def test_fixed_depth_values_equal_the_python_search(rules, three, max_depth, count):
    """Without threat search, the compiled search is the Python search: the same root value
    at every fixed depth, repetitions (in the game and on the search path) included."""
    rng = Random(count)
    for board in positions(rules, count, seed=max_depth + len(three)):
        depth = rng.randrange(1, max_depth + 1)
        expected, _ = AlphaBetaBot(three=three).search_value(board.copy(), depth)
        value, move = search_value(board, depth, three=three)
        assert value == expected, (board.position(), depth)
        assert move in board.legal_moves()


MAXN_CALL = ("from cambio.board import Rules; from cambio.board.setup import quick_setup; "
             "from cambio.bots.board.native import search_value; "
             "print(search_value(quick_setup(Rules(players=3), 1), 3, three='maxn'))")


def test_maxn_compiles_one_overload_and_loads_from_the_cache():
    """Max-n is recursive: a literal argument (a bare ``0`` or ``NO_MOVE``) in one of its
    calls compiled a second overload, and the pair crashed when numba loaded it from its
    cache. One ``int64`` overload, and a fresh process that loads it gets the same value."""
    board = quick_setup(Rules(players=3), 1)
    value = search_value(board, 3, three="maxn")  # compiles (or loads) and caches here
    # Compiled in this process, maxn's overloads are listed (loaded, only maxn_root's).
    dispatcher: Any = native_search.maxn
    signatures = dispatcher.signatures
    assert len(signatures) <= 1
    assert not any(isinstance(t, types.Literal) for sig in signatures for t in sig)
    done = subprocess.run([sys.executable, "-c", MAXN_CALL], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(value)


def test_threat_search_results_are_sound_on_3x3():
    """A win or loss the threat search claims at a shallow depth is the exact value."""
    rules = Rules(size=3)
    sol = solve(rules)
    claimed = beyond_plain = 0
    for board in positions(rules, 300, seed=3):
        exact = sol.value(board)
        value, _ = search_value(board, 1, threats=12)
        plain, _ = search_value(board, 1, threats=0)
        if abs(value) >= MATE_ZONE:
            claimed += 1
            assert (value > 0) == (exact > 0) and exact != 0, board.position()
            beyond_plain += abs(plain) < MATE_ZONE
    assert claimed > 20 and beyond_plain > 10  # it does see past the horizon


@pytest.mark.parametrize("position", [WIN_NOW, MUST_BLOCK])
def test_native_wins_at_once_and_parries_a_threat(position):
    board = Board(Rules(), position)
    board.push(CompiledAlphaBetaBot(nodes=20_000).choose(board.copy()))
    if position == WIN_NOW:
        assert board.outcome is not None and board.outcome.winners == (0,)
    else:
        # After the block, o has no push that completes a line.
        for m in board.legal_moves():
            board.push(m)
            assert board.outcome is None or 1 not in board.outcome.winners
            board.pop()


@pytest.mark.parametrize("players", [2, 3])
def test_native_bot_plays_whole_games_legally_and_deterministically(players):
    rules = Rules(players=players)
    results = []
    for _ in range(2):
        bots = [make_bot("native:3000", rules, seed=7 + i) for i in range(players)]
        board = play_game(quick_setup(rules, 5), bots)
        assert board.outcome is not None
        results.append(board.move_stack)
    assert results[0] == results[1]
    timed = make_bot("native:0.01s", rules, seed=1)
    assert timed.choose(quick_setup(rules, 6)) in quick_setup(rules, 6).legal_moves()


def test_tuple_evaluation_reads_every_image_and_is_symmetric():
    """The compiled n-tuple value is the sum of the weights a plain reading of the cells
    picks, and the same for all 8 images of a position (weights shared across images)."""
    import numpy as np

    from cambio.bots.board import native_eval as ne

    g = Rules(size=4)
    geo = Board(g).g
    imgs = ne.images(geo)
    tw = ne.load_weights()
    rng = Random(4)
    for _ in range(200):
        cells = [rng.randrange(3) for _ in range(16)]
        mine = sum(1 << c for c in range(16) if cells[c] == 1)
        theirs = sum(1 << c for c in range(16) if cells[c] == 2)
        expected = sum(int(tw[t // 8, sum(cells[c] * 3 ** i for i, c in enumerate(img))])
                       for t, img in enumerate(imgs.tolist()))
        assert ne.tuple_value(mine, theirs, imgs, tw) == expected
        for s in range(8):
            assert ne.tuple_value(geo.transform(s, mine), geo.transform(s, theirs), imgs,
                                  tw) == expected
    assert np.count_nonzero(tw) > 1000  # fitted, not empty


def test_tuple_evaluation_finds_the_same_forced_results():
    """A forced win or loss within the depth does not depend on the evaluation: where either
    search finds one at a fixed depth, both find the same value."""
    rules = Rules(size=4)
    forced = 0
    for board in positions(rules, 40, seed=9):
        linear, _ = search_value(board, 5)
        tuples, _ = search_value(board, 5, tuples=True)
        if abs(linear) >= MATE_ZONE or abs(tuples) >= MATE_ZONE:
            forced += 1
            assert linear == tuples, board.position()
    assert forced >= 5
