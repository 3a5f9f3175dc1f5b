"""Ratings for people: OpenSkill (Plackett-Luce) per game and player-count class.

**Classes.** A rating only compares like with like: ``cards-2`` (cards heads-up),
``cards-multi`` (cards, 3 or more players), ``dice-2`` and ``dice-3`` (the board game with 2
or 3 players). A new player starts at μ = 25, σ = 25/3 in each.

**Shown figure.** μ − 3σ (0 for a new player, rising as games make σ shrink), with σ shown
beside it as the uncertainty.

**Bots** carry fixed ratings derived from their measured strength in the registries
(docs/cards-strength.md, docs/board-strength.md): a measured win share ``p`` against the
class's anchor bot (``memory`` for cards, ``alphabeta`` for the board game, both μ = 25) is
the μ difference that gives ``p`` under the model, ``√2·β·Φ⁻¹(p)`` with β = 25/6; an Elo
difference ``d`` is first turned into a win share, ``1 / (1 + 10^(−d/400))``. Their σ is
small and never changes, so a new player's first games against bots already place them.

**Which results count** (:func:`unrated`), as lichess and Board Game Arena count them: a
rated table whose every human seat belongs to an identity, no identity holding two seats,
every person at it made moves of their own (a seat nobody ever came to, played by its bot
from the first move, makes the game void: a forfeit win over a seat that never connected
is no win), and no two people's identities were made on one network (one person's
throwaway identities lift nobody). A player who left (away past the timeout) after playing
is placed last.

**Provisional.** A player is *established* after enough rated games that counted, against
enough distinct opponents (players and bots: ``rated_opponents``; the thresholds are the
server's ``--leaderboard-games`` and ``--leaderboard-opponents``), and only then listed on a
leaderboard. Until then their results move no one else's rating (:func:`booked`): a
throwaway identity is provisional by nature, so losing to it on purpose lifts nobody.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from openskill.models import PlackettLuce

CLASSES = ("cards-2", "cards-multi", "dice-2", "dice-3")
MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
BOT_SIGMA = 1.0

_model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


def rating_class(game: str, players: int) -> str | None:
    """The class of a table: ``cards-2``, ``cards-multi``, ``dice-2``, ``dice-3`` (``None``:
    a game that is not rated)."""
    if game == "cards":
        return "cards-2" if players == 2 else "cards-multi"
    if game == "board" and players in (2, 3):
        return f"dice-{players}"
    return None


def shown(mu: float, sigma: float) -> float:
    """The displayed rating: μ − 3σ, one decimal."""
    return round(mu - 3 * sigma, 1)


def _mu_for_share(p: float) -> float:
    p = min(max(p, 0.01), 0.99)
    return MU + math.sqrt(2) * BETA * NormalDist().inv_cdf(p)


def _share_for_elo(d: float) -> float:
    return 1.0 / (1.0 + 10 ** (-d / 400))


CARD_BOT_SHARES = {"tutor": 0.004, "random": 0.08, "easy": 0.246, "memory": 0.50, "rusher": 0.29,
                   "snapper": 0.39, "expert": 0.527, "search": 0.542, "learned": 0.615,
                   "deep": 0.718, "adaptive": 0.718}
"""Each card bot's measured heads-up win share against ``memory`` (the registry's
``measured`` figures, cambio.bots.cards.registry); ``adaptive`` (``master``) is rated as
``hard`` until its own figure is measured; ``tutor`` (the tutorial's opponent) 0.4% over
400 rounds (docs/cards-bots.md)."""
BOARD_BOT_ELO = {"random": 0.0, "mcts": 677.0, "greedy": 763.0, "alphabeta": 1320.0,
                 "native": 1799.0, "perfect": 2400.0}
"""Each board bot's measured Elo over ``random`` on 5x5 (cambio.bots.board.registry)."""
BOARD_ANCHOR = BOARD_BOT_ELO["alphabeta"]


def bot_mu(game: str, bot: str) -> float:
    """A bot's fixed μ (a bot the registries do not measure, one served with ``--bot``,
    counts as the anchor)."""
    base = bot.partition(":")[0]
    if game == "cards":
        return _mu_for_share(CARD_BOT_SHARES.get(base, 0.5))
    return _mu_for_share(_share_for_elo(BOARD_BOT_ELO.get(base, BOARD_ANCHOR) - BOARD_ANCHOR))


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        return shown(self.mu, self.sigma)


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished rated game: a player (rating updated) or a bot (fixed)."""

    place: int
    """1 for the winners; ties share a place."""
    rating: Rating
    bot: bool


def rate(entrants: list[Entrant]) -> list[Rating]:
    """Every entrant's rating after the game, in order: players' updated (their ``games``
    + 1), bots' unchanged."""
    teams = [[_model.create_rating([e.rating.mu, e.rating.sigma])] for e in entrants]
    after = _model.rate(teams, ranks=[float(e.place) for e in entrants])
    out: list[Rating] = []
    for e, team in zip(entrants, after, strict=True):
        if e.bot:
            out.append(e.rating)
        else:
            out.append(Rating(team[0].mu, team[0].sigma, e.rating.games + 1))
    return out


def places(order: list[float], lower_wins: bool, forfeits: frozenset[int] = frozenset()
           ) -> list[int]:
    """Each seat's place from its figure (cards: match totals, lower wins; the board
    game: 1 for a winner, 0 otherwise, higher wins); a seat that forfeited comes last."""
    keys = [(1 if i in forfeits else 0, v if lower_wins else -v) for i, v in enumerate(order)]
    return [1 + sum(k < key for k in keys) for key in keys]


@dataclass(frozen=True)
class Person:
    """A human seat of a finished game, as the counting rule sees it."""

    player: str | None
    """The identity that took the seat (``None``: a seat taken without one)."""
    moved: bool
    """Its player made a move of their own in this game (so was there, connected)."""
    origin: str | None
    """A hash of the address the identity was made from (``None``: not known)."""


UNRATED = {
    "casual": "casual",
    "noPlayer": "no player at the table",
    "noIdentity": "a seat was taken without a player",
    "twoSeats": "one player held two seats",
    "noMove": "a player never made a move",
    "oneNetwork": "two players' identities were made on one network",
    "provisional": "an opponent was still provisional",
}
"""Why a game changed no rating: a code (the page's ``unrated.<code>`` words) and the
English stored with the result (so a record reads the same without the page)."""

UNRATED_CODES = {text: code for code, text in UNRATED.items()}
"""A stored reason's code (:func:`unrated_code`)."""


def unrated_code(reason: str | None) -> str | None:
    """The code of a stored reason (``None``: none, or one this server no longer gives)."""
    return UNRATED_CODES.get(reason) if reason else None


def unrated(rated: bool, people: list[Person]) -> str | None:
    """Why a finished rated table's result changes no rating, in words for the player's
    history (one of :data:`UNRATED`); ``None``: it counts. (A casual table is never
    asked.)"""
    if not rated:
        return UNRATED["casual"]
    if not people:
        return UNRATED["noPlayer"]
    ids = [p.player for p in people]
    if any(i is None for i in ids):
        return UNRATED["noIdentity"]
    if len(set(ids)) != len(ids):
        return UNRATED["twoSeats"]
    if not all(p.moved for p in people):
        return UNRATED["noMove"]
    origins = [p.origin for p in people if p.origin is not None]
    if len(set(origins)) != len(origins):
        return UNRATED["oneNetwork"]
    return None


PROVISIONAL = UNRATED["provisional"]
"""Why a counted game left a player's rating alone (:func:`booked`)."""


def established(rating: Rating, opponents: int, games: int, distinct: int) -> bool:
    """Past provisional: ``games`` rated games that counted, against ``distinct`` opponents."""
    return rating.games >= games and opponents >= distinct


def booked(people: list[str], settled: set[str]) -> set[str]:
    """Of the people of a game that counts, those whose new rating is stored: each whose
    every other person at the table is established (``settled``; bots always are). Two
    newcomers move neither's rating, a newcomer against an established player moves the
    newcomer's only."""
    return {p for p in people if all(o in settled for o in people if o != p)}


def nearest_bot(game: str, bots: list[str], target_mu: float) -> str:
    """The bot whose fixed rating is nearest ``target_mu`` (Play now's fill)."""
    return min(bots, key=lambda b: (abs(bot_mu(game, b) - target_mu), b))
