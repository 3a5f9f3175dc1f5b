"""Card-game simulation: many seeded rounds between bots, summarised per seat and per bot.

Every game is reproducible on its own: game ``k`` of a run with seed ``S`` uses the round seed
:func:`game_seed` ``(S, k)`` and bot seeds derived from it, and is dealt by seat ``k mod N``
(so the first player rotates fairly). A summary therefore depends only on the configuration,
and any single game can be replayed or re-recorded without running the others.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cambio.bots.cards.native_names import NATIVE_KINDS
from cambio.cards import Rules
from cambio.games import Played
from cambio.games.cards import GAME, played
from cambio.shares import share_text
from cambio.sim import run
from cambio.sim.parallel import LOCAL, Where, play_ranges
from cambio.sim.run import Tally, bot_seed, game_seed

TIMING_KEYS = ("seconds", "games_per_second", "actions_per_second")
"""Summary fields that vary from run to run; everything else is fixed by the configuration."""


@dataclass(frozen=True)
class SimConfig:
    """``cambio sim cards``'s settings; :meth:`run_config` is the run any game has (game
    ``k`` dealt by seat ``k mod players``)."""

    rules: Rules
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    record_dir: Path | None = None

    def __post_init__(self) -> None:
        self.run_config()  # fail early on a bad seat count or name

    def run_config(self) -> run.RunConfig:
        return run.RunConfig(GAME.name, self.rules, self.players, self.bots, self.games,
                             self.seed, self.record_dir, rotate=True)

    def dealer(self, k: int) -> int:
        return k % self.players


def summary(config: SimConfig, tally: Tally, seconds: float) -> dict[str, Any]:
    """The card game's summary: rounds won alone and tied, win shares (a tie of ``k``
    counts ``1/k``: :mod:`cambio.shares`) with their 95% intervals; scores, Cambio calls and
    turns besides."""
    c = config
    g = max(1, tally.games)
    calls = [tally.stats[f"calls:{s}"] for s in range(c.players)]
    by_bot: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(c.bots):
        seats = [s for s, b in enumerate(c.bots) if b == name]
        seat_games = g * len(seats)
        by_bot[name] = {
            "seats": seats,
            "wins": sum(tally.wins[s] for s in seats),
            "tied_wins": sum(tally.ties[s] for s in seats),
            "win_share": sum(tally.shares[s] for s in seats) / seat_games,
            "win_share_interval": tally.interval(seats),
            "mean_score": sum(tally.score_sum[s] for s in seats) / seat_games,
        }
    return {
        "game": GAME.name,
        "games": tally.games,
        "players": c.players,
        "rules": c.rules.to_json(),
        "bots": list(c.bots),
        "seed": c.seed,
        "dealer": "game k is dealt by seat k mod players; the next seat plays first",
        "wins": tally.wins,
        "tied_wins": tally.ties,
        "win_share": [x / g for x in tally.shares],
        "win_share_interval": [tally.interval([s]) for s in range(c.players)],
        "mean_score": [s / g for s in tally.score_sum],
        "ties": tally.tied_games,
        "ties_note": "wins are rounds won alone; a round won by k tied seats counts 1/k of a "
                     "win for each, so win shares sum to 1 per round",
        "by_bot": by_bot,
        "cambio_calls": calls,
        "caller_win_rate": tally.stats["caller_wins"] / sum(calls) if sum(calls) else None,
        "mean_turns": tally.stats["turns"] / g,
        "mean_actions": tally.plies / g,
        "end_reasons": dict(sorted(tally.end_reasons.items())),
        "seconds": seconds,
        "games_per_second": tally.games / seconds if seconds > 0 else None,
        "actions_per_second": tally.plies / seconds if seconds > 0 else None,
    }


ENGINES = ("auto", "batch", "python")
NATIVE_BOTS = frozenset(NATIVE_KINDS)
"""Bots the batch engine plays natively (the same decisions as the Python bot;
``cambio.bots.cards.native``)."""
BATCH_CHUNK = 4096


def choose_engine(config: SimConfig, engine: str) -> str:
    """``batch`` or ``python`` for ``engine`` (``auto``: batch when every bot has a native
    version, no records are written, since the batch engine keeps no action history, and the
    kernels can play the rules; :func:`cambio.cards.batch.kernel_blockers`)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    from cambio.cards.batch import BatchRulesError, check_kernel_rules

    native = all(name in NATIVE_BOTS for name in config.bots)
    if engine == "batch":
        try:
            check_kernel_rules(config.rules)
        except BatchRulesError as exc:
            raise ValueError(str(exc)) from None
        if not native:
            others = sorted(set(config.bots) - NATIVE_BOTS)
            raise ValueError(f"the batch engine has no native version of {', '.join(others)} "
                             f"(native bots: {', '.join(sorted(NATIVE_BOTS))})")
        if config.record_dir is not None:
            raise ValueError("the batch engine writes no records; use --engine python")
        return "batch"
    if engine == "auto" and native and config.record_dir is None:
        try:
            check_kernel_rules(config.rules)
        except BatchRulesError:
            return "python"  # rules the kernels cannot play: the compiled engine plays them
        return "batch"
    return "python"


def batch_results(config: SimConfig, first: int, count: int) -> list[Played]:
    """Games ``first .. first+count-1`` of ``config`` played natively by the batch engine:
    the same deals, decisions and results as the Python engine."""
    from cambio.bots.cards.native import play_native

    ks = range(first, first + count)
    res = play_native(config.rules, config.players, config.bots,
                      [game_seed(config.seed, k) for k in ks], [config.dealer(k) for k in ks],
                      [[bot_seed(config.seed, k, s) for s in range(config.players)]
                       for k in ks])
    return [played(res.scores[i].tolist(),
                   [s for s in range(config.players) if res.winners[i, s]],
                   int(res.actions[i]), res.end_reasons[i], int(res.callers[i]),
                   int(res.turns[i]))
            for i in range(count)]


def batch_range(config: SimConfig, start: int, stop: int) -> list[Tally]:
    """Games ``start .. stop-1`` on the batch engine, tallied where they are played (what a
    worker process does): one small tally crosses the process boundary instead of a result
    per game, whose pickling and adding in the parent held 2 workers to 1.3x."""
    tally = Tally(config.players)
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
    start = time.perf_counter()
    if choose_engine(config, engine) == "batch":
        if where.ray is None and where.workers > 1:
            batch_results(config, 0, 1)  # load the compiled kernels once, before the fork
        tally = Tally(config.players)
        for part in play_ranges(batch_range, config, config.games, where, advance, BATCH_CHUNK):
            tally.merge(part)
    else:
        tally = run.tally_all(config.run_config(), advance, where)
    return summary(config, tally, time.perf_counter() - start)


def seat_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    """Rows of the per-seat results table: seat, bot, wins, tied wins, win share (95%),
    mean score, calls."""
    return [
        (str(s), bot, summary["wins"][s], summary["tied_wins"][s],
         share_text(summary["win_share"][s], *summary["win_share_interval"][s]),
         summary["mean_score"][s], summary["cambio_calls"][s])
        for s, bot in enumerate(summary["bots"])
    ]


def bot_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    return [
        (name, ",".join(map(str, b["seats"])), b["wins"], b["tied_wins"],
         share_text(b["win_share"], *b["win_share_interval"]), b["mean_score"])
        for name, b in summary["by_bot"].items()
    ]


__all__ = ["ENGINES", "NATIVE_BOTS", "TIMING_KEYS", "SimConfig", "Tally", "batch_range",
           "batch_results", "bot_rows", "bot_seed", "choose_engine", "game_seed", "seat_rows",
           "simulate", "summary"]
