"""Snap races judged by reaction, on the event loop: the pure
:class:`~cambio.server.snap_race.Referee` with the one timer that ends a race's collection.

A snap joins (or opens) a race when another seat's page reports reaction times; any other
action first settles the race being collected, so the snaps that came before it go before
it. When the race ends, its snaps are handed back to the table in the order of their keys
(``apply``), each judged against the state it finds: the first valid one wins, a later one
on a card already gone is a lost race. At a correspondence table the core's
:class:`~cambio.server.table_core.SnapGate` says first who may snap at all, and until when."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from ..session import Session
from ..snap_race import Latency, Referee, reaction_key
from ..table_core import Refusal, SnapGate, snap_refusal
from .connection import Conn
from .timers import Handle, Later

Held = tuple[Conn | None, int, str, int, Any]
"""A snap held while its race is collected: ``(conn, or None for a bot; seat, text,
version, ref)``."""


class SnapRaces:
    """One table's snap races. ``gate``: a correspondence table's snap gate (``None``:
    any other table); ``present()``: the seats someone is at now (a window opens for
    them); ``conns()``: the table's open connections (those of other seats that report
    reactions are a snap's rivals); ``apply(held)`` applies (or refuses) a held snap once
    its race is judged; ``settled()`` brings the table's timers up to date after."""

    def __init__(self, base: float, gate: SnapGate | None, later: Later,
                 now: Callable[[], float], present: Callable[[], frozenset[int]],
                 conns: Callable[[], Iterable[Conn]],
                 apply: Callable[[Held], Awaitable[None]],
                 settled: Callable[[], None]) -> None:
        self.referee: Referee[Held] = Referee(base)
        self.gate = gate
        self._present = present
        self._later = later
        self._now = now
        self._conns = conns
        self._apply = apply
        self._settled = settled
        self._timer: Handle | None = None

    def handles(self) -> list[Handle]:
        return [self._timer] if self._timer is not None else []

    def shown(self, window: int | None) -> None:
        """An update went out: a snap window it opens is timed from now (and at a
        correspondence table opened to whoever is there)."""
        self.referee.shown(window, self._now())
        if self.gate is not None:
            self.gate.follow(window, self._now(), self._present)

    def refusal(self, s: Session | None, seat: int, text: str) -> Refusal | None:
        """Why a snap (a player's or a bot's) is refused before the engine sees it: only
        at a correspondence table, by its gate."""
        return snap_refusal(self.gate, s, seat, text, self._now())

    async def held(self, s: Session, conn: Conn | None, seat: int, text: str, version: int,
                   ref: Any, reaction_ms: int | None) -> bool:
        """``True``: the action is a snap held in a race (the race's end applies it).
        Any other action first settles the race being collected."""
        if not s.is_snap(text):
            if self.referee.race is not None:
                await self.judge()
            return False
        window = s.snap_window()
        rivals = self._rivals(seat)
        key = reaction_key(self.referee.elapsed_ms(window, self._now()),
                           conn.latency.rtt_ms if conn is not None else 0.0, reaction_ms)
        opens = self.referee.race is None
        if not self.referee.take(window, (conn, seat, text, version, ref), key, bool(rivals)):
            return False
        if opens:
            self._timer = self._later(self.referee.wait(r.rtt_ms for r in rivals), self.judge)
        return True

    def _rivals(self, seat: int) -> list[Latency]:
        """The other seats' connections that judge their snaps by reaction."""
        return [c.latency for c in self._conns()
                if c.seat is not None and c.seat != seat and c.latency.reports]

    async def judge(self) -> None:
        """Apply the race's snaps by their keys."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.referee.judging = True
        try:
            for held in self.referee.close():
                await self._apply(held)
        finally:
            self.referee.judging = False
        self._settled()
