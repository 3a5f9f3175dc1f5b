"""The players' REST endpoints (docs/protocol.md, "Players"): identity, profiles, the
leaderboard and Play now's queue. Each goes through the lobby's :func:`.lobby.endpoint`
(rate limit, same-origin JSON for changes, typed errors); the rules are in
:mod:`cambio.server.players`. (A module beside the lobby, not in the package: the lobby
asks the package who a caller is, so the package must not import the lobby.)"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .errors import NOT_FOUND, ProtocolError, Words
from .lobby import endpoint, read_body
from .players import names, profiles
from .players.keys import COOKIE, COOKIE_AGE
from .players.matching import Entry
from .players.queue import look_up
from .players.ratings import CLASSES, MU, rating_class
from .players.service import Players, address_hash, caller, players_of
from .players.service import required as _required
from .reviews import with_accuracy
from .server import new_token, token_hash
from .social.moderation import refuse_banned
from .store import Store
from .store import players_sql as sql

MAX_LEADERBOARD = 100
MAX_QUEUE_WAIT = 120.0
CARD_SIZES_ANY = (2, 3, 4)
MAX_CARD_SIZE = 8


def _players(request: Request) -> Players:
    players = players_of(request)
    assert players is not None
    return players


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _with_key(response: Response, request: Request, key: str) -> Response:
    response.set_cookie(COOKIE, key, max_age=COOKIE_AGE, path="/", httponly=True,
                        samesite="lax", secure=_players(request).server.settings.secure_cookies)
    return response


# ---------------------------------------------------------------------- identity
@endpoint
async def me(request: Request) -> Response:
    """``GET``: who this browser is (``null``: nobody yet)."""
    player = await caller(request)
    return JSONResponse({"player": player.public() if player is not None else None})


@endpoint
async def ensure_me(request: Request) -> Response:
    """``POST {"name"?}``: this browser's player, made on first call; renamed if a name is
    given."""
    body = await read_body(request)
    player = await caller(request)
    name = body.get("name")
    directory = _players(request).directory
    if player is None:
        clean = names.display_name(name) if name is not None else "Player"
        player, key = await directory.create(clean, _address(request))
        return _with_key(JSONResponse({"player": player.public()}, status_code=201), request,
                         key)
    if name is not None:
        player = await directory.rename(player, names.display_name(name))
    return JSONResponse({"player": player.public()})


@endpoint
async def claim(request: Request) -> Response:
    body = await read_body(request)
    player = await _required(request)
    player = await _players(request).directory.claim(player, body.get("username"),
                                                     body.get("password"), _address(request))
    return JSONResponse({"player": player.public()})


@endpoint
async def login(request: Request) -> Response:
    body = await read_body(request)
    player, key = await _players(request).directory.login(
        body.get("username"), body.get("password"), _address(request))
    return _with_key(JSONResponse({"player": player.public()}), request, key)


@endpoint
async def logout(request: Request) -> Response:
    key = request.cookies.get(COOKIE)
    if key:
        await _players(request).directory.logout(key)
    response = JSONResponse({"player": None})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


@endpoint
async def delete_me(request: Request) -> Response:
    body = await read_body(request)
    player = await _required(request)
    await _players(request).directory.delete(player, body.get("password"), _address(request))
    response = JSONResponse({"deleted": player.id})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


@endpoint
async def new_transfer(request: Request) -> Response:
    await read_body(request)
    player = await _required(request)
    code, seconds = await _players(request).directory.new_transfer(player)
    return JSONResponse({"code": code, "expires_in": seconds})


@endpoint
async def redeem(request: Request) -> Response:
    body = await read_body(request)
    player, key = await _players(request).directory.redeem(body.get("code"), _address(request))
    return _with_key(JSONResponse({"player": player.public()}), request, key)


# ---------------------------------------------------------------------- profiles
@endpoint
async def profile(request: Request) -> Response:
    name = str(request.path_params["name"])
    players = _players(request)
    store = players.server.store
    if name.startswith("bot:"):
        players.directory.take(players.directory.lookups, _address(request), "look-ups")
        found = _bot_entry(players, name[4:])
        if found is None:
            raise ProtocolError(NOT_FOUND, Words("refusal.noSuchPlayer", "no such player"))
        return JSONResponse(await _reviewed(store, await profiles.read(
            profiles.bot_profile, store, *found)))
    player = await players.directory.lookup(name, _address(request))
    if player is None:
        raise ProtocolError(NOT_FOUND, Words("refusal.noSuchPlayer", "no such player"))
    me_ = await caller(request)
    own = me_ is not None and me_.id == player.id
    settings = players.server.settings
    need = (settings.leaderboard_games, settings.leaderboard_opponents)
    body = await profiles.read(profiles.player_profile, store, player, own, need)
    return JSONResponse(await _reviewed(store, body), headers={"Cache-Control": "no-store"})


async def _reviewed(store: Store, body: dict[str, Any]) -> dict[str, Any]:
    """A profile whose games carry their accuracy (server/reviews.py)."""
    return {**body, "games": await profiles.read(with_accuracy, store, body["games"])}


def _bot_entry(players: Players, name: str) -> tuple[str, dict[str, Any]] | None:
    for game, kind in players.server.games.items():
        for entry in kind.bots():
            if entry["name"] == name and not entry.get("alias_of"):
                return game, entry
    return None


@endpoint
async def board(request: Request) -> Response:
    klass = request.query_params.get("class", "cards-2")
    if klass not in CLASSES:
        raise ProtocolError("bad_request", f"?class= is one of {', '.join(CLASSES)}")
    raw = request.query_params.get("limit", str(MAX_LEADERBOARD))
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_LEADERBOARD:
        raise ProtocolError("bad_request", f"?limit= is 1 to {MAX_LEADERBOARD}")
    players = _players(request)
    settings = players.server.settings
    need, met = settings.leaderboard_games, settings.leaderboard_opponents
    rows = await profiles.read(profiles.leaderboard, players.server.store, klass, need, met,
                               int(raw))
    return JSONResponse({"class": klass, "min_games": need, "min_opponents": met,
                         "players": rows})


# ---------------------------------------------------------------------- play now
def _sizes(game: str, raw: Any) -> tuple[int, ...]:
    if game == "cards":
        if raw == "any" or raw is None:
            return CARD_SIZES_ANY
        if isinstance(raw, int) and not isinstance(raw, bool) and 2 <= raw <= MAX_CARD_SIZE:
            return (raw,)
        raise ProtocolError("bad_request", f"\"players\" is 2 to {MAX_CARD_SIZE} or \"any\"")
    if raw == "any" or raw is None:
        return (2, 3)
    if raw in (2, 3) and not isinstance(raw, bool):
        return (int(raw),)
    raise ProtocolError("bad_request", "\"players\" is 2, 3 or \"any\"")


@endpoint
async def queue_join(request: Request) -> Response:
    """``POST {"game", "preset"|"setup", "players", "rated", "name"?}``: wait for a table.
    A browser with no player yet gets one (named ``name``)."""
    body = await read_body(request)
    players = _players(request)
    server = players.server
    game = body.get("game", "cards")
    kind = server.games.get(game) if isinstance(game, str) else None
    if kind is None or game not in ("cards", "board"):
        raise ProtocolError("bad_request", "\"game\" is \"cards\" or \"board\"")
    sizes = _sizes(game, body.get("players"))
    variant = body.get("preset" if game == "cards" else "setup",
                       "house" if game == "cards" else "quick")
    check: dict[str, Any] = {"players": min(sizes)}
    if game == "cards":
        check["rules"] = {"preset": variant, "overrides": {}}
    else:
        check["setup"] = variant
    for size in sizes:
        kind.config({**check, "players": size})  # a bad preset or size: bad_request here
    rated = body.get("rated", True)
    if not isinstance(rated, bool):
        raise ProtocolError("bad_request", "\"rated\" is true or false")
    player = await caller(request)
    key: str | None = None
    name = body.get("name")
    if player is None:
        player, key = await players.directory.create(
            names.display_name(name) if name is not None else "Player", _address(request))
    elif name is not None and names.display_name(name) != player.name:
        player = await players.directory.rename(player, names.display_name(name))
    await asyncio.to_thread(refuse_banned, server.store, player.id)
    klass = rating_class(game, min(sizes))
    mine = (await profiles.read(server.store.read, sql.RATING_MU, (player.id, klass))
            if klass else [])
    token = new_token()
    now = time.time()
    wait = server.settings.queue_wait
    entry = Entry(ticket=new_token(), player=player.id, name=player.name,
                  token_hash=token_hash(token), address=address_hash(request), game=game,
                  variant=str(variant), sizes=sizes, rated=rated, joined=now,
                  fill_at=now + wait, mu=float(mine[0][0]) if mine else MU)
    # One ticket per player: a second tab's Play now replaces the first one's (so one client
    # cannot fill the queue with tickets that never meet each other).
    waiting, _ = await players.backend.waiting()
    await players.backend.remove([e.ticket for e in waiting if e.player == player.id])
    await players.backend.put(entry)
    out = JSONResponse({"ticket": entry.ticket, "token": token, "wait": wait,
                        "state": "waiting", "player": player.public()}, status_code=201)
    return _with_key(out, request, key) if key is not None else out


async def _ticket(request: Request, body: dict[str, Any] | None = None) -> tuple[str, str]:
    """The ticket a queue call names, and the caller's player id (it must be theirs)."""
    raw = (body or {}).get("ticket") or request.query_params.get("ticket")
    if not isinstance(raw, str) or not raw or len(raw) > 64:
        raise ProtocolError("bad_request", "name your \"ticket\"")
    player = await _required(request)
    return raw, player.id


