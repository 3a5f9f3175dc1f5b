"""What a table's actor needs from a game, whichever game it is.

A *session* is one game (for cards: a match of one or more rounds) of one table. The actor
(:mod:`cambio.server.table`) owns seats, connections, storage, bots' timing and the order of
messages; the session owns the engine: it checks and applies actions, and builds each
recipient's view and events. One class implements :class:`Session` for every game
(:class:`~.turn_session.TurnSession`); the protocol is what the table's parts may use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from cambio.games import shows

TURN_DELAY = (0.6, 1.6)
"""Seconds (drawn uniformly) a bot waits before its move: a human-like pace, the same at a
server table (``table.bot_timers``) and a solo one (:mod:`.solo`)."""
SNAP_DELAY = (0.3, 2.0)
"""Seconds (drawn uniformly) before a bot looks at an open snap window: some react fast,
some miss it."""


@dataclass
class Applied:
    """One accepted action of the current round, with what it showed and to whom."""

    version: int
    seat: int
    text: str
    facts: Sequence[tuple[str, Any, int]] = ()
    """``(key, value, audience)``: ``audience`` is a bitmask of seats as in
    :func:`cambio.games.shows` reads it (``EVERYONE`` is -1: every seat and spectators);
    the card game's are read off the engine's events."""
    end: dict[str, Any] | None = None
    """The round's public end facts when this action ended it."""

    def event(self, seat: int | None, everything: bool = False) -> dict[str, Any]:
        """The event as ``seat`` (``None``: a spectator) may see it; ``everything``: with
        every fact (a finished game's replay)."""
        ev: dict[str, Any] = {"v": self.version, "seat": self.seat, "action": self.text}
        for key, value, audience in self.facts:
            if everything or shows(audience, seat):
                ev[key] = value
        if self.end is not None:
            ev["end"] = self.end
        return ev


class SeatBot(Protocol):
    """A seat's bot as the table drives it: it plays on the session's current state.

    The table never sees a bot's own type (a card bot and a board bot share nothing): it
    asks the session for one (:meth:`Session.seat_bot`) and gets this."""

    @property
    def quick(self) -> bool:
        """It decides in microseconds (no search): the table runs its moves on the event
        loop instead of a worker thread."""

    def move(self, seat: int) -> str:
        """The action the bot plays for the seat's decision (always legal)."""

    def snap(self, seat: int) -> str | None:
        """The snap the bot makes in the open window, or ``None``."""


B = TypeVar("B")
B_contra = TypeVar("B_contra", contravariant=True)


class BotDriver(Protocol[B_contra]):
    """How a session plays one kind of bot (its own bot type ``B``) on its current state."""

    def quick_bot(self, bot: B_contra) -> bool: ...

    def bot_move(self, bot: B_contra, seat: int) -> str: ...

    def bot_snap(self, bot: B_contra, seat: int) -> str | None: ...


@dataclass(frozen=True)
class DrivenBot(Generic[B]):
    """A :class:`SeatBot`: a session's bot and the session that plays it."""

    driver: BotDriver[B]
    bot: B

    @property
    def quick(self) -> bool:
        return self.driver.quick_bot(self.bot)

    def move(self, seat: int) -> str:
        return self.driver.bot_move(self.bot, seat)

    def snap(self, seat: int) -> str | None:
        return self.driver.bot_snap(self.bot, seat)


class Session(Protocol):
    """One game of a table: a card match or a board game."""

    game: str
    players: int
    round_no: int
    """1-based number of the round being played (or just finished); 0 before the deal."""
    log: list[Applied]
    """The accepted actions of the current round; ``len(log)`` is the version."""

    @property
    def version(self) -> int: ...

    def next_header(self, names: list[dict[str, Any]], started: str) -> dict[str, Any]:
        """The record header of the next round (nothing changes until :meth:`deal`)."""

    def deal(self, header: dict[str, Any]) -> None:
        """Start the round described by ``header`` (from :meth:`next_header` or storage)."""

    def play(self, seat: int, text: str, version: int) -> Applied:
        """Check and apply an action; raise :class:`~cambio.server.errors.ProtocolError`
        (``illegal`` or ``stale``, nothing changed) if it is refused."""

    def round_over(self) -> bool: ...

    def finish_round(self) -> None:
        """Book the finished round (scores into totals)."""

    def game_over(self) -> bool:
        """The whole game (every round of a match) is over."""

    def totals(self) -> list[int] | None: ...

    def result(self) -> dict[str, Any]:
        """``{"scores", "totals", "winners"}``: each finished round's scores, the totals
        (``None`` for the board game) and the game's winners (``None`` until it is over)."""

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def decider(self) -> int | None:
        """The seat whose decision the game waits for, if any."""

    threaded_bots: bool
    """Its bots may search (tens of milliseconds): the table runs them off the loop and
    pads their replies to a fixed thinking time."""

    def seat_bot(self, name: str, seed: int) -> SeatBot:
        """The bot ``name`` (one of the game kind's) for one seat, seeded."""

    def snap_window(self) -> int | None:
        """An id of the open snap window (``None``: none open); board games have none."""

    def can_snap(self, seat: int) -> bool: ...

    def is_snap(self, text: str) -> bool:
        """``text`` is an out-of-turn action (refused, it lost a race: not abuse)."""

    hints: bool
    """Its game can suggest a move (assist mode)."""

    def hint(self, seat: int) -> dict[str, Any] | None:
        """A suggestion for ``seat`` if it decides now; may search (run it off the loop)."""
