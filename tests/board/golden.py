"""Golden board games: seeded setups and games whose every step and final state are pinned.

The card game's golden games (``tests/cards/golden.py``) do this for the card engine; these
do it for the board core, like OpenSpiel's playthroughs: every setup step (the published
procedure's rolls, exchange, symbols and each seat's adjustments, or the quick setup's
start), every move, a digest of the legal moves before each move, the position after every
move, and the outcome are stored in ``golden_games.jsonl``. The test replays the stored
steps and moves on a fresh setup and board (the bots only chose the games), so any change to
the rules core -- push tables, line checks, repetition, the move cap, the setup's
constraints or its chance stream -- shows as a diff of the data file.

Regenerate (after a deliberate rules change only) with::

    .venv/bin/python -m tests.board.golden
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cambio.board import Board, Rules
from cambio.board.setup import Setup, faces_text, quick_setup

PATH = Path(__file__).with_name("golden_games.jsonl")

RULE_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"size": 4},
    {"size": 4, "players": 3},
    {"size": 3},
    {"other_line": "mover_loses"},
    {"players": 3, "other_line": "mover_loses"},
    {"size": 4, "repetitions": 2, "max_plies": 40},
    {"max_plies": 12},
    {"size": 3, "players": 3, "repetitions": 2},
]
"""Rule sets pinned (besides the published 5x5 two-player game: every field varied once)."""

LINEUPS = ["random", "greedy", "mixed"]


def game_specs() -> list[dict[str, Any]]:
    """Every pinned game: rule sets x setups (the full procedure, the quick one) x lineups."""
    specs: list[dict[str, Any]] = []
    k = 0
    for rules in RULE_SETS:
        for setup in ("full", "quick"):
            for lineup in LINEUPS:
                k += 1
                specs.append({"rules": rules, "setup": setup, "lineup": lineup,
                              "seed": 500 + k * 7919})
    return specs


def bot_names(lineup: str, players: int) -> list[str]:
    if lineup == "mixed":
        return ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    return [lineup] * players


class LegalDigest:
    """A running digest of (seat, legal moves) before every move of a game."""

    def __init__(self) -> None:
        self._h = hashlib.blake2b(digest_size=12)

    def add(self, board: Board) -> None:
        self._h.update(f"{board.turn}:{','.join(map(str, board.legal_moves()))};".encode())

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def start(spec: dict[str, Any], steps: list[str] | None = None) -> tuple[Board, list[str]]:
    """The start of a game: the setup's steps (played by bots, or the stored ``steps``)."""
    from cambio.bots.board import make_bot, run_setup

    rules = Rules(**spec["rules"])
    if spec["setup"] == "quick":
        return quick_setup(rules, spec["seed"]), []
    if steps is None:
        bots = [make_bot(name, rules, spec["seed"] + seat)
                for seat, name in enumerate(bot_names(spec["lineup"], rules.players))]
        setup = run_setup(rules, bots, spec["seed"])
    else:
        setup = Setup(rules)
        for step in steps:
            setup.apply(step)
    assert setup.is_done(), "the stored setup steps no longer finish the setup"
    return setup.board(), list(setup.history)


def facts(board: Board, steps: list[str], moves: list[str], positions: list[str],
          digest: str) -> dict[str, Any]:
    """What a golden game pins."""
    outcome = board.outcome
    assert outcome is not None
    return {
        "setup_steps": steps,
        "start": board.start,
        "start_faces": faces_text(board.start_faces, board.n) if board.start_faces else None,
        "moves": moves,
        "positions": positions,
        "legal_digest": digest,
        "termination": outcome.termination.value,
        "winners": list(outcome.winners),
        "final_faces": faces_text(board.faces, board.n) if board.faces else None,
    }


def play_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """Play one pinned game with its bots; the record to store."""
    from cambio.bots.board import make_bot

    board, steps = start(spec)
    bots = [make_bot(name, board.rules, spec["seed"] + seat)
            for seat, name in enumerate(bot_names(spec["lineup"], board.rules.players))]
    digest = LegalDigest()
    moves: list[str] = []
    positions: list[str] = []
    while board.outcome is None:
        digest.add(board)
        move = bots[board.turn].choose(board.copy())
        moves.append(board.move_text(move))
        board.play(move)
        positions.append(board.position())
    return {**spec, **facts(board, steps, moves, positions, digest.hexdigest())}


def replay_spec(game: dict[str, Any]) -> dict[str, Any]:
    """Replay a stored game's setup steps and moves; the same record if nothing moved."""
    spec = {key: game[key] for key in ("rules", "setup", "lineup", "seed")}
    board, steps = start(spec, game["setup_steps"] if spec["setup"] == "full" else None)
    digest = LegalDigest()
    positions: list[str] = []
    for text in game["moves"]:
        digest.add(board)
        board.play(text)
        positions.append(board.position())
    assert board.outcome is not None, "the stored moves no longer end the game"
    return {**spec, **facts(board, steps, game["moves"], positions, digest.hexdigest())}


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PATH.read_text().splitlines() if line]


def main() -> None:
    games = [play_spec(spec) for spec in game_specs()]
    PATH.write_text("".join(json.dumps(g, separators=(",", ":")) + "\n" for g in games))
    moves = sum(len(g["moves"]) for g in games)
    print(f"wrote {len(games)} games, {moves} moves to {PATH}")


if __name__ == "__main__":
    main()
