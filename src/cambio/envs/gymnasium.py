"""Gymnasium single-agent environments: one seat against the project's bots.

>>> env = CardsSeatEnv(rules="rulebook", opponents=("memory",))
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True

The agent plays ``seat``; the other seats are bots (card game: ``random``, ``memory``;
board game: ``random``, ``greedy``, ``alphabeta[:NODES]``, ``mcts[:ITERATIONS]``), seeded
from the episode's seed. Observations are the same dict as the PettingZoo envs
(docs/envs.md). The reward is 0 until the game ends, then +1 (won), -1 (lost) or 0 (all won,
or a draw). An action the mask forbids is replaced by a legal one drawn from the env's
seeded generator and reported as ``info["illegal_action"] = True``, so unmasked algorithms
can still learn; :meth:`SeatEnv.action_masks` serves masked ones (e.g. MaskablePPO).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from cambio.board import Rules as BoardRules
from cambio.bots.board import make_bot as make_board_bot
from cambio.bots.cards import make_bot as make_card_bot
from cambio.bots.cards.native_names import MEMORY, NATIVE_KINDS, RANDOM
from cambio.cards import Rules, observe
from cambio.extras import needs
from cambio.seeds import derive_seed

with needs("research", "cambio.envs.gymnasium"):
    import gymnasium as gym
    from gymnasium import spaces

from .cards_codec import DEFAULT_SLOTS, Mask
from .turns import OVER, BoardTurns, CardsTurns, TurnGame, batch_plays


class SeatEnv(gym.Env[dict[str, Any], int]):
    """One seat of a :class:`~cambio.envs.turns.TurnGame`; subclasses move the bots."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(self, game: TurnGame, seat: int, render_mode: str | None = None) -> None:
        if not 0 <= seat < game.players:
            raise ValueError(f"seat must be 0 to {game.players - 1}")
        self.game = game
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (game.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
        })
        self.action_space: spaces.Space[Any] = spaces.Discrete(game.num_actions)
        self._mask: Mask | None = None
        """The mask of the last observation returned (the agent acts on that state)."""

    # ------------------------------------------------------------------ for subclasses
    def _new_bots(self, seed: int) -> None:
        raise NotImplementedError

    def _bot_turn(self, seat: int) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ gymnasium
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.game.reset(game_seed)
        self._new_bots(game_seed)
        self._play_bots()
        return self._obs(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.game.current() != self.seat:
            raise RuntimeError("the episode is over: call reset()")
        # The state has not changed since the observation that computed the mask.
        mask = self.action_masks() if self._mask is None else self._mask
        info: dict[str, Any] = {"illegal_action": False}
        index = int(action)
        if not 0 <= index < mask.size or not mask[index]:
            info["illegal_action"] = True
            index = int(self.np_random.choice(np.flatnonzero(mask)))
        self.game.step(index)
        self._play_bots()
        over = self.game.current() == OVER
        reward = float(self.game.returns()[self.seat]) if over else 0.0
        return self._obs(), reward, over, False, info

    def action_masks(self) -> Mask:
        return self.game.mask(self.seat)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return repr(getattr(self.game, "state", None) or getattr(self.game, "board", None))

    # ------------------------------------------------------------------ helpers
    def _play_bots(self) -> None:
        while True:
            seat = self.game.current()
            if seat in (OVER, self.seat):
                return
            self._bot_turn(seat)

    def _obs(self) -> dict[str, Any]:
        self._mask = self.action_masks()
        return {"observation": self.game.observe(self.seat), "action_mask": self._mask.copy()}


class CardsSeatEnv(SeatEnv):
    """The card game, seat ``seat`` against one bot per other seat."""

    def __init__(self, rules: str | Rules = "rulebook", opponents: Sequence[str] = ("random",),
                 seat: int = 0, slots: int = DEFAULT_SLOTS, render_mode: str | None = None,
                 native: bool = True, **overrides: Any) -> None:
        base = rules if isinstance(rules, Rules) else Rules.preset(rules)
        if overrides:
            base = base.with_overrides(overrides)
        for name in opponents:
            make_card_bot(name, 0)  # fail early on an unknown name
        self.opponents = tuple(opponents)
        self.cards = CardsTurns(base, len(opponents) + 1, slots)
        self.bots: dict[int, Any] = {}
        self._memory: Any = None
        self.batch: Any = None
        """The round on the batch engine (:class:`~cambio.envs.native_seat.BatchSeatGame`)
        when every opponent is native and the kernels play the rules; else ``None`` and the
        round is ``self.cards.state``."""
        kinds = [NATIVE_KINDS.get(name.strip().lower()) for name in self.opponents]
        game: TurnGame = self.cards
        if native and None not in kinds and 0 <= seat < self.cards.players \
                and batch_plays(self.cards.rules):
            from .native_seat import BatchSeatGame

            kinds.insert(seat, RANDOM)  # the agent's seat: never asked
            self.batch = game = BatchSeatGame(self.cards.rules, self.cards.players, slots,
                                              cast(list[int], kinds), seat)
        elif native and any(_native_memory(name) for name in self.opponents):
            from .native_seat import NativeMemory

            self._memory = NativeMemory(self.cards.rules, self.cards.players)
        super().__init__(game, seat, render_mode)

    def render(self) -> str | None:
        if self.batch is None or self.render_mode != "ansi":
            return super().render()
        return repr(self.batch)

    def _new_bots(self, seed: int) -> None:
        if self.batch is not None:  # seeded with the deal (BatchSeatGame.reset)
            return
        others = [s for s in range(self.cards.players) if s != self.seat]
        self.bots = {s: self._memory if self._memory is not None and _native_memory(name)
                     else make_card_bot(name, derive_seed(seed, s, 1))
                     for s, name in zip(others, self.opponents, strict=True)}

    def _bot_turn(self, seat: int) -> None:
        if self.batch is not None:
            self.batch.bots()
            return
        state = self.cards.state
        bot = self.bots[seat]
        if bot is self._memory:
            state.apply(bot.act(state), seat)
        else:
            state.apply(bot.act(observe(state, seat)), seat)


def _native_memory(name: str) -> bool:
    """Whether ``name`` is the memory bot, which decides from its seat's view alone (no
    random stream, nothing remembered between decisions): the compiled port gives its very
    decisions (:mod:`cambio.bots.cards.native`)."""
    return NATIVE_KINDS.get(name.strip().lower()) == MEMORY


class BoardSeatEnv(SeatEnv):
    """The dice board game (quick seeded setup), seat ``seat`` against bots."""

    def __init__(self, size: int = 5, opponents: Sequence[str] = ("random",), seat: int = 0,
                 render_mode: str | None = None, **fields: Any) -> None:
        self.rules = BoardRules(players=len(opponents) + 1, size=size, **fields)
        for spec in opponents:
            make_board_bot(spec, self.rules)
        self.opponents = tuple(opponents)
        self.boards = BoardTurns(self.rules)
        self.bots: dict[int, Any] = {}
        super().__init__(self.boards, seat, render_mode)

    def _new_bots(self, seed: int) -> None:
        others = [s for s in range(self.rules.players) if s != self.seat]
        self.bots = {s: make_board_bot(spec, self.rules, seed=derive_seed(seed, s, 1))
                     for s, spec in zip(others, self.opponents, strict=True)}

    def _bot_turn(self, seat: int) -> None:
        board = self.boards.board
        board.push(self.bots[seat].choose(board.copy()))


class TensorOnly(gym.ObservationWrapper[Any, int, dict[str, Any]]):
    """A seat env whose observation is the tensor alone, for libraries' plain MLP policies;
    the mask still reaches masked algorithms through :meth:`action_masks`."""

    def __init__(self, env: SeatEnv) -> None:
        super().__init__(env)
        spaces_: Any = env.observation_space
        self.observation_space = spaces_["observation"]
        self.seat_env = env

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation["observation"]

    def action_masks(self) -> Mask:
        return self.seat_env.action_masks()


__all__ = ["BoardSeatEnv", "CardsSeatEnv", "SeatEnv", "TensorOnly"]
