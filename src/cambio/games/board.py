"""The dice board game behind the :class:`~cambio.games.Game` interface."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from cambio.board import Rules
from cambio.board.setup import quick_setup
from cambio.bots.board import make_bot, play_game, run_setup
from cambio.bots.board.registry import BOARD_BOTS
from cambio.records import board as records

from . import Played


class BoardGame:
    name = "board"
    show_record = "cambio.terminal.board:show_record"

    def check(self, rules: Rules, players: int) -> None:
        if players != rules.players:
            raise ValueError(f"these board rules seat {rules.players} players")

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        return {"preset": "board", **dataclasses.asdict(rules)}

    def make_bot(self, spec: str, rules: Rules, seed: int) -> Any:
        return make_bot(spec, rules, seed=seed)

    def play(self, rules: Rules, players: int, seed: int, bots: Sequence[Any],
             first: int | None, options: tuple[tuple[str, Any], ...] = ()) -> Played:
        """One game from a quick setup seeded by ``seed`` (option ``setup="full"``: the published
        setup, its choices asked of the bots); seat 0 always moves first."""
        steps: list[str] = []
        if dict(options).get("setup") == "full":
            setup = run_setup(rules, list(bots), seed)
            board, steps = setup.board(), list(setup.history)
        else:
            board = quick_setup(rules, seed)
        board = play_game(board, list(bots))
        assert board.outcome is not None
        winners = tuple(board.outcome.winners)
        scores = tuple(0 if s in winners or not winners else 1 for s in range(players))
        return Played(scores, winners, board.ply, board.outcome.termination.value,
                      (board, steps))

    def bot_list(self) -> list[dict[str, Any]]:
        return BOARD_BOTS.public()

    def record(self, rules: Rules, players: int, seed: int, first: int | None,
               names: Sequence[str], played: Played,
               options: tuple[tuple[str, Any], ...] = ()) -> str:
        board, steps = played.history
        return records.record_text(board, list(names), seed, steps)

    def replay(self, record: Any) -> Any:
        return records.replay(record)

    def export(self, result: Any, seat: int | None) -> str:
        return records.export(result, seat)


GAME = BoardGame()

__all__ = ["GAME", "BoardGame"]
