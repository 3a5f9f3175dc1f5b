"""A card table's session, as a server table makes one: the one session class over the card
game (:mod:`cambio.games.cards`), for tests that deal and play rounds without a table."""

from __future__ import annotations

from cambio.cards import Rules, State
from cambio.games.cards import GAME
from cambio.games.cards_table import CardPosition
from cambio.server.turn_session import TurnSession


def card_session(rules: Rules, players: int, seed: int, rounds: int = 1,
                 match_id: str = "m") -> TurnSession:
    return TurnSession(GAME, players, {"rules": rules.to_json(), "rounds": rounds}, seed,
                       match_id)


def card_state(session: TurnSession) -> State:
    """The engine state of the round being played (tests may know what seats may not)."""
    position = session.position
    assert isinstance(position, CardPosition)
    return position.state
