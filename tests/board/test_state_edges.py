"""Edges of the board core's positions and bit helpers that ``make mutation`` found
untested (docs/board-rules.md)."""

from __future__ import annotations

import pytest

from cambio.board import InvalidMoveError, Rules, geometry
from cambio.board.bitboard import canonical
from cambio.board.notation import parse_move


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
