"""Actions: a player's (checked, stored, then announced), a hint asked for, and the round
ending and the next one being dealt after a pause. Nobody is told about an action before it
is stored, and nobody sees a state that is not."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..errors import FORBIDDEN, ILLEGAL, NOT_PLAYING, SERVER_ERROR, ProtocolError
from ..session import Applied
from ..store import Store
from .chat_room import ChatRoom
from .connection import Conn, dumps
from .state import now_iso


class Acting(ChatRoom):
    async def act(self, conn: Conn, text: str, version: int, ref: Any) -> None:
        self.last_active = time.monotonic()
        if conn.seat is None:
            conn.error(FORBIDDEN, "spectators cannot act; join a seat first", ref)
            return
        if self.halted is not None:
            conn.error(SERVER_ERROR, f"this table is halted: {self.halted}", ref)
            return
        s = self.session
        if self.status != "playing" or s is None or s.round_over():
            conn.error(NOT_PLAYING, f"the table is {self.status}"
                       + (", between rounds" if self.status == "playing" else ""), ref)
            return
        try:
            applied = s.play(conn.seat, text, version)
        except ProtocolError as exc:
            # A snap that lost a race is refused as illegal: play, not abuse.
            race = exc.code == ILLEGAL and text.lstrip().lower().startswith("snap")
            conn.error(exc.code, exc.message, ref, counts=not race)
            return
        self._present(conn.seat)
        await self._accepted(applied, conn, ref)

    async def hint(self, conn: Conn, ref: Any) -> None:
        """Assist mode: the ``hard`` bot's suggestion for the asking seat, from its own view.

        Searched off the loop; one per seat and version (asking again sends the same)."""
        if conn.seat is None:
            conn.error(FORBIDDEN, "spectators get no hints; join a seat first", ref)
            return
        s = self.session
        ask = getattr(s, "hint", None)
        if self.status != "playing" or s is None or s.round_over() or ask is None:
            conn.error(NOT_PLAYING, "hints are for a card game in play", ref)
            return
        key = (conn.seat, s.version)
        if self.last_hint is None or self.last_hint[0] != key:
            found = await asyncio.get_running_loop().run_in_executor(None, ask, conn.seat)
            self.last_hint = (key, found)
        found = self.last_hint[1]
        if found is None:
            conn.error(NOT_PLAYING, "it is not your decision now", ref)
            return
        conn.send(dumps({"type": "hint", "version": s.version, **found, "ref": ref}))

    async def _accepted(self, applied: Applied, conn: Conn | None = None,
                        ref: Any = None) -> None:
        """Store the action, then tell everyone, then see what comes next."""
        s = self.session
        assert s is not None
        try:
            await self.store.write([Store.insert_action(self.id, self.game_no, s.round_no,
                                                        applied.version, applied.seat,
                                                        applied.text)])
        except Exception as exc:
            self._halt(f"storing an action failed ({type(exc).__name__}: {exc})")
            if conn is not None:
                conn.error(SERVER_ERROR, "the action could not be stored; nothing changed",
                           ref, counts=False)
            return
        self._broadcast_update(applied)
        if s.round_over():
            await self._round_over()
        self._schedule()

    async def _round_over(self) -> None:
        s = self.session
        assert s is not None
        s.finish_round()
        self._cancel_bot_timers()
        if s.game_over():
            self.status = "finished"
            await self.store.write([Store.update_table(self.id, self.status, self.game_no)])
        else:
            self._arm_next_round()
        self.broadcast_table()

    def _arm_next_round(self) -> None:
        delay = self.settings.round_pause / self.settings.bot_speed
        self.next_round_at = time.monotonic() + delay
        self.round_timer = asyncio.get_running_loop().call_later(
            delay, self.post, self._next_round, self.game_no)

    async def _next_round(self, game_no: int) -> None:
        self.round_timer = None
        s = self.session
        if s is None or game_no != self.game_no or not s.round_over() or s.game_over():
            return
        header = s.next_header(self._names(), now_iso())
        await self.store.write([Store.insert_round(self.id, self.game_no,
                                                   header["match"]["round"], header)])
        s.deal(header)
        self.polled.clear()
        self._broadcast_state()
        self.broadcast_table()
        self._schedule()
