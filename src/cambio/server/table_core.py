"""A table's play without I/O: the decisions a served table and the offline solo table share.

Nothing here awaits, stores, sends or sets a timer: each call takes the state (a
:class:`~.session.Session`, which seats bots play) and returns what to do -- the timers to
set and to call off, the messages to send -- and the two drivers do it: the server's
:class:`~.table.Table` (asyncio timers, the store, sockets) and
:class:`~.solo.SoloTable` (a Pyodide worker whose page arms the timers). So a bot's delays,
the order they are drawn in and the messages an accepted action makes are written once.

Only the standard library and the pure modules of the session are imported: the offline
client runs this in the browser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from cambio.seeds import derive_seed

from .clock import correspondence
from .errors import FORBIDDEN, ILLEGAL, NOT_PLAYING, SERVER_ERROR, ProtocolError, Words
from .listing import compared, listing_fields
from .match import summary_fields
from .server_messages import PROTOCOL, JsonObject, State, TableChanged, Update, Welcome
from .session import SNAP_DELAY, TURN_DELAY, Applied, Session


@dataclass(frozen=True)
class Refusal:
    """A client's message refused: the ``error`` to send it; nothing changed. A refusal
    that does not ``count`` is play, not abuse (a snap that lost a race)."""

    code: str
    message: str
    counts: bool = True


def judge_act(s: Session | None, status: str, halted: str | None, seat: int | None,
              text: str, version: int, *, forfeited: bool = False) -> Applied | Refusal:
    """A seat's ``act``: the action applied to the session (nothing stored or sent yet),
    or why it is refused -- the acceptance rules of docs/protocol.md, the same at a served
    table and a solo one. ``forfeited``: the seat's player lost this game on time (its bot
    plays it to the end)."""
    if seat is None:
        return Refusal(FORBIDDEN, Words("refusal.spectator",
                                        "spectators cannot act; join a seat first"))
    if forfeited:
        return Refusal(FORBIDDEN, Words("refusal.forfeited", "you forfeited this game (your "
                                        "clock ran out); a bot plays your seat until it ends"))
    if halted is not None:
        return Refusal(SERVER_ERROR, Words("refusal.halted", f"this table is halted: {halted}"))
    if status != "playing" or s is None or s.round_over():
        return Refusal(NOT_PLAYING, f"the table is {status}"
                       + (", between rounds" if status == "playing" else ""))
    try:
        return s.play(seat, text, version)
    except ProtocolError as exc:
        # A snap that lost a race is refused as illegal: play, not abuse.
        race = exc.code == ILLEGAL and s.is_snap(text)
        return Refusal(exc.code, exc.message, counts=not race)


def table_summary(table_id: str, game: str, players: int, listing: JsonObject, status: str,
                  seats: list[JsonObject], game_no: int, s: Session | None, created: str,
                  halted: str | None, config: JsonObject, history: list[JsonObject],
                  next_round: float | None, on_clock: tuple[int, float] | None = None
                  ) -> JsonObject:
    """A table's summary (docs/protocol.md, "A summary"): ``listing`` is what the game
    shows of its config, ``seats`` each seat's public fields, ``on_clock`` the seat the
    turn clock runs for and its deadline (epoch seconds)."""
    out: JsonObject = {"id": table_id, "game": game, "players": players}
    out.update(listing)
    out.update({
        "status": status,
        "host": 0,
        "seats": seats,
        "game_no": game_no,
        "round": s.round_no if s is not None else 0,
        "totals": s.totals() if s is not None else None,
        "created": created,
        "halted": halted,
        "clock": config.get("clock"),
        "correspondence": correspondence(config),
        "on_timeout": config.get("on_timeout", "bot"),
        "snap_window": config.get("snap_window"),
        "deadline": round(on_clock[1], 3) if on_clock is not None else None,
        "deadline_seat": on_clock[0] if on_clock is not None else None,
        "spectator_chat": bool(config.get("spectator_chat")),
        **summary_fields(s, history, players, next_round),
    })
    out.update(listing_fields(config))
    return out


def seat_summary(seat: int, name: str, kind: str, bot: str | None, connected: bool,
                 away: bool, forfeit: bool = False) -> JsonObject:
    """One seat as a table's summary shows it (never a token): ``kind`` ``human``, ``bot``
    or ``empty``, ``away`` when its bot plays for its player, ``forfeit`` when the player
    lost the game on time."""
    return {"seat": seat, "name": name, "kind": kind, "bot": bot, "connected": connected,
            "away": away, "forfeit": forfeit}


class SnapGate:
    """Who may snap, and until when, at a correspondence table (docs/rules.md, "Snapping
    at a correspondence table"): snaps need players present, so each discard opens its
    snap window for ``seconds`` to the seats present at that moment (a connected player,
    or a bot); nothing waits for it. ``seconds`` ``None``: the table takes no snaps.

    The engine's own window rules still apply within it; this only closes it earlier and
    to fewer seats. A window open at a restart is closed (nothing of it is stored)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.window: int | None = None
        self.closes = 0.0
        self.seats: frozenset[int] = frozenset()

    def follow(self, window: int | None, now: float,
               present: Callable[[], frozenset[int]]) -> None:
        """The session's snap window after an action: a new one opens for ``present()``."""
        if window is not None and window != self.window and self.seconds is not None:
            self.window, self.closes, self.seats = window, now + self.seconds, present()

    def refusal(self, window: int | None, seat: int, now: float) -> Refusal | None:
        """Why ``seat``'s snap is refused now (``None``: the engine judges it). Never
        counted as abuse: it is play."""
        if self.seconds is None:
            return Refusal(ILLEGAL, Words("refusal.noSnaps", "this correspondence table takes "
                                          "no snaps"), counts=False)
        if window is None or window != self.window or now > self.closes:
            return Refusal(ILLEGAL, Words("refusal.snapWindowClosed", "the snap window has "
                                          "closed"), counts=False)
        if seat not in self.seats:
            return Refusal(ILLEGAL, Words("refusal.snapNotPresent", "this snap window is for "
                                          "the players who were at the table when the card "
                                          "was discarded"), counts=False)
        return None


def snap_refusal(gate: SnapGate | None, s: Session | None, seat: int, text: str,
                 now: float) -> Refusal | None:
    """Why a snap (by a player or a bot) is refused before the engine sees it: only at a
    correspondence table (``gate``), by its :class:`SnapGate`."""
    if gate is None or s is None or not s.is_snap(text):
        return None
    return gate.refusal(s.snap_window(), seat, now)


def judge_hint(s: Session | None, status: str, seat: int | None,
               results_compared: bool = False) -> Refusal | None:
    """Why a ``hint`` is refused before any search (``None``: it may be searched): hints are
    for a seat, at a game in play that gives them, whose results are not compared with
    other players' -- a rated table or the daily deal: the hint is the ``hard`` bot
    playing the move, so asking for one on every move would buy rating points and a place
    on the day's table."""
    if seat is None:
        return Refusal(FORBIDDEN, "spectators get no hints; join a seat first")
    if results_compared:
        return Refusal(FORBIDDEN, Words(
            "refusal.hintsCompared", "hints are off at rated tables and at the daily deal, "
            "whose results are compared with other players'"))
    if status != "playing" or s is None or s.round_over() or not s.hints:
        return Refusal(NOT_PLAYING, "hints are for a card game in play")
    return None


@dataclass(frozen=True)
class Arm:
    """A timer to set: tell the plan :meth:`BotPlan.ready` ``(id, …)`` in ``delay``
    seconds."""

    id: int
    delay: float


@dataclass(frozen=True)
class Due:
    """A bot's timer fired: ``seat``'s turn to move, or (``snap``) its look at the open snap
    window."""

    seat: int
    snap: bool


class BotPlan:
    """When a table's bots move: their turn and snap timers, drawn from the game's seeded
    generator in an order fixed by public events only (a bot's decision comes, a snap
    window opens), so when a bot moves never depends on cards.

    :meth:`follow` says which timers the state calls for; when one fires, :meth:`ready` says
    which bot decision is due (``None``: none any more)."""

    def __init__(self, speed: float) -> None:
        self._speed = speed
        self._ids = 0
        self.delays = Random(0)
        self.turn: tuple[int, int] | None = None
        """``(seat, timer id)`` of the bot whose decision is timed."""
        self.polls: dict[int, int] = {}
        """Each bot's timer to look at the open snap window."""
        self.polled: dict[int, int | None] = {}
        """The snap window each bot was last offered (``None``: offer it the next one)."""

    def seat(self, game_seed: int) -> None:
        """A new game (or one rebuilt from storage): its delays' own generator."""
        self.delays = Random(derive_seed(game_seed, "delays"))
        self.polled.clear()

    def new_round(self) -> None:
        self.polled.clear()

    def cancel(self) -> list[int]:
        """Call every timer off; the ids to cancel."""
        ids = list(self.polls.values())
        if self.turn is not None:
            ids.append(self.turn[1])
        self.turn = None
        self.polls.clear()
        return ids

    def _delay(self, low: float, high: float) -> float:
        return self.delays.uniform(low, high) / self._speed

    def _arm(self, delay: float, out: list[Arm]) -> int:
        self._ids += 1
        out.append(Arm(self._ids, delay))
        return self._ids

    def follow(self, s: Session, controls: Callable[[int], bool], think: float = 0.0
               ) -> tuple[list[Arm], list[int]]:
        """The timers the live session calls for: ``(to set, ids to call off)``.
        ``controls(seat)``: a bot plays the seat now; ``think``: seconds a bot's reply
        takes after its timer fires (taken off its delay, so the whole stays the same)."""
        arm: list[Arm] = []
        cancel: list[int] = []
        decider = s.decider()
        if decider is not None and controls(decider):
            if self.turn is None or self.turn[0] != decider:
                if self.turn is not None:
                    cancel.append(self.turn[1])
                self.turn = (decider, self._arm(self._delay(*TURN_DELAY) - think, arm))
        elif self.turn is not None:
            cancel.append(self.turn[1])
            self.turn = None
        window = s.snap_window()
        for seat in range(s.players):
            if not controls(seat):
                timer = self.polls.pop(seat, None)
                if timer is not None:
                    cancel.append(timer)
                continue
            if window is None or seat in self.polls or self.polled.get(seat) == window \
                    or not s.can_snap(seat):
                continue
            self.polls[seat] = self._arm(self._delay(*SNAP_DELAY), arm)
        return arm, cancel

    def _due(self, timer: int) -> Due | None:
        """Timer ``timer`` fired: whose move it is, or ``None`` if it was called off."""
        if self.turn is not None and self.turn[1] == timer:
            seat = self.turn[0]
            self.turn = None
            return Due(seat, False)
        for seat, armed in self.polls.items():
            if armed == timer:
                del self.polls[seat]
                return Due(seat, True)
        return None

    def ready(self, timer: int, s: Session | None, controls: Callable[[int], bool]
              ) -> Due | None:
        """Timer ``timer`` fired: the bot decision due now -- its turn, or its look at the
        open snap window (remembered: a bot looks once per window) -- or ``None`` when
        there is none (called off, no longer the bot's seat or decision, the window
        closed): the driver then brings the timers up to date."""
        due = self._due(timer)
        if due is None or s is None or not controls(due.seat):
            return None
        if not due.snap:
            return due if s.decider() == due.seat else None
        window = s.snap_window()
        if window is None or not s.can_snap(due.seat):
            return None
        self.polled[due.seat] = window
        return due

    def moved(self, seat: int) -> None:
        """The seat's bot made its move: what it did may show it a match, so it looks at
        the next snap window even if it is the one it was last offered."""
        self.polled[seat] = None



def state_message(s: Session, seat: int | None, game_no: int) -> State:
    """The whole state as ``seat`` sees it (a resync)."""
    return {"type": "state", "version": s.version, "game_no": game_no, "round": s.round_no,
            "view": s.view(seat), "log": [a.event(seat) for a in s.log]}


def update_message(s: Session, applied: Applied, seat: int | None, game_no: int,
                   view: JsonObject | None = None) -> Update:
    """An accepted action as ``seat`` sees it, with its view (``view``: one already built,
    such as the current view a catch-up sends with every update)."""
    return {"type": "update", "version": applied.version, "game_no": game_no,
            "round": s.round_no, "event": applied.event(seat),
            "view": s.view(seat) if view is None else view}


def catch_up(s: Session, seat: int | None, since: int, game_no: int | None,
             round_no: int | None, current_game_no: int, limit: int) -> list[State | Update]:
    """What a client that has everything up to version ``since`` of game ``game_no``, round
    ``round_no`` is missing (``sync``): the updates since, each with the current view, or
    the whole state when it has another game or round, or missed more than ``limit``."""
    same = game_no == current_game_no and round_no == s.round_no
    missed = s.version - since
    if not same or missed < 0 or missed > limit:
        return [state_message(s, seat, current_game_no)]
    view = s.view(seat) if missed else {}
    return [update_message(s, applied, seat, current_game_no, view)
            for applied in s.log[since:]]


def welcome_message(seat: int | None, summary: JsonObject, version: int, game_no: int,
                    round_no: int) -> Welcome:
    return {"type": "welcome", "seat": seat, "table": summary, "version": version,
            "game_no": game_no, "round": round_no, "protocol": PROTOCOL}


def arrival(seat: int | None, summary: JsonObject, s: Session | None, game_no: int
            ) -> list[Welcome | State]:
    """What a connection gets on arriving: ``welcome``, then the whole state once a round
    has been dealt."""
    if s is None or not s.round_no:
        return [welcome_message(seat, summary, 0 if s is None else s.version, game_no, 0)]
    return [welcome_message(seat, summary, s.version, game_no, s.round_no),
            state_message(s, seat, game_no)]


def table_message(summary: JsonObject) -> TableChanged:
    return {"type": "table", "table": summary}


__all__ = ["Arm", "BotPlan", "Due", "Refusal", "SnapGate", "arrival", "catch_up", "compared",
           "judge_act",
           "judge_hint", "seat_summary", "snap_refusal", "state_message",
           "table_message", "table_summary", "update_message", "welcome_message"]
