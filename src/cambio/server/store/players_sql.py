"""The players' tables (identity, history, ratings) and the schema's migrations.

Everything here is additive to the tables of :mod:`.statements`: a database made before
players existed upgrades in place on start (:func:`migrate`), in one transaction per step,
and ``schema_version`` says which steps are done. The same SQL runs on SQLite and
PostgreSQL (the dialect :mod:`.statements` describes).

What is never stored: a browser's secret (only its SHA-256), a password (only its argon2id
hash), a transfer code (only its SHA-256).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import reviews_sql
from .social_sql import forget_player
from .statements import Statement

Run = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
"""Runs one statement inside the migration's transaction, and returns its rows (if any)."""

VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"

MIGRATIONS: list[list[str]] = [
    # 1 -- players. A seat remembers which player took it.
    [
        "ALTER TABLE seats ADD COLUMN player_id TEXT",
        """CREATE TABLE players (
    id TEXT PRIMARY KEY,           -- public: '_' and 12 random characters (the profile's address)
    name TEXT NOT NULL,            -- display name, changeable
    username TEXT UNIQUE,          -- case-folded username once claimed, else NULL
    shown TEXT,                    -- the username as its owner spelled it
    password_hash TEXT,            -- argon2id; never sent anywhere
    created DOUBLE PRECISION NOT NULL
)""",
        """CREATE TABLE player_keys (
    key_hash TEXT PRIMARY KEY,     -- sha256 of a browser's secret or of a transfer code
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,            -- 'browser' or 'transfer'
    expires DOUBLE PRECISION       -- a transfer code's end (epoch seconds); NULL for a browser
)""",
        "CREATE INDEX player_keys_player ON player_keys (player_id)",
        """CREATE TABLE ratings (
    player_id TEXT NOT NULL,
    class TEXT NOT NULL,           -- cards-2, cards-multi, dice-2, dice-3
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, class)
)""",
        """CREATE TABLE player_games (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,       -- a player's id, or 'bot:NAME'
    game TEXT NOT NULL,
    class TEXT NOT NULL,
    rules TEXT NOT NULL,           -- the preset or the setup, in words
    players TEXT NOT NULL,         -- JSON: each seat's name and player id (or bot)
    place INTEGER NOT NULL,        -- 1 = won (shared places for ties)
    result TEXT NOT NULL,          -- JSON: scores, totals, winners, forfeit
    rated INTEGER NOT NULL,        -- 1 if the game changed ratings
    mu DOUBLE PRECISION,           -- the rating after this game (rated games)
    sigma DOUBLE PRECISION,
    ended DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, game_no, seat)
)""",
        "CREATE INDEX player_games_player ON player_games (player_id, ended)",
        """CREATE TABLE forfeits (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,         -- left a rated game past the away timeout: a loss
    PRIMARY KEY (table_id, game_no, seat)
)""",
    ],
    # 2 -- ratings that mean something: who made the moves, where identities came from,
    # whom each rating was earned against.
    [
        # 16 bits of a hash of the network the identity was made from (players/keys.py,
        # origin; NULL: made before this step)
        "ALTER TABLE players ADD COLUMN origin TEXT",
        """CREATE TABLE movers (
    table_id TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,         -- the seat's player made a move of their own in this game
    PRIMARY KEY (table_id, game_no, seat)
)""",
        """CREATE TABLE rated_opponents (
    player_id TEXT NOT NULL,
    class TEXT NOT NULL,
    opponent TEXT NOT NULL,        -- a player's id or 'bot:NAME' met in a rated game that counted
    PRIMARY KEY (player_id, class, opponent)
)""",
        "CREATE INDEX rated_opponents_opponent ON rated_opponents (opponent)",
    ],
    # 3 -- people among themselves (store/social_sql.py): follows, blocks, mutes, invites,
    # reports with their evidence, and the operators' roles, sanctions and log.
    [
        "ALTER TABLE players ADD COLUMN role TEXT",      # 'operator', or NULL
        "ALTER TABLE players ADD COLUMN seen DOUBLE PRECISION",  # last call, to the minute
        """CREATE TABLE follows (
    player_id TEXT NOT NULL,
    other_id TEXT NOT NULL,        -- the player followed
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, other_id)
)""",
        "CREATE INDEX follows_other ON follows (other_id)",
        """CREATE TABLE blocks (
    player_id TEXT NOT NULL,
    other_id TEXT NOT NULL,        -- never seated with, invited by or followed by player_id
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, other_id)
)""",
        "CREATE INDEX blocks_other ON blocks (other_id)",
        """CREATE TABLE mutes (
    player_id TEXT NOT NULL,
    other_id TEXT NOT NULL,        -- whose chat player_id does not get
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, other_id)
)""",
        """CREATE TABLE invites (
    player_id TEXT NOT NULL,       -- invited
    from_id TEXT NOT NULL,
    table_id TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, from_id, table_id)
)""",
        """CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter_id TEXT NOT NULL,
    player_id TEXT NOT NULL,       -- reported
    reason TEXT NOT NULL,
    note TEXT NOT NULL,            -- the reporter's words (may be empty)
    table_id TEXT,                 -- where it happened, if at a table
    evidence TEXT NOT NULL,        -- JSON: who sat where, the table's last chat lines
    created DOUBLE PRECISION NOT NULL,
    closed DOUBLE PRECISION        -- when an operator acted on it
)""",
        "CREATE INDEX reports_open ON reports (closed, created)",
        """CREATE TABLE sanctions (
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,            -- 'mute' (no chat) or 'ban'
    until DOUBLE PRECISION,        -- NULL: until lifted
    reason TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, kind)
)""",
        """CREATE TABLE moderation (
    id TEXT PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL,
    actor TEXT NOT NULL,           -- who did it: 'cli:USER' or an operator's player id
    action TEXT NOT NULL,          -- warn, mute, unmute, ban, unban, grant, revoke, close
    player_id TEXT NOT NULL,
    detail TEXT NOT NULL           -- JSON: reason, until, report
)""",
        "CREATE INDEX moderation_player ON moderation (player_id, at)",
    ],
    # reviews of finished games (server/reviews.py) and daily deals (server/daily.py)
    reviews_sql.MIGRATION,
    # correspondence tables: the deadline of the decision on the clock (server/clock.py)
    [
        """CREATE TABLE deadlines (
    table_id TEXT PRIMARY KEY,
    game_no INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    since INTEGER NOT NULL,        -- the round's version when the decision started
    seat INTEGER NOT NULL,
    deadline DOUBLE PRECISION NOT NULL  -- Unix epoch seconds (the server's clock)
)""",
    ],
    # a player's own tables, found by their seats (the lobby's "Your games", polled)
    ["CREATE INDEX IF NOT EXISTS seats_player ON seats (player_id)"],
]
"""Step ``n`` (1-based) brings a database from version ``n - 1`` to ``n``."""

