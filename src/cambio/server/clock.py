"""The turn clock: a table's seconds per decision, and what happens when they run out.

A table created with ``"clock": seconds`` gives a seated player that many seconds for each
decision the game waits for (a draw, a discard or swap, a power's choice, a board move). When
they run out, the seat's bot plays that one decision for them; after ``strikes`` timeouts in a
row without the player acting, the seat is marked away and its bot plays on until the player
says they are back (or acts). A table with no clock waits for ever, as before.

A clock of an hour or more makes a **correspondence** table (:func:`correspondence`): its
players come and go over days. There a missed deadline hands that one move to the seat's bot
(``"on_timeout": "bot"``) or forfeits the game for the seat (``"forfeit"``), as the table
chose; the strikes and the away timeout do not apply (nobody is expected to stay connected),
and each decision's deadline is a wall-clock time stored with the move that starts it, so a
restart (or ``kill -9``) never gives anyone a fresh clock. Snaps need players present: such
a card table offers them only if it was created with a ``snap_window`` (see
:mod:`cambio.server.table_core`, ``SnapGate``; docs/rules.md).

Which decision the clock runs for is decided from public facts only (who must decide, and who
acted last), so the countdown every client is shown tells nobody anything, and a bot that
plays out a timeout replies at the deadline plus the table's fixed thinking time, never
sooner or later depending on cards.

:class:`Decisions` is pure bookkeeping on an injected time source, so its rules are tested
without any wall clock. :class:`TableClock` is the table's clock without I/O: told the
table's state, a stored decision or its timer firing, it returns :class:`ClockEffects` --
what to store, what to send to everyone, which timer to set, which seat's bot plays -- and
the served table does them (one timer, armed at :attr:`Decisions.deadline`). Nothing here
imports more than the standard library: it is part of the table core the offline client
ships (server/offline.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import ProtocolError
from .server_messages import Clock

CLOCK_MIN = 1
CLOCK_MAX = 3 * 24 * 3600
"""Seconds per decision a table may be given (``null`` or 0: no clock): up to three days."""
CORRESPONDENCE = 3600
"""Seconds per decision from which a table is a correspondence table."""
ON_TIMEOUT = ("bot", "forfeit")
"""What a missed deadline does, the default first."""
SNAP_WINDOW = (5, 60)
"""Seconds a correspondence card table may keep a discard open to snaps (``snap_window``)."""


def clock_setting(body: dict[str, Any], default: int | None) -> int | None:
    """The ``clock`` of a create-table body: seconds per decision, or ``None`` for none.

    A body without ``clock`` gets the server's ``--turn-clock`` default."""
    if "clock" not in body:
        return default
    value = body["clock"]
    if value is None or value == 0:
        return None
    if not isinstance(value, int) or isinstance(value, bool) \
            or not CLOCK_MIN <= value <= CLOCK_MAX:
        raise ProtocolError("bad_request", f"\"clock\" must be null (no clock) or a whole "
                                           f"number of seconds from {CLOCK_MIN} to {CLOCK_MAX}")
    return value


def correspondence(config: dict[str, Any]) -> bool:
    """The table's clock is an hour or more per decision."""
    seconds = config.get("clock")
    return isinstance(seconds, int) and seconds >= CORRESPONDENCE


def timeout_settings(body: dict[str, Any], clock: int | None) -> dict[str, Any]:
    """The ``on_timeout`` and ``snap_window`` of a create-table body, checked against its
    (already checked) ``clock``: config fields to store."""
    on_timeout = body.get("on_timeout", ON_TIMEOUT[0])
    if on_timeout not in ON_TIMEOUT:
        raise ProtocolError("bad_request", "\"on_timeout\" must be \"bot\" or \"forfeit\"")
    if clock is None and on_timeout != ON_TIMEOUT[0]:
        raise ProtocolError("bad_request", "\"on_timeout\" needs a \"clock\"")
    window = body.get("snap_window")
    if window is not None and window != 0:
        low, high = SNAP_WINDOW
        if not isinstance(window, int) or isinstance(window, bool) \
                or not low <= window <= high:
            raise ProtocolError("bad_request", f"\"snap_window\" must be null (no snaps) or "
                                               f"a whole number of seconds from {low} to "
                                               f"{high}")
        if clock is None or clock < CORRESPONDENCE:
            raise ProtocolError("bad_request", "\"snap_window\" is for correspondence "
                                               f"tables (a \"clock\" of {CORRESPONDENCE} "
                                               "seconds or more)")
    else:
        window = None
    out: dict[str, Any] = {"on_timeout": on_timeout}
    if window is not None:
        out["snap_window"] = window
    return out


