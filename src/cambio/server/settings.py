"""Every knob of one server process, in one frozen value (the CLI fills it in)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """What ``cambio serve`` was started with, and the protocol's limits.

    ``seed`` makes every table seed (and so every deal) predictable: for tests and benchmarks
    only, never for a public server. ``bot_speed`` divides every delay the server makes up
    (bot thinking, bot snap reactions, the pause between rounds), never the away timeout.
    """

    database: str = "data/cambio.sqlite3"
    """An SQLite file (or ``sqlite:PATH``), or a ``postgresql://`` URL (docs/server.md)."""
    games: tuple[str, ...] = ()
    """More turn-based games to serve, each ``"module:attribute"`` naming a
    :class:`cambio.games.TableGame` (``cambio serve --game``; docs/server.md)."""
    away_after: float = 30.0
    bot_speed: float = 1.0
    seed: int | None = None
    round_pause: float = 6.0
    snap_race: float = 0.15
    """Seconds a snap race is collected, at least, when a player reports reaction times
    (plus the slowest such rival's round trip; 0: snaps always apply in arrival order;
    server/snap_race.py)."""
    """Seconds between the reveal of a round and the deal of the next (divided by bot_speed)."""
    max_message: int = 4096
    """Bytes of one client WebSocket message; larger ones get ``too_large``."""
    rate: float = 20.0
    burst: float = 40.0
    """Per-connection token bucket for WebSocket messages (messages per second, bucket)."""
    byte_rate: float = 16384.0
    byte_burst: float = 65536.0
    """Per-connection byte budget of WebSocket messages (bytes per second, bucket; 0: no
    budget): past it the server stops reading that connection until it is paid back."""
    max_errors: int = 50
    """Errors after which a WebSocket is closed (code 1008)."""
    rest_rate: float = 50.0
    rest_burst: float = 200.0
    """Per-client-address token bucket for REST calls (0 turns it off)."""
    max_body: int = 16384
    """Bytes of a REST request body; larger ones get 413."""
    max_spectators: int = 200
    """Spectator connections per table. Seated players are never refused for this: a seat
    has its own small cap (``max_conns_per_seat``: tabs of one player)."""
    max_conns_per_seat: int = 8
    max_conns_per_address: int = 64
    """Open anonymous WebSocket connections per client address (0: no cap): spectators, and
    connections with a token that is not a seat of the table. A connection with a valid
    seat token counts against its seat's cap (``max_conns_per_seat``) instead."""
    max_sockets_per_address: int = 256
    """Open connections per peer address at the socket (half-sent requests, keep-alive HTTP
    and WebSockets alike; 0: no cap): past it a connection is answered 503 before anything
    is read (server/admission.py). Trusted proxies are not capped."""
    request_timeout: float = 5.0
    """Seconds a request (head and body) has to arrive after its connection opens or its
    previous response ends; a slower one is closed (0: no timeout)."""
    ws_connect_rate: float = 5.0
    ws_connect_burst: float = 30.0
    """Per-client-address token bucket for opening WebSockets (0 turns it off)."""
    error_window: float = 60.0
    """``max_errors`` counted errors within about this many seconds close a connection
    (the count drains at ``max_errors / error_window`` a second)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) whose pages may open WebSockets, besides the
    server's own (same origin). ``*`` allows any."""
    forwarded_allow_ips: str | None = None
    """Proxy addresses whose ``X-Forwarded-For``/``-Proto`` are trusted (uvicorn's
    ``--forwarded-allow-ips``); ``None``: trust nobody, the socket's peer is the client."""
    waiting_ttl: float = 6 * 3600.0
    """Seconds a waiting table with nobody connected lives before it is deleted (0: never)."""
    correspondence_waiting_ttl: float = 7 * 24 * 3600.0
    """Seconds a correspondence table may wait to be started, counted from its creation on
    the turn clock's wall clock (restarts do not reset it); past them it is deleted once
    nobody is at it (0: never). Its friends come over days, not within ``waiting_ttl``."""
    outbox_limit: int = 2000
    """Messages queued for one slow WebSocket before the server drops it (it resyncs)."""
    catch_up: int = 64
    """Most missed updates a ``sync`` is answered with; more get a full ``state``."""
    turn_clock: int | None = None
    """Seconds per decision of a table created without ``clock`` (``None``: no clock)."""
    clock_strikes: int = 2
    """Turn-clock timeouts in a row after which a seat is marked away (its bot plays on)."""
    time_offset: float = 0.0
    """Seconds added to the wall clock the turn clock's deadlines are read against: for tests
    only (a test restarts the server further on to pass a correspondence deadline without
    waiting for it; ``--time-offset``)."""
    chat_rate: float = 0.5
    chat_burst: float = 5.0
    """Per-seat token bucket for chat messages (messages per second, bucket)."""
    redis: str | None = None
    """A Redis URL: this process is one of a cluster sharing the tables (server/cluster/,
    docs/server.md "Several processes"); ``None``: the only server of its database."""
    lease_ttl: float = 5.0
    """Seconds a table's lease lasts unless its owner renews it: how long a killed process's
    tables wait before another process claims them."""
    advertise: str | None = None
    """The address other processes send this one's tables' connections to."""
    worker_id: str | None = None
    """This process's name in the cluster (made up at start when not given)."""
    queue_wait: float = 15.0
    """Seconds Play now waits for other players before bots fill the empty seats."""
    leaderboard_games: int = 5
    """Rated games that counted a player needs to be listed on a leaderboard."""
    leaderboard_opponents: int = 3
    """Distinct opponents (players or bots) of those games a player needs to be listed."""
    seat_grace: float = 10.0
    """Seconds a player Play now seated has to connect before a bot takes the seat (they
    take it back when they come)."""
    secure_cookies: bool = False
    """Mark the identity cookie ``Secure`` (a server behind TLS)."""
    hash_workers: int = 1
    """Password hashes (argon2id: a fifth of a second of CPU each) the process runs at once,
    off the event loop (server/players/hashing.py)."""
    hash_queue: int = 8
    """Sign-ins that may wait for a hash; past it the answer is 503 with ``Retry-After``."""
    warm_kernels: bool = True
    """Load the numba kernels of every bot the lobby offers in the background from the start
    (compiled by a low-priority subprocess when the cache is cold); ``False``: only when a
    table first seats such a bot (server/kernels.py). Either way their stand-ins play until
    they are loaded."""
    review_workers: int = 1
    """Processes that compute game reviews (server/reviews.py), at a low priority, never
    on the event loop (0: no reviews are computed; asked ones wait)."""
    review_budget: int | None = None
    """A card review's search budget, rollouts per decision (``None``: ``cambio review``'s
    default)."""
    review_depth: int | None = None
    """A dice review's search depth in plies where no exact table applies (``None``:
    ``cambio review``'s default)."""
    daily_date: str | None = None
    """The day (``YYYY-MM-DD``) whose daily deal is served instead of today's (UTC): for
    tests only (server/daily.py)."""
