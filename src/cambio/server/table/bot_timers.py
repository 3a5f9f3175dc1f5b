"""When bots move, driven on the event loop: the timers of bots' turns and snaps that the
table core's :class:`~cambio.server.table_core.BotPlan` calls for (the one plan the offline
solo table follows too), set as the table's own timers, and the bots' moves when they fire.
A bot decides when its timer fires, so how long it "thinks" never depends on its cards."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from cambio.seeds import derive_seed

from ..session import SeatBot, Session
from ..table_core import BotPlan
from .timers import Handle, Later

log = logging.getLogger(__name__)

T = TypeVar("T")
THINK = 0.3
"""Seconds a searching bot's move takes from its timer, whatever it computed: ``hard``'s p95
decision time is far below (docs/cards-strength.md), and the floor of a bot's delay
(``TURN_DELAY``) leaves room for it."""


class BotTimers:
    """The bots of one game and their timers.

    It is handed what it needs of the table as callbacks: ``live()`` the session while bots
    may move (the table playing a round, not halted; else ``None``), ``controls(seat)``
    whether a bot plays the seat now, ``reschedule()`` to bring every timer of the table
    up to date, and ``play(seat, text)`` to store and announce a bot's action. ``later``
    posts a timer's job to the table's actor; ``sleep`` and ``now`` pad a thinking bot's
    reply (tests hand in a manual clock). ``pick(game, bot)`` is the bot to build now for
    ``bot``: a stand-in while its kernels load (server/kernels.py), and the bot itself at the
    first decision after they have."""

    def __init__(self, later: Later, speed: float, live: Callable[[], Session | None],
                 controls: Callable[[int], bool], reschedule: Callable[[], None],
                 play: Callable[[int, str], Awaitable[None]],
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 now: Callable[[], float] = time.monotonic,
                 pick: Callable[[str, str], str] = lambda game, bot: bot) -> None:
        self._later = later
        self._speed = speed
        self._live = live
        self._controls = controls
        self._reschedule = reschedule
        self._play = play
        self._sleep = sleep
        self._now = now
        self._pick = pick
        self.bots: dict[int, SeatBot] = {}
        self.names: dict[int, str] = {}
        """The bot each seat was given."""
        self.standing_in: set[int] = set()
        """Seats played by a stand-in until their bot's kernels are loaded."""
        self._seed = 0
        self.plan = BotPlan(speed)
        self._handles: dict[int, Handle] = {}
        """The plan's timers that are set, by id."""

    def seat(self, session: Session, names: list[str], game_seed: int) -> None:
        """A new game (or one rebuilt from storage): one bot per seat, ``names[seat]``,
        each seeded from the game's seed, and the delays' generator too."""
        self._seed = game_seed
        self.names = dict(enumerate(names))
        self.standing_in.clear()
        self.bots = {seat: self._build(session, seat) for seat in self.names}
        self.plan.seat(game_seed)

    def _build(self, session: Session, seat: int) -> SeatBot:
        name = self.names[seat]
        playing = self._pick(session.game, name)
        if playing != name:
            self.standing_in.add(seat)
        else:
            self.standing_in.discard(seat)
        return session.seat_bot(playing, derive_seed(self._seed, "bot", seat))

    def _bot(self, session: Session, seat: int) -> SeatBot:
        """The seat's bot, its own one swapped in for a stand-in once it can play."""
        if seat in self.standing_in and \
                self._pick(session.game, self.names[seat]) == self.names[seat]:
            self.bots[seat] = self._build(session, seat)
        return self.bots[seat]

    def new_round(self) -> None:
        self.plan.new_round()

    @property
    def turn_timer(self) -> tuple[int, int] | None:
        """``(seat, timer id)`` of the bot whose decision is timed, if any."""
        return self.plan.turn

    def cancel(self) -> None:
        for timer in self.plan.cancel():
            handle = self._handles.pop(timer, None)
            if handle is not None:
                handle.cancel()

    def handles(self) -> list[Handle]:
        return list(self._handles.values())

    def _think(self, session: Session) -> float:
        """The fixed reply time of a bot that thinks off the loop (0 for the others)."""
        return THINK / self._speed if session.threaded_bots else 0.0

    def follow(self, s: Session) -> None:
        """Set the timers the live session calls for (public facts only)."""
        # A thinking bot's reply comes THINK after its timer fires, however long it
        # thought (see play_now), so the whole delay stays the plan's.
        arm, cancel = self.plan.follow(s, self._controls, self._think(s))
        for timer in cancel:
            handle = self._handles.pop(timer, None)
            if handle is not None:
                handle.cancel()
        for armed in arm:
            self._handles[armed.id] = self._later(armed.delay, self._fire, armed.id)

    async def _fire(self, timer: int) -> None:
        self._handles.pop(timer, None)
        s = self._live()
        due = self.plan.ready(timer, s, self._controls)
        if due is None or s is None:
            self._reschedule()
        elif due.snap:
            await self._snap(s, due.seat)
        else:
            await self.play_now(s, due.seat)

    async def play_now(self, s: Session, seat: int) -> None:
        """The seat's bot plays its decision now: after a bot's delay, or when a player's
        turn clock ran out."""
        bot = self._bot(s, seat)
        start = self._now()
        text = await self._decided(s, bot, seat)
        if s.threaded_bots:
            # Either way the reply is padded to THINK seconds, so how long it thought --
            # which depends on cards only it has seen -- does not show in when it moves.
            rest = self._think(s) - (self._now() - start)
            if rest > 0:
                await self._sleep(rest)
        if self._live() is None:  # storage failed while it thought
            return
        self.plan.moved(seat)
        await self._play(seat, text)

    async def _decided(self, s: Session, bot: SeatBot, seat: int) -> str:
        """The bot's move; a bot that raises (a fault of the bot's, never a player's) must
        not leave the table waiting on it for good: a random legal move, seeded by the seat
        and the game's version, is played this once."""
        text = await self._ask(s, bot, bot.move, seat, "; a random move stands in")
        if text is not None:
            return text
        seed = derive_seed(self._seed, "fallback", seat, s.version)
        return s.seat_bot("random", seed).move(seat)

    async def _ask(self, s: Session, bot: SeatBot, decide: Callable[[int], T | None],
                   seat: int, then: str) -> T | None:
        """The bot's answer (off the loop if the game's bots may search); ``None``, with the
        fault logged and ``then`` said of it, if the bot raised."""
        try:
            return await self._decide(bot, decide, seat) if s.threaded_bots else decide(seat)
        except Exception:
            log.exception("seat %d's bot %r failed%s", seat, self.names.get(seat), then)
            return None

    @staticmethod
    async def _decide(bot: SeatBot, decide: Callable[[int], T], seat: int) -> T:
        """A search bot thinks off the event loop (other tables go on meanwhile); this
        table's actor waits for it, so nothing changes under its feet. A quick bot (no
        search: tens of microseconds) decides on the loop, where handing it to a worker
        thread and back would cost more than the decision."""
        if bot.quick:
            return decide(seat)
        return await asyncio.get_running_loop().run_in_executor(None, decide, seat)

    async def _snap(self, s: Session, seat: int) -> None:
        """The seat's bot looks at the open snap window: it snaps, or lets it pass."""
        bot = self._bot(s, seat)
        # A bot that fails here lets the card pass, as one that does not snap.
        text = await self._ask(s, bot, bot.snap, seat, " at a snap window")
        if text is None:
            self._reschedule()
            return
        await self._play(seat, text)
