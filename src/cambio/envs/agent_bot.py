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
from functools import lru_cache
from pathlib import Path
from typing import Any

from cambio.cards import Action, CardView
from cambio.extras import needs

from .cards_codec import DEFAULT_SLOTS, CardsCodec, Mask, Vector

Agent = Callable[[Vector, Mask], int]


class AgentBot:
    """``agent`` as a card bot. Without a ``codec`` it reads the rules and the number of
    players off the first view it is shown (the rules must cap grids at ``slots``, e.g.
    ``--rule max_grid=8``), so a saved policy can sit at any table it was trained for."""

    def __init__(self, codec: CardsCodec | None, agent: Agent, name: str = "agent",
                 slots: int = DEFAULT_SLOTS) -> None:
        self.codec = codec
        self.agent = agent
        self.name = name
        self.slots = slots

    def act(self, view: CardView) -> Action:
        seat = view.seat
        if seat is None:
            raise ValueError("an agent plays a seat")
        codec = self.codec
        if codec is None:
            codec = self.codec = CardsCodec(view.rules, view.players, self.slots)
        mask = codec.action_mask(view.legal, seat)
        index = self.agent(codec.encode(view), mask)
        if not 0 <= index < mask.size or not mask[index]:
            raise ValueError(f"agent {self.name!r} chose action number {index}, which is not "
                             "legal here")
        return codec.decode_action(index, seat)


def sb3_policy(seed: int, path: str) -> AgentBot:
    """A saved sb3-contrib ``MaskablePPO`` model (``model.save(path)``) as a bot playing its
    most likely legal action: the bot ``sb3:PATH`` (entry point ``cambio.bots``), or the
    import path ``cambio.envs.agent_bot:sb3_policy:PATH``. Needs the ``train`` extra."""
    file = Path(path).expanduser().resolve()
    if not file.is_file():
        raise ValueError(f"no saved policy at {file}")
    model = _load_maskable_ppo(str(file), file.stat().st_mtime_ns)
    size = int(model.observation_space.shape[0])

    def agent(obs: Vector, mask: Mask) -> int:
        if obs.size != size:
            raise ValueError(f"the policy {path} reads {size} numbers, this table's views "
                             f"encode to {obs.size} (other players or slots)")
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return AgentBot(None, agent, name=f"sb3:{path}")


@lru_cache(maxsize=8)
def _load_maskable_ppo(path: str, mtime_ns: int) -> Any:
    """One load per process and version of the file (a simulation builds a bot per game;
    a training run re-saves its checkpoint)."""
    with needs("train", "the bot sb3:PATH"):
        from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu")


__all__ = ["Agent", "AgentBot", "sb3_policy"]
