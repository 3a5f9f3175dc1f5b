"""Board-game simulations: many seeded games between bots, and round-robin tournaments.

Game ``k`` of a run with seed ``s`` is set up from ``derive_seed(s, k)`` and seat ``i``'s bot
is seeded with ``derive_seed(s, k, i, 1)``, so any single game can be replayed on its own.
:func:`simulate` returns the summary ``cambio sim board --json`` prints.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from cambio.board import Board, Outcome, Rules
from cambio.board.setup import quick_setup
from cambio.bots.board import make_bot, play_game, run_setup
from cambio.records.board import record_text
from cambio.seeds import derive_seed
from cambio.sim.parallel import LOCAL, Where, play_all

TIMING_KEYS = ("seconds", "games_per_second", "plies_per_second")



@dataclass(frozen=True)
class SimConfig:
    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    full_setup: bool = False
    record_dir: Path | None = None

    def __post_init__(self) -> None:
        if len(self.bots) != self.rules.players:
            raise ValueError(f"{self.rules.players} players need {self.rules.players} bots, "
                             f"got {len(self.bots)}")
        for spec in self.bots:
            make_bot(spec, self.rules)  # fail early on a bad name


def play_one(config: SimConfig, k: int) -> tuple[Board, list[str]]:
    """Game ``k`` of a run: its final board and its setup steps (empty for a quick setup)."""
    seed = derive_seed(config.seed, k)
    bots = [make_bot(spec, config.rules, seed=derive_seed(config.seed, k, i, 1))
            for i, spec in enumerate(config.bots)]
    steps: list[str] = []
    if config.full_setup:
        setup = run_setup(config.rules, bots, seed)
        board, steps = setup.board(), list(setup.history)
    else:
        board = quick_setup(config.rules, seed)
    return play_game(board, bots), steps


@dataclass
class Tally:
    config: SimConfig
    games: int = 0
    wins: list[int] = field(default_factory=list)
    ties: list[int] = field(default_factory=list)
    draws: int = 0
    plies: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.wins = [0] * self.config.rules.players
        self.ties = [0] * self.config.rules.players

    def add(self, out: Outcome, plies: int) -> None:
        self.games += 1
        self.plies += plies
        self.end_reasons[out.termination.value] += 1
        if not out.winners:
            self.draws += 1
        for s in out.winners:
            if len(out.winners) == 1:
                self.wins[s] += 1
            else:
                self.ties[s] += 1

    def points(self) -> list[float]:
        """Win 1, tie 1/2 to each tied seat, draw 1/players to everyone."""
        p = self.config.rules.players
        return [w + t / 2 + self.draws / p for w, t in zip(self.wins, self.ties, strict=True)]

    def summary(self, seconds: float) -> dict[str, Any]:
        c = self.config
        g = max(1, self.games)
        points = self.points()
        by_bot: dict[str, dict[str, Any]] = {}
        for name in dict.fromkeys(c.bots):
            seats = [s for s, b in enumerate(c.bots) if b == name]
            by_bot[name] = {"seats": seats, "wins": sum(self.wins[s] for s in seats),
                            "ties": sum(self.ties[s] for s in seats),
                            "score": sum(points[s] for s in seats) / (g * len(seats))}
        return {
            "game": "board",
            "games": self.games,
            "players": c.rules.players,
            "rules": c.rules.to_json(),
            "bots": list(c.bots),
            "seed": c.seed,
            "setup": "full" if c.full_setup else "quick",
            "wins": self.wins,
            "win_rate": [w / g for w in self.wins],
            "ties": self.ties,
            "draws": self.draws,
            "points": points,
            "score": [p / g for p in points],
            "by_bot": by_bot,
            "mean_plies": self.plies / g,
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "seconds": seconds,
            "games_per_second": self.games / seconds if seconds > 0 else None,
            "plies_per_second": self.plies / seconds if seconds > 0 else None,
        }


def game_result(config: SimConfig, k: int) -> tuple[Outcome, int]:
    """Play game ``k`` and write its record if asked: its outcome and length (what a worker
    process sends back)."""
    board, steps = play_one(config, k)
    if config.record_dir is not None:
        path = config.record_dir / f"game-{k + 1:05d}.jsonl"
        path.write_text(record_text(board, list(config.bots), derive_seed(config.seed, k),
                                    steps), encoding="utf-8")
    assert board.outcome is not None
    return board.outcome, board.ply


def simulate(config: SimConfig, advance: Callable[[int], None] | None = None,
             where: Where = LOCAL) -> dict[str, Any]:
    """Play every game of ``config`` (writing records if asked); return the summary.

    ``where`` may spread the games over processes or a Ray cluster; the summary is the same
    but for its timing fields."""
    if config.record_dir is not None:
        config.record_dir.mkdir(parents=True, exist_ok=True)
    tally = Tally(config)
    start = time.perf_counter()
    for outcome, plies in play_all(game_result, config, config.games, where, advance):
        tally.add(outcome, plies)
    return tally.summary(time.perf_counter() - start)


def seat_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    return [(str(s), bot, summary["wins"][s], f"{summary['win_rate'][s]:.1%}",
             summary["ties"][s], f"{summary['score'][s]:.3f}")
            for s, bot in enumerate(summary["bots"])]


# ====================================================================== tournaments
@dataclass(frozen=True)
class Game:
    """One tournament game: the bot specs by seat and the points each seat scored."""

    bots: tuple[str, ...]
    points: tuple[float, ...]
    plies: int


def round_robin(rules: Rules, specs: Sequence[str], games_per_pair: int, seed: int = 0,
                advance: Callable[[int], None] | None = None) -> list[Game]:
    """Every pair of 2-player bots plays ``games_per_pair`` games, swapping seats each game;
    game ``j`` of a pair uses start ``derive_seed(seed, j // 2)``, so both seatings of a
    start are played."""
    if rules.players != 2:
        raise ValueError("round_robin pairs bots for 2-player games")
    out = []
    for a, b in combinations(specs, 2):
        for j in range(games_per_pair):
            seats = (a, b) if j % 2 == 0 else (b, a)
            start = derive_seed(seed, j // 2)
            bots = [make_bot(s, rules, seed=derive_seed(seed, j, i, 7))
                    for i, s in enumerate(seats)]
            board = play_game(quick_setup(rules, start), bots)
            assert board.outcome is not None
            w = board.outcome.winners
            pts = tuple(1.0 / len(w) if s in w else 0.0 for s in range(2)) if w else (0.5, 0.5)
            out.append(Game(seats, pts, board.ply))
            if advance is not None:
                advance(1)
    return out


__all__ = ["TIMING_KEYS", "Game", "SimConfig", "Tally", "game_result", "play_one", "round_robin",
           "seat_rows", "simulate"]
