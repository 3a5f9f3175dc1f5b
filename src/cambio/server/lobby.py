"""The lobby: plain REST under ``/api`` (``docs/protocol.md``, "REST").

Handlers only read and check the request; every change to a table runs on that table's
actor (:meth:`Table.call`), so lobby calls and game actions never interleave.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .errors import (
    FORBIDDEN,
    RATE_LIMITED,
    TOO_LARGE,
    UNAVAILABLE,
    UNSUPPORTED_MEDIA,
    ProtocolError,
    Words,
    said,
    store_unreachable,
)
from .limits import AddressLimiter
from .listing import clean_text
from .players.service import caller_id, own_seat
from .server import Server, new_token, token_hash
from .store import DamagedRow, StoreError
from .table import Table
from .ws import origin_allowed

log = logging.getLogger("cambio.server")
Handler = Callable[[Request], Awaitable[Response]]
MAX_NAME = 40
"""The lobby's name field (``maxlength`` in ``web/static/lobby.js``) has the same limit."""


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def error_response(exc: ProtocolError) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
    return JSONResponse({"error": {"code": exc.code, "message": exc.message,
                                   **said(exc.message)}},
                        status_code=exc.status, headers=headers)


def check_rate(request: Request) -> None:
    """The REST rate limit per client address (the protocol's 429)."""
    limiter: AddressLimiter = request.app.state.rest_limiter
    if not limiter.take(request.client.host if request.client else "?"):
        raise ProtocolError(RATE_LIMITED, Words("refusal.slowDown", "too many requests; slow down"))


SAFE = frozenset(("GET", "HEAD", "OPTIONS"))


def check_call(request: Request) -> None:
    """What every REST call passes before its handler (or the table's owner, in a cluster)
    sees it: the rate limit and, for a call that changes something, the same origin check
    as a WebSocket's and a JSON body only (a body with another ``Content-Type`` is refused
    with 415). A plain HTML form of another site can post ``text/plain``, form-encoded or
    multipart bodies without a preflight, never ``application/json``; so with both checks
    another site's page cannot create tables or take seats in a visitor's name."""
    check_rate(request)
    if request.method in SAFE:
        return
    if not origin_allowed(request, server_of(request).settings):
        raise ProtocolError(FORBIDDEN, "requests from pages of other sites are refused")
    kind = request.headers.get("content-type")
    # No Content-Type at all is read as JSON (scripts; a cross-site fetch with a typeless
    # body carries an Origin, refused above).
    if kind is not None and kind.partition(";")[0].strip().lower() != "application/json":
        raise ProtocolError(UNSUPPORTED_MEDIA, "request bodies are JSON (Content-Type: "
                                               "application/json)")


def endpoint(fn: Handler) -> Handler:
    """Rate limiting, the checks of :func:`check_call` and typed errors for a handler."""

    async def wrapped(request: Request) -> Response:
        try:
            check_call(request)
            return await fn(request)
        except ProtocolError as exc:
            return error_response(exc)
        except DamagedRow as exc:
            log.error("%s", exc)
            return error_response(ProtocolError(UNAVAILABLE, "this table's stored data is "
                                                             "damaged"))
        except StoreError as exc:  # the database, not the call: one line, no traceback
            log.warning("%s %s: storage failed: %s", request.method, request.url.path,
                        str(exc)[:300])
            return error_response(store_unreachable())

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


async def read_body(request: Request) -> dict[str, Any]:
    """The JSON object body (``{}`` if empty); 413 past the size limit, 400 if malformed."""
    limit = server_of(request).settings.max_body
    length = request.headers.get("content-length")
    if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > limit):
        raise ProtocolError(TOO_LARGE, f"request bodies are limited to {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ProtocolError(TOO_LARGE, f"request bodies are limited to {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_request", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise ProtocolError("bad_request", "the body must be a JSON object")
    return body


def bearer(request: Request) -> str | None:
    """The hash of the request's seat token, if it sent one."""
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token_hash(token.strip())


def display_name(body: dict[str, Any], default: str) -> str:
    name = body.get("name", default)
    if name is None:
        name = default
    if not isinstance(name, str):
        raise ProtocolError("bad_request", "\"name\" must be text")
    name = clean_text(name)
    if not name:
        name = default
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_request", Words(
            "refusal.nameTooLong", f"names are limited to {MAX_NAME} characters",
            {"max": MAX_NAME}))
    return name


async def table_of(request: Request) -> Table:
    return await server_of(request).get(str(request.path_params["id"]))


def seat_param(request: Request) -> int:
    raw = str(request.path_params["seat"])
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 3:
        raise ProtocolError("not_found", "no such seat")
    return int(raw)


def require_host(request: Request, table: Table) -> None:
    seat = _caller_seat(request, table)
    if seat != 0:
        raise ProtocolError("forbidden", Words("refusal.hostOnly",
                                               "only the host (seat 0) may do this"))


