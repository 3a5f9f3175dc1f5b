"""The dice board game *Cambio* (Maureen Hiron, 2001): the rules core.

Depends on nothing else in the project. :class:`Board` is one game (python-chess shaped:
``legal_moves``, ``push``/``pop``, ``play`` that checks, ``outcome``); :mod:`.bitboard` is
the allocation-free functional core the bots and perft run on; :mod:`.setup` is the
published setup with the opponents' choices as actions, and a quick seeded setup;
:mod:`.perft` counts move paths. The exact solver (:mod:`cambio.board.solve`) needs numba
and is imported on its own.

>>> b = Board(Rules(size=3), "3/3/3 x")
>>> b.play("a1>")
0
>>> print(b.position())
3/3/x2 o 1
"""

from .errors import (
    BoardError,
    IllegalMoveError,
    InvalidMoveError,
    PositionError,
    RulesError,
    SetupError,
)
from .notation import move_text, parse_move
from .rules import PASS, Geometry, Rules, geometry
from .state import NEUTRAL, SEAT_LETTERS, Board, Outcome, Termination, parse_position

__all__ = [
    "NEUTRAL",
    "PASS",
    "SEAT_LETTERS",
    "Board",
    "BoardError",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "PositionError",
    "Rules",
    "RulesError",
    "SetupError",
    "Termination",
    "geometry",
    "move_text",
    "parse_move",
    "parse_position",
]
