"""A trained agent as a card bot, so ``cambio sim``, tournaments and the server can seat it.

The agent is any callable from (observation tensor, action mask) to an action number, as
the env adapters define them; :class:`AgentBot` turns a :class:`~cambio.cards.CardView` into
those and the number back into the engine's action. It sees the view only, like every bot.

    >>> import numpy as np
    >>> from cambio.cards import Rules, State, observe
    >>> from cambio.envs.cards_codec import CardsCodec, capped_rules
    >>> codec = CardsCodec(capped_rules(Rules.preset("rulebook"), 8), 2)
    >>> bot = AgentBot(codec, lambda obs, mask: int(np.flatnonzero(mask)[-1]), name="last")
    >>> state = State(codec.rules, 2, seed=1)
    >>> bot.act(observe(state, 0)) in state.legal_actions(0)
    True
"""

from __future__ import annotations

from collections.abc import Callable

from cambio.cards import Action, CardView

from .cards_codec import CardsCodec, Mask, Vector

Agent = Callable[[Vector, Mask], int]


class AgentBot:
    def __init__(self, codec: CardsCodec, agent: Agent, name: str = "agent") -> None:
        self.codec = codec
        self.agent = agent
        self.name = name

    def act(self, view: CardView) -> Action:
        seat = view.seat
        if seat is None:
            raise ValueError("an agent plays a seat")
        mask = self.codec.action_mask(view.legal, seat)
        index = self.agent(self.codec.encode(view), mask)
        if not 0 <= index < mask.size or not mask[index]:
            raise ValueError(f"agent {self.name!r} chose action number {index}, which is not "
                             "legal here")
        return self.codec.decode_action(index, seat)


__all__ = ["Agent", "AgentBot"]