def _caller_seat(request: Request, table: Table) -> int | None:
    h = bearer(request)
    if h is None:
        raise ProtocolError("unauthorized", "send the seat token: Authorization: Bearer <token>")
    seat = table.seat_for_hash(h)
    if seat is None:
        raise ProtocolError("forbidden", Words("refusal.notYourSeat",
                                              "this token is not a seat of this table"))
    return seat


# ====================================================================== handlers
@endpoint
async def list_bots(request: Request) -> Response:
    games = server_of(request).games
    return JSONResponse({name: kind.bots() for name, kind in games.items()})


@endpoint
async def list_games(request: Request) -> Response:
    """Every game this server holds, for the lobby's form: its name, the players a table
    seats and its options' choices (the default first; a game with a richer form of its
    own, the card game, lists none)."""
    games = server_of(request).games
    return JSONResponse([{"name": name, "seats": list(kind.seats), "options": kind.options()}
                         for name, kind in games.items()])


@endpoint
async def list_rules(request: Request) -> Response:
    from .games import rules_catalogue
    from .i18n import request_language

    lang = request_language(request.headers.get("accept-language"))
    return JSONResponse(rules_catalogue(lang), headers={"Content-Language": lang,
                                                        "Vary": "Accept-Language"})


@endpoint
async def create_table(request: Request) -> Response:
    body = await read_body(request)
    game = body.get("game")
    if not isinstance(game, str):
        games = sorted(server_of(request).games)
        raise ProtocolError("bad_request", f"'game' must be one of {games}")
    name = display_name(body, "Host")
    table, token = await server_of(request).create(game, body, name,
                                                   player=await caller_id(request))
    invite = str(request.base_url).rstrip("/") + f"/t/{table.id}"
    return JSONResponse({"table": table.id, "seat": 0, "token": token, "invite": invite},
                        status_code=201)


@endpoint
async def open_tables(request: Request) -> Response:
    return JSONResponse({"tables": server_of(request).open_tables()})


QUICK_TABLE: dict[str, Any] = {"game": "cards", "players": 2, "rounds": 1,
                               "rules": {"preset": "house", "overrides": {}}}
"""The table quick play makes when no table is waiting for players: you and a bot."""
QUICK_BOT = "medium"


MAX_HELD = 200
"""How many seat tokens a quick play call may name (a browser holds one per table it sits at)."""


def held_seats(body: dict[str, Any]) -> dict[str, str]:
    """The seats the caller's browser holds, ``{table id: token}`` (the body's ``held``):
    quick play sends her back to one of them rather than seating her twice at a table."""
    held = body.get("held", {})
    if held is None:
        return {}
    if (not isinstance(held, dict) or len(held) > MAX_HELD
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in held.items())):
        raise ProtocolError("bad_request", "\"held\" must map table ids to seat tokens "
                                           f"(at most {MAX_HELD})")
    return held


def own_waiting_seat(server: Server, held: dict[str, str]) -> tuple[str, int] | None:
    """The newest waiting card table (of this process) at which a held token is a seat:
    ``(table, seat)``. A token that is not a seat of its table proves nothing and is ignored."""
    for table in server.joinable_tables():
        token = held.get(table.id)
        if not table.kind.quick_play or token is None:
            continue
        seat = table.seat_for_hash(token_hash(token))
        if seat is not None:
            return table.id, seat
    return None


@endpoint
async def quick_play(request: Request) -> Response:
    """One tap to a game: the caller's own seat if she already sits at a table waiting for
    players, else a seat at the newest such table (never one she holds a seat at), else a new
    table against a bot, started at once."""
    body = await read_body(request)
    name = display_name(body, "Player")
    server = server_of(request)
    held = held_seats(body)
    back = own_waiting_seat(server, held)
    if back is not None:
        return JSONResponse({"table": back[0], "seat": back[1], "token": held[back[0]],
                             "started": False, "again": True})
    player = await caller_id(request)
    found = await server.quick_seat(name, request.client.host if request.client else "?",
                                    skip=frozenset(held), player=player)
    if found is not None:
        table_id, seat, token = found
        return JSONResponse({"table": table_id, "seat": seat, "token": token,
                             "started": False})
    table, token = await server.create("cards", {**QUICK_TABLE, "table_name": "Quick play"}, name,
                                       player=player)
    await table.call(table.start, QUICK_BOT)
    return JSONResponse({"table": table.id, "seat": 0, "token": token, "started": True},
                        status_code=201)


@endpoint
async def table_summary(request: Request) -> Response:
    table = await table_of(request)
    return JSONResponse(table.summary())


@endpoint
async def join_table(request: Request) -> Response:
    body = await read_body(request)
    table = await table_of(request)
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise ProtocolError("bad_request", "\"seat\" must be a seat number")
    name = display_name(body, "Player")
    token = new_token()
    got = await table.call(table.join, name, seat, token_hash(token), await caller_id(request))
    return JSONResponse({"seat": got, "token": token})