@dataclass(frozen=True)
class Decision:
    """One decision the clock runs for: whose, in which game and round, since which
    version of the round."""

    seat: int
    game_no: int
    round_no: int
    since: int


class Decisions:
    """Which decision is on the clock, its deadline, and each seat's timeouts in a row.

    A new decision starts when the deciding seat changes (or the round does), or when the
    deciding seat acted and must decide again (a draw, then what to do with the card).
    Someone else's action in between (a snap by another seat) does not restart the clock.
    ``now`` is the wall clock (epoch seconds, shifted by ``--time-offset`` in tests), so a
    deadline means the same after a restart; ``strikes`` ``None``: a seat is never marked
    away for its timeouts (a correspondence table).
    """

    def __init__(self, seconds: float | None, strikes: int | None,
                 now: Callable[[], float]) -> None:
        self.seconds = seconds
        self.strikes = strikes
        self.now = now
        self.current: Decision | None = None
        self.deadline: float | None = None
        self.timeouts: dict[int, int] = {}
        self._planned: tuple[Decision, float] | None = None

    def starts(self, decider: int | None, game_no: int, round_no: int, version: int,
               last_seat: int | None) -> tuple[Decision, float] | None:
        """The decision that starts if the table is now as given, with its deadline
        (``None``: the one on the clock goes on, or none runs). :meth:`follow` keeps that
        deadline, so one stored with the action that starts the decision is the one kept."""
        if self.seconds is None or decider is None:
            return None
        cur = self.current
        same = cur is not None and cur.seat == decider and cur.game_no == game_no \
            and cur.round_no == round_no and (version == cur.since or last_seat != decider)
        if same:
            return None
        new = Decision(decider, game_no, round_no, version)
        if self._planned is None or self._planned[0] != new:
            self._planned = (new, self.now() + self.seconds)
        return self._planned

    def follow(self, decider: int | None, game_no: int, round_no: int, version: int,
               last_seat: int | None) -> bool:
        """Bring the clock up to the table's state; ``True`` if it changed (a new decision
        or none any more), when clients must be told.

        ``decider`` is the seat that must decide, or ``None`` when no seated player is on
        the clock (nobody decides, or a bot does); ``last_seat`` is who made the round's
        last action."""
        if self.seconds is None or decider is None:
            return self.stop()
        new = self.starts(decider, game_no, round_no, version, last_seat)
        if new is None:
            return False
        self.current, self.deadline = new
        self._planned = None
        return True

    def restore(self, decision: Decision, deadline: float) -> None:
        """Put back a decision stored before a restart, with its deadline (the table checked
        it is still the one being waited for)."""
        self.current, self.deadline = decision, deadline

    def stop(self) -> bool:
        changed = self.current is not None
        self.current = None
        self.deadline = None
        return changed

    def left(self) -> float | None:
        """Seconds until the deadline (``None``: no clock running)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.now())

    def timed_out(self, decision: Decision) -> bool:
        """The clock ran out on ``decision``: count it; ``True`` if the seat has now timed
        out ``strikes`` times in a row and is to be marked away."""
        if decision != self.current:
            return False
        self.stop()
        count = self.timeouts.get(decision.seat, 0) + 1
        self.timeouts[decision.seat] = count
        return self.strikes is not None and count >= self.strikes

    def acted(self, seat: int) -> None:
        """The player made a move themselves: their timeouts in a row start again."""
        self.timeouts.pop(seat, None)

    def message(self, game_no: int, round_no: int, version: int) -> Clock:
        """The ``clock`` message: who is on the clock, how long they have left, and when
        that is (epoch seconds)."""
        cur = self.current
        left = self.left()
        return {"type": "clock", "game_no": game_no, "round": round_no, "version": version,
                "seconds": self.seconds, "seat": cur.seat if cur is not None else None,
                "left": None if left is None else round(left, 2),
                "deadline": None if self.deadline is None else round(self.deadline, 3)}


@dataclass(frozen=True)
class Deadline:
    """To store: the decision a correspondence table waits for, and its deadline."""

    decision: Decision
    at: float


@dataclass(frozen=True)
class Forfeit:
    """To store: the seat lost the game on time (a table that forfeits)."""

    seat: int


Target = tuple[int | None, int, int, int, int | None]
"""What the clock follows: ``(decider, game_no, round_no, version, last_seat)``, the decider
``None`` when no seated player is on the clock (:meth:`Decisions.follow`)."""


@dataclass
class ClockEffects:
    """What the clock asks of its driver, done in this order: store ``store`` (a failed
    write stops there), mark ``away`` away, send ``send`` to everyone, call the timer off
    (``cancel``) and set ``arm`` -- ``(decision, seconds)``: tell :meth:`TableClock.fired`
    ``decision`` in that many seconds -- then have ``bot``'s seat's bot play its decision."""

    store: list[Deadline | Forfeit] = field(default_factory=list)
    away: int | None = None
    send: Clock | None = None
    cancel: bool = False
    arm: tuple[Decision, float] | None = None
    bot: int | None = None


class TableClock:
    """A table's turn clock without I/O: told the table's state, a stored decision or a
    timer firing, it returns :class:`ClockEffects` -- what to store, what to send, which
    timer to set -- and the drivers (the served :class:`~.table.Table`) do them.

    It holds the :class:`Decisions`, the table's kind of clock (a correspondence table's
    deadlines are stored and it never marks a seat away; ``on_timeout`` forfeits or not),
    and which decision's deadline is stored already."""

    def __init__(self, config: dict[str, Any], strikes: int, now: Callable[[], float]) -> None:
        self.correspondence = correspondence(config)
        self.decisions = Decisions(config.get("clock"),
                                   None if self.correspondence else strikes, now)
        self.forfeits = config.get("on_timeout") == "forfeit"
        self.stored: Decision | None = None
        """The decision whose deadline the store holds (correspondence tables)."""

    def message(self, target: Target) -> Clock:
        _, game_no, round_no, version, _ = target
        return self.decisions.message(game_no, round_no, version)

    def planned(self, target: Target) -> Deadline | None:
        """The deadline to store with an action that leaves the table at ``target`` (a
        correspondence table's new decision), so the two are stored together."""
        if not self.correspondence:
            return None
        starts = self.decisions.starts(*target)
        return Deadline(*starts) if starts is not None else None

    def kept(self, stored: list[Deadline | Forfeit]) -> None:
        """``stored`` was written."""
        for item in stored:
            if isinstance(item, Deadline):
                self.stored = item.decision

    def follow(self, target: Target) -> ClockEffects:
        """The table is now at ``target``: a new decision is told to everyone, its timer
        set and (correspondence) its deadline stored unless an action's write held it."""
        if not self.decisions.follow(*target):
            return ClockEffects()
        fx = ClockEffects(send=self.message(target), cancel=True)
        cur, deadline, left = self.decisions.current, self.decisions.deadline, \
            self.decisions.left()
        if cur is not None and deadline is not None and left is not None:
            fx.arm = (cur, left)
            if self.correspondence and cur != self.stored:
                fx.store.append(Deadline(cur, deadline))
        return fx

    def stop(self, target: Target) -> ClockEffects:
        """No decision on the clock any more (the round is over, the table halted)."""
        if not self.decisions.stop():
            return ClockEffects(cancel=True)
        return ClockEffects(send=self.message(target), cancel=True)

    def resume(self, stored: tuple[int, int, int, int, float] | None, target: Target,
               movers: list[int]) -> ClockEffects:
        """A table loaded from the store: its stored decision ``(game_no, round_no, since,
        seat, deadline)`` keeps its deadline if it is still the one waited for -- its seat
        decides at ``target`` and made none of the round's actions since it started
        (``movers``: the seat of each action of the round, in order) -- so a restart gives
        nobody a fresh clock."""
        decider, game_no, round_no, version, _ = target
        if stored is None or not self.correspondence:
            return ClockEffects()
        s_game, s_round, since, seat, deadline = stored
        if (s_game, s_round) != (game_no, round_no) or decider != seat or since > version \
                or seat in movers[since:]:
            return ClockEffects()
        decision = Decision(seat, game_no, round_no, since)
        self.decisions.restore(decision, deadline)
        self.stored = decision
        left = self.decisions.left()
        return ClockEffects(cancel=True, arm=(decision, left if left is not None else 0.0))

    def fired(self, decision: Decision, target: Target) -> ClockEffects:
        """The timer of ``decision`` fired, the table now at ``target``: if the seat still
        has that decision, it ran out -- its bot plays it; the seat is marked away after
        too many in a row, or forfeits at a table that says so."""
        if decision != self.decisions.current or target[0] != decision.seat:
            return ClockEffects()
        away = self.decisions.timed_out(decision)
        return ClockEffects(store=[Forfeit(decision.seat)] if self.forfeits else [],
                            away=decision.seat if away else None,
                            send=self.message(target), bot=decision.seat)

    def acted(self, seat: int) -> None:
        """The seat's player moved themselves (or came back): their timeouts in a row
        start again."""
        self.decisions.acted(seat)

    def on_clock(self) -> tuple[int, float] | None:
        """The seat the clock runs for and its deadline."""
        d = self.decisions
        return (d.current.seat, d.deadline) if d.current is not None \
            and d.deadline is not None else None
