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
from .search import AlphaBetaBot
from .simple import GreedyBot, RandomBot

NAMES = ("random", "greedy", "alphabeta", "native", "mcts", "perfect")
DEFAULT_NODES = 2000
DEFAULT_NATIVE_NODES = 200_000
DEFAULT_ITERATIONS = 300


def make_bot(spec: str, rules: Rules, seed: int = 0) -> BoardBot:
    """Build a bot from ``name[:budget]``; raise ``ValueError`` naming the choices."""
    name, _, arg = spec.strip().lower().partition(":")
    try:
        if name == "random" and not arg:
            return RandomBot(seed)
        if name == "greedy" and not arg:
            return GreedyBot(seed)
        if name == "alphabeta":
            if arg.endswith("s"):
                return AlphaBetaBot(nodes=10**12, seconds=float(arg[:-1]), seed=seed)
            return AlphaBetaBot(nodes=int(arg) if arg else DEFAULT_NODES, seed=seed)
        if name == "native":
            from .native import NativeBot

            if arg.endswith("s"):
                return NativeBot(nodes=10**15, seconds=float(arg[:-1]), seed=seed)
            return NativeBot(nodes=int(arg) if arg else DEFAULT_NATIVE_NODES, seed=seed)
        if name == "mcts":
            return MCTSBot(iterations=int(arg) if arg else DEFAULT_ITERATIONS, seed=seed)
        if name == "perfect" and not arg:
            from .perfect import PerfectBot

            return PerfectBot.for_rules(rules, seed=seed)
    except ValueError as exc:
        raise ValueError(f"bad bot spec {spec!r}: {exc}") from None
    external = external_factory(spec, "board")
    if external is not None:
        bot: BoardBot = external(rules, seed)
        return bot
    raise ValueError(f"unknown bot {spec!r}: choose from {', '.join(NAMES)} "
                     "(alphabeta:NODES or alphabeta:SECONDSs, native:NODES or native:SECONDSs, "
                     "mcts:ITERATIONS)")


__all__ = ["AlphaBetaBot", "BoardBot", "GreedyBot", "MCTSBot", "RandomBot", "make_bot",
           "play_game", "run_setup"]
