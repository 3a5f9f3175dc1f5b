"""The operators' REST endpoints (docs/moderation.md, "Operators"): what ``cambio admin``
does, for a signed-in player whose role is ``operator`` (given from the command line only),
logged under their player id. The role itself cannot be given or taken here."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .errors import FORBIDDEN, NOT_FOUND, ProtocolError
from .lobby import endpoint, read_body
from .players.directory import Player
from .players.service import caller, players_of
from .social import moderation
from .store import Store
from .store import social_sql as sql

ACTIONS = ("warn", "mute", "unmute", "ban", "unban", "dismiss")


async def _operator(request: Request) -> tuple[Store, Player]:
    players = players_of(request)
    assert players is not None
    player = await caller(request)
    if player is None:
        raise ProtocolError("unauthorized", "no player: sign in first")
    store = players.server.store
    if not await _is_operator(store, player.id):
        raise ProtocolError(FORBIDDEN, "for this server's operators only")
    return store, player


async def _is_operator(store: Store, player_id: str) -> bool:
    rows = await asyncio.to_thread(store.read, sql.ROLE_OF, (player_id,))
    return bool(rows) and rows[0][0] == moderation.OPERATOR


@endpoint
async def reports(request: Request) -> Response:
    """``GET ?all=1``: the reports (open ones unless ``all``), with their evidence."""
    store, _ = await _operator(request)
    every = request.query_params.get("all") in ("1", "true")
    found = await asyncio.to_thread(moderation.reports, store, open_only=not every)
    return JSONResponse({"reports": found}, headers={"Cache-Control": "no-store"})


@endpoint
async def log(request: Request) -> Response:
    store, _ = await _operator(request)
    found = await asyncio.to_thread(moderation.log, store)
    return JSONResponse({"log": found}, headers={"Cache-Control": "no-store"})


@endpoint
async def act(request: Request) -> Response:
    """``POST {"reason", "for"?}``: warn, mute, unmute, ban, unban or dismiss a player."""
    body = await read_body(request)
    store, me = await _operator(request)
    action = str(request.path_params["action"])
    if action not in ACTIONS:
        raise ProtocolError(NOT_FOUND, f"actions: {', '.join(ACTIONS)}")
    players = players_of(request)
    assert players is not None
    target = await players.directory.by_id(str(request.path_params["id"])[:64])
    if target is None:
        raise ProtocolError(NOT_FOUND, "no such player")
    if await _is_operator(store, target.id):
        raise ProtocolError(FORBIDDEN, "an operator is moderated from the command line")
    moderator = moderation.Moderator(store, me.id)
    out: dict[str, Any] = {"player": target.id, "action": action}
    try:
        reason = moderation.reason_text(body.get("reason", "lifted" if action.startswith("un")
                                                  else None))
        if action in ("mute", "ban"):
            until = await moderator.sanction(target.id, action,
                                             moderation.duration(body.get("for")), reason)
            out["until"] = moderation.iso(until)
        elif action in ("unmute", "unban"):
            await moderator.lift(target.id, action[2:], reason)
        elif action == "warn":
            await moderator.warn(target.id, reason)
        else:
            await moderator.dismiss(target.id, reason)
    except ValueError as exc:
        raise ProtocolError("bad_request", str(exc)) from None
    return JSONResponse(out)


def routes() -> list[Route]:
    return [Route("/api/admin/reports", reports, methods=["GET"]),
            Route("/api/admin/log", log, methods=["GET"]),
            Route("/api/admin/players/{id}/{action}", act, methods=["POST"])]


__all__ = ["routes"]
