"""Edges of the board core's positions and bit helpers that ``make mutation`` found
untested (docs/board-rules.md)."""

from __future__ import annotations

from cambio.board import Rules, geometry
from cambio.board.bitboard import canonical


def test_the_empty_board_is_its_own_canonical_form_under_the_identity():
    """Every symmetry maps the empty board to key 0; the first (the identity) is kept."""
    g = geometry(Rules())
    assert canonical((0, 0), g) == (0, 0)
    assert canonical((0, 0, 0), geometry(Rules(players=3))) == (0, 0)
