"""Board-game simulations: many seeded games between bots, and round-robin tournaments.

Game ``k`` of a run with seed ``s`` is set up from ``derive_seed(s, k)`` and seat ``i``'s bot
is seeded with ``derive_seed(s, k, i, 1)``, so any single game can be replayed on its own.
:func:`simulate` returns the summary ``cambio sim board --json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from cambio.board import Rules
from cambio.board.setup import quick_setup
from cambio.bots.board import make_bot, play_game
from cambio.games.board import GAME
from cambio.seeds import derive_seed
from cambio.shares import share_text, tie_share
from cambio.sim import run
from cambio.sim.parallel import LOCAL, Where

TIMING_KEYS = run.TIMING_KEYS


@dataclass(frozen=True)
class SimConfig:
    """``cambio sim board``'s settings; :meth:`run_config` is the run any game has."""

    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    full_setup: bool = False
    record_dir: Path | None = None

    def __post_init__(self) -> None:
        self.run_config()  # fail early on a wrong number of bots or a bad name

    def run_config(self) -> run.RunConfig:
        setup = "full" if self.full_setup else "quick"
        return run.RunConfig(GAME.name, self.rules, self.rules.players, self.bots, self.games,
                             self.seed, self.record_dir, (("setup", setup),))


def simulate(config: SimConfig, advance: Callable[[int], None] | None = None,
             where: Where = LOCAL) -> dict[str, Any]:
    """Play every game of ``config`` (writing records if asked); return the summary.

    ``where`` may spread the games over processes or a Ray cluster; the summary is the same
    but for its timing fields."""
    return run.simulate(config.run_config(), advance, where)


def seat_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    return [(str(s), bot, summary["wins"][s], summary["ties"][s],
             share_text(summary["score"][s], *summary["score_interval"][s]))
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
            pts = tuple(tie_share(s, board.outcome.winners, 2) for s in range(2))
            out.append(Game(seats, pts, board.ply))
            if advance is not None:
                advance(1)
    return out


__all__ = ["TIMING_KEYS", "Game", "SimConfig", "round_robin", "seat_rows", "simulate"]
