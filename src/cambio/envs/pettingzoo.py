"""PettingZoo AEC environments for both games: :func:`cards_env` and :func:`board_env`.

>>> env = cards_env(rules="rulebook", players=2)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` ... in seat order. Each observation is a dict: ``observation``, the
float32 encoding of the agent's own view (docs/envs.md), and ``action_mask``, an int8 vector
over the action numbers. The card game runs with polled snaps: after a discard, each seat
that may snap is asked in turn (``pass`` or ``snap``), and every such question is an
ordinary AEC turn of that agent. Rewards come at the end: +1 per winner, -1 per loser, 0 for
everyone if all (or nobody) won. An illegal action raises ``ValueError`` and changes nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cambio.board import Rules as BoardRules
from cambio.cards import Rules
from cambio.extras import needs

with needs("research", "cambio.envs.pettingzoo"):
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv

from .cards_codec import DEFAULT_SLOTS
from .turns import OVER, BoardTurns, CardsTurns, TurnGame, batch_plays


class TurnEnv(AECEnv):  # type: ignore[misc]
    """An AEC env over any :class:`~cambio.envs.turns.TurnGame`."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, game: TurnGame, name: str, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.metadata = {**TurnEnv.metadata, "name": name}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(game.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (game.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions)
                              for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.game.reset(int(self._np_random.integers(0, 2**63 - 1)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current()]

    def observe(self, agent: str) -> dict[str, Any]:
        observation, mask = self.game.view(self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act; None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        self.game.step(int(action))
        seat = self.game.current()
        if seat == OVER:
            self.rewards = {a: float(value) for a, value
                            in zip(self.possible_agents, self.game.returns(), strict=True)}
            for a in self.possible_agents:
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            # Rewards come only at the end: nothing to accumulate before it.
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[seat]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return repr(getattr(self.game, "state", None) or getattr(self.game, "board", None)
                    or self.game)

    def close(self) -> None:
        pass


def cards_env(rules: str | Rules = "rulebook", players: int = 2, slots: int = DEFAULT_SLOTS,
              render_mode: str | None = None, native: bool = True,
              **overrides: Any) -> TurnEnv:
    """The card game: a preset name (or a :class:`~cambio.cards.Rules`) plus house rules.

    ``cards_env(rules="house", players=3, snap_penalty=2)``. Grids are capped at ``slots``
    (the ``max_grid`` house rule) so the encoding has a fixed size. Where the batch engine
    plays the rules (and ``native``), the round runs there and observations and masks are
    encoded natively (:class:`~cambio.envs.native_seat.BatchTurns`: the same episodes);
    ``native=False`` keeps it on the compiled engine, as ``env.unwrapped.game.state``.
    """
    base = rules if isinstance(rules, Rules) else Rules.preset(rules)
    if overrides:
        base = base.with_overrides(overrides)
    cards = CardsTurns(base, players, slots)
    game: TurnGame = cards
    if native and batch_plays(cards.rules):
        from .native_seat import BatchTurns

        game = BatchTurns(cards.rules, players, slots)
    return TurnEnv(game, f"cambio_cards_{base.preset_name}_{players}p", render_mode)


def board_env(size: int = 5, players: int = 2, render_mode: str | None = None,
              **fields: Any) -> TurnEnv:
    """The dice board game from a quick seeded setup; ``fields`` are other rule fields
    (``line``, ``other_line``, ``max_plies``, ``repetitions``)."""
    rules = BoardRules(players=players, size=size, **fields)
    return TurnEnv(BoardTurns(rules), f"cambio_board_{size}x{size}_{players}p", render_mode)


__all__ = ["TurnEnv", "board_env", "cards_env"]
