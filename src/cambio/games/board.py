"""The dice board game behind the :class:`~cambio.games.Game` interface, and its
:class:`BoardPosition` (one game at a server table, step by step)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from cambio.board import Board, BoardError, Rules
from cambio.board.setup import CHANCE, SYMBOLS, Setup, faces_text, quick_setup
from cambio.board.state import position_string
from cambio.bots.board import BoardBot, make_bot, play_game, run_setup
from cambio.bots.board.registry import BOARD_BOTS
from cambio.records import board as records

from . import Played
from .board_coach import coach


class BoardGame:
    name = "board"
    show_record = "cambio.terminal.board:show_record"
    seats = (2, 3)
    away_bot = "greedy"
    table_options: Mapping[str, tuple[str, ...]] = {"setup": ("quick", "full")}

    def table_rules(self, players: int, options: Mapping[str, str]) -> Rules:
        try:
            return Rules(players=players)
        except BoardError as exc:
            raise ValueError(str(exc)) from None

    def start(self, rules: Rules, players: int, seed: int,
              options: Mapping[str, str]) -> BoardPosition:
        return BoardPosition(rules, options.get("setup", "quick"), seed)

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


class BoardPosition:
    """One board game at a table, from the quick or the full (published) setup.

    The full setup's rolls are chance steps drawn from the game's seed when the game starts,
    so they are not actions; the opponents' choices that follow (``neutral c3``, ``own b2``)
    are actions of the seat that chooses, like moves. The board game has no hidden
    information: every seat and every spectator gets the same view, except for ``seat``
    and ``legal``; only the seed (from which every bot's seed derives) stays out of a
    seat's record until the game is over."""

    def __init__(self, rules: Rules, setup_mode: str, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.last: str | None = None
        """The last move played (not a setup choice), for the client's highlight."""
        self.setup: Setup | None = None
        if setup_mode == "quick":
            self.board: Board | None = quick_setup(rules, seed=seed)
            return
        setup = Setup(rules)
        rng = Random(seed)
        while not setup.is_done() and setup.current_player() == CHANCE:
            setup.apply(setup.sample(rng))
        self.setup = setup
        self.board = setup.board() if setup.is_done() else None

    def in_setup(self) -> bool:
        return self.board is None and self.setup is not None

    def decider(self) -> int | None:
        if self.setup is not None and self.board is None:
            return self.setup.current_player()
        board = self.board
        if board is None or board.outcome is not None:
            return None
        return board.turn

    def legal(self, seat: int) -> list[str]:
        if seat != self.decider():
            return []
        if self.setup is not None and self.board is None:
            return self.setup.legal_actions()
        assert self.board is not None
        return [self.board.move_text(m) for m in self.board.legal_moves()]

    def play(self, seat: int, text: str) -> str:
        move = " ".join(text.split()).lower()
        chooser = self.decider()
        if chooser is None:
            raise ValueError("the game is over")
        if seat != chooser:
            raise ValueError(f"it is seat {chooser}'s "
                             + ("setup choice" if self.in_setup() else "move"))
        if self.setup is not None and self.board is None:
            self.setup.apply(move)  # BoardError is a ValueError
            if self.setup.is_done():
                self.board = self.setup.board()
            return move
        assert self.board is not None
        move = self.board.move_text(self.board.play(move))
        self.last = move
        return move

    def outcome(self) -> dict[str, Any] | None:
        out = self.board.outcome if self.board is not None else None
        if out is None:
            return None
        return {"termination": out.termination.value, "winners": list(out.winners)}

    def view(self, seat: int | None) -> dict[str, Any]:
        n = self.rules.size
        out: dict[str, Any] = {"rules": self.rules.to_json(), "last": self.last}
        setup = self.setup
        board = self.board
        if board is None:
            assert setup is not None
            out.update({
                "phase": "setup",
                "position": position_string(tuple(setup.owners), 0, n, 0),
                "turn": 0, "ply": 0,
                "faces": faces_text(setup.faces, n) if setup.faces else None,
                "symbols": [SYMBOLS[s] for s in setup.symbols],
                "setup": {"adjusting": setup.adjusting, "adding": setup.adding,
                          "chooser": setup.current_player(),
                          "targets": list(self.rules.start_counts())},
                "outcome": None, "winners": None, "lines": [],
            })
            return out
        outcome = self.outcome()
        out.update({
            "phase": "over" if outcome is not None else "play",
            "position": board.position(),
            "turn": board.turn, "ply": board.ply,
            "faces": faces_text(board.faces, n) if board.faces is not None else None,
            "symbols": [SYMBOLS[s] for s in board.symbols],
            "setup": None,
            "outcome": outcome,
            "winners": None if outcome is None else outcome["winners"],
            "lines": [] if outcome is None else [
                {"seat": w, "cells": cells} for w in outcome["winners"]
                for cells in board.lines(w)],
            # The tutorial's advice, for the seat to move only (the board is public).
            "coach": coach(board, seat) if outcome is None and seat == board.turn else None,
        })
        return out

    def bot_move(self, bot: BoardBot, seat: int) -> str:
        if self.setup is not None and self.board is None:
            return str(bot.setup_choice(self.setup))
        assert self.board is not None
        return self.board.move_text(bot.choose(self.board.copy()))

    def record(self, names: Sequence[str], seat: int | None) -> str:
        """The full record, or a seat's record so far: the same but for the seed. The board
        hides nothing, but every bot's seed derives from the game's: known mid-game, it
        would tell a player the bots' next moves."""
        seed = self.seed if seat is None else None
        steps = self.setup.history if self.setup is not None else None
        if self.board is None:  # still choosing: the record so far is the setup steps
            return records.setup_record(self.rules, list(names), seed, steps or [])
        return records.record_text(self.board, list(names), seed, steps)


GAME = BoardGame()

__all__ = ["GAME", "BoardGame", "BoardPosition"]
