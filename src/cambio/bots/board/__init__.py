"""Board-game bots: ``random``, ``greedy``, ``alphabeta``, ``native``, ``mcts``, ``perfect``.

:func:`make_bot` builds one from a short spec -- ``alphabeta:5000`` is alphabeta with a
5,000-node budget per move, ``alphabeta:0.5s`` half a second, ``native:1s`` the compiled
search (numba, with threat search) for a second, ``mcts:800`` mcts with 800 iterations --
so the command line and the tournaments name bots the same way.
"""

from __future__ import annotations

from cambio.board import Rules

from ..resolve import external_factory
from .base import BoardBot, play_game, run_setup
from .mcts import MCTSBot
from .registry import BOARD_BOTS, DEFAULT_ITERATIONS, DEFAULT_NATIVE_NODES, DEFAULT_NODES
from .search import AlphaBetaBot
from .simple import GreedyBot, RandomBot

NAMES = tuple(BOARD_BOTS.names())


def make_bot(spec: str, rules: Rules, seed: int = 0) -> BoardBot:
    """Build a bot from ``name[:budget]``; raise ``ValueError`` naming the choices. Names
    resolve in :meth:`cambio.bots.registry.Registry.resolve`."""
    if not BOARD_BOTS.knows(spec):
        # Outside bots by entry point or import path (docs/envs.md).
        external = external_factory(spec, "board")
        if external is not None:
            outside: BoardBot = external(rules, seed)
            return outside
    _, factory, argument = BOARD_BOTS.resolve(spec)
    try:
        bot: BoardBot = factory(argument, seed, rules=rules)
    except ValueError as exc:
        raise ValueError(f"bad bot spec {spec!r}: {exc}") from None
    return bot


__all__ = ["BOARD_BOTS", "DEFAULT_ITERATIONS", "DEFAULT_NATIVE_NODES", "DEFAULT_NODES",
           "NAMES", "AlphaBetaBot", "BoardBot", "GreedyBot", "MCTSBot", "RandomBot", "make_bot",
           "play_game", "run_setup"]
