"""What a finished game leaves on its players' profiles: one history row per seat (players
and bots), and for a rated game the new ratings -- stored in the same transaction as the
table's ``finished`` status (:meth:`..table.lifecycle.Lifecycle.finish`), so a crash
never books a game twice or loses one.

:func:`finishing` is the one place that decides what a finished game books, whether it
ended live or before a crash and is booked when its table is loaded again: it reads only
what is stored (seats, forfeits, ratings), so both book the same. Its rows are keyed on
(table, game): a second booking of one game inserts nothing and moves no rating.

A seat whose player left a rated game (no connection past the away timeout) is recorded as
a forfeit (:func:`left`) and placed last whatever its bot stand-in scored. A person's first
move of a rated game is recorded with the move itself (:func:`acting`): whether each person
played is what decides, with :func:`.ratings.unrated`, whether the game counts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from ..session import Session
from ..store import Statement, Store
from ..store import players_sql as sql
from ..table import Table
from .ratings import (
    BOT_SIGMA,
    PROVISIONAL,
    Entrant,
    Person,
    Rating,
    booked,
    bot_mu,
    established,
    places,
    rate,
    rating_class,
    unrated,
)

log = logging.getLogger("cambio.server")


def bot_id(name: str) -> str:
    """The profile id of a bot (``bot:deep``)."""
    return f"bot:{name}"


def rules_label(game: str, config: dict[str, Any]) -> str:
    if game == "cards":
        rules = config.get("rules")
        preset = rules.get("preset", "custom") if isinstance(rules, dict) else "custom"
        overrides = rules.get("overrides") if isinstance(rules, dict) else None
        rounds = int(config.get("rounds", 1))
        label = f"{preset}{' (changed)' if overrides else ''}"
        return f"{label}, {rounds} rounds" if rounds > 1 else label
    if game == "board":
        return f"{config.get('setup', 'quick')} setup"
    return ""


def _figures(result: dict[str, Any], players: int) -> tuple[list[float], bool]:
    """Each seat's figure to rank by, and whether lower wins."""
    if result.get("totals") is not None:
        return [float(t) for t in result["totals"]], True
    winners = set(result.get("winners") or [])
    return [1.0 if s in winners else 0.0 for s in range(players)], False


async def finishing(table: Table, session: Session) -> list[Statement]:
    """The rows a game that just ended stores with its ``finished`` status."""
    klass = rating_class(table.game, table.players)
    result = session.result()
    figures, lower = _figures(result, table.players)
    forfeited = frozenset(int(r[0]) for r in await asyncio.to_thread(
        table.store.read, sql.FORFEITS, (table.id, table.game_no)))
    place = places(figures, lower, forfeited)
    seats = list(table.seats)
    after: dict[int, Rating] = {}
    void: dict[int, str] = {}
    if klass is not None and table.config.get("rated"):
        after, void = await _counted(table, klass, place)
    # The ratings first: each is written only if the game has no rows yet (keyed booking).
    statements = [sql.book_rating(table.id, table.game_no, str(seats[seat].player),
                                  str(klass), new.mu, new.sigma, new.games)
                  for seat, new in after.items()]
    ids = [x.player if x.kind == "human" else bot_id(x.bot or "?") if x.kind == "bot"
           else None for x in seats]
    statements += [sql.insert_opponent(str(ids[seat]), str(klass), str(other))
                   for seat in after for other in ids
                   if other is not None and other != ids[seat]]
    roster = json.dumps([{"name": x.name, "player": ids[x.seat]} for x in seats])
    common = {"table_id": table.id, "game_no": table.game_no, "game": table.game,
              "class": klass or table.game, "rules": rules_label(table.game, table.config),
              "players": roster, "ended": time.time()}
    for x in seats:
        pid = ids[x.seat]
        if pid is None:
            continue
        new = after.get(x.seat)
        statements.append(sql.insert_player_game({
            **common, "seat": x.seat, "player_id": pid, "place": place[x.seat],
            "result": json.dumps({"totals": result.get("totals"),
                                  "winners": result.get("winners"),
                                  "forfeit": x.seat in forfeited,
                                  "void": void.get(x.seat)}),
            "rated": 1 if new is not None else 0,
            "mu": new.mu if new is not None else None,
            "sigma": new.sigma if new is not None else None}))
    return statements


