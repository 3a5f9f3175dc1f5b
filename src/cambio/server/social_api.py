"""The REST endpoints of people among themselves (docs/protocol.md, "Friends, mute, block,
report"): follow, block and mute a player, the friends list, invites to a table, reports,
and a player's own standing with the operators. Each goes through the lobby's
:func:`.lobby.endpoint` (rate limit, same-origin JSON for changes, typed errors); the rules
are in :mod:`cambio.server.social`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .errors import NOT_FOUND, ProtocolError, Words
from .lobby import endpoint, read_body
from .players.directory import Player
from .players.service import Players, caller, players_of
from .social import moderation
from .social.relations import Relations

RELATION = {"follow": "follows", "block": "blocks", "mute": "mutes"}


def _players(request: Request) -> Players:
    players = players_of(request)
    assert players is not None
    return players


async def _me(request: Request) -> tuple[Relations, Player]:
    """The relations of this process and the calling player (stamped as seen)."""
    player = await caller(request)
    if player is None:
        raise ProtocolError("unauthorized", Words(
            "refusal.noPlayer", "no player: open the lobby first (POST /api/me)"))
    relations = _players(request).relations
    await relations.touch(player.id)
    return relations, player


async def _other(request: Request) -> Player:
    """The player the path names: an id (what the pages send; unguessable, so not
    limited) or a username (within the look-up limit, as a profile is)."""
    name = str(request.path_params["name"])
    directory = _players(request).directory
    if name.startswith("_"):
        found = await directory.by_id(name) if len(name) <= 64 else None
    else:
        address = request.client.host if request.client else "?"
        found = await directory.lookup(name, address)
    if found is None:
        raise ProtocolError(NOT_FOUND, Words("refusal.noSuchPlayer", "no such player"))
    return found


def _relation(verb: str, add: bool) -> Callable[[Request], Awaitable[Response]]:
    """``POST`` (add) or ``DELETE`` (remove) ``/api/players/{name}/{verb}``."""
    relation = RELATION[verb]

    async def handler(request: Request) -> Response:
        await read_body(request)
        relations, me = await _me(request)
        other = await _other(request)
        if add:
            await relations.add(relation, me.id, other.id)
        else:
            await relations.remove(relation, me.id, other.id)
        return JSONResponse({verb: other.public(), "on": add})

    handler.__name__ = f"{'' if add else 'un'}{verb}"
    return endpoint(handler)


def _listing(relation: str) -> Callable[[Request], Awaitable[Response]]:
    async def handler(request: Request) -> Response:
        relations, me = await _me(request)
        return JSONResponse({"players": await relations.listed(relation, me.id)},
                            headers={"Cache-Control": "no-store"})

    handler.__name__ = f"my_{relation}"
    return endpoint(handler)


@endpoint
async def friends(request: Request) -> Response:
    """Whom the caller follows: online or not, and what they play."""
    relations, me = await _me(request)
    return JSONResponse({"players": await relations.friends(me.id)},
                        headers={"Cache-Control": "no-store"})


@endpoint
async def invite(request: Request) -> Response:
    """``POST {"table"}``: invite a player one follows to a waiting table one sits at."""
    body = await read_body(request)
    relations, me = await _me(request)
    other = await _other(request)
    await relations.invite(me.id, other.id, body.get("table"))
    return JSONResponse({"invited": other.public(), "table": body["table"]}, status_code=201)


@endpoint
async def invites(request: Request) -> Response:
    relations, me = await _me(request)
    return JSONResponse({"invites": await relations.invites_of(me.id)},
                        headers={"Cache-Control": "no-store"})


@endpoint
async def dismiss_invite(request: Request) -> Response:
    relations, me = await _me(request)
    await relations.dismiss(me.id, str(request.path_params["table"]))
    return JSONResponse({"dismissed": str(request.path_params["table"])})


@endpoint
async def report(request: Request) -> Response:
    """``POST {"reason", "note"?, "table"?}``: report a player to the operators."""
    body = await read_body(request)
    relations, me = await _me(request)
    other = await _other(request)
    report_id = await relations.report(me.id, other.id, body)
    return JSONResponse({"report": report_id}, status_code=201)


@endpoint
async def standing(request: Request) -> Response:
    """The caller's own sanctions in force and the warnings they were given."""
    relations, me = await _me(request)
    store = relations.store
    held = await asyncio.to_thread(moderation.standing, store, me.id)
    warned = await asyncio.to_thread(moderation.warnings, store, me.id)
    out: dict[str, Any] = {"sanctions": [s.public() for s in held.values()],
                           "warnings": warned}
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


def routes() -> list[Route]:
    out = [
        Route("/api/players/me/follows", friends, methods=["GET"]),
        Route("/api/players/me/blocks", _listing("blocks"), methods=["GET"]),
        Route("/api/players/me/mutes", _listing("mutes"), methods=["GET"]),
        Route("/api/players/me/invites", invites, methods=["GET"]),
        Route("/api/players/me/invites/{table}", dismiss_invite, methods=["DELETE"]),
        Route("/api/players/me/standing", standing, methods=["GET"]),
        Route("/api/players/{name}/invite", invite, methods=["POST"]),
        Route("/api/players/{name}/report", report, methods=["POST"]),
    ]
    for verb in RELATION:
        out += [Route(f"/api/players/{{name}}/{verb}", _relation(verb, True), methods=["POST"]),
                Route(f"/api/players/{{name}}/{verb}", _relation(verb, False),
                      methods=["DELETE"])]
    return out


__all__ = ["routes"]
