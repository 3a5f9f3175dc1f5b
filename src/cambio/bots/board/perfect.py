"""``perfect``: plays from the exact solution (2 players, boards up to 4x4).

It keeps a won position won by the quickest win, prolongs a lost one as long as possible,
and in a drawn position picks at random among the moves that keep the draw. The table is
solved on first use (about 10 s for 4x4) or loaded from ``path``.
"""

from __future__ import annotations

from pathlib import Path
from random import Random

from cambio.board import Board, Rules
from cambio.board.solve import Solution, solve

from .base import RandomSetupChoices

_CACHE: dict[Rules, Solution] = {}


def solution_for(rules: Rules, path: str | Path | None = None) -> Solution:
    """The solution of ``rules`` (solved once per process, or loaded from ``path``); the
    move cap and repetition count do not change it."""
    rules = Rules(size=rules.size, line=rules.line, other_line=rules.other_line)
    if rules not in _CACHE:
        if path is not None and Path(path).exists():
            sol = Solution.load(path)
            if sol.rules != rules:
                raise ValueError(f"{path} holds the table of other rules")
            _CACHE[rules] = sol
        else:
            _CACHE[rules] = solve(rules)
    return _CACHE[rules]


class PerfectBot(RandomSetupChoices):
    def __init__(self, solution: Solution, seed: int = 0) -> None:
        self.solution = solution
        self.rng = Random(seed)
        self.name = "perfect"

    @classmethod
    def for_rules(cls, rules: Rules, seed: int = 0) -> PerfectBot:
        return cls(solution_for(rules), seed)

    def choose(self, board: Board) -> int:
        return self.rng.choice(self.solution.best_moves(board))
