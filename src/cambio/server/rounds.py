"""A table's rounds and games one after another, without I/O: what the end of a round calls
for, the pause before a match's next round, and what a rematch deals.

When a round ends, its game is over (the table stores it finished) or, in a match of several
rounds, the next round is dealt after a pause (``--round-pause``, shortened by the bots'
speed), so everyone sees the round's result first. :class:`RoundPause` decides which, and
holds when the pause ends: told that a round ended, that a table was loaded, that its timer
fired, it returns what to do -- store the finish, set the timer, deal the next round -- and
the drivers do it: the served table's :class:`~.table.lifecycle.Lifecycle` (the store and
the event loop's timers) and the offline :class:`~.solo.SoloTable` (one round: its game
ends with it). :func:`rematch` is the check and the bookkeeping of ``again``.

Only the standard library and the session's protocol are imported: the offline client runs
this in the browser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import ProtocolError, Words
from .session import Session


@dataclass(frozen=True)
class RoundEnd:
    """What a round's end asks of the driver: store the game ``finished``, or set the
    pause's timer -- ``arm``: ``(game_no, seconds)``, tell :meth:`RoundPause.due`
    ``game_no`` in that many seconds."""

    finished: bool = False
    arm: tuple[int, float] | None = None


class RoundPause:
    """The pause between a match's rounds: ``seconds`` long, on the time source ``now``."""

    def __init__(self, seconds: float, now: Callable[[], float]) -> None:
        self.seconds = seconds
        self._now = now
        self.ends: float | None = None
        """When the pause being waited out ends (``None``: no next round is due)."""

    def ended(self, s: Session, game_no: int) -> RoundEnd:
        """Book the round just over in the session (its scores) and say what comes next:
        the game is finished, or the next round of game ``game_no`` after the pause."""
        s.finish_round()
        return RoundEnd(finished=True) if s.game_over() else self._start(game_no)

    def loaded(self, s: Session, game_no: int, playing: bool) -> RoundEnd:
        """A table rebuilt from the store (a restart, a failed write) whose match stopped
        between rounds waits a whole pause for its next (``playing``: its status, and it is
        not halted)."""
        if playing and s.round_over() and not s.game_over():
            return self._start(game_no)
        return RoundEnd()

    def _start(self, game_no: int) -> RoundEnd:
        self.ends = self._now() + self.seconds
        return RoundEnd(arm=(game_no, self.seconds))

    def due(self, s: Session | None, game_no: int, current_game_no: int) -> bool:
        """The pause's timer for game ``game_no`` fired: ``True`` if its next round is to
        be dealt now (not if another game began meanwhile, or the game is over)."""
        self.ends = None
        return s is not None and game_no == current_game_no and s.round_over() \
            and not s.game_over()

    def stop(self) -> bool:
        """The table halted: no next round is dealt; ``True`` if a pause was running (its
        timer to call off)."""
        running, self.ends = self.ends is not None, None
        return running

    def left(self) -> float | None:
        """Seconds until the next round is dealt (``None``: none is due)."""
        return None if self.ends is None else self.ends - self._now()


@dataclass(frozen=True)
class Rematch:
    """What ``again`` deals: game ``game_no``, and the result of the one before to add to
    the table's history (``None``: it has none, such as a game that ended unfinished)."""

    game_no: int
    done: dict[str, Any] | None


def rematch(status: str, game_no: int, s: Session | None) -> Rematch:
    """``again`` at a table that is ``status`` after game ``game_no``: the next game, or
    :class:`~.errors.ProtocolError` ``conflict`` before the game is over."""
    if status != "finished":
        raise ProtocolError("conflict", Words("refusal.notOver", "the game is not over yet"))
    done = {"game_no": game_no, **s.result()} if s is not None and s.game_over() else None
    return Rematch(game_no + 1, done)


def require_waiting(status: str) -> None:
    """The lobby's seat changes and ``start`` are for a table not yet dealt."""
    if status != "waiting":
        raise ProtocolError("conflict", Words("refusal.started",
                                              "the game has already started"))


__all__ = ["Rematch", "RoundEnd", "RoundPause", "rematch", "require_waiting"]
