"""Who sits at a table and who is there, on the event loop: the :class:`~.seats.Seats`, the
table core's away rules (:class:`~cambio.server.away.Away`, no I/O) with their timers, and
the lobby's seat changes -- each checked by :class:`~.seats.Seats`, stored, and only then
made the table's, so a refused or failed change leaves the seats as they were."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..away import Away, AwayEffects
from ..errors import ProtocolError, Words
from ..store import SeatRow, Statement, Store
from .seats import Seat, Seats
from .timers import Handle, Later


class Seating:
    """One table's seats and the away rules, with what they ask of the table as callbacks:
    ``fresh(seat)`` (the seat's timeouts in a row start again), ``changed()`` (tell everyone
    the table), ``follow()`` (bring the bots and the clock up to date) and ``left(seat)``
    (the players' hook: the seat's player left). ``bots()``: the game's bots as the lobby
    lists them; ``away_after`` ``None``: nobody is marked away for being gone."""

    def __init__(self, store: Store, table_id: str, players: int, rows: list[SeatRow],
                 bots: Callable[[], list[dict[str, Any]]], away_after: float | None,
                 later: Later, *,
                 fresh: Callable[[int], None], changed: Callable[[], None],
                 follow: Callable[[], None], left: Callable[[int], None]) -> None:
        self._store = store
        self._id = table_id
        self._bots = bots
        self._later = later
        self._fresh = fresh
        self._changed = changed
        self._follow = follow
        self._left = left
        self.seats = Seats(players, rows)
        self.away = Away(self.seats, away_after)
        self._timers: dict[int, Handle] = {}

    # ------------------------------------------------------------------ away
    def do(self, fx: AwayEffects) -> None:
        """Do what the away rules ask, in their order."""
        for timer in fx.cancel:
            handle = self._timers.pop(timer, None)
            if handle is not None:
                handle.cancel()
        for timer, delay in fx.arm:
            self._timers[timer] = self._later(delay, self._due, timer)
        if fx.fresh is not None:
            self._fresh(fx.fresh)
        if fx.changed:
            self._changed()
        if fx.follow:
            self._follow()
        if fx.left is not None:
            self._left(fx.left)

    async def _due(self, timer: int) -> None:
        self._timers.pop(timer, None)
        self.do(self.away.fired(timer))

    def handles(self) -> list[Handle]:
        return list(self._timers.values())

    # ------------------------------------------------------------------ the lobby's changes
    async def _store_seats(self, changed: list[Seat]) -> None:
        await self._store.write(self.rows(changed))

    def rows(self, seats: list[Seat]) -> list[Statement]:
        return [Store.put_seat(self._id, x.row()) for x in seats]

    def put(self, x: Seat) -> None:
        """A seat change, checked and stored, made the table's."""
        self.seats.put(x)
        self.do(self.away.seated(x.seat))

    async def join(self, name: str, seat: int | None, token_hash: str,
                   player: str | None) -> int:
        x = self.seats.joining(name, seat, token_hash, player)
        await self._store_seats([x])
        self.put(x)
        self.do(self.away.watch(x.seat))
        return x.seat

    async def rekey(self, seat: int, token_hash: str) -> None:
        """A new token for a player's own seat; the old token stops working."""
        x = self.seats[seat]
        if x.kind != "human":
            raise ProtocolError("conflict", f"seat {seat} is not a player's")
        row = x.row()
        row.token_hash = token_hash
        await self._store.write([Store.put_seat(self._id, row)])
        x.token_hash = token_hash

    async def set_bot(self, seat: int, bot: str) -> None:
        name = self.bot(bot)
        x = self.seats.bot_seat(seat, name, self.bot_name(name))
        await self._store_seats([x])
        self.put(x)

    async def free(self, seat: int) -> bool:
        """Free a seat; ``True`` if a player held it (their connections must go)."""
        x = self.seats.freeing(seat)
        was_player = self.seats[seat].kind == "human"
        await self._store_seats([x])
        self.put(x)
        return was_player

    def fill(self, fill: str | None) -> list[Seat]:
        """``start``: a bot ``fill`` takes every empty seat (made now; stored with the deal,
        and :meth:`Seats.restore` d if that write fails)."""
        empty = self.seats.empty()
        if not empty:
            return []
        if fill is None:
            raise ProtocolError("conflict", Words(
                "refusal.seatsEmpty", f"seats {empty} are empty: add bots, or start "
                                      "with \"fill\""))
        bot = self.bot(fill)
        filled = self.seats.filling(bot, self.bot_name(bot))
        for x in filled:
            self.put(x)
        return filled

    def bot(self, name: str) -> str:
        """The served bot ``name`` asks for, or ``bad_request``."""
        names = {b["name"] for b in self._bots()}
        key = name.strip() if isinstance(name, str) else ""
        key = key.lower() if key.lower() in names else key  # served bots keep their case
        if key not in names:
            raise ProtocolError("bad_request", f"unknown bot {name!r}; bots: {sorted(names)}")
        return key

    def bot_name(self, bot: str) -> str:
        """A bot's seat name: the one name the lobby and its profile show ("Medium bot")."""
        entry = next((b for b in self._bots() if b["name"] == bot), {})
        return f"{entry.get('display') or bot} bot"

    def bot_names(self, away_bot: str) -> list[str]:
        """The bot of each seat: a bot seat's own, else the one that plays for a player
        who is away."""
        return [x.bot if x.kind == "bot" and x.bot else away_bot for x in self.seats]
