"""The lobby's calls on a table, each run as a job on its actor: taking and freeing seats,
seating bots, starting a game and playing again."""

from __future__ import annotations

from typing import Any

from ..errors import INVALID_TOKEN, ProtocolError
from ..store import Store
from .lifecycle import Lifecycle
from .state import Seat


class LobbyCalls(Lifecycle):
    async def joined_host(self) -> None:
        self._arm_away(0)

    def _require_waiting(self) -> None:
        if self.status != "waiting":
            raise ProtocolError("conflict", "the game has already started")

    def _check_bot(self, name: str) -> str:
        names = {b["name"] for b in self.kind.bots()}
        key = name.strip() if isinstance(name, str) else ""
        key = key.lower() if key.lower() in names else key  # served bots keep their case
        if key not in names:
            raise ProtocolError("bad_request", f"unknown bot {name!r}; bots: {sorted(names)}")
        return key

    async def join(self, name: str, seat: int | None, token_hash: str) -> int:
        self._require_waiting()
        if seat is None:
            free = [x.seat for x in self.seats if x.kind == "empty"]
            if not free:
                raise ProtocolError("conflict", "the table is full")
            seat = free[0]
        if not 0 <= seat < self.players:
            raise ProtocolError("bad_request", f"no seat {seat} at this table")
        if self.seats[seat].kind != "empty":
            raise ProtocolError("conflict", f"seat {seat} is taken")
        x = Seat(seat, "human", name, None, token_hash)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats[seat] = x
        self._arm_away(seat)
        self.broadcast_table()
        return seat

    async def set_bot(self, seat: int, bot: str) -> dict[str, Any]:
        self._require_waiting()
        name = self._check_bot(bot)
        if not 0 <= seat < self.players:
            raise ProtocolError("not_found", f"no seat {seat} at this table")
        if self.seats[seat].kind == "human":
            raise ProtocolError("conflict", f"seat {seat} is taken by a player")
        x = Seat(seat, "bot", f"{name} bot", name, None)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats[seat] = x
        self.broadcast_table()
        return self.summary()

    async def free_seat(self, seat: int) -> dict[str, Any]:
        self._require_waiting()
        if not 0 <= seat < self.players:
            raise ProtocolError("not_found", f"no seat {seat} at this table")
        if seat == 0:
            raise ProtocolError("conflict", "the host's seat cannot be freed")
        old = self.seats[seat]
        x = Seat(seat)
        await self.store.write([Store.put_seat(self.id, x.row())])
        self.seats[seat] = x
        timer = self.away_timers.pop(seat, None)
        if timer:
            timer.cancel()
        for conn in list(self.conns):
            if conn.seat == seat and old.kind == "human":
                self.conns.discard(conn)
                conn.error(INVALID_TOKEN, "this token is not a seat of this table (it was "
                                          "freed)")
                conn.close(1008)
        self.broadcast_table()
        return self.summary()

    async def start(self, fill: str | None) -> dict[str, Any]:
        self._require_waiting()
        statements: list[Any] = []
        empty = [x.seat for x in self.seats if x.kind == "empty"]
        before = list(self.seats)
        if empty:
            if fill is None:
                raise ProtocolError("conflict", f"seats {empty} are empty: add bots, or start "
                                                "with \"fill\"")
            name = self._check_bot(fill)
            for seat in empty:
                x = Seat(seat, "bot", f"{name} bot", name, None)
                self.seats[seat] = x
                statements.append(Store.put_seat(self.id, x.row()))
        try:
            await self.begin_game(1, statements)
        except Exception:
            self.seats = before
            raise
        return self.summary()

    async def again(self) -> dict[str, Any]:
        if self.status != "finished":
            raise ProtocolError("conflict", "the game is not over yet")
        old = self.session
        done = {"game_no": self.game_no, **old.result()} if old is not None \
            and old.game_over() else None
        await self.begin_game(self.game_no + 1, [])
        if done is not None:  # the rematch keeps the history
            self.history.append(done)
        return self.summary()
