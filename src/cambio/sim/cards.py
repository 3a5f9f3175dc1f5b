"""Card-game simulation: many seeded rounds between bots, summarised per seat and per bot.

Every game is reproducible on its own: game ``k`` of a run with seed ``S`` uses the round seed
:func:`game_seed` ``(S, k)`` and bot seeds derived from it, and is dealt by seat ``k mod N``
(so the first player rotates fairly). A summary therefore depends only on the configuration,
and any single game can be replayed or re-recorded without running the others.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cambio.bots.cards import make_bot, play_round
from cambio.bots.cards.native_names import NATIVE_KINDS
from cambio.cards import Rules, State
from cambio.records.cards import make_header, record_text
from cambio.seeds import derive_seed
from cambio.sim.parallel import LOCAL, Where, play_all, play_ranges

TIMING_KEYS = ("seconds", "games_per_second", "actions_per_second")
"""Summary fields that vary from run to run; everything else is fixed by the configuration."""



def game_seed(seed: int, k: int) -> int:
    return derive_seed(seed, k)


def bot_seed(seed: int, k: int, seat: int) -> int:
    return derive_seed(seed, k, seat, 1)


@dataclass(frozen=True)
class SimConfig:
    rules: Rules
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    record_dir: Path | None = None

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if len(self.bots) != self.players:
            raise ValueError(f"{len(self.bots)} bots for {self.players} seats")
        if self.games < 1:
            raise ValueError("at least one game")
        for name in self.bots:
            make_bot(name, 0)  # fail early on an unknown name

    def dealer(self, k: int) -> int:
        return k % self.players


@dataclass(frozen=True)
class GameResult:
    scores: list[int]
    winners: list[int]
    turns: int
    actions: int
    end_reason: str
    caller: int | None


def play_game(config: SimConfig, k: int) -> tuple[GameResult, State]:
    """Play game ``k`` of ``config`` to the end."""
    state = State(config.rules, config.players, seed=game_seed(config.seed, k),
                  dealer=config.dealer(k), polled=True)
    bots = [make_bot(name, bot_seed(config.seed, k, seat))
            for seat, name in enumerate(config.bots)]
    play_round(state, bots)
    result = GameResult(
        scores=state.scores(),
        winners=state.winners(),
        turns=state.turn_number,
        actions=state.history_length(),
        end_reason=state.end_reason.name.lower(),
        caller=state.caller if state.caller >= 0 else None,
    )
    return result, state


def game_record(config: SimConfig, k: int, state: State) -> str:
    """The full record of game ``k`` (the header names each seat's bot)."""
    players = [{"name": f"{name} (seat {seat})", "bot": name}
               for seat, name in enumerate(config.bots)]
    header = make_header(config.rules, players, seed=game_seed(config.seed, k),
                         dealer=config.dealer(k), polled=True)
    return record_text(header, state.history)


def record_path(directory: Path, k: int) -> Path:
    return directory / f"game-{k + 1:05d}.jsonl"


@dataclass
class Tally:
    """Running totals over games; :meth:`summary` turns them into the reported figures."""

    config: SimConfig
    games: int = 0
    wins: list[int] = field(default_factory=list)
    score_sum: list[int] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    caller_wins: int = 0
    ties: int = 0
    turns: int = 0
    actions: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        n = self.config.players
        self.wins = [0] * n
        self.score_sum = [0] * n
        self.calls = [0] * n

    def add(self, r: GameResult) -> None:
        self.games += 1
        for s in r.winners:
            self.wins[s] += 1
        for s, v in enumerate(r.scores):
            self.score_sum[s] += v
        if len(r.winners) > 1:
            self.ties += 1
        if r.caller is not None:
            self.calls[r.caller] += 1
            if r.caller in r.winners:
                self.caller_wins += 1
        self.turns += r.turns
        self.actions += r.actions
        self.end_reasons[r.end_reason] += 1

    def merge(self, other: Tally) -> None:
        """Add another tally of the same config: every field is a count or a sum, so the
        merged summary does not depend on how the games were split."""
        self.games += other.games
        for totals, more in ((self.wins, other.wins), (self.score_sum, other.score_sum),
                             (self.calls, other.calls)):
            for s, v in enumerate(more):
                totals[s] += v
        self.caller_wins += other.caller_wins
        self.ties += other.ties
        self.turns += other.turns
        self.actions += other.actions
        self.end_reasons.update(other.end_reasons)

    def summary(self, seconds: float) -> dict[str, Any]:
        c = self.config
        g = max(1, self.games)
        by_bot: dict[str, dict[str, Any]] = {}
        for name in dict.fromkeys(c.bots):
            seats = [s for s, b in enumerate(c.bots) if b == name]
            seat_games = g * len(seats)
            by_bot[name] = {
                "seats": seats,
                "wins": sum(self.wins[s] for s in seats),
                "win_rate": sum(self.wins[s] for s in seats) / seat_games,
                "mean_score": sum(self.score_sum[s] for s in seats) / seat_games,
            }
        calls = sum(self.calls)
        return {
            "game": "cards",
            "games": self.games,
            "players": c.players,
            "rules": c.rules.to_json(),
            "bots": list(c.bots),
            "seed": c.seed,
            "dealer": "game k is dealt by seat k mod players; the next seat plays first",
            "wins": self.wins,
            "win_rate": [w / g for w in self.wins],
            "mean_score": [s / g for s in self.score_sum],
            "ties": self.ties,
            "ties_note": "on a tie every winner counts a win, so wins can sum past games",
            "by_bot": by_bot,
            "cambio_calls": self.calls,
            "caller_win_rate": self.caller_wins / calls if calls else None,
            "mean_turns": self.turns / g,
            "mean_actions": self.actions / g,
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "seconds": seconds,
            "games_per_second": self.games / seconds if seconds > 0 else None,
            "actions_per_second": self.actions / seconds if seconds > 0 else None,
        }


def game_result(config: SimConfig, k: int) -> GameResult:
    """Play game ``k`` and write its record if asked: what a worker process does per game."""
    result, state = play_game(config, k)
    if config.record_dir is not None:
        record_path(config.record_dir, k).write_text(game_record(config, k, state),
                                                     encoding="utf-8")
    return result


ENGINES = ("auto", "batch", "python")
NATIVE_BOTS = frozenset(NATIVE_KINDS)
"""Bots the batch engine plays natively (the same decisions as the Python bot;
``cambio.bots.cards.native``)."""
BATCH_CHUNK = 4096


def choose_engine(config: SimConfig, engine: str) -> str:
    """``batch`` or ``python`` for ``engine`` (``auto``: batch when every bot has a native
    version and no records are written, since the batch engine keeps no action history)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    native = all(name in NATIVE_BOTS for name in config.bots)
    if engine == "batch":
        if not native:
            others = sorted(set(config.bots) - NATIVE_BOTS)
            raise ValueError(f"the batch engine has no native version of {', '.join(others)} "
                             f"(native bots: {', '.join(sorted(NATIVE_BOTS))})")
        if config.record_dir is not None:
            raise ValueError("the batch engine writes no records; use --engine python")
        return "batch"
    if engine == "auto" and native and config.record_dir is None:
        return "batch"
    return "python"


def batch_results(config: SimConfig, first: int, count: int) -> list[GameResult]:
    """Games ``first .. first+count-1`` of ``config`` played natively by the batch engine:
    the same deals, decisions and results as :func:`play_game`."""
    from cambio.bots.cards.native import play_native

    ks = range(first, first + count)
    res = play_native(config.rules, config.players, config.bots,
                      [game_seed(config.seed, k) for k in ks], [config.dealer(k) for k in ks],
                      [[bot_seed(config.seed, k, s) for s in range(config.players)]
                       for k in ks])
    out = []
    for i in range(count):
        caller = int(res.callers[i])
        out.append(GameResult(
            scores=res.scores[i].tolist(),
            winners=[s for s in range(config.players) if res.winners[i, s]],
            turns=int(res.turns[i]), actions=int(res.actions[i]),
            end_reason=res.end_reasons[i], caller=caller if caller >= 0 else None))
    return out


def batch_range(config: SimConfig, start: int, stop: int) -> list[Tally]:
    """Games ``start .. stop-1`` on the batch engine, tallied where they are played (what a
    worker process does): one small tally crosses the process boundary instead of a result
    per game, whose pickling and adding in the parent held 2 workers to 1.3x."""
    tally = Tally(config)
    for result in batch_results(config, start, stop - start):
        tally.add(result)
    return [tally]


def simulate(config: SimConfig, advance: Callable[[int], None] | None = None,
             where: Where = LOCAL, engine: str = "python") -> dict[str, Any]:
    """Play every game of ``config`` (writing records if asked) and return the summary.

    ``where`` may spread the games over processes or a Ray cluster: the summary is the same
    but for its timing fields. Timing covers play only; with ``record_dir`` it also includes
    writing the records. ``engine`` (see :func:`choose_engine`) gives the same summary too:
    the batch engine plays the same games natively, a range of games at a time (on
    ``where`` as well).
    """
    if config.record_dir is not None:
        config.record_dir.mkdir(parents=True, exist_ok=True)
    tally = Tally(config)
    start = time.perf_counter()
    if choose_engine(config, engine) == "batch":
        if where.ray is None and where.workers > 1:
            batch_results(config, 0, 1)  # load the compiled kernels once, before the fork
        for part in play_ranges(batch_range, config, config.games, where, advance, BATCH_CHUNK):
            tally.merge(part)
    else:
        for result in play_all(game_result, config, config.games, where, advance):
            tally.add(result)
    return tally.summary(time.perf_counter() - start)


def seat_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    """Rows of the per-seat results table: seat, bot, wins, win rate, mean score, calls."""
    return [
        (str(s), bot, summary["wins"][s], f"{summary['win_rate'][s]:.1%}",
         summary["mean_score"][s], summary["cambio_calls"][s])
        for s, bot in enumerate(summary["bots"])
    ]


def bot_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    return [
        (name, ",".join(map(str, b["seats"])), b["wins"], f"{b['win_rate']:.1%}",
         b["mean_score"])
        for name, b in summary["by_bot"].items()
    ]


__all__ = ["ENGINES", "NATIVE_BOTS", "TIMING_KEYS", "GameResult", "SimConfig", "Tally",
           "batch_range", "batch_results", "bot_rows", "bot_seed", "choose_engine", "game_record",
           "game_result", "game_seed", "play_game", "record_path", "seat_rows", "simulate"]
