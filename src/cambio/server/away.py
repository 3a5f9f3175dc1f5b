"""Away seats without I/O: when a seated player is marked away and their seat's bot takes
over, and when the seat is theirs again.

A player is marked away when their last connection has been gone ``after`` seconds (never
at a correspondence table, whose players come and go: ``after`` ``None``), when Play now's
grace for a seat nobody opened runs out (:meth:`Away.expect`: a player who never came, not
one who left), or when the turn clock ran out on them too often (:mod:`.clock`). While away,
the seat's bot plays it. The player takes it back by connecting again, by acting, or with
``back`` -- unless they forfeited the game on time: then the bot plays the seat to the
game's end.

:class:`Away` holds these rules and its timers' ids. Told that a connection opened or
closed, that a player acted, or that one of its timers fired, it changes the seats'
``conns`` and ``away`` and returns :class:`AwayEffects` -- the timers to set and to call
off, whether the table's summary changed, whether the bots and the clock must follow, whose
timeouts in a row start again, who left -- and the served table does them. Nothing here
imports more than the standard library.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol


class Present(Protocol):
    """What :class:`Away` reads and changes of a seat (``table.seats.Seat`` is one)."""

    seat: int
    kind: str
    conns: int
    away: bool
    forfeit: bool


class SeatList(Protocol):
    def __getitem__(self, seat: int) -> Present: ...

    def __iter__(self) -> Iterator[Present]: ...


@dataclass
class AwayEffects:
    """What a change of presence asks of the driver: call the timers ``cancel`` off, set
    ``arm`` -- ``(timer id, seconds)``: tell :meth:`Away.fired` the id in that many seconds
    --, tell everyone the table if the summary ``changed``, bring the bots and the turn clock
    up to date if who plays a seat changed (``follow``), restart the timeouts in a row of
    seat ``fresh``, and tell the players' hook that seat ``left``'s player left."""

    cancel: list[int] = field(default_factory=list)
    arm: list[tuple[int, float]] = field(default_factory=list)
    changed: bool = False
    follow: bool = False
    fresh: int | None = None
    left: int | None = None


class Away:
    """The away rules of one table's ``seats``: ``after`` seconds without a connection
    mark a player away (``None``: never, a correspondence table)."""

    def __init__(self, seats: SeatList, after: float | None) -> None:
        self._seats = seats
        self.after = after
        self.timers: dict[int, int] = {}
        """Each seat's away timer that is set: seat -> timer id."""
        self.expected: set[int] = set()
        """Seats given a grace to arrive (:meth:`expect`) whose player has not come yet."""
        self._ids = 0

    # ------------------------------------------------------------------ timers
    def _disarm(self, seat: int, fx: AwayEffects) -> AwayEffects:
        timer = self.timers.pop(seat, None)
        if timer is not None:
            fx.cancel.append(timer)
        return fx

    def _arm(self, seat: int, after: float | None, fx: AwayEffects) -> AwayEffects:
        """Mark the seat's player away ``after`` seconds from now (the away timeout unless
        given) if nobody has connected for it by then."""
        self._disarm(seat, fx)
        delay = self.after if after is None else after
        if delay is not None:
            self._ids += 1
            self.timers[seat] = self._ids
            fx.arm.append((self._ids, delay))
        return fx

    def watch(self, seat: int, after: float | None = None) -> AwayEffects:
        """A player just took the seat (a join; the host's table created): their away
        timer starts, as for a connection gone."""
        return self._arm(seat, after, AwayEffects())

    def loaded(self) -> AwayEffects:
        """A table just loaded: nobody is connected, every player's away timer starts."""
        fx = AwayEffects()
        for x in self._seats:
            if x.kind == "human":
                self._arm(x.seat, None, fx)
        return fx

    def seated(self, seat: int) -> AwayEffects:
        """The seat changed hands in the lobby: a seat no player holds needs no timer."""
        fx = AwayEffects()
        return self._disarm(seat, fx) if self._seats[seat].kind != "human" else fx

    def new_game(self) -> AwayEffects:
        """A game was dealt: nobody has forfeited it, and every player with no connection
        and no timer yet gets one."""
        fx = AwayEffects()
        for x in self._seats:
            if x.forfeit:
                x.away = x.forfeit = False
            if x.kind == "human" and x.conns == 0 and x.seat not in self.timers \
                    and not x.away:
                self._arm(x.seat, None, fx)
        return fx

    def expect(self, grace: float) -> AwayEffects:
        """Play now seated these players for them: a seat nobody has connected to within
        ``grace`` seconds goes to its bot, and its player is one who never came (no
        ``left``); they take the seat back on arriving, as from away."""
        fx = AwayEffects()
        for x in self._seats:
            if x.kind == "human" and x.conns == 0 and not x.away:
                self.expected.add(x.seat)
                self._arm(x.seat, grace, fx)
        return fx

    def fired(self, timer: int) -> AwayEffects:
        """An away timer fired: its seat's player is marked away if nobody has connected
        for it since (a timer called off or replaced does nothing)."""
        seat = next((s for s, t in self.timers.items() if t == timer), None)
        if seat is None:
            return AwayEffects()
        del self.timers[seat]
        x = self._seats[seat]
        if x.kind != "human" or x.conns or x.away:
            return AwayEffects()
        x.away = True
        gone = None if seat in self.expected else seat
        self.expected.discard(seat)
        return AwayEffects(changed=True, follow=True, left=gone)

    # ------------------------------------------------------------------ the seat's player
    def connected(self, seat: int) -> AwayEffects:
        """A connection for the seat opened: its away timer goes; the summary changes with
        its first connection, and a seat marked away is the player's again (unless they
        forfeited), their timeouts in a row starting again."""
        x = self._seats[seat]
        x.conns += 1
        fx = self._disarm(seat, AwayEffects())
        self.expected.discard(seat)
        back = x.away and not x.forfeit
        x.away = x.forfeit
        fx.changed = fx.follow = x.conns == 1 or back
        fx.fresh = seat if back else None
        return fx

    def disconnected(self, seat: int) -> AwayEffects:
        """A connection for the seat closed; the last one starts the away timer."""
        x = self._seats[seat]
        x.conns -= 1
        if x.conns:
            return AwayEffects()
        fx = self._arm(seat, None, AwayEffects())
        fx.changed = True
        return fx

    def acted(self, seat: int) -> AwayEffects:
        """The seat's player acted themselves: their timeouts in a row start again, and a
        seat marked away is theirs again if they are connected and did not forfeit."""
        x = self._seats[seat]
        fx = AwayEffects(fresh=seat)
        if x.away and x.conns > 0 and not x.forfeit:
            x.away = False
            fx.changed = True
        return fx

    def back(self, seat: int) -> AwayEffects:
        """``back``: as :meth:`acted`, and the bots and the clock follow at once."""
        fx = self.acted(seat)
        fx.follow = True
        return fx

    def timed_out(self, seat: int) -> AwayEffects:
        """The turn clock ran out on the seat too often: its bot plays until they are
        back."""
        self._seats[seat].away = True
        return AwayEffects(changed=True)

    def forfeited(self, seat: int) -> AwayEffects:
        """The seat's player lost the game on time (stored first: a reload reads it back):
        its bot plays the seat to the end of the game."""
        x = self._seats[seat]
        x.away = x.forfeit = True
        return AwayEffects(changed=True)


__all__ = ["Away", "AwayEffects", "Present", "SeatList"]
