"""Tournaments (card game, and board game): every lineup of the named bots, seats rotated,
rated with OpenSkill.

A tournament is a pure function of its configuration: game ``k`` is fully decided by
``(config, k)`` -- its lineup, its seat rotation, its round seed and its bots' seeds all come
from ``k`` and the run's seed (:mod:`cambio.seeds`) -- so games can be played in any
order, or in parallel, and :func:`summarize` (which folds results in game order) gives the
same table and ratings. Only timing fields differ between runs.

**Schedule.** With at least as many bots as seats, the lineups are the combinations of
``players`` distinct bots; with fewer, the multisets of bots that mix at least two of them
(``hard,memory`` at 4 players: 3+1, 2+2, 1+3). Game ``k`` plays lineup ``k mod L`` rotated
by ``(k // L) mod players`` seats, so over every ``L * players`` games each bot of a lineup
sits in every seat once. Seat 0 always plays first (the default dealer), so a seat *is* a
position in the turn order. The rotations of a lineup replay the *same deal* (as in
duplicate bridge): a lucky deal helps every bot of the lineup equally, which removes most of
the luck from a comparison (two copies of one deterministic bot score exactly 50%).

**Win share.** A round won alone counts 1 for its winner; a round won by ``k`` tied seats
counts ``1/k`` for each. A bot's share in a game is the sum over its seats. The pairwise
table gives, for each ordered pair ``(A, B)``, A's mean share over the games both played,
with a 95% interval from the spread of the per-deal means (a deal's rotations are paired).

**Ratings** come from OpenSkill's Plackett-Luce model: each game is one ranking of the seats
by score (tied scores share a rank; the preset's tie rule decides who among the lowest
actually won, so winners rank first). A bot in several seats of one game is rated as each
seat from its rating before the game, and its new rating averages the seats' updates.
``low``/``high`` are ``mu ± Z95 sigma`` (``cambio.shares.Z95``, 1.96).

**Any game** (``game`` names a :class:`cambio.games.Game`; ``rules`` are its rules) runs
through the same schedule: a deal is the game's seeded start (for the board game a quick
setup), a draw (no winner) counts as a win shared by every seat, and the ranking puts
winners first, everyone else by score.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
from types import ModuleType
from typing import Any

from cambio.games import get_game
from cambio.shares import Z95, share_interval, tie_share
from cambio.sim.parallel import LOCAL, Where, play_all
from cambio.sim.run import bot_seed, game_seed

TIMING_KEYS = ("seconds", "games_per_second", "decision_seconds")
"""Summary fields that vary from run to run; everything else is fixed by the configuration."""


@dataclass(frozen=True)
class TournamentConfig:
    rules: Any
    """The rules of the game called :attr:`game` (e.g. :class:`cambio.cards.Rules`)."""
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    game: str = "cards"
    lineups: tuple[tuple[str, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        get_game(self.game).check(self.rules, self.players)
        names = tuple(dict.fromkeys(self.bots))
        if len(names) != len(self.bots):
            raise ValueError("a bot is named twice")
        if len(names) < 2:
            raise ValueError("a tournament needs at least two bots")
        if self.games < 1:
            raise ValueError("at least one game")
        for name in names:
            self.bot(name, 0)  # fail early on an unknown name
        object.__setattr__(self, "lineups", schedule(names, self.players))

    def bot(self, name: str, seed: int) -> Any:
        return get_game(self.game).make_bot(name, self.rules, seed)

    def deal(self, k: int) -> int:
        """The deal game ``k`` plays: the rotations of one lineup share a deal."""
        count = len(self.lineups)
        return (k // (count * self.players)) * count + k % count

    def lineup(self, k: int) -> tuple[str, ...]:
        """The bot in each seat for game ``k`` (a lineup, rotated)."""
        count = len(self.lineups)
        base = self.lineups[k % count]
        r = (k // count) % self.players
        return base[r:] + base[:r]


def schedule(bots: Sequence[str], players: int) -> tuple[tuple[str, ...], ...]:
    """Every lineup of the round robin, in a fixed order."""
    if len(bots) >= players:
        return tuple(combinations(bots, players))
    return tuple(c for c in combinations_with_replacement(bots, players) if len(set(c)) > 1)


@dataclass(frozen=True)
class GameResult:
    """One game's outcome, all a summary needs; a pure function of ``(config, k)``."""

    k: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: tuple[int, ...]
    """Decisions asked of each seat's bot."""
    seconds: tuple[float, ...]
    """Time each seat's bot spent deciding (the only non-reproducible part)."""


