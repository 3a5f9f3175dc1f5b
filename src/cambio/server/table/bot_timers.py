"""When bots move: the timers of bots' turns and snaps, drawn from the table's own seeded
generator in an order fixed by public events only (a bot's turn comes, a snap window opens).
A bot decides when its timer fires, so how long it "thinks" never depends on its cards."""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any

from cambio.seeds import derive_seed

from ..session import Applied
from .broadcasting import Broadcasting
from .connection import Conn

AWAY_BOT = {"cards": "memory", "board": "greedy"}
"""The bot that plays for a human seat while its player is away."""

THINK = 0.3
"""Seconds a searching bot's move takes from its timer, whatever it computed: ``hard``'s p95
decision time is far below (docs/cards-strength.md), and the 0.6 s floor of a bot's delay
leaves room for it."""


class BotTimers(Broadcasting):
    async def _accepted(self, applied: Applied, conn: Conn | None = None,
                        ref: Any = None) -> None:
        """Store and announce an action (see :mod:`.acting`)."""
        raise NotImplementedError

    def _setup_bots(self, game_seed: int) -> None:
        s = self.session
        assert s is not None
        self.bots = {}
        for x in self.seats:
            name = x.bot if x.kind == "bot" and x.bot else AWAY_BOT[self.game]
            self.bots[x.seat] = s.make_bot(name, derive_seed(game_seed, "bot", x.seat))
        self.delays = Random(derive_seed(game_seed, "delays"))
        self.polled.clear()

    def _bot_controls(self, seat: int) -> bool:
        x = self.seats[seat]
        return x.kind == "bot" or (x.kind == "human" and x.away)

    def _cancel_bot_timers(self) -> None:
        if self.turn_timer:
            self.turn_timer[1].cancel()
            self.turn_timer = None
        for handle in self.poll_timers.values():
            handle.cancel()
        self.poll_timers.clear()

    def _think(self, session: Any) -> float:
        """The fixed reply time of a bot that thinks off the loop (0 for the others)."""
        if not getattr(session, "threaded_bots", False):
            return 0.0
        return THINK / self.settings.bot_speed

    def _delay(self, low: float, high: float) -> float:
        return self.delays.uniform(low, high) / self.settings.bot_speed

    def _schedule(self) -> None:
        """Arm the bots' timers the current state calls for (public facts only)."""
        s = self.session
        if self.status != "playing" or s is None or s.round_over() or self.halted is not None:
            self._cancel_bot_timers()
            return
        loop = asyncio.get_running_loop()
        decider = s.decider()
        if decider is not None and self._bot_controls(decider):
            if self.turn_timer is None or self.turn_timer[0] != decider:
                if self.turn_timer:
                    self.turn_timer[1].cancel()
                # A thinking bot's reply comes THINK after its timer fires, however long
                # it thought (see _bot_turn), so the whole delay stays 0.6-1.6 s.
                think = self._think(s)
                handle = loop.call_later(self._delay(0.6, 1.6) - think, self.post,
                                         self._bot_turn, decider)
                self.turn_timer = (decider, handle)
        elif self.turn_timer:
            self.turn_timer[1].cancel()
            self.turn_timer = None
        window = s.snap_window()
        for seat in range(self.players):
            if not self._bot_controls(seat):
                timer = self.poll_timers.pop(seat, None)
                if timer:
                    timer.cancel()
                continue
            if window is None or seat in self.poll_timers or self.polled.get(seat) == window \
                    or not s.can_snap(seat):
                continue
            self.poll_timers[seat] = loop.call_later(self._delay(0.3, 2.0), self.post,
                                                     self._bot_poll, seat)

    async def _bot_turn(self, seat: int) -> None:
        if self.turn_timer is None or self.turn_timer[0] != seat:
            return
        self.turn_timer = None
        s = self.session
        if self.status != "playing" or s is None or s.round_over() \
                or s.decider() != seat or not self._bot_controls(seat):
            self._schedule()
            return
        await self._bot_play(seat)

    async def _bot_play(self, seat: int) -> None:
        """The seat's bot plays its decision now: after a bot's delay, or when a player's
        turn clock ran out (:mod:`.turn_clock`)."""
        s = self.session
        assert s is not None
        if getattr(s, "threaded_bots", False):
            # A search bot thinks off the event loop (other tables go on meanwhile); this
            # table's actor waits for it, so nothing changes under its feet. A quick bot
            # (no search: tens of microseconds) decides on the loop, where handing it to a
            # worker thread and back would cost more than the decision. Either way the
            # reply is padded to THINK seconds, so how long it thought -- which depends on
            # cards only it has seen -- does not show in when it moves.
            loop = asyncio.get_running_loop()
            start = loop.time()
            bot = self.bots[seat]
            if s.quick_bot(bot):
                text = s.bot_move(bot, seat)
            else:
                text = await loop.run_in_executor(None, s.bot_move, bot, seat)
            rest = self._think(s) - (loop.time() - start)
            if rest > 0:
                await asyncio.sleep(rest)
        else:
            text = s.bot_move(self.bots[seat], seat)
        if self.halted is not None:  # storage failed while it thought
            return
        applied = s.play(seat, text, s.version)
        self.polled[seat] = None  # what it just did may have shown it a match
        await self._accepted(applied)

    async def _bot_poll(self, seat: int) -> None:
        if self.poll_timers.pop(seat, None) is None:
            return
        s = self.session
        if self.status != "playing" or s is None or s.round_over() \
                or not self._bot_controls(seat):
            return
        window = s.snap_window()
        if window is None or not s.can_snap(seat):
            self._schedule()
            return
        self.polled[seat] = window
        text = s.bot_snap(self.bots[seat], seat)
        if text is None:
            self._schedule()
            return
        applied = s.play(seat, text, s.version)
        await self._accepted(applied)
