"""Profiles and the leaderboard, as the API serves them (docs/protocol.md, "Players").

A profile shows only what a seat at each table could see: the game, its rules, who sat
where, the result and the date, and a link to the replay -- the full record of a finished
game (served to anyone once it is over), or for a game still in play the player's own seat's
record, which only the player's browser may fetch. Never a key, a hash, a seed or a card.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from ..store import Store
from ..store import players_sql as sql
from .directory import Player
from .ratings import BOT_SIGMA, CLASSES, Rating, bot_mu, established, shown, unrated_code
from .results import bot_id

GAMES_SHOWN = 100
UNFINISHED_SHOWN = 20
CHART_POINTS = 200


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _game(row: tuple[Any, ...]) -> dict[str, Any]:
    (table_id, game_no, seat, game, klass, rules, players, place, result, rated, mu, sigma,
     ended) = row
    outcome = json.loads(result)
    return {"table": table_id, "game_no": game_no, "seat": seat, "game": game,
            "class": klass, "rules": rules, "players": json.loads(players), "place": place,
            "won": place == 1, "forfeit": bool(outcome.get("forfeit")),
            "totals": outcome.get("totals"), "winners": outcome.get("winners"),
            "rated": bool(rated), "void": outcome.get("void"),
            "void_code": unrated_code(outcome.get("void")),
            "rating": shown(mu, sigma) if rated and mu is not None else None,
            "date": _iso(float(ended)), "status": "finished",
            "replay": f"/r/{table_id}?game={game_no}"}


def _unfinished(row: tuple[Any, ...]) -> dict[str, Any]:
    table_id, game, players, config, game_no, created, seat = row
    return {"table": table_id, "game_no": game_no, "seat": seat, "game": game,
            "players": players, "status": "playing", "date": _iso(float(created)),
            "rated": bool(json.loads(config).get("rated")),
            "replay": f"/r/{table_id}?game={game_no}", "table_page": f"/t/{table_id}"}


def player_profile(store: Store, player: Player, own: bool, need: tuple[int, int]
                   ) -> dict[str, Any]:
    """A player's profile (a worker thread runs it). ``own``: the caller is this player,
    so the games still in play are listed with links to their own seat's replay. ``need``:
    the rated games and distinct opponents past which a rating is no longer provisional."""
    met = {str(k): int(n) for k, n in store.read(sql.OPPONENTS_OF, (player.id,))}
    ratings: dict[str, dict[str, Any]] = {}
    for klass, mu, sigma, games in store.read(sql.RATINGS_OF, (player.id,)):
        rating = Rating(float(mu), float(sigma), int(games))
        opponents = met.get(str(klass), 0)
        ratings[str(klass)] = {
            "rating": rating.shown, "uncertainty": round(rating.sigma, 2),
            "mu": round(rating.mu, 2), "games": rating.games, "opponents": opponents,
            "provisional": not established(rating, opponents, *need)}
    out = _common(store, player.id)
    out.update({"player": player.public(), "bot": False, "ratings": ratings,
                "playing": [_unfinished(r) for r in store.read(
                    sql.UNFINISHED_OF, (player.id, UNFINISHED_SHOWN))] if own else []})
    return out


def bot_profile(store: Store, game: str, entry: dict[str, Any]) -> dict[str, Any]:
    name = str(entry["name"])
    mu = bot_mu(game, name)
    klasses = [c for c in CLASSES if c.startswith("cards" if game == "cards" else "dice")]
    out = _common(store, bot_id(name))
    out.update({"player": {"id": bot_id(name), "name": f"{entry.get('display') or name} bot",
                           "username": None, "claimed": False,
                           "profile": f"/p/{bot_id(name)}"},
                "bot": True, "game_of_bot": game, "measured": entry.get("measured"),
                "strength": entry.get("strength"),
                "ratings": {c: {"rating": shown(mu, BOT_SIGMA), "uncertainty": BOT_SIGMA,
                                "mu": round(mu, 2), "games": None, "fixed": True}
                            for c in klasses},
                "playing": []})
    return out


def _common(store: Store, pid: str) -> dict[str, Any]:
    games = [_game(r) for r in store.read(sql.GAMES_OF, (pid, GAMES_SHOWN))]
    totals = {str(g): {"games": int(n), "won": int(w or 0)}
              for g, n, w in store.read(sql.TOTALS_OF, (pid,))}
    history: dict[str, list[dict[str, Any]]] = {}
    for klass, mu, sigma, ended in store.read(sql.RATED_OF, (pid,)):
        if mu is not None:
            history.setdefault(str(klass), []).append(
                {"date": _iso(float(ended)), "rating": shown(float(mu), float(sigma))})
    return {"games": games, "totals": totals,
            "history": {k: v[-CHART_POINTS:] for k, v in history.items()}}


def leaderboard(store: Store, klass: str, min_games: int, min_opponents: int, limit: int
                ) -> list[dict[str, Any]]:
    """The players past provisional (``min_games`` rated games that counted, against
    ``min_opponents`` distinct opponents), best shown rating first."""
    rows = store.read(sql.LEADERBOARD, (klass, min_games, min_opponents, limit))
    return [{"rank": i, "id": str(pid), "name": str(name), "username": username,
             "profile": f"/p/{username or pid}",
             "rating": shown(float(mu), float(sigma)), "uncertainty": round(float(sigma), 2),
             "games": int(games)}
            for i, (pid, name, username, mu, sigma, games) in enumerate(rows, start=1)]


async def read(fn: Any, *args: Any) -> Any:
    """Run a reader above in a worker thread."""
    return await asyncio.to_thread(fn, *args)
