"""The board-bot interface and the loop that plays a game with bots.

The board game has no hidden information, so a bot is handed the :class:`Board` itself
(a copy: it may push and pop freely). Every answer is checked before it is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Protocol

from cambio.board import Board, Rules
from cambio.board.setup import CHANCE, Setup


class BoardBot(Protocol):
    """Anything with a name, a move choice and a setup choice."""

    name: str

    def choose(self, board: Board) -> int:
        """A legal move for the seat to move."""
        ...

    def setup_choice(self, setup: Setup) -> str:
        """One of ``setup.legal_actions()`` for the seat that must choose."""
        ...


class RandomSetupChoices:
    """Mixin: setup choices uniformly at random from the bot's own generator."""

    rng: Random

    def setup_choice(self, setup: Setup) -> str:
        return self.rng.choice(setup.legal_actions())


class EvaluatedSetupChoices:
    """Mixin: the setup choice that leaves the chooser best off by the evaluation (ties at
    random): which of the adjusted seat's dice to neutralise, which neutral die to give it.
    The position is valued with seat 0 to move, as the game will start."""

    rng: Random

    def setup_choice(self, setup: Setup) -> str:
        from cambio.board.setup import parse_cell

        from .evaluate import evaluate

        me = setup.current_player()
        seat = setup.adjusting
        best: list[str] = []
        best_value = 0
        for action in setup.legal_actions():
            kind, cell = action.split()
            bit = 1 << parse_cell(cell, setup.g.n)
            owners = list(setup.owners)
            owners[seat] = owners[seat] & ~bit if kind == "neutral" else owners[seat] | bit
            value = evaluate(tuple(owners), me, setup.g, 0)
            if not best or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)


class BudgetedSearch(EvaluatedSetupChoices):
    """A search under a node and/or time budget (``alphabeta``, ``native``): the budget, the
    3-player mode and the name ``METHOD:NODES`` or ``METHOD:SECONDSs`` are set one way."""

    def _set_budget(self, method: str, nodes: int, seconds: float | None, seed: int,
                    max_depth: int, three: str) -> None:
        if three not in ("maxn", "paranoid"):
            raise ValueError(f"three must be 'maxn' or 'paranoid', not {three!r}")
        self.three = three
        self.nodes_budget = nodes
        self.seconds = seconds
        self.max_depth = max_depth
        self.rng = Random(seed)
        self.name = f"{method}:{nodes}" if seconds is None else f"{method}:{seconds}s"


def run_setup(rules: Rules, bots: Sequence[BoardBot], seed: int) -> Setup:
    """The published setup: chance steps drawn from ``seed``, choices asked of the bots."""
    setup = Setup(rules)
    rng = Random(seed)
    while not setup.is_done():
        seat = setup.current_player()
        if seat == CHANCE:
            setup.apply(setup.sample(rng))
            continue
        action = bots[seat].setup_choice(setup)
        if action not in setup.legal_actions():
            raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose an illegal "
                             f"setup step {action!r}")
        setup.apply(action)
    return setup


def play_game(board: Board, bots: Sequence[BoardBot]) -> Board:
    """Play ``board`` to its end (a line, repetition, the move cap), asking each seat's bot."""
    if len(bots) != board.rules.players:
        raise ValueError(f"{board.rules.players} players need {board.rules.players} bots")
    while board.outcome is None:
        seat = board.turn
        move = bots[seat].choose(board.copy())
        if not board.is_legal(move):
            raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose an illegal move "
                             f"{board.move_text(move)!r} in {board.position()!r}")
        board.push(move)
    return board