class _Timed:
    """Wraps a bot to count its decisions and the time it takes, whatever the game calls
    its decision method (``act`` for cards, ``choose`` for the board)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name: str = bot.name
        self.decisions = 0
        self.seconds = 0.0

    def __getattr__(self, method: str) -> Callable[..., Any]:
        decide = getattr(self.bot, method)

        def timed(*args: Any) -> Any:
            start = time.perf_counter()
            out = decide(*args)
            self.seconds += time.perf_counter() - start
            self.decisions += 1
            return out

        return timed


def play_game(config: TournamentConfig, k: int) -> GameResult:
    """Play game ``k`` of the tournament (round seed ``game_seed(seed, deal(k))``, bot seeds
    ``bot_seed(seed, k, seat)``, as in ``cambio sim``); seat 0 plays first."""
    seats = config.lineup(k)
    bots = [_Timed(config.bot(name, bot_seed(config.seed, k, s))) for s, name in enumerate(seats)]
    played = get_game(config.game).play(config.rules, config.players,
                                        game_seed(config.seed, config.deal(k)), bots, None)
    winners = played.winners or tuple(range(config.players))
    return GameResult(k, seats, played.scores, winners, tuple(b.decisions for b in bots),
                      tuple(b.seconds for b in bots))


def run(config: TournamentConfig, advance: Callable[[int], None] | None = None,
        where: Where = LOCAL) -> list[GameResult]:
    """Play every game, here or spread over processes or a Ray cluster (``where``); the
    results come back in game order either way."""
    return play_all(play_game, config, config.games, where, advance)


def shares(result: GameResult) -> dict[str, float]:
    """Each bot's win share in one game (:func:`cambio.shares.tie_share`, summed over its
    seats)."""
    out = dict.fromkeys(result.seats, 0.0)
    for s, name in enumerate(result.seats):
        out[name] += tie_share(s, result.winners, len(result.seats))
    return out


def summarize(config: TournamentConfig, results: Iterable[GameResult],
              seconds: float = 0.0) -> dict[str, Any]:
    """The tournament's JSON summary: ratings, pairwise table, per-bot totals, timings."""
    ordered = sorted(results, key=lambda r: r.k)
    if [r.k for r in ordered] != list(range(config.games)):
        raise ValueError("results must cover games 0 .. games-1 exactly once")
    names = list(config.bots)
    pair_n: dict[tuple[str, str], int] = {}
    pair_deal: dict[tuple[str, str], dict[int, list[float]]] = {}
    played = dict.fromkeys(names, 0)
    share_sum = dict.fromkeys(names, 0.0)
    decisions = dict.fromkeys(names, 0)
    think = dict.fromkeys(names, 0.0)
    ratings = _Ratings(names)
    for r in ordered:
        sh = shares(r)
        deal = config.deal(r.k)
        for a in sh:
            played[a] += 1
            share_sum[a] += sh[a]
            for b in sh:
                if a != b:
                    key = (a, b)
                    pair_n[key] = pair_n.get(key, 0) + 1
                    pair_deal.setdefault(key, {}).setdefault(deal, []).append(sh[a])
        for s, name in enumerate(r.seats):
            decisions[name] += r.decisions[s]
            think[name] += r.seconds[s]
        ratings.add(r)
    pairs = {}
    for (a, b), n in pair_n.items():
        # The rotations of a deal are paired, so the interval comes from per-deal means.
        _, low, high = share_interval([sum(v) / len(v) for v in pair_deal[(a, b)].values()])
        mean = sum(sum(v) for v in pair_deal[(a, b)].values()) / n
        pairs[f"{a} vs {b}"] = {"games": n, "win_share": mean, "low": low, "high": high}
    return {
        "game": config.game,
        "games": config.games,
        "players": config.players,
        "rules": get_game(config.game).rules_json(config.rules),
        "bots": names,
        "seed": config.seed,
        "lineups": [list(x) for x in config.lineups],
        "schedule": "game k plays lineup k mod L rotated by (k // L) mod players seats, "
                    "the rotations of a lineup on the same deal; seat 0 plays first",
        "win_share_note": "a round won alone counts 1, a round shared by k winners 1/k",
        "ratings": ratings.summary(),
        "pairs": pairs,
        "by_bot": {n: {"games": played[n],
                       "win_share": share_sum[n] / played[n] if played[n] else None,
                       "decisions": decisions[n]} for n in names},
        "seconds": seconds,
        "games_per_second": config.games / seconds if seconds > 0 else None,
        "decision_seconds": {n: think[n] / decisions[n] if decisions[n] else None
                             for n in names},
    }