def _match_state(match: dict[str, Any] | None, pid: str) -> JSONResponse | None:
    """What the caller's ticket became once the matchmaker took it (being seated, seated,
    or refused), or ``None`` while it still waits."""
    if match is None or match.get("player", pid) != pid:
        return None
    if "error" in match:
        raise ProtocolError("conflict", str(match["error"]))
    if match.get("pending"):
        return JSONResponse({"state": "seating", "fill_in": 0})
    return JSONResponse({"state": "matched", "table": match["table"],
                         "seat": match["seat"], "rated": match["rated"]})


@endpoint
async def queue_state(request: Request) -> Response:
    ticket, pid = await _ticket(request)
    backend = _players(request).backend
    match, entry = await look_up(backend, ticket)
    matched = _match_state(match, pid)
    if matched is not None:
        return matched
    if entry is None or entry.player != pid:
        raise ProtocolError(NOT_FOUND, Words(
            "refusal.notQueued", "not in the queue (it was left, or went stale)"))
    await backend.touch(ticket, False)
    now = time.time()
    return JSONResponse({"state": "waiting", "waited": round(now - entry.joined, 1),
                         "fill_in": round(max(0.0, entry.fill_at - now), 1)})


@endpoint
async def queue_now(request: Request) -> Response:
    """Stop waiting for people: bots fill the empty seats at the next tick. Pressed just as
    the matchmaker took the ticket (people were found meanwhile), it is too late to ask and
    nothing is wrong: the answer is the ticket's state, as its poll would say."""
    body = await read_body(request)
    ticket, pid = await _ticket(request, body)
    backend = _players(request).backend
    match, entry = await look_up(backend, ticket)
    matched = _match_state(match, pid)
    if matched is not None:
        return matched
    if entry is None or entry.player != pid:
        raise ProtocolError(NOT_FOUND, Words("refusal.notQueued", "not in the queue"))
    await backend.touch(ticket, True)
    return JSONResponse({"state": "waiting", "fill_in": 0})


