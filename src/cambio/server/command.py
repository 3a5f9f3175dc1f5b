"""``cambio serve`` and ``python -m cambio.server``: the web platform on one machine.

The command lives with the server so that ``python -m cambio.server`` needs nothing from
:mod:`cambio.cli` (the CLI imports the server, never the reverse). It only imports typer and
the server's plain :class:`~.settings.Settings` (its defaults are the command's): the server
itself (uvicorn, starlette) is loaded when the command runs, so ``cambio --help`` and the
other commands stay quick.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cambio.daily import parse_day

from .settings import Settings

DEFAULT = Settings()
"""Every option's default is the server's own (a dataclass of plain values: cheap to
import), so the command and a server built in code agree."""


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    database: Annotated[str, typer.Option(
        "--database", "--db", metavar="PATH|URL",
        help="Where every table, seat and action is kept: an SQLite file (created if "
        "missing; or sqlite:PATH), or a PostgreSQL URL (postgresql://user@host/dbname).")]
    = DEFAULT.database,
    away_after: Annotated[float, typer.Option(
        min=1.0, help="Seconds without a connection before a player's seat is played by a "
        "bot (until they return).")] = DEFAULT.away_after,
    bot_speed: Annotated[float, typer.Option(
        min=0.01, max=1000.0, help="Divide bots' thinking delays and the pause between rounds "
        "by this factor.")] = DEFAULT.bot_speed,
    round_pause: Annotated[float, typer.Option(
        min=0.0, help="Seconds between a round's reveal and the next deal (divided by "
        "--bot-speed).")] = DEFAULT.round_pause,
    snap_race: Annotated[float, typer.Option(
        min=0, help="Seconds a snap race is held, at least, when a player's client reports "
        "reaction times, so a faster reaction on a slower link can win (plus that link's "
        "round trip; 0: arrival order always).")] = DEFAULT.snap_race,
    seed: Annotated[int | None, typer.Option(
        help="Derive every table's seed from this (tests and benchmarks only: it makes the "
        "deals predictable).")] = DEFAULT.seed,
    rest_rate: Annotated[float, typer.Option(
        min=0.0, help="REST calls per second per client address (0: no limit).")]
    = DEFAULT.rest_rate,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="A site (https://example.org) whose pages may open this server's WebSockets, "
        "besides its own; repeatable; '*' for any.")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="Comma-separated addresses of reverse proxies whose X-Forwarded-For is trusted "
        "as the client address (default: none).")] = DEFAULT.forwarded_allow_ips,
    max_spectators: Annotated[int, typer.Option(
        min=0, help="Spectator connections per table (seated players are never refused "
        "for spectators).")] = DEFAULT.max_spectators,
    max_conns_per_address: Annotated[int, typer.Option(
        min=0, help="Open anonymous WebSocket connections (spectators) per client address "
        "(0: no cap); seated players have their own cap per seat.")]
    = DEFAULT.max_conns_per_address,
    max_sockets_per_address: Annotated[int, typer.Option(
        min=0, help="Open connections per peer address, HTTP and WebSocket alike, counted "
        "at the socket (0: no cap; trusted proxies are not capped).")]
    = DEFAULT.max_sockets_per_address,
    request_timeout: Annotated[float, typer.Option(
        min=0.0, help="Seconds a request's head and body have to arrive before the "
        "connection is closed (0: no limit).")] = DEFAULT.request_timeout,
    ws_connect_rate: Annotated[float, typer.Option(
        min=0.0, help="WebSocket connection attempts per second per client address (bursts "
        "of 6x; 0: no limit).")] = DEFAULT.ws_connect_rate,
    waiting_ttl: Annotated[float, typer.Option(
        min=0.0, help="Seconds a table nobody started, with nobody at it, is kept (0: "
        "for ever).")] = DEFAULT.waiting_ttl,
    correspondence_waiting_ttl: Annotated[float, typer.Option(
        min=0.0, help="Seconds a correspondence table (a clock of an hour or more) may wait "
        "to be started, from its creation, before it is deleted once nobody is at it (0: "
        "for ever).")] = DEFAULT.correspondence_waiting_ttl,
    turn_clock: Annotated[int, typer.Option(
        min=0, max=3600, help="Seconds per decision for tables created without a clock "
        "setting (0: no clock); on timeout the seat's bot plays that decision.")]
    = DEFAULT.turn_clock or 0,
    clock_strikes: Annotated[int, typer.Option(
        min=1, help="Turn-clock timeouts in a row after which a seat is marked away (its "
        "bot plays on until the player is back).")] = DEFAULT.clock_strikes,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
    redis: Annotated[str | None, typer.Option(
        help="Redis URL (redis://host:6379/0): serve as one of several processes sharing the "
        "tables, with a shared --database (PostgreSQL).")] = DEFAULT.redis,
    workers: Annotated[int, typer.Option(
        min=1, max=256, help="Server processes on this machine behind this one port (needs "
        "--redis).")] = 1,
    lease_ttl: Annotated[float, typer.Option(
        min=0.2, help="Seconds a dead process's tables wait before another claims them "
        "(with --redis).")] = DEFAULT.lease_ttl,
    advertise: Annotated[str | None, typer.Option(
        help="The URL other processes reach this one at (with --redis; default: "
        "http://HOST:PORT).")] = DEFAULT.advertise,
    bot: Annotated[list[str] | None, typer.Option(
        help="Offer one more card bot at the tables: an import path MODULE:CALLABLE or an "
        "entry point (repeatable; docs/envs.md).")] = None,
    board_bot: Annotated[list[str] | None, typer.Option(
        help="Offer one more board bot (as --bot).")] = None,
    game: Annotated[list[str] | None, typer.Option(
        metavar="MODULE:ATTRIBUTE", help="Serve one more turn-based game: an object that "
        "satisfies cambio.games.TableGame (repeatable; docs/server.md).")] = None,
    queue_wait: Annotated[float, typer.Option(
        min=0.0, max=600.0, help="Seconds Play now waits for other players before bots fill "
        "the empty seats (a player may cut it short).")] = DEFAULT.queue_wait,
    leaderboard_games: Annotated[int, typer.Option(
        min=0, help="Rated games a player needs to be listed on a leaderboard.")]
    = DEFAULT.leaderboard_games,
    leaderboard_opponents: Annotated[int, typer.Option(
        min=0, help="Distinct opponents (players or bots) of those rated games a player "
        "needs to be listed on a leaderboard.")] = DEFAULT.leaderboard_opponents,
    seat_grace: Annotated[float, typer.Option(
        min=0.1, max=600.0, help="Seconds a player Play now seated has to open the table "
        "before a bot takes the seat (the player takes it back on arrival).")]
    = DEFAULT.seat_grace,
    secure_cookies: Annotated[bool, typer.Option(
        help="Mark the player cookie Secure (behind a TLS proxy: the browser then sends it "
        "over https only).")] = DEFAULT.secure_cookies,
    hash_workers: Annotated[int, typer.Option(
        min=1, max=64, help="Password hashes checked at once (each takes a fifth of a "
        "second of one core), off the event loop.")] = DEFAULT.hash_workers,
    hash_queue: Annotated[int, typer.Option(
        min=0, max=10_000, help="Sign-ins that may wait for a password check; past it they "
        "are answered 503 with Retry-After.")] = DEFAULT.hash_queue,
    warm_kernels: Annotated[bool, typer.Option(
        help="Load the hard bots' compiled kernels in the background from the start (a "
        "low-priority subprocess compiles them when numba's cache is cold); off: when a "
        "table first seats such a bot. Their stand-ins play until then.")]
    = DEFAULT.warm_kernels,
    review_workers: Annotated[int, typer.Option(
        min=0, max=64, help="Processes that compute game reviews in the background, at a "
        "low priority (0: none).")] = DEFAULT.review_workers,
    review_budget: Annotated[int | None, typer.Option(
        min=1, help="A card review's budget: rollouts per decision (default 4096, at least "
        "16).")] = DEFAULT.review_budget,
    review_depth: Annotated[int | None, typer.Option(
        min=1, help="A dice review's search: plies after each move where no exact table "
        "applies (default 4).")] = DEFAULT.review_depth,
    daily_date: Annotated[str | None, typer.Option(
        hidden=True, help="Serve this day's daily deal (YYYY-MM-DD; tests).")]
    = DEFAULT.daily_date,
    time_offset: Annotated[float, typer.Option(
        hidden=True, help="Seconds added to the clock the turn clock's deadlines are read "
        "against (tests: pass a correspondence deadline without waiting).")]
    = DEFAULT.time_offset,
    handoff_fd: Annotated[int | None, typer.Option(hidden=True)] = None,
    worker_id: Annotated[str | None, typer.Option(hidden=True)] = DEFAULT.worker_id,
) -> None:
    """Serve the web platform: the lobby, tables with bots, real-time play and records."""
    from .run import serve

    if daily_date is not None:
        try:
            daily_date = parse_day(daily_date)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--daily-date") from None
    offer_bots(bot, board_bot)
    games = offer_games(game)

    settings = Settings(database=database, away_after=away_after, bot_speed=bot_speed, seed=seed,
                        round_pause=round_pause, rest_rate=rest_rate, rest_burst=4 * rest_rate,
                        snap_race=snap_race,
                        allowed_origins=tuple(o.rstrip("/") for o in allow_origin or ()),
                        forwarded_allow_ips=forwarded_allow_ips,
                        max_spectators=max_spectators,
                        max_conns_per_address=max_conns_per_address,
                        max_sockets_per_address=max_sockets_per_address,
                        request_timeout=request_timeout,
                        ws_connect_rate=ws_connect_rate, ws_connect_burst=6 * ws_connect_rate,
                        waiting_ttl=waiting_ttl,
                        correspondence_waiting_ttl=correspondence_waiting_ttl,
                        turn_clock=turn_clock or None,
                        clock_strikes=clock_strikes, games=games, queue_wait=queue_wait,
                        leaderboard_games=leaderboard_games,
                        leaderboard_opponents=leaderboard_opponents, seat_grace=seat_grace,
                        secure_cookies=secure_cookies, hash_workers=hash_workers,
                        hash_queue=hash_queue, warm_kernels=warm_kernels,
                        review_workers=review_workers, review_budget=review_budget,
                        review_depth=review_depth,
                        daily_date=daily_date, time_offset=time_offset)
    if redis is None and workers > 1:
        raise typer.BadParameter("--workers needs --redis (and a shared --database)")
    if redis is not None:
        from cambio.extras import needs

        with needs("cluster", "cambio serve --redis"):
            from .cluster.command import serve_cluster

        serve_cluster(settings, host=host, port=port, log_level=log_level.lower(),
                      redis=redis, workers=workers, lease_ttl=lease_ttl, advertise=advertise,
                      handoff_fd=handoff_fd, worker_id=worker_id)
        return
    serve(settings, host=host, port=port, log_level=log_level.lower())


def offer_bots(cards: list[str] | None, board: list[str] | None) -> None:
    """Check each extra bot builds, then publish the names to this process and its
    children (cluster workers) through the environment (:data:`cambio.bots.resolve.SERVED`)."""
    import os

    from cambio.board import Rules as BoardRules
    from cambio.bots.board import make_bot as make_board_bot
    from cambio.bots.cards import make_bot
    from cambio.bots.resolve import SERVED

    for game, names in (("cards", cards or []), ("board", board or [])):
        for name in names:
            try:
                make_bot(name, 0) if game == "cards" else make_board_bot(name, BoardRules(), 0)
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint="--bot") from None
        if names:
            os.environ[SERVED[game]] = ";".join(n.strip() for n in names)


def offer_games(targets: list[str] | None) -> tuple[str, ...]:
    """Check each extra game loads and can be played at a table before anything listens
    (every process, a cluster's workers too, loads them again from the same arguments)."""
    from .games import load_table_game

    for target in targets or []:
        try:
            load_table_game(target)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--game") from None
    return tuple(targets or ())


def register(app: typer.Typer) -> None:
    """Add ``serve`` to a typer app (``cambio`` in :mod:`cambio.cli.main`, and
    ``python -m cambio.server``)."""
    app.command("serve")(serve_command)
