"""The dice board game's bot registry: every bot the commands and the lobby can seat.

Each figure is Elo over ``random`` on 5x5, 2 players (docs/board-strength.md: the
round robin, and ``native`` +377 over ``alphabeta:4000`` at equal time), and the stars come
from it. The factories import their bot on first use: ``native`` (numba) and ``perfect``
(a solved table) cost nothing until someone seats them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cambio.board import Rules
from cambio.bots.registry import BotEntry, Registry, board_stars

if TYPE_CHECKING:
    from .base import BoardBot

DEFAULT_NODES = 2000
DEFAULT_NATIVE_NODES = 200_000
DEFAULT_ITERATIONS = 300


def _budgeted(bot: Any, argument: str, seed: int, default: int, unbounded: int) -> BoardBot:
    """A search bot from ``NODES`` or ``SECONDSs`` (empty: ``default`` nodes; a time budget
    runs with ``unbounded`` nodes)."""
    if argument.endswith("s"):
        made: BoardBot = bot(nodes=unbounded, seconds=float(argument[:-1]), seed=seed)
    else:
        made = bot(nodes=int(argument) if argument else default, seed=seed)
    return made


def _random(argument: str, seed: int, rules: Rules) -> BoardBot:
    from .simple import RandomBot

    return RandomBot(seed)


def _greedy(argument: str, seed: int, rules: Rules) -> BoardBot:
    from .simple import GreedyBot

    return GreedyBot(seed)


def _alphabeta(argument: str, seed: int, rules: Rules) -> BoardBot:
    from .search import AlphaBetaBot

    return _budgeted(AlphaBetaBot, argument, seed, DEFAULT_NODES, 10**12)


def _native(argument: str, seed: int, rules: Rules) -> BoardBot:
    from .native import CompiledAlphaBetaBot

    return _budgeted(CompiledAlphaBetaBot, argument, seed, DEFAULT_NATIVE_NODES, 10**15)


def _mcts(argument: str, seed: int, rules: Rules) -> BoardBot:
    from .mcts import MCTSBot

    return MCTSBot(iterations=int(argument) if argument else DEFAULT_ITERATIONS, seed=seed)


def _perfect(argument: str, seed: int, rules: Rules) -> BoardBot:
    from .perfect import PerfectBot

    return PerfectBot.for_rules(rules, seed=seed)


_HERE = __name__

BOARD_BOTS = Registry("board", [
    BotEntry("random", "Random", "uniform over the legal moves", "Elo 0 (the anchor)",
             board_stars(0), f"{_HERE}:_random"),
    BotEntry("mcts", "MCTS", "Monte Carlo tree search (UCT, random playouts), 300 iterations "
             "a move (mcts:N)",
             "Elo 677 (mcts:300)", board_stars(677), f"{_HERE}:_mcts", takes_argument=True),
    BotEntry("greedy", "Greedy", "one ply: takes a win, avoids handing one over, else the best "
             "evaluation",
             "Elo 763", board_stars(763), f"{_HERE}:_greedy", level="easy"),
    BotEntry("alphabeta", "Alpha-beta", "iterative-deepening alpha-beta, 2,000 nodes a move "
             "(alphabeta:NODES or alphabeta:SECONDSs)",
             "Elo 1,227 at 1,000 nodes, 1,422 at 4,000 (2,000 between)", board_stars(1320),
             f"{_HERE}:_alphabeta", level="medium", takes_argument=True),
    BotEntry("native", "Hard (native)", "the compiled alpha-beta with threat search, "
             "200,000 nodes a move (native:NODES or native:SECONDSs)",
             "+377 Elo (+309 to +477) over alphabeta:4000 at equal time, about 1,800",
             board_stars(1422 + 377), f"{_HERE}:_native", level="hard", takes_argument=True,
             kernels="board", stand_in="alphabeta"),
    BotEntry("perfect", "Perfect", "plays from the exact solved table (4x4 and smaller)",
             "exact: never loses a won or drawn position", 5, f"{_HERE}:_perfect",
             offered=False),
])
"""The board bots, weakest first by Elo."""

__all__ = ["BOARD_BOTS", "DEFAULT_ITERATIONS", "DEFAULT_NATIVE_NODES", "DEFAULT_NODES"]
