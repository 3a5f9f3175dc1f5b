"""Both games behind one turn-by-turn interface in action numbers, for the env adapters.

PettingZoo's AEC envs and the Gymnasium envs only need: who acts, what they see, which
numbers are legal, apply a number, and the returns. Polled snaps are ordinary turns here: a
snap poll asks one seat at a time (``pass`` or ``snap``), which is exactly an AEC turn.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from cambio.board import Board
from cambio.board import Rules as BoardRules
from cambio.board.setup import quick_setup
from cambio.cards import IllegalActionError, Rules, State

from .board_codec import BoardCodec
from .cards_codec import DEFAULT_SLOTS, CardsCodec, Mask, Vector, capped_rules

OVER = -1


class TurnGame(Protocol):
    players: int

    @property
    def num_actions(self) -> int: ...

    @property
    def obs_size(self) -> int: ...

    def reset(self, seed: int) -> None: ...

    def current(self) -> int:
        """The seat to act, or :data:`OVER`."""
        ...

    def observe(self, seat: int) -> Vector: ...

    def mask(self, seat: int) -> Mask: ...

    def view(self, seat: int) -> tuple[Vector, Mask]:
        """:meth:`observe` and :meth:`mask` at once."""
        ...

    def step(self, index: int) -> None:
        """Apply action number ``index`` for the current seat (``ValueError`` if illegal)."""
        ...

    def returns(self) -> list[float]:
        """+1 per winner, -1 per loser, 0 for everyone if all or none won."""
        ...


Codec = TypeVar("Codec", CardsCodec, BoardCodec)


class _Coded(Generic[Codec]):
    """Sizes come from the game's codec."""

    codec: Codec

    def observe(self, seat: int) -> Vector:
        raise NotImplementedError

    def mask(self, seat: int) -> Mask:
        raise NotImplementedError

    def view(self, seat: int) -> tuple[Vector, Mask]:
        return self.observe(seat), self.mask(seat)

    @property
    def num_actions(self) -> int:
        return self.codec.num_actions

    @property
    def obs_size(self) -> int:
        return self.codec.size


class CardsTurns(_Coded[CardsCodec]):
    """One round of the card game, polled, in action numbers."""

    def __init__(self, rules: Rules, players: int, slots: int = DEFAULT_SLOTS) -> None:
        self.players = players
        self.rules = capped_rules(rules, slots)
        self.rules.check_players(players)
        self.codec = CardsCodec(self.rules, players, slots)
        self.state = State(self.rules, players, seed=0)

    def reset(self, seed: int) -> None:
        self.state = State(self.rules, self.players, seed=seed)

    def current(self) -> int:
        return OVER if self.state.is_over() else self.state.current_player()

    def observe(self, seat: int) -> Vector:
        return self.codec.encode_state(self.state, seat)

    def mask(self, seat: int) -> Mask:
        return self.codec.action_mask(self.state.legal_actions(seat), seat)

    def step(self, index: int) -> None:
        seat = self.current()
        try:
            self.state.play(self.codec.action_of(index, seat), seat)
        except IllegalActionError as exc:
            raise ValueError(f"action {index} is not legal for seat {seat}: {exc}") from None

    def returns(self) -> list[float]:
        return self.state.returns()


class BoardTurns(_Coded[BoardCodec]):
    """One dice board game from a quick seeded setup, in action numbers."""

    def __init__(self, rules: BoardRules) -> None:
        self.players = rules.players
        self.rules = rules
        self.codec = BoardCodec(rules)
        self.board = quick_setup(rules, 0)

    def reset(self, seed: int) -> None:
        self.board = quick_setup(self.rules, seed)

    def current(self) -> int:
        return OVER if self.board.is_over() else self.board.turn

    def observe(self, seat: int) -> Vector:
        return self.codec.encode(self.board, seat)

    def mask(self, seat: int) -> Mask:
        moves = self.board.legal_moves() if seat == self.current() else []
        return self.codec.action_mask(moves)

    def step(self, index: int) -> None:
        move = self.codec.decode_action(index)
        if not self.board.is_legal(move):
            raise ValueError(f"action {index} ({self.board.move_text(move)}) is not legal")
        self.board.push(move)

    def returns(self) -> list[float]:
        return board_returns(self.board)


def batch_plays(rules: Rules) -> bool:
    """Whether the batch engine plays ``rules``, so that an env may run its round there
    (:mod:`cambio.envs.native_seat`); imported when asked, as it loads numba."""
    from cambio.cards.batch import kernels_can_play

    return kernels_can_play(rules)


def board_returns(board: Board) -> list[float]:
    """+1 per winner, -1 per loser; 0 for everyone on a draw (OpenSpiel's convention)."""
    out = board.outcome
    n = board.rules.players
    if out is None or not out.winners or len(out.winners) == n:
        return [0.0] * n
    return [1.0 if s in out.winners else -1.0 for s in range(n)]


__all__ = ["OVER", "BoardTurns", "CardsTurns", "TurnGame", "batch_plays", "board_returns"]
