"""Typed errors of the board-game core.

All of them are ``ValueError``s (like python-chess's move errors), so a caller that only
cares about "bad input" catches one type. Whatever raises them leaves the board untouched.
"""

from __future__ import annotations


class BoardError(ValueError):
    """Base class of every error the board core raises for bad input."""


class RulesError(BoardError):
    """A rule set has an impossible value (board size, line length, player count...)."""


class PositionError(BoardError):
    """A position string could not be read, or describes a board these rules cannot hold."""


class InvalidMoveError(BoardError):
    """A move's text could not be parsed at all (``"z9>"``, ``"a3"``, ``"b2>"``...)."""


class IllegalMoveError(BoardError):
    """A well-formed move that the player to move may not play in this position."""

    def __init__(self, move: str, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move!r}: {reason}")


class SetupError(BoardError):
    """A setup action that is malformed or not allowed at this step of the setup."""