async def _counted(table: Table, klass: str, place: list[int]
                   ) -> tuple[dict[int, Rating], dict[int, str]]:
    """A rated table's game: the new rating of each seat whose rating it moves, and for
    each other seat why not (:func:`.ratings.unrated`, :func:`.ratings.booked`)."""
    seats = list(table.seats)
    reason = unrated(True, await _people(table))
    if reason is not None:
        return {}, {x.seat: reason for x in seats}
    after = await _rated(table, klass, place)
    kept = booked([str(x.player) for x in seats if x.kind == "human"],
                  await _established(table, klass))
    void = {seat: PROVISIONAL for seat in after if seats[seat].player not in kept}
    return {seat: new for seat, new in after.items() if seat not in void}, void


async def _people(table: Table) -> list[Person]:
    """The human seats of the game that just ended, as :func:`.ratings.unrated` weighs
    them."""
    people = [x for x in table.seats if x.kind == "human"]
    moved = {int(r[0]) for r in await asyncio.to_thread(
        table.store.read, sql.MOVERS, (table.id, table.game_no))}
    ids = sorted({x.player for x in people if x.player is not None})
    origins: dict[str, str | None] = {}
    if ids:
        marks = ", ".join("?" for _ in ids)
        rows = await asyncio.to_thread(table.store.read, f"{sql.ORIGINS_FOR}({marks})",
                                       tuple(ids))
        origins = {str(r[0]): r[1] for r in rows}
    return [Person(x.player, x.seat in moved,
                   origins.get(x.player) if x.player is not None else None) for x in people]


async def _established(table: Table, klass: str) -> set[str]:
    """The people of the table who were past provisional before this game."""
    players = sorted({x.player for x in table.seats if x.kind == "human" and x.player})
    if not players:
        return set()
    ratings = await _ratings(table.store, klass, players)
    marks = ", ".join("?" for _ in players)
    rows = await asyncio.to_thread(table.store.read,
                                   f"{sql.OPPONENTS_FOR}({marks}) GROUP BY player_id",
                                   (klass, *players))
    met = {str(r[0]): int(r[1]) for r in rows}
    need = table.settings
    return {p for p in players if established(ratings[p], met.get(p, 0),
                                              need.leaderboard_games,
                                              need.leaderboard_opponents)}


async def _rated(table: Table, klass: str, place: list[int]) -> dict[int, Rating]:
    """Each player's seat and new rating (bots keep theirs)."""
    seats = list(table.seats)
    players = [x.player for x in seats if x.kind == "human" and x.player is not None]
    before = await _ratings(table.store, klass, players)
    entrants = [Entrant(place[x.seat], before[x.player], False)
                if x.kind == "human" and x.player is not None
                else Entrant(place[x.seat], Rating(bot_mu(table.game, x.bot or ""), BOT_SIGMA),
                             True)
                for x in seats]
    return {x.seat: new for x, new in zip(seats, rate(entrants), strict=True)
            if x.kind == "human" and x.player is not None}


async def _ratings(store: Store, klass: str, players: list[str]) -> dict[str, Rating]:
    marks = ", ".join("?" for _ in players)
    rows = await asyncio.to_thread(store.read, f"{sql.RATINGS_FOR}({marks})",
                                   (klass, *players))
    found = {str(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}
    return {p: found.get(p, Rating()) for p in players}


async def left(table: Table, seat: int) -> None:
    """A player left a rated game in play past the away timeout: a loss, whatever happens
    next (stored at once, so a restart keeps it)."""
    x = table.seats[seat]
    if not table.config.get("rated") or table.status != "playing" or x.kind != "human":
        return
    try:
        await table.store.write([sql.insert_forfeit(table.id, table.game_no, seat)])
    except Exception as exc:
        log.warning("table %s: could not store seat %d's forfeit (%s)", table.id, seat,
                    type(exc).__name__)


def acting(table: Table, seat: int) -> list[Statement]:
    """A seat's player made their first move of this game themselves: what to store with
    the move (a rated game only), so that a restart still knows they played."""
    if not table.config.get("rated"):
        return []
    return [sql.insert_mover(table.id, table.game_no, seat)]


def hook(table: Table) -> None:
    """Every table's results, forfeits and movers go through this module."""
    table.finishing = finishing
    table.left = left
    table.acting = acting
