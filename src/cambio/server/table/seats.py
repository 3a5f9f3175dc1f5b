"""A table's seats: who sits where (a player, a bot, nobody), how many connections each
player has open, and who is away -- a player whose last connection has been gone for
``away_after`` seconds, or whose turn clock ran out too often, is played by a bot.

The lobby's seat changes are checked here and returned as new :class:`Seat` values; the
table stores them and only then :meth:`Seats.put` s them, so a refused or failed change
leaves the seats as they were.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import BUSY, INVALID_TOKEN, ProtocolError, Words
from ..store import SeatRow
from .timers import Handle, Later


@dataclass
class Seat:
    seat: int
    kind: str = "empty"
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    conns: int = 0
    away: bool = False
    player: str | None = None
    """The player (``players.id``) whose browser took the seat, if known."""
    forfeit: bool = False
    """The player lost the current game on time: its bot plays the seat to the end."""

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash, self.player)


class Seats:
    """The seats and the away timers of their players.

    ``later`` posts the away check to the table's actor; ``on_away(seat)`` is told when a
    player is marked away because nobody has been connected for the seat. ``away_after``
    ``None``: nobody is marked away for having no connection (a correspondence table)."""

    def __init__(self, players: int, rows: list[SeatRow], away_after: float | None,
                 later: Later,
                 on_away: Callable[[int], None]) -> None:
        self.players = players
        self._seats = [Seat(i) for i in range(players)]
        for r in rows:
            self._seats[r.seat] = Seat(r.seat, r.kind, r.name, r.bot, r.token_hash,
                                       player=r.player)
        self._away_after = away_after
        self._later = later
        self._on_away = on_away
        self._away_timers: dict[int, Handle] = {}

    def __getitem__(self, seat: int) -> Seat:
        return self._seats[seat]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    # ------------------------------------------------------------------ reading
    def of_player(self, player: str) -> list[int]:
        """The seats a player took (several only at a table they play against themselves)."""
        return [s.seat for s in self._seats if s.kind == "human" and s.player == player]

    def for_hash(self, token_hash: str) -> int | None:
        for s in self._seats:
            if s.kind == "human" and s.token_hash == token_hash:
                return s.seat
        return None

    def empty(self) -> list[int]:
        return [x.seat for x in self._seats if x.kind == "empty"]

    def host_here(self) -> bool:
        """The host (seat 0) has not been away past the timeout."""
        return not self._seats[0].away

    def bot_controls(self, seat: int) -> bool:
        """A bot plays the seat: a bot's seat, or an away player's."""
        x = self._seats[seat]
        return x.kind == "bot" or (x.kind == "human" and x.away)

    def names(self) -> list[dict[str, Any]]:
        """The names a record header lists, with the bot of each bot seat."""
        out: list[dict[str, Any]] = []
        for x in self._seats:
            entry: dict[str, Any] = {"name": x.name}
            if x.kind == "bot":
                entry["bot"] = x.bot
            out.append(entry)
        return out

    def public(self) -> list[dict[str, Any]]:
        """The seats as a table summary shows them (never a token)."""
        return [{"seat": x.seat, "name": x.name, "kind": x.kind, "bot": x.bot,
                 "connected": x.conns > 0, "away": x.away, "forfeit": x.forfeit}
                for x in self._seats]

    def present_now(self) -> frozenset[int]:
        """The seats someone is at now: a connected player, or a bot."""
        return frozenset(x.seat for x in self._seats
                         if x.conns > 0 or self.bot_controls(x.seat))

    # ------------------------------------------------------------------ the lobby's changes
    def _check(self, seat: int, code: str) -> None:
        if not 0 <= seat < self.players:
            raise ProtocolError(code, f"no seat {seat} at this table")

    def joining(self, name: str, seat: int | None, token_hash: str,
                player: str | None = None) -> Seat:
        """The seat a player joining takes (the first free one if ``seat`` is ``None``)."""
        if seat is None:
            free = self.empty()
            if not free:
                raise ProtocolError("conflict", Words("refusal.tableFull", "the table is full"))
            seat = free[0]
        self._check(seat, "bad_request")
        if self._seats[seat].kind != "empty":
            raise ProtocolError("conflict", Words("refusal.seatTaken", f"seat {seat} is taken"))
        return Seat(seat, "human", name, None, token_hash, player=player)

    def bot_seat(self, seat: int, bot: str, name: str) -> Seat:
        """Seat ``bot`` (a checked bot name) called ``name`` at ``seat``: free or another
        bot's."""
        self._check(seat, "not_found")
        if self._seats[seat].kind == "human":
            raise ProtocolError("conflict", Words("refusal.seatTaken",
                                                  f"seat {seat} is taken by a player"))
        return Seat(seat, "bot", name, bot, None)

    def freeing(self, seat: int) -> Seat:
        self._check(seat, "not_found")
        if seat == 0:
            raise ProtocolError("conflict", Words("refusal.hostSeat",
                                                  "the host's seat cannot be freed"))
        return Seat(seat)

    def filling(self, bot: str, name: str) -> list[Seat]:
        """A bot called ``name`` for every empty seat (``start`` with ``fill``)."""
        return [Seat(seat, "bot", name, bot, None) for seat in self.empty()]

    def put(self, x: Seat) -> None:
        """Make a checked (and stored) seat the table's; a freed player's away timer goes."""
        self._seats[x.seat] = x
        if x.kind != "human":
            self._disarm(x.seat)

    def snapshot(self) -> list[Seat]:
        return list(self._seats)

    def restore(self, seats: list[Seat]) -> None:
        """Back to a :meth:`snapshot` (a start whose write failed)."""
        self._seats = list(seats)

    # ------------------------------------------------------------------ connections
    def refusal(self, seat: int, max_conns: int) -> tuple[str, str, int] | None:
        """Why a connection for ``seat`` is refused -- ``(code, message, close code)`` --
        or ``None``. Spectators are counted by the connections, not here."""
        x = self._seats[seat]
        if x.kind != "human":
            # Freed between the token check and now: the token is no longer a seat.
            return INVALID_TOKEN, "this token is not a seat of this table (it was freed)", 1008
        if x.conns >= max_conns:
            return BUSY, "this seat has too many open connections; close a tab", 1013
        return None

    def arrived(self, seat: int) -> tuple[bool, bool]:
        """A connection for the seat opened: ``(changed, was_away)`` -- whether the summary
        changed (its first connection, or back from away), and whether it was away."""
        x = self._seats[seat]
        x.conns += 1
        self._disarm(seat)
        was_away = x.away and not x.forfeit
        x.away = x.forfeit
        return x.conns == 1 or was_away, was_away

    def left(self, seat: int) -> bool:
        """A connection for the seat closed; ``True`` if it was the last (the away timer
        starts)."""
        x = self._seats[seat]
        x.conns -= 1
        if x.conns == 0:
            self.arm_away(seat)
            return True
        return False

    def present(self, seat: int) -> bool:
        """The seat's player acted themselves: a seat marked away is theirs again if they
        are connected; ``True`` if that changed it."""
        x = self._seats[seat]
        if x.away and x.conns > 0 and not x.forfeit:
            x.away = False
            return True
        return False

    def timed_out(self, seat: int) -> None:
        """The turn clock ran out on the seat too often: its bot plays until they are back."""
        self._seats[seat].away = True

    def forfeited(self, seat: int) -> None:
        """The seat's player lost the game on time: its bot plays it to the end of the game
        (stored first: a restart reads it back)."""
        x = self._seats[seat]
        x.away = x.forfeit = True

    def new_game(self) -> None:
        """A new game: nobody has forfeited it."""
        for x in self._seats:
            if x.forfeit:
                x.away = x.forfeit = False

    # ------------------------------------------------------------------ away timers
    def arm_away(self, seat: int, after: float | None = None) -> None:
        """Mark the seat's player away ``after`` seconds from now (the away timeout unless
        given) if nobody has connected for it by then."""
        self._disarm(seat)
        delay = self._away_after if after is None else after
        if delay is not None:
            self._away_timers[seat] = self._later(delay, self._away_check, seat)

    def arm_unwatched(self) -> None:
        """Start the away timer of every player with no connection and no timer yet."""
        for x in self._seats:
            if x.kind == "human" and x.conns == 0 and x.seat not in self._away_timers \
                    and not x.away:
                self.arm_away(x.seat)

    def arm_all(self) -> None:
        """A table just loaded: nobody is connected, every player's away timer starts."""
        for x in self._seats:
            if x.kind == "human":
                self.arm_away(x.seat)

    def _disarm(self, seat: int) -> None:
        timer = self._away_timers.pop(seat, None)
        if timer:
            timer.cancel()

    async def _away_check(self, seat: int) -> None:
        self._away_timers.pop(seat, None)
        s = self._seats[seat]
        if s.kind == "human" and s.conns == 0 and not s.away:
            s.away = True
            self._on_away(seat)

    def handles(self) -> list[Handle]:
        return list(self._away_timers.values())