class _Ratings:
    """OpenSkill Plackett-Luce ratings, folded over games in order."""

    def __init__(self, names: Sequence[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.mu = {n: self.model.mu for n in names}
        self.sigma = {n: self.model.sigma for n in names}

    def add(self, r: GameResult) -> None:
        teams = [[self.model.rating(mu=self.mu[n], sigma=self.sigma[n], name=n)]
                 for n in r.seats]
        winners = set(r.winners)
        # Winners first (the tie rule may split equal scores); the rest by score.
        ranks = [0.0 if s in winners else 1.0 + r.scores[s] for s in range(len(r.seats))]
        new = self.model.rate(teams, ranks=ranks)
        mus: dict[str, list[float]] = {}
        sigmas: dict[str, list[float]] = {}
        for name, team in zip(r.seats, new, strict=True):
            mus.setdefault(name, []).append(team[0].mu)
            sigmas.setdefault(name, []).append(team[0].sigma)
        for name in mus:
            self.mu[name] = sum(mus[name]) / len(mus[name])
            self.sigma[name] = sum(sigmas[name]) / len(sigmas[name])

    def summary(self) -> dict[str, dict[str, float]]:
        return {n: {"mu": self.mu[n], "sigma": self.sigma[n],
                    "low": self.mu[n] - Z95 * self.sigma[n],
                    "high": self.mu[n] + Z95 * self.sigma[n]} for n in self.mu}


def pair_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    return [(key, p["games"], f"{p['win_share']:.1%}", f"{p['low']:.1%}–{p['high']:.1%}")
            for key, p in summary["pairs"].items()]


def rating_rows(summary: dict[str, Any]) -> list[Sequence[Any]]:
    rows = sorted(summary["ratings"].items(), key=lambda kv: -kv[1]["mu"])
    return [(name, r["mu"], f"{r['low']:.2f}–{r['high']:.2f}",
             f"{summary['by_bot'][name]['win_share']:.1%}",
             _ms(summary["decision_seconds"][name])) for name, r in rows]


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.2f}"


def plotting() -> ModuleType:
    """matplotlib, or the one-line error naming its extra: called before a run that will be
    plotted, so a missing extra stops it before the games rather than after."""
    from cambio.extras import needs

    with needs("research", "a tournament's --plot"):
        import matplotlib
    return matplotlib


def plot(summary: dict[str, Any], path: str) -> None:
    """Ratings with their 95% intervals, and the pairwise win-share matrix, in one figure."""
    matplotlib = plotting()
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(summary["bots"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    mus = [summary["ratings"][n]["mu"] for n in names]
    errs = [summary["ratings"][n]["mu"] - summary["ratings"][n]["low"] for n in names]
    left.errorbar(range(len(names)), mus, yerr=errs, fmt="o", capsize=6)
    left.set_xticks(range(len(names)), names)
    left.set_ylabel("OpenSkill mu (95% interval)")
    left.set_title("ratings")
    grid = [[summary["pairs"].get(f"{a} vs {b}", {}).get("win_share", math.nan)
             for b in names] for a in names]
    image = right.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    right.set_xticks(range(len(names)), names)
    right.set_yticks(range(len(names)), names)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                right.text(j, i, f"{v:.0%}", ha="center", va="center")
    right.set_title("win share of row bot vs column bot")
    fig.colorbar(image, ax=right)
    rules = summary["rules"]["preset"]
    fig.suptitle(f"{summary['game']} · {rules} · {summary['players']} players · "
                 f"{summary['games']} games · seed {summary['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


__all__ = ["TIMING_KEYS", "GameResult", "TournamentConfig", "pair_rows", "play_game", "plot",
           "rating_rows", "run", "schedule", "shares", "summarize"]