BACKFILLS: dict[int, Callable[[Run], None]] = {}
"""Work a step does in Python after its SQL (same transaction), by step number."""

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(run: Run) -> int:
    """Bring the database up to :data:`SCHEMA_VERSION`; the caller holds a transaction (and
    the lock that keeps two processes from migrating at once). Returns the version found."""
    run(VERSION_TABLE, ())
    rows = run("SELECT version FROM schema_version", ())
    found = int(rows[0][0]) if rows else 0
    for step in range(found, SCHEMA_VERSION):
        for text in MIGRATIONS[step]:
            run(text, ())
        backfill = BACKFILLS.get(step + 1)
        if backfill is not None:
            backfill(run)
    if not rows:
        run("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
    elif found < SCHEMA_VERSION:
        run("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
    return found


def _opponents_of_rated_games(run: Run) -> None:
    """Step 2: the opponents of every rated game booked before the step, so that players
    rated then keep their place on the leaderboards."""
    rows = run("SELECT player_id, class, players FROM player_games WHERE rated = 1", ())
    for player_id, klass, roster in rows:
        for opponent in opponents(str(player_id), roster):
            text, params = insert_opponent(str(player_id), str(klass), opponent)
            run(text, tuple(params))


BACKFILLS[2] = _opponents_of_rated_games


def opponents(player_id: str, roster: str) -> list[str]:
    """The other seats' ids (players and ``bot:NAME``) of a ``player_games.players`` roster."""
    return sorted({str(e["player"]) for e in json.loads(roster)
                   if e.get("player") and e["player"] != player_id})


# ---------------------------------------------------------------------- players
PLAYER_COLUMNS = "id, name, username, shown, password_hash, created"


def insert_player(player_id: str, name: str, created: float, origin: str | None = None
                  ) -> Statement:
    """``origin``: what is kept of the network the identity is made from (identities of
    one origin are never rated against each other)."""
    return ("INSERT INTO players (id, name, created, origin) VALUES (?, ?, ?, ?)",
            (player_id, name, created, origin))


def rename_player(player_id: str, name: str) -> Statement:
    return ("UPDATE players SET name = ? WHERE id = ?", (name, player_id))


def claim_player(player_id: str, username: str, shown: str, password_hash: str) -> Statement:
    return ("UPDATE players SET username = ?, shown = ?, password_hash = ? "
            "WHERE id = ? AND username IS NULL", (username, shown, password_hash, player_id))


def insert_key(key_hash: str, player_id: str, kind: str, expires: float | None) -> Statement:
    return ("INSERT INTO player_keys (key_hash, player_id, kind, expires) VALUES (?, ?, ?, ?)",
            (key_hash, player_id, kind, expires))


def delete_key(key_hash: str) -> Statement:
    return ("DELETE FROM player_keys WHERE key_hash = ?", (key_hash,))


def delete_expired_keys(now: float) -> Statement:
    return ("DELETE FROM player_keys WHERE expires IS NOT NULL AND expires < ?", (now,))


def delete_player(player_id: str) -> list[Statement]:
    """Everything that names the player; the seats they took stay (a table's other players
    keep their game) but no longer say whose they were."""
    return [("DELETE FROM player_keys WHERE player_id = ?", (player_id,)),
            ("DELETE FROM ratings WHERE player_id = ?", (player_id,)),
            ("DELETE FROM rated_opponents WHERE player_id = ? OR opponent = ?",
             (player_id, player_id)),
            ("DELETE FROM player_games WHERE player_id = ?", (player_id,)),
            # other seats' rows list who sat where: her name stays, her id goes
            ("UPDATE player_games SET players = REPLACE(players, ?, 'null')",
             (f'"{player_id}"',)),
            ("UPDATE seats SET player_id = NULL WHERE player_id = ?", (player_id,)),
            *forget_player(player_id),
            ("DELETE FROM players WHERE id = ?", (player_id,))]


def forget_idle(before: float) -> list[Statement]:
    """Unclaimed players made before ``before`` who never took a seat nor finished a game
    (a visit that played nothing), with their keys: the lobby makes a player per visitor."""
    idle = ("SELECT id FROM players WHERE username IS NULL AND created < ? "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.player_id = players.id) "
            "AND NOT EXISTS (SELECT 1 FROM player_games g WHERE g.player_id = players.id)")
    return [(f"DELETE FROM player_keys WHERE player_id IN ({idle})", (before,)),
            (f"DELETE FROM players WHERE id IN ({idle})", (before,))]


def book_rating(table_id: str, game_no: int, player_id: str, klass: str, mu: float,
                sigma: float, games: int) -> Statement:
    """A player's rating after game ``game_no`` of a table, unless that game is booked
    already: it runs before the game's :func:`insert_player_game` rows in the finish's
    transaction, so only the first booking of a game moves ratings (a second one, by a
    process that replayed the game before the first was stored, changes nothing)."""
    return ("INSERT INTO ratings (player_id, class, mu, sigma, games) SELECT ?, ?, ?, ?, ? "
            "WHERE NOT EXISTS (SELECT 1 FROM player_games WHERE table_id = ? AND "
            "game_no = ?) ON CONFLICT (player_id, class) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, games = excluded.games",
            (player_id, klass, mu, sigma, games, table_id, game_no))


def insert_player_game(row: dict[str, Any]) -> Statement:
    cols = ("table_id", "game_no", "seat", "player_id", "game", "class", "rules", "players",
            "place", "result", "rated", "mu", "sigma", "ended")
    return (f"INSERT INTO player_games ({', '.join(cols)}) VALUES "
            f"({', '.join('?' for _ in cols)}) ON CONFLICT (table_id, game_no, seat) DO NOTHING",
            tuple(row[c] for c in cols))


def insert_forfeit(table_id: str, game_no: int, seat: int) -> Statement:
    return ("INSERT INTO forfeits (table_id, game_no, seat) VALUES (?, ?, ?) "
            "ON CONFLICT (table_id, game_no, seat) DO NOTHING", (table_id, game_no, seat))


def insert_mover(table_id: str, game_no: int, seat: int) -> Statement:
    return ("INSERT INTO movers (table_id, game_no, seat) VALUES (?, ?, ?) "
            "ON CONFLICT (table_id, game_no, seat) DO NOTHING", (table_id, game_no, seat))


def insert_opponent(player_id: str, klass: str, opponent: str) -> Statement:
    return ("INSERT INTO rated_opponents (player_id, class, opponent) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id, class, opponent) DO NOTHING", (player_id, klass, opponent))


def set_seat_player(table_id: str, seat: int, player_id: str | None) -> Statement:
    return ("UPDATE seats SET player_id = ? WHERE table_id = ? AND seat = ?",
            (player_id, table_id, seat))


# ---------------------------------------------------------------------- reads
PLAYER_BY_ID = f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?"
PLAYER_BY_USERNAME = f"SELECT {PLAYER_COLUMNS} FROM players WHERE username = ?"
PLAYER_BY_KEY = (f"SELECT {', '.join('p.' + c for c in PLAYER_COLUMNS.split(', '))}, k.expires "
                 "FROM player_keys k JOIN players p ON p.id = k.player_id "
                 "WHERE k.key_hash = ? AND k.kind = ?")
RATING_MU = "SELECT mu FROM ratings WHERE player_id = ? AND class = ?"
RATINGS_OF = "SELECT class, mu, sigma, games FROM ratings WHERE player_id = ?"
RATINGS_FOR = "SELECT player_id, mu, sigma, games FROM ratings WHERE class = ? AND player_id IN "
OPPONENT_COUNT = ("(SELECT COUNT(*) FROM rated_opponents o WHERE o.player_id = r.player_id "
                  "AND o.class = r.class)")
LEADERBOARD = ("SELECT p.id, p.name, p.shown, r.mu, r.sigma, r.games FROM ratings r "
               "JOIN players p ON p.id = r.player_id WHERE r.class = ? AND r.games >= ? "
               f"AND {OPPONENT_COUNT} >= ? "
               "ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, p.id LIMIT ?")
GAMES_OF = ("SELECT table_id, game_no, seat, game, class, rules, players, place, result, "
            "rated, mu, sigma, ended FROM player_games WHERE player_id = ? "
            "ORDER BY ended DESC LIMIT ?")
TOTALS_OF = ("SELECT game, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) "
             "FROM player_games WHERE player_id = ? GROUP BY game ORDER BY game")
RATED_OF = ("SELECT class, mu, sigma, ended FROM player_games WHERE player_id = ? AND "
            "rated = 1 ORDER BY ended")
UNFINISHED_OF = ("SELECT t.id, t.game, t.players, t.config, t.game_no, t.created, s.seat "
                 "FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.player_id = ? "
                 "AND t.status = 'playing' ORDER BY t.created DESC LIMIT ?")
SEAT_PLAYERS = "SELECT seat, player_id FROM seats WHERE table_id = ?"
FORFEITS = "SELECT seat FROM forfeits WHERE table_id = ? AND game_no = ?"
MOVERS = "SELECT seat FROM movers WHERE table_id = ? AND game_no = ?"
ORIGINS_FOR = "SELECT id, origin FROM players WHERE id IN "
OPPONENTS_FOR = ("SELECT player_id, COUNT(*) FROM rated_opponents WHERE class = ? AND "
                 "player_id IN ")
OPPONENTS_OF = ("SELECT class, COUNT(*) FROM rated_opponents WHERE player_id = ? "
                "GROUP BY class")
