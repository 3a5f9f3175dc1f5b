"""A player's own games and whose move each waits for (docs/protocol.md, "Your games"):
what the lobby's "Your games" list, the page title's count, the app's badge and the
your-turn notification are drawn from.

Only public facts are told: a table's summary (what ``GET /api/tables/{id}`` gives anyone
who has its id) and the seat whose decision the game waits for (which every client at the
table is shown already, on the turn clock and in the status line). Nothing of a card.

The tables are found by the seats the caller's player holds (any device: a seat token is
not needed), so a game started on the phone is listed on the laptop too. In a cluster, a
table another process owns is asked of its owner (``GET /api/tables/{id}/turn``, routed
there as every table call is): only the owner knows whose decision it waits for.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .errors import ProtocolError
from .lobby import endpoint, table_of
from .players.service import players_of
from .players.service import required as signed_in
from .server import Server
from .store import social_sql as sql
from .table import Table

log = logging.getLogger("cambio.server")

MAX_GAMES = 50
"""Tables listed at most (a player seldom holds more; the newest are kept)."""


def turn_of(table: Table) -> int | None:
    """The seat whose decision the table waits for (``None``: nobody's, between rounds, or
    before the start)."""
    s = table.match.live()
    return s.decider() if s is not None else None


def facts(table: Table) -> dict[str, Any]:
    """What anyone may know of a table's turn: its summary and whose decision it waits for."""
    return {"table": table.summary(), "turn": turn_of(table)}


def entry(known: dict[str, Any], seat: int) -> dict[str, Any]:
    """One listed game: the table's :func:`facts`, the caller's seat, whether it is their
    move, and the deadline of the decision on the clock (epoch seconds; a correspondence
    table's is days off, a live clock's seconds)."""
    summary, turn = known["table"], known["turn"]
    return {"table": summary, "seat": seat, "turn": turn, "your_move": turn == seat,
            "deadline": summary.get("deadline"), "link": f"/t/{summary['id']}"}


def order(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Your move first (the nearest deadline first), then games in play, then tables that
    wait for players; newest first otherwise."""
    newest = sorted(games, key=lambda g: str(g["table"].get("created")), reverse=True)
    return sorted(newest, key=lambda g: (not g["your_move"],
                                         g["table"].get("status") != "playing",
                                         g["deadline"] is None, g["deadline"] or 0.0))


async def games_of(server: Server, player_id: str) -> list[dict[str, Any]]:
    """The player's tables that are not over, each with whose move it is."""
    rows = await asyncio.to_thread(server.store.read, sql.MY_TABLES, (player_id, MAX_GAMES))
    out = []
    for table_id, seat in rows:
        try:
            known = await _facts_of(server, str(table_id))
        except ProtocolError as exc:  # damaged, or moving between processes right now
            log.debug("your games: table %s left out (%s)", table_id, exc.code)
            continue
        if known is not None and known["table"]["status"] in ("waiting", "playing"):
            out.append(entry(known, int(seat)))
    return order(out)


async def _facts_of(server: Server, table_id: str) -> dict[str, Any] | None:
    """The table's :func:`facts`, from this process or from the one that owns it."""
    elsewhere, known = await server.ask_owner(table_id, f"/api/tables/{table_id}/turn")
    if elsewhere:
        return known if isinstance(known, dict) else None
    return facts(await server.get(table_id))


@endpoint
async def your_games(request: Request) -> Response:
    """``GET``: the caller's games, their move first (``your_turn``: how many)."""
    player = await signed_in(request)
    players = players_of(request)
    assert players is not None
    await players.relations.touch(player.id)  # the lobby polls this: online for friends
    games = await games_of(players.server, player.id)
    return JSONResponse({"games": games, "your_turn": sum(g["your_move"] for g in games)},
                        headers={"Cache-Control": "no-store"})


@endpoint
async def table_turn(request: Request) -> Response:
    """``GET``: the table's :func:`facts` (a cluster's process asks the owner)."""
    return JSONResponse(facts(await table_of(request)), headers={"Cache-Control": "no-store"})


@endpoint
async def table_people(request: Request) -> Response:
    """``GET``: the players seated at a table (id, name, profile), so that a chat line's
    speaker can be muted or reported. Read from the database: any process answers."""
    players = players_of(request)
    assert players is not None
    table_id = str(request.path_params["id"])[:64]
    rows = await asyncio.to_thread(players.server.store.read, sql.SEAT_PEOPLE, (table_id,))
    seats = {str(seat): {"id": str(pid), "name": str(name), "username": shown,
                         "profile": f"/p/{shown or pid}"}
             for seat, pid, name, shown in rows}
    return JSONResponse({"seats": seats}, headers={"Cache-Control": "no-store"})


def routes() -> list[Route]:
    return [Route("/api/players/me/games", your_games, methods=["GET"]),
            Route("/api/tables/{id}/people", table_people, methods=["GET"])]


__all__ = ["entry", "facts", "games_of", "order", "routes", "table_turn", "turn_of"]