@endpoint
async def queue_leave(request: Request) -> Response:
    ticket, pid = await _ticket(request)
    backend = _players(request).backend
    entry = await backend.entry(ticket)
    if entry is not None and entry.player == pid:
        await backend.remove([ticket])
    return JSONResponse({"state": "left"})


@endpoint
async def my_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/seat``: a seat token, on this device, for the caller's own
    seat at the table (the one seat their player holds there). The token held before stops
    working; connections already open stay."""
    await read_body(request)
    player = await _required(request)
    server = _players(request).server
    table = await server.get(str(request.path_params["id"]))
    seats = table.seats.of_player(player.id)
    if len(seats) != 1:
        raise ProtocolError("forbidden", Words(
            "refusal.noSeatHere", "your player holds no seat here (or several)"))
    token = new_token()
    await table.call(table.rekey, seats[0], token_hash(token))
    return JSONResponse({"table": table.id, "seat": seats[0], "token": token})


def routes() -> list[Route]:
    return [
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", ensure_me, methods=["POST"]),
        Route("/api/me", delete_me, methods=["DELETE"]),
        Route("/api/me/claim", claim, methods=["POST"]),
        Route("/api/me/transfer", new_transfer, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/transfer", redeem, methods=["POST"]),
        Route("/api/players/{name}", profile),
        Route("/api/leaderboard", board),
        Route("/api/queue", queue_join, methods=["POST"]),
        Route("/api/queue", queue_state, methods=["GET"]),
        Route("/api/queue", queue_leave, methods=["DELETE"]),
        Route("/api/queue/now", queue_now, methods=["POST"]),
    ]


__all__ = ["routes"]
