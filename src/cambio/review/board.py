"""Review of a dice game (the 5x5 board game) from one seat's side.

The board game hides nothing, so a seat's view is the board. Each move the seat made is
compared with every legal push: exactly, from the solved table, on a two-player board small
enough to solve (4x4 and below, :func:`cambio.bots.board.perfect.solution_for`: won 1,
drawn 1/2, lost 0); elsewhere by the native alphabeta search
(:func:`cambio.bots.board.native.search_value`) to ``depth`` plies after the move, its
value (hundredths of a logit for the side to move) read as a win chance -- except where the
search proves a forced result within its depth (a mate score: the short solve of a game's
end), which is exact too. Two players only: with three or more there is no single value of
a position for one seat. Nothing is random: the same record gives the same review.
"""

from __future__ import annotations

import math

from cambio.board import Board
from cambio.board.solve import Solution
from cambio.bots.board.native import search_value, tuples_fit
from cambio.bots.board.native_search import MATE_ZONE
from cambio.bots.board.perfect import solution_for
from cambio.records.board import Result
from cambio.records.jsonl import RecordError

from .labels import Decision, Option, Review

REVIEW_DEPTH = 4
"""Plies searched after each alternative where no table applies."""
SOLVED_CELLS = 16
"""Boards up to this many cells are solved exactly (4x4 takes about 10 s, once)."""


def review_game(result: Result, seat: int, *, depth: int = REVIEW_DEPTH,
                exact: bool = True) -> Review:
    """The review of ``seat``'s moves in a replayed dice game."""
    final = result.board
    rules = final.rules
    if rules.players != 2:
        raise RecordError(1, "only two-player dice games can be reviewed")
    if not 0 <= seat < rules.players:
        raise RecordError(1, f"seat {seat} is not in this game of {rules.players} players")
    if depth < 1:
        raise ValueError("a review searches at least one ply")
    board = Board(rules, final.start, faces=list(final.start_faces)
                  if final.start_faces is not None else None, symbols=final.symbols)
    table = solution_for(rules) if exact and final.g.cells <= SOLVED_CELLS else None
    decisions: list[Decision] = []
    for i, move in enumerate(final.move_stack):
        if board.turn == seat and len(board.legal_moves()) > 1:
            decisions.append(review_move(board, move, step=i, depth=depth, table=table))
        board.push(move)
    budget = "exact table" if table is not None else f"depth {depth}"
    return Review("board", seat, budget, 0, tuple(decisions))


def review_move(board: Board, chosen: int, *, step: int = 0, depth: int = REVIEW_DEPTH,
                table: Solution | None = None) -> Decision:
    """Every legal push at ``board`` valued for the seat to move, best first."""
    me = board.turn
    values: dict[int, Option] = {}
    exact = True
    for move in board.legal_moves():
        child = board.copy()
        child.push(move)
        win, known = _win(child, me, depth, table)
        values[move] = Option(board.move_text(move), win)
        exact = exact and known
    options = sorted(values.values(), key=lambda o: (-o.win, o.action))
    return Decision(step, values[chosen], tuple(options), exact=exact)


def _win(child: Board, me: int, depth: int, table: Solution | None) -> tuple[float, bool]:
    """``me``'s chance of winning from ``child`` (the other seat to move, or over), and
    whether it is exact (the game over, the solved table, or a forced result found)."""
    out = child.outcome
    if out is not None:
        return (0.5 if out.is_draw else (1.0 if me in out.winners else 0.0)), True
    if table is not None:
        return (1 - table.value(child)) / 2, True  # the table values the side to move
    fit = tuples_fit(child.g, child.rules.other_line == "mover_loses", 2)
    value, _ = search_value(child, depth, tuples=fit)
    if value >= MATE_ZONE:
        return 0.0, True
    if value <= -MATE_ZONE:
        return 1.0, True
    return 1.0 / (1.0 + math.exp(value / 100.0)), False  # the other side's logit, negated


__all__ = ["REVIEW_DEPTH", "review_game", "review_move"]
