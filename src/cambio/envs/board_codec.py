"""The dice board game as fixed-size numbers: an action numbering and a position encoding.

Moves keep the engine's numbers (``direction * n + index``, ``0 <= m < 4n``); the pass is
number ``4n``. The position is seen from the seat to move: plane 0 holds its dice, plane 1
the next seat's, and so on, then the neutral dice (docs/envs.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cambio.board import PASS, Board, Rules

from .cards_codec import Field, Mask, Vector


@dataclass(frozen=True)
class BoardCodec:
    rules: Rules

    @property
    def cells(self) -> int:
        return self.rules.size ** 2

    @property
    def num_actions(self) -> int:
        return 4 * self.rules.size + 1

    def encode_action(self, move: int) -> int:
        return 4 * self.rules.size if move == PASS else move

    def decode_action(self, index: int) -> int:
        if not 0 <= index < self.num_actions:
            raise ValueError(f"action number {index} is out of range 0..{self.num_actions - 1}")
        return PASS if index == 4 * self.rules.size else index

    def action_mask(self, moves: list[int]) -> Mask:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        for move in moves:
            mask[self.encode_action(move)] = 1
        return mask

    @property
    def fields(self) -> tuple[Field, ...]:
        p, c = self.rules.players, self.cells
        return (
            Field("dice", p * c, "per relative seat (0: the encoding seat), per cell "
                                 "(r * n + c, a1 first): 1 if the die shows its symbol"),
            Field("neutral", c, "per cell: 1 if the die is neutral"),
            Field("ply", 1, "plies played / max_plies"),
            Field("repetitions", 1, "times this position has occurred / repetitions"),
        )

    @property
    def size(self) -> int:
        return sum(f.size for f in self.fields)

    def encode(self, board: Board, me: int) -> Vector:
        """The position from seat ``me``'s side (public: the board has no hidden facts)."""
        p, c = self.rules.players, self.cells
        v = np.zeros(self.size, dtype=np.float32)
        taken = 0
        for seat, bits in enumerate(board.owners):
            taken |= bits
            base = ((seat - me) % p) * c
            for cell in range(c):
                if bits >> cell & 1:
                    v[base + cell] = 1.0
        for cell in range(c):
            if not taken >> cell & 1:
                v[p * c + cell] = 1.0
        v[(p + 1) * c] = board.ply / self.rules.max_plies
        v[(p + 1) * c + 1] = board.repetitions() / self.rules.repetitions
        return v


__all__ = ["BoardCodec"]