async def host_call(request: Request) -> tuple[dict[str, Any], Table]:
    """The body and the table of a call only the host may make."""
    body = await read_body(request)
    table = await table_of(request)
    require_host(request, table)
    return body, table


def bot_name(body: dict[str, Any], key: str, required: bool) -> str | None:
    value = body.get(key)
    if (value is None and required) or (value is not None and not isinstance(value, str)):
        raise ProtocolError("bad_request", f"\"{key}\" must be a bot name (see /api/bots)")
    return value


@endpoint
async def seat_bot(request: Request) -> Response:
    body, table = await host_call(request)
    bot = bot_name(body, "bot", required=True)
    return JSONResponse(await table.call(table.set_bot, seat_param(request), bot))


@endpoint
async def free_seat(request: Request) -> Response:
    table = await table_of(request)
    seat = seat_param(request)
    caller = _caller_seat(request, table)
    if caller not in (0, seat):
        raise ProtocolError("forbidden", Words("refusal.freeSeat", "only the host or the seat "
                                              "itself may free a seat"))
    return JSONResponse(await table.call(table.free_seat, seat))


@endpoint
async def start_table(request: Request) -> Response:
    body, table = await host_call(request)
    return JSONResponse(await table.call(table.start, bot_name(body, "fill", required=False)))


@endpoint
async def again_table(request: Request) -> Response:
    table = await table_of(request)
    require_host(request, table)
    return JSONResponse(await table.call(table.again))


@endpoint
async def table_record(request: Request) -> Response:
    """One round's record: full once the game is over, else the caller's player's-eye view.

    Reading and replaying the round run in a worker thread: a long round takes a while to
    turn into a record, and every other table goes on meanwhile."""
    server, table, game_no, round_no, seat = await _round_asked(request)
    text, rounds = await asyncio.to_thread(_record_text, server, table, game_no, round_no, seat)
    return Response(text, media_type="application/x-ndjson",
                    headers={"X-Cambio-Rounds": str(rounds), "Cache-Control": "no-store"})


@endpoint
async def table_frames(request: Request) -> Response:
    """One round's replay as the engine plays it, for the replay viewer: ``{"game",
    "header", "rounds", "round", "frames"}`` (:func:`~.turn_session.turn_frames`), seen
    as the record is: in full once the game is over, else by the caller's seat."""
    server, table, game_no, round_no, seat = await _round_asked(request)
    body = await asyncio.to_thread(_frames, server, table, game_no, round_no, seat)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def _frames(server: Server, table: Table, game_no: int, round_no: int,
            seat: int | None) -> dict[str, Any]:
    rounds, header, actions = _stored_round(server, table, game_no, round_no)
    return server.games[table.game].frames(header, actions, seat, len(rounds))


async def _round_asked(request: Request) -> tuple[Server, Table, int, int, int | None]:
    """The server, table, game and round (0: the last) a record request asks for, and the
    seat whose eyes it gets (``None``: everything, once the game is over); ``forbidden``
    for anyone but a seat's player before that."""
    server = server_of(request)
    table = await table_of(request)
    game_no = _query_int(request, "game", table.game_no)
    if not 1 <= game_no <= table.game_no:
        raise ProtocolError("not_found", "no such game at this table")
    round_no = _query_int(request, "round", 0)
    over = game_no < table.game_no or table.status == "finished"
    seat: int | None = None
    if not over:
        h = bearer(request)
        seat = table.seat_for_hash(h) if h is not None else None
        if seat is None:
            seat = await own_seat(request, table)  # the player's own seat, from any device
        if seat is None:
            raise ProtocolError("forbidden", "the full record is available once the game is "
                                             "over; before that, only a seat's own record")
    return server, table, game_no, round_no, seat


def _record_text(server: Server, table: Table, game_no: int, round_no: int,
                 seat: int | None) -> tuple[str, int]:
    """Round ``round_no`` (0: the last one played) as record text, and the game's round
    count (runs in a worker thread)."""
    rounds, header, actions = _stored_round(server, table, game_no, round_no)
    return server.games[table.game].record(header, actions, seat), len(rounds)


def _stored_round(server: Server, table: Table, game_no: int, round_no: int
                  ) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any],
                             list[tuple[int, str]]]:
    """Every stored round's header, and round ``round_no``'s (0: the last one played)
    header and actions (reads storage: a worker thread runs it)."""
    rounds = server.store.rounds(table.id, game_no)
    if not rounds:
        raise ProtocolError("not_found", "no such game at this table")
    header = dict(rounds)
    round_no = round_no or rounds[-1][0]
    if round_no not in header:
        raise ProtocolError("not_found", "no such round in this game")
    actions = server.store.actions(table.id, game_no, round_no)
    return rounds, header[round_no], actions


def _query_int(request: Request, key: str, default: int) -> int:
    raw = request.query_params.get(key)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        raise ProtocolError("bad_request", f"?{key}= must be a whole number")
    return int(raw)
