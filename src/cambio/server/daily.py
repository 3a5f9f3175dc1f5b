"""The daily deal: one card deal and one dice setup a day (UTC), the same for every player,
each played at a private table of one's own against the same bot (docs/server.md, "The
daily deal").

- **The same deal all day.** A day's table seed is drawn once, the first time anyone asks
  for that day's deal, and kept in the store (``daily_seeds``): every table of that day's
  deal has that seed, so its game is dealt from the same seed (and its bot, seeded from the
  game, answers the same moves with the same moves). A server started with ``--seed`` derives
  it from that seed and the day instead (tests and benchmarks). The seed is never sent: a
  player who knew it could look at the deal before playing.
- **One table per player and day.** Asking again gives the same table back (with a fresh
  seat token: the player's identity proves the seat is theirs).
- **Others' games after one's own.** The day's results (score, accuracy) are listed to
  anyone; the links to others' replays and reviews only to a player whose own game of that
  deal is over (:func:`has_played_deal_of`, which :mod:`.reviews` asks too).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cambio.daily import parse_day, utc_day
from cambio.seeds import derive_seed

from .errors import ProtocolError
from .lobby import endpoint, read_body, server_of
from .players.service import caller, required
from .server import Server, new_token, token_hash
from .settings import Settings
from .store import reviews_sql as sql
from .table import Table

RESULTS_SHOWN = 100


@dataclass(frozen=True)
class Daily:
    """One game's daily table: what it is created with, and its bot."""

    body: dict[str, Any]
    bot: str


DAILIES: dict[str, Daily] = {
    # Heads-up, rulebook, one round, against Medium (the memory bot: no compiled search, so
    # it plays the same on every server from its first move).
    "cards": Daily({"game": "cards", "players": 2, "rounds": 1,
                    "rules": {"preset": "rulebook", "overrides": {}}}, "memory"),
    "board": Daily({"game": "board", "players": 2, "setup": "quick"}, "alphabeta"),
}


def day_of(settings: Settings, now: datetime | None = None) -> str:
    """The day whose deal is served (UTC), ``YYYY-MM-DD``."""
    if settings.daily_date is not None:
        return settings.daily_date
    return utc_day(now)


def check_day(text: str) -> str:
    try:
        return parse_day(text)
    except ValueError:
        raise ProtocolError("bad_request", "a day is YYYY-MM-DD") from None


def _game(raw: Any) -> str:
    if raw not in DAILIES:
        raise ProtocolError("bad_request", f"\"game\" is one of {sorted(DAILIES)}")
    return str(raw)


async def day_seed(server: Server, day: str, game: str) -> int:
    """The table seed of ``day``'s ``game`` deal: drawn once, then read back."""
    base = server.settings.seed
    seed = secrets.randbits(63) if base is None else derive_seed(base, "daily", game, day)
    await server.store.write([sql.insert_day_seed(day, game, seed)])
    rows = await asyncio.to_thread(server.store.read, sql.DAY_SEED, (day, game))
    return int(rows[0][0])


@endpoint
async def start_daily(request: Request) -> Response:
    """``POST /api/daily {"game"}``: the caller's table of today's deal, made and dealt
    the first time (201), else the same table with a new token for their seat (200)."""
    body = await read_body(request)
    game = _game(body.get("game", "cards"))
    player = await required(request)
    server = server_of(request)
    day = day_of(server.settings)
    found = await asyncio.to_thread(server.store.read, sql.DAILY_OF, (day, game, player.id))
    if found:
        table = await server.get(str(found[0][0]))
        token = new_token()
        await table.call(table.rekey, 0, token_hash(token))
        return JSONResponse(_started(table, day, token))
    daily = DAILIES[game]
    seed = await day_seed(server, day, game)
    create = {**daily.body, "table_name": f"Daily deal {day}", "private": True,
              "clock": None}
    table, token = await server.create(game, create, player.name, seed=seed,
                                       extra={"daily": day}, player=player.id)
    await server.store.write([sql.insert_daily(day, game, player.id, table.id, time.time())])
    mine = await asyncio.to_thread(server.store.read, sql.DAILY_OF, (day, game, player.id))
    if str(mine[0][0]) != table.id:  # a second call raced this one: theirs is the table
        table = await server.get(str(mine[0][0]))
        token = new_token()
        await table.call(table.rekey, 0, token_hash(token))
        return JSONResponse(_started(table, day, token))
    await table.call(table.start, daily.bot)
    return JSONResponse(_started(table, day, token), status_code=201)


