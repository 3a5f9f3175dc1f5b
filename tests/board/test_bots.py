"""Bots: legal moves only, seeded determinism, and the tactics each one promises."""

import pytest

from cambio.board import Board, Rules
from cambio.board.setup import quick_setup
from cambio.bots.board import AlphaBetaBot, GreedyBot, MCTSBot, RandomBot, make_bot, play_game
from cambio.bots.board.base import run_setup
from cambio.bots.board.search import Symmetries

SPECS = ["random", "greedy", "alphabeta:300", "mcts:60"]

# x to move and win at once with a3> or e3< (row 3: . x x x x -> x x x x x); every other
# move leaves the game going.
WIN_NOW = "o1o2/5/1xxxx/o4/5 x"
# o threatens a1> (row 1: . o o o o); x must block it (only pushes into row 1 or that
# slide its cells do), or lose next move.
MUST_BLOCK = "x4/5/x2x1/5/1oooo x"


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("players", [2, 3])
def test_bots_play_whole_games_legally_and_deterministically(spec, players):
    rules = Rules(players=players)
    results = []
    for _ in range(2):
        bots = [make_bot(spec, rules, seed=7 + i) for i in range(players)]
        board = play_game(quick_setup(rules, 5), bots)
        assert board.outcome is not None
        results.append((board.move_stack, board.outcome))
    assert results[0] == results[1]


@pytest.mark.parametrize("bot", [GreedyBot(1), AlphaBetaBot(nodes=500), MCTSBot(200, seed=1)])
def test_bots_take_an_immediate_win(bot):
    board = Board(Rules(), WIN_NOW)
    board.push(bot.choose(board.copy()))  # a3> or e3< (both fill row 3)
    assert board.outcome is not None and board.outcome.winners == (0,)


@pytest.mark.parametrize("bot", [GreedyBot(1), AlphaBetaBot(nodes=2000)])
def test_bots_do_not_hand_over_a_win(bot):
    board = Board(Rules(), MUST_BLOCK)
    move = bot.choose(board.copy())
    board.push(move)
    assert board.outcome is None
    o_wins = [m for m in board.legal_moves() if _wins(board, m)]
    assert o_wins == [], board.move_text(move)


def _wins(board, move):
    board.push(move)
    won = board.outcome is not None and 1 in board.outcome.winners
    board.pop()
    return won


def test_random_bot_is_uniform_over_legal_moves():
    board = quick_setup(Rules(), 2)
    bot = RandomBot(3)
    seen = {bot.choose(board) for _ in range(400)}
    assert seen == set(board.legal_moves())


def test_alphabeta_budget_and_depth():
    board = quick_setup(Rules(), 4)
    small, big = AlphaBetaBot(nodes=200), AlphaBetaBot(nodes=5000)
    small.choose(board.copy())
    big.choose(board.copy())
    assert big.depth_reached > small.depth_reached >= 1
    assert small.nodes <= 200 + 200  # stops within one node of the budget after depth 1


def test_alphabeta_keeps_short_wins_on_3x3():
    """Every 3x3 position won within 5 plies (per the solver): alphabeta's move keeps it won."""
    import itertools

    from cambio.board.solve import solve

    rules = Rules(size=3)
    sol = solve(rules)
    bot = AlphaBetaBot(nodes=5000)
    checked = 0
    for digits in itertools.islice(itertools.product(".xo", repeat=9), 0, None, 7):
        rows = "/".join("".join(digits[i:i + 3]) for i in (0, 3, 6))
        board = Board(rules, rows + " x")
        d = sol.distance(board)
        if board.outcome is None and sol.value(board) == 1 and d is not None and d <= 5:
            move = bot.choose(board.copy())
            assert sol.move_values(board)[move] > 0, board.position()
            checked += 1
    assert checked > 200


def test_three_player_search_modes():
    rules = Rules(players=3)
    for mode in ("paranoid", "maxn"):
        bot = AlphaBetaBot(nodes=800, three=mode)
        board = Board(rules, "5/5/5/x1sss/oo1o1 x")  # o wins with c1^? x must not allow.
        move = bot.choose(board.copy())
        assert move in board.legal_moves()
    with pytest.raises(ValueError):
        AlphaBetaBot(three="both")


def test_symmetry_tables_agree_with_the_slow_transform():
    board = quick_setup(Rules(players=3), 9)
    sym = Symmetries(board.g)
    key, _ = sym.canonical(board.owners, board.turn)
    for t in range(8):
        image = tuple(board.g.transform(t, b) for b in board.owners)
        assert sym.canonical(image, board.turn)[0] == key


def test_make_bot_specs():
    rules = Rules()
    assert make_bot("alphabeta:123", rules).name == "alphabeta:123"
    assert make_bot("alphabeta:0.1s", rules).name == "alphabeta:0.1s"
    assert make_bot("mcts:9", rules).name == "mcts:9"
    for bad in ("nobody", "random:3", "mcts:x", "alphabeta:fast"):
        with pytest.raises(ValueError):
            make_bot(bad, rules)


def test_bots_make_setup_choices():
    rules = Rules()
    bots = [make_bot("greedy", rules, 1), make_bot("alphabeta", rules, 2)]
    setup = run_setup(rules, bots, seed=3)
    assert setup.board().counts() == [4, 5]


def test_greedy_setup_choices_follow_the_evaluation():
    from random import Random

    from cambio.board.setup import CHANCE, Setup, parse_cell
    from cambio.bots.board.evaluate import evaluate

    rules = Rules()
    setup = Setup(rules)
    rng = Random(2)
    bot = GreedyBot(3)
    checked = 0
    while not setup.is_done():
        if setup.current_player() == CHANCE:
            setup.apply(setup.sample(rng))
            continue
        me, seat = setup.current_player(), setup.adjusting
        values = {}
        for action in setup.legal_actions():
            kind, cell = action.split()
            owners = list(setup.owners)
            bit = 1 << parse_cell(cell, 5)
            owners[seat] = owners[seat] & ~bit if kind == "neutral" else owners[seat] | bit
            values[action] = evaluate(tuple(owners), me, setup.g, 0)
        choice = bot.setup_choice(setup)
        assert values[choice] == max(values.values())
        setup.apply(choice)
        checked += 1
    assert checked > 0
