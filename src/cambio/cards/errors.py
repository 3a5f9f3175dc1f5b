"""Typed errors of the card-game core.

They are all ``ValueError``s (like python-chess's move errors) so callers that only care
about "bad input" can catch one type. Messages are built from public facts only: an error
must never tell a player something they have not seen.
"""

from __future__ import annotations


class CambioError(ValueError):
    """Base class of every error the card core raises for bad input."""


class RulesError(CambioError):
    """A rule set has a field with an impossible value, or an unknown field or preset."""


class CardError(CambioError):
    """A card code could not be read (see :func:`cambio.cards.cards.parse_card`)."""


class InvalidActionError(CambioError):
    """An action's text form could not be parsed at all."""


class IllegalActionError(CambioError):
    """A well-formed action that the acting seat may not play now.

    The state is left exactly as it was.
    """

    def __init__(self, seat: int | None, action: str, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        who = "spectator" if seat is None else f"seat {seat}"
        super().__init__(f"{who} cannot play {action!r}: {reason}")
