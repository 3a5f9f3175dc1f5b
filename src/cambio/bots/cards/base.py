"""The card-bot interface and the loop that drives a round with bots.

A bot receives a :class:`~cambio.cards.view.CardView` -- what its seat may know -- and
returns one of ``view.legal``. It never receives the state, so it cannot cheat by accident.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cambio.cards import Action, CardView, Standing, State, observe


class CardBot(Protocol):
    """Anything with a name and an ``act(view) -> action`` method.

    Bots are asked when their seat must decide. On a real-time (``polled=False``) table a
    seat that is not deciding may still snap; drivers ask it with a poll-shaped view (phase
    ``POLL``, legal ``pass`` plus the snaps), never with a view whose only legal actions are
    snaps, since a bot must always answer with one of ``view.legal``.
    """

    name: str

    def act(self, view: CardView) -> Action:
        ...


def tell_standing(bot: object, standing: Standing | None) -> None:
    """Tell ``bot`` where the match stands, if it plays toward a match's end (it has a
    ``standing``: ``hard``); other bots play each round alone."""
    if hasattr(bot, "standing"):
        bot.standing = standing


def play_round(state: State, bots: Sequence[CardBot], max_actions: int = 100_000) -> State:
    """Drive a polled (turn-based) round to its end, asking each seat's bot in turn.

    Each bot's answer is checked against its legal actions: a bot bug raises instead of
    corrupting the round.
    """
    if not state.polled:
        raise ValueError("play_round drives polled states; a real-time table needs a server")
    for _ in range(max_actions):
        if state.is_over():
            return state
        seat = state.current_player()
        view = observe(state, seat)
        action = bots[seat].act(view)
        if action not in view.legal:
            raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose an illegal action")
        state.apply(action, seat)
    raise RuntimeError(f"round did not end within {max_actions} actions")
