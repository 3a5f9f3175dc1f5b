"""Edges of the board core's positions and bit helpers that ``make mutation`` found
untested (docs/board-rules.md)."""

from __future__ import annotations

import pytest

from cambio.board import Board, InvalidMoveError, PositionError, Rules, RulesError, geometry
from cambio.board.bitboard import canonical
from cambio.board.notation import parse_move
from cambio.board.state import Outcome, Termination, position_string


def test_the_empty_board_is_its_own_canonical_form_under_the_identity():
    """Every symmetry maps the empty board to key 0; the first (the identity) is kept."""
    g = geometry(Rules())
    assert canonical((0, 0), g) == (0, 0)
    assert canonical((0, 0, 0), geometry(Rules(players=3))) == (0, 0)


@pytest.mark.parametrize("text", ["`1^", "`1>", "[3^", "@5v", "a0^", "f1^"])
def test_a_file_outside_a_to_the_board_edge_is_not_a_move(text):
    """Only the letters a.. of the board name files: the characters just before ``a``
    (`` ` ``, ``[``, ``@``) would read as file -1 and wrap to another move."""
    with pytest.raises(InvalidMoveError):
        parse_move(text, 5)


@pytest.mark.parametrize("size", [3, 4, 5, 8])
def test_the_geometry_has_one_entry_per_move_and_the_eight_symmetries_of_the_square(size):
    g = geometry(Rules(size=size))
    n = size
    for table in (g.line_of, g.entry, g.leave, g.lshift, g.rshift, g.affected, g.order):
        assert len(table) == g.num_moves == 4 * n
    maps = [lambda r, c: (r, c), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
            lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (c, r),
            lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - c, r),
            lambda r, c: (n - 1 - c, n - 1 - r)]
    group = {tuple(f(*divmod(cell, n))[0] * n + f(*divmod(cell, n))[1] for cell in range(n * n))
             for f in maps}
    assert len(g.sym_cells) == 8 and set(g.sym_cells) == group
    assert g.sym_cells[0] == tuple(range(n * n))


def test_rule_bounds_accept_their_smallest_values():
    assert Rules(size=3, line=2).line == 2
    assert Rules(max_plies=1).max_plies == 1
    assert Rules(setup_max_per_line=1).setup_max_per_line == 1
    with pytest.raises(RulesError):
        Rules(line=1)
    with pytest.raises(RulesError):
        Rules(max_plies=0)
    with pytest.raises(RulesError):
        Rules(setup_max_per_line=0)


def test_a_new_board_is_the_empty_published_board_with_seat_0_to_move():
    board = Board()
    assert board.rules == Rules() and board.position() == "5/5/5/5/5 x 0"
    assert (board.turn, board.ply, board.outcome, board.symbols) == (0, 0, None, (0, 1))
    assert Board(Rules(players=3)).symbols == (0, 1, 2)
    assert position_string((0, 0), 1, 3) == "3/3/3 o"
    assert position_string((0, 0), 1, 3, 7) == "3/3/3 o 7"


def test_a_position_handed_in_at_the_move_cap_is_a_draw():
    board = Board(Rules(size=3, max_plies=4), "x2/1o1/3 x 4")
    assert board.outcome == Outcome(Termination.MOVE_CAP, ())
    assert board.outcome.winners == () and board.legal_moves() == []


@pytest.mark.parametrize("text,why", [("0xo2/5/5/5/5 x", "cannot be 0"),
                                      ("9/5/5/5/5 x", "has 9 cells, not 5")])
def test_bad_runs_of_neutral_dice_are_named(text, why):
    with pytest.raises(PositionError, match=why):
        Board(Rules(), text)


def test_lines_lists_each_full_window_of_a_seat_by_its_cells():
    """The replay viewer and the table outline these (the board view's ``lines``): a row
    and a diagonal held in full, cells numbered ``r * n + c``, nothing for the other seat."""
    board = Board(Rules(), position="xxxxx/3x1/2x2/1x3/x4 o")
    assert board.lines(0) == [[0, 6, 12, 18, 24], [20, 21, 22, 23, 24]]
    assert board.lines(1) == []