def _started(table: Table, day: str, token: str) -> dict[str, Any]:
    return {"table": table.id, "seat": 0, "token": token, "day": day, "game": table.game,
            "status": table.status}


@endpoint
async def daily_results(request: Request) -> Response:
    """``GET /api/daily?game=cards[&day=YYYY-MM-DD]``: the day's finished games (score,
    accuracy), the caller's own, and -- once the caller's own game is over -- links to the
    others' replays and reviews."""
    server = server_of(request)
    game = _game(request.query_params.get("game", "cards"))
    raw = request.query_params.get("day")
    day = check_day(raw) if raw is not None else day_of(server.settings)
    player = await caller(request)
    body = await asyncio.to_thread(results, server, day, game,
                                   player.id if player is not None else None)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def results(server: Server, day: str, game: str, me: str | None) -> dict[str, Any]:
    """The day's table of results (a worker thread runs it)."""
    store = server.store
    rows = store.read(sql.DAILY_RESULTS, (day, game, RESULTS_SHOWN))
    played = any(str(r[0]) == me and r[4] == "finished" for r in rows)
    accuracy = sql.accuracies(store.read, [(str(r[1]), 1, int(r[7])) for r in rows
                                           if r[7] is not None])
    out: list[dict[str, Any]] = []
    mine: dict[str, Any] | None = None
    for pid, table_id, name, shown, status, place, result, seat in rows:
        entry: dict[str, Any] = {"name": name, "profile": f"/p/{shown or pid}",
                                 "status": status}
        if status == "finished" and result is not None:
            totals = json.loads(result).get("totals")
            entry.update({"place": place, "won": place == 1,
                          "score": totals[seat] if totals else None,
                          "accuracy": _rounded(accuracy.get((str(table_id), 1, int(seat))))})
        if str(pid) == me or played:
            entry.update({"table": table_id, "replay": f"/r/{table_id}?game=1",
                          "review": f"/api/tables/{table_id}/seats/0/review?game=1"})
        if str(pid) == me:
            mine = entry
        out.append(entry)
    finished = [e for e in out if e["status"] == "finished"]
    finished.sort(key=lambda e: (e["place"], e["score"] if e.get("score") is not None
                                 else 0, -(e.get("accuracy") or 0.0)))
    return {"day": day, "game": game, "played": played, "mine": mine,
            "playing": sum(1 for e in out if e["status"] != "finished"),
            "results": finished}


def _rounded(acc: float | None) -> float | None:
    return None if acc is None else round(acc, 1)


async def has_played_deal_of(server: Server, table: Table, player_id: str) -> bool:
    """Whether ``player_id`` has finished their own game of the daily deal ``table`` was
    dealt (``False`` for a table that is no daily deal)."""
    if not table.config.get("daily"):
        return False

    def read() -> bool:
        store = server.store
        rows = store.read(sql.DAILY_TABLE, (table.id,))
        if not rows:
            return False
        day, game, _ = rows[0]
        mine = store.read(sql.DAILY_OF, (day, game, player_id))
        if not mine:
            return False
        row = store.table(str(mine[0][0]))
        return row is not None and row.status == "finished"

    return await asyncio.to_thread(read)


__all__ = ["DAILIES", "daily_results", "day_of", "day_seed", "has_played_deal_of",
           "start_daily"]
