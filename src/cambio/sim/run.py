"""Many seeded games of any :class:`~cambio.games.Game` between bots, tallied.

Game ``k`` of a run with seed ``S`` is played from :func:`game_seed` ``(S, k)`` with seat
``i``'s bot seeded by :func:`bot_seed` ``(S, k, i)``, so any single game can be replayed or
re-recorded on its own and a summary depends only on the configuration (and on no split of
the games over processes). The game is named, not held, so a configuration pickles to
worker processes and Ray as a few plain values.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cambio.games import Game, Played, get_game
from cambio.seeds import derive_seed
from cambio.shares import interval_of_sums, tie_share
from cambio.sim.parallel import LOCAL, Where, play_all

TIMING_KEYS = ("seconds", "games_per_second", "plies_per_second")
"""Summary fields that vary from run to run; everything else is fixed by the configuration."""


def game_seed(seed: int, k: int) -> int:
    return derive_seed(seed, k)


def bot_seed(seed: int, k: int, seat: int) -> int:
    return derive_seed(seed, k, seat, 1)


@dataclass(frozen=True)
class RunConfig:
    """A run: ``games`` games of the game called ``game`` between ``bots`` (one a seat)."""

    game: str
    rules: Any
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    record_dir: Path | None = None
    options: tuple[tuple[str, Any], ...] = ()
    rotate: bool = False
    """Game ``k`` is dealt by seat ``k mod players`` (the card game); else the game's
    default first seat."""

    def __post_init__(self) -> None:
        game = get_game(self.game)
        game.check(self.rules, self.players)
        if len(self.bots) != self.players:
            raise ValueError(f"{self.players} players need {self.players} bots, "
                             f"got {len(self.bots)}")
        if self.games < 1:
            raise ValueError("at least one game")
        for name in self.bots:
            game.make_bot(name, self.rules, 0)  # fail early on an unknown name

    @property
    def kind(self) -> Game:
        return get_game(self.game)

    def first(self, k: int) -> int | None:
        return k % self.players if self.rotate else None


def play_one(config: RunConfig, k: int) -> Played:
    """Play game ``k`` of ``config`` to the end."""
    game = config.kind
    bots = [game.make_bot(name, config.rules, bot_seed(config.seed, k, seat))
            for seat, name in enumerate(config.bots)]
    return game.play(config.rules, config.players, game_seed(config.seed, k), bots,
                     config.first(k), config.options)


def record_path(directory: Path, k: int) -> Path:
    return directory / f"game-{k + 1:05d}.jsonl"


def game_result(config: RunConfig, k: int) -> Played:
    """Play game ``k`` and write its record if asked: what a worker process does per game
    (the history stays behind; only the counts travel)."""
    played = play_one(config, k)
    if config.record_dir is not None:
        text = config.kind.record(config.rules, config.players, game_seed(config.seed, k),
                                  config.first(k), config.bots, played, config.options)
        record_path(config.record_dir, k).write_text(text, encoding="utf-8")
    return replace(played, history=None)


@dataclass
class Tally:
    """Running totals over games; every field is a count or a sum, so tallies of parts of
    a run merge into the tally of the whole."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    """Games won alone, per seat."""
    ties: list[int] = field(default_factory=list)
    """Games won together with other seats, per seat."""
    shares: list[float] = field(default_factory=list)
    """Win share per seat: 1 alone, 1/k of k winners, 1/players of a draw
    (:func:`cambio.shares.tie_share`)."""
    share_squares: list[float] = field(default_factory=list)
    """The sum of each seat's squared per-game shares, for the interval."""
    score_sum: list[int] = field(default_factory=list)
    draws: int = 0
    tied_games: int = 0
    plies: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)
    stats: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        n = self.players
        self.wins, self.ties, self.score_sum = [0] * n, [0] * n, [0] * n
        self.shares, self.share_squares = [0.0] * n, [0.0] * n

    def add(self, p: Played) -> None:
        self.games += 1
        self.plies += p.plies
        self.end_reasons[p.end] += 1
        self.stats.update(dict(p.stats))
        for s, v in enumerate(p.scores):
            self.score_sum[s] += v
        if not p.winners:
            self.draws += 1
        if len(p.winners) > 1:
            self.tied_games += 1
        for s in p.winners:
            (self.wins if len(p.winners) == 1 else self.ties)[s] += 1
        for s in range(self.players):
            share = tie_share(s, p.winners, self.players)
            self.shares[s] += share
            self.share_squares[s] += share * share

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for mine, more in ((self.wins, other.wins), (self.ties, other.ties),
                           (self.score_sum, other.score_sum)):
            for s, v in enumerate(more):
                mine[s] += v
        for s, x in enumerate(other.shares):
            self.shares[s] += x
            self.share_squares[s] += other.share_squares[s]
        self.draws += other.draws
        self.tied_games += other.tied_games
        self.plies += other.plies
        self.end_reasons.update(other.end_reasons)
        self.stats.update(other.stats)

    def interval(self, seats: Sequence[int]) -> list[float]:
        """``[low, high]``: the 95% interval of the mean share of ``seats`` (each seat's
        game one sample), :func:`cambio.shares.interval_of_sums`."""
        n = self.games * len(seats)
        if n == 0:
            return [0.0, 1.0]
        _, low, high = interval_of_sums(n, sum(self.shares[s] for s in seats),
                                        sum(self.share_squares[s] for s in seats))
        return [low, high]

    def per_bot(self, bots: Sequence[str]) -> dict[str, dict[str, Any]]:
        g = max(1, self.games)
        out: dict[str, dict[str, Any]] = {}
        for name in dict.fromkeys(bots):
            seats = [s for s, b in enumerate(bots) if b == name]
            out[name] = {"seats": seats, "wins": sum(self.wins[s] for s in seats),
                         "ties": sum(self.ties[s] for s in seats),
                         "score": sum(self.shares[s] for s in seats) / (g * len(seats)),
                         "score_interval": self.interval(seats)}
        return out

    def summary(self, config: RunConfig, seconds: float) -> dict[str, Any]:
        """The summary of any game: wins, ties, draws, win shares (``points``/``score``),
        plies, why games ended."""
        g = max(1, self.games)
        return {
            "game": config.game,
            "games": self.games,
            "players": config.players,
            "rules": config.kind.rules_json(config.rules),
            "bots": list(config.bots),
            "seed": config.seed,
            **{name: value for name, value in config.options},
            "wins": self.wins,
            "win_rate": [w / g for w in self.wins],
            "ties": self.ties,
            "draws": self.draws,
            "points": self.shares,
            "score": [p / g for p in self.shares],
            "score_interval": [self.interval([s]) for s in range(config.players)],
            "by_bot": self.per_bot(config.bots),
            "mean_plies": self.plies / g,
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "seconds": seconds,
            "games_per_second": self.games / seconds if seconds > 0 else None,
            "plies_per_second": self.plies / seconds if seconds > 0 else None,
        }


def tally_all(config: RunConfig, advance: Callable[[int], None] | None = None,
              where: Where = LOCAL) -> Tally:
    """Play every game of ``config`` on ``where`` (writing records if asked), tallied."""
    if config.record_dir is not None:
        config.record_dir.mkdir(parents=True, exist_ok=True)
    tally = Tally(config.players)
    for played in play_all(game_result, config, config.games, where, advance):
        tally.add(played)
    return tally


def simulate(config: RunConfig, advance: Callable[[int], None] | None = None,
             where: Where = LOCAL) -> dict[str, Any]:
    """Play every game of ``config`` and return the summary (``cambio sim GAME --json``);
    the same but for its timing fields whatever ``where`` is."""
    start = time.perf_counter()
    tally = tally_all(config, advance, where)
    return tally.summary(config, time.perf_counter() - start)


__all__ = ["TIMING_KEYS", "RunConfig", "Tally", "bot_seed", "game_result", "game_seed",
           "play_one", "record_path", "simulate", "tally_all"]
