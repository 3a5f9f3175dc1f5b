"""What a table holds in memory: its seats, its game, its connections and timers, and the
public summary of it the lobby and the players see."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from random import Random
from typing import Any

from ..games import GameKind
from ..listing import listing_fields
from ..match import summary_fields
from ..session import Session
from ..settings import Settings
from ..store import SeatRow, Store, TableRow
from .actor import Actor
from .connection import Conn


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Seat:
    seat: int
    kind: str = "empty"
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    conns: int = 0
    away: bool = False

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)


class TableState(Actor):
    """A table's fields, and the read-only summaries of them."""

    def __init__(self, store: Store, settings: Settings, kinds: Mapping[str, GameKind],
                 row: TableRow, seats: list[SeatRow]) -> None:
        super().__init__()
        # The server's parts a table uses, handed in (not the server: it owns the tables).
        self.store = store
        self.settings = settings
        self.kind = kinds[row.game]
        self.id = row.id
        self.game = row.game
        self.players = row.players
        self.config = row.config
        self.seed = row.seed
        self.status = row.status
        self.game_no = row.game_no
        self.created = row.created
        self.seats = [Seat(i) for i in range(row.players)]
        for s in seats:
            self.seats[s.seat] = Seat(s.seat, s.kind, s.name, s.bot, s.token_hash)
        self.session: Session | None = None
        self.built: tuple[Session, int] | None = None
        """A game replayed in a worker thread, waiting for :meth:`install_game`."""
        self.halted: str | None = None
        """Why the table stopped (its storage failed); it refuses actions until a restart."""
        self.conns: set[Conn] = set()
        self.spectators = 0
        self.bots: dict[int, Any] = {}
        self.delays = Random(0)
        self.last_hint: tuple[tuple[int, int], dict[str, Any] | None] | None = None
        self.turn_timer: tuple[int, asyncio.TimerHandle] | None = None
        self.poll_timers: dict[int, asyncio.TimerHandle] = {}
        self.polled: dict[int, int | None] = {}
        self.round_timer: asyncio.TimerHandle | None = None
        self.next_round_at: float | None = None
        self.history: list[dict[str, Any]] = []
        """The results of the table's earlier games (:func:`..match.past_results`)."""
        self.away_timers: dict[int, asyncio.TimerHandle] = {}
        # Hooks for a server of several processes (server/cluster/node.py).
        self.watch: Callable[[TableState], None] | None = None
        """Told whenever the summary may have changed (the cluster's lobby)."""
        self.lost: Callable[[TableState, str], None] | None = None
        """Told instead of reloading when a write fails: another process may own the table."""

    def seat_for_hash(self, token_hash: str) -> int | None:
        for s in self.seats:
            if s.kind == "human" and s.token_hash == token_hash:
                return s.seat
        return None

    def joinable(self) -> bool:
        """Worth listing in the lobby: a free seat, and a host still there to start the game
        (a waiting table whose host has been away past the timeout is abandoned)."""
        return self.status == "waiting" and not self.seats[0].away \
            and any(x.kind == "empty" for x in self.seats)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "game": self.game, "players": self.players}
        if self.game == "cards":
            out["rules"] = self.config["rules"]
            out["rounds"] = self.config["rounds"]
        else:
            out["setup"] = self.config["setup"]
            out["rounds"] = 1
        s = self.session
        out.update({
            "status": self.status,
            "host": 0,
            "seats": [{"seat": x.seat, "name": x.name, "kind": x.kind, "bot": x.bot,
                       "connected": x.conns > 0, "away": x.away} for x in self.seats],
            "game_no": self.game_no,
            "round": s.round_no if s is not None else 0,
            "totals": s.totals() if s is not None else None,
            "created": datetime.fromtimestamp(self.created, UTC).isoformat(timespec="seconds"),
            "halted": self.halted,
            "clock": self.config.get("clock"),
            "spectator_chat": bool(self.config.get("spectator_chat")),
            **summary_fields(s, self.history, self.players, None if self.round_timer is None
                             or self.next_round_at is None
                             else self.next_round_at - time.monotonic()),
        })
        out.update(listing_fields(self.config))
        return out

    def _round_fields(self) -> dict[str, Any]:
        s = self.session
        return {"game_no": self.game_no, "round": s.round_no if s is not None else 0}

    def _names(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for x in self.seats:
            entry: dict[str, Any] = {"name": x.name}
            if x.kind == "bot":
                entry["bot"] = x.bot
            out.append(entry)
        return out
