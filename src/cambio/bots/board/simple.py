"""The two baseline bots: ``random`` and ``greedy``."""

from __future__ import annotations

from random import Random

from cambio.board import PASS, Board, Geometry
from cambio.board.bitboard import Owners, completed, judge, legal_pushes, push
from cambio.board.rules import OtherLine

from .base import EvaluatedSetupChoices, RandomSetupChoices
from .evaluate import evaluate


class RandomBot(RandomSetupChoices):
    """A legal move uniformly at random."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = Random(seed)

    def choose(self, board: Board) -> int:
        return self.rng.choice(board.legal_moves())


class GreedyBot(EvaluatedSetupChoices):
    """One ply of look-ahead: take a win; never hand the next player a win if avoidable;
    otherwise the move with the best heuristic evaluation (ties at random)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = Random(seed)

    def choose(self, board: Board) -> int:
        moves = board.legal_moves()
        if moves == [PASS]:
            return PASS
        g = board.g
        me = board.turn
        rule = board.rules.other_line
        players = board.rules.players
        nxt = (me + 1) % players
        best: list[int] = []
        best_key: tuple[int, int] | None = None
        for m in moves:
            child = push(board.owners, m, me, g)
            lines = completed(child, g, m)
            if lines:
                winners = judge(lines, me, rule)
                if winners == (me,):
                    return m
                key = (1 if me in winners else -1, 0)  # a tie beats handing over a line
            elif _gives_win(child, nxt, me, g, rule):
                key = (-1, 0)
            else:
                key = (0, evaluate(child, me, g, nxt))
            if best_key is None or key > best_key:
                best, best_key = [m], key
            elif key == best_key:
                best.append(m)
        return self.rng.choice(best)


def _gives_win(owners: Owners, seat: int, me: int, g: Geometry, rule: OtherLine) -> bool:
    """Whether ``seat``, to move, has a push that ends the game without ``me`` winning."""
    for m in legal_pushes(owners, seat, g):
        child = push(owners, m, seat, g)
        lines = completed(child, g, m)
        if lines and me not in judge(lines, seat, rule):
            return True
    return False
