"""A table's games one after another: dealing a new one (stored first), rebuilding the
current one from storage (at start-up, or after a failed write), the pause between a match's
rounds (decided by the table core's :class:`~cambio.server.rounds.RoundPause`, its timer
set here), and the halt when storage fails.

It holds the table's status, the current game and the results of the earlier ones; it does
not know who is connected or which bots play: the table tells them what changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from cambio.seeds import derive_seed

from ..faults import crash_point
from ..games import GameKind
from ..match import replay_game
from ..rounds import RoundEnd, RoundPause
from ..session import Applied, Session
from ..store import Statement, Store, TableRow
from .timers import Handle, Job, Later

log = logging.getLogger("cambio.server")

Finishing = Callable[[Session], Awaitable[list[Statement]]]
"""The statements a finished game stores with its status (its players' results and
ratings), keyed on the table and game so that storing them twice books nothing twice."""

HALTED = "storage failed; the table resumes when the server is restarted"
"""What a halted table's summary says."""


def finished(table_id: str, game_no: int, booking: list[Statement]) -> list[Statement]:
    """The transaction that finishes game ``game_no`` of a table with its ``booking``.

    The status comes first: its row lock makes two processes that both finish one game (a
    cluster's old and new owner) commit one after the other, so the second's booking, keyed
    on the table and game, finds the first's and changes nothing."""
    return [Store.update_table(table_id, "finished", game_no), *booking]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Lifecycle:
    """The status and games of one table.

    ``later`` posts ``on_round_due(game_no)`` to the table's actor when the pause after a
    round of a match is over (the table then calls :meth:`next_round`)."""

    def __init__(self, store: Store, kind: GameKind, row: TableRow, later: Later,
                 round_pause: float, on_round_due: Job,
                 now: Callable[[], float] = time.monotonic,
                 now_iso: Callable[[], str] = now_iso) -> None:
        self._store = store
        self._kind = kind
        self._later = later
        self._on_round_due = on_round_due
        self._now_iso = now_iso
        self.id = row.id
        self.players = row.players
        self.config = row.config
        self.seed = row.seed
        self.status = row.status
        self.game_no = row.game_no
        self.session: Session | None = None
        self.built: tuple[Session, int] | None = None
        """A game replayed in a worker thread, waiting for :meth:`install`."""
        self.halted: str | None = None
        """Why the table stopped (its storage failed); it refuses actions until a restart."""
        self.history: list[dict[str, Any]] = []
        """The results of the table's earlier games (:func:`..match.past_results`)."""
        self.pause = RoundPause(round_pause, now)
        self._round_timer: Handle | None = None

    def new_session(self, game_seed: int, game_no: int) -> Session:
        return self._kind.session(self.players, self.config, self.id, game_seed, game_no)

    def live(self) -> Session | None:
        """The session while a round is being played (and the table is not halted)."""
        s = self.session
        if self.status != "playing" or s is None or s.round_over() or self.halted is not None:
            return None
        return s

    def round_no(self) -> int:
        return self.session.round_no if self.session is not None else 0

    def version(self) -> int:
        return self.session.version if self.session is not None else 0

    def next_round_in(self) -> float | None:
        """Seconds until the next round of the match is dealt (``None``: none is due)."""
        return self.pause.left()

    # ------------------------------------------------------------------ games
    async def begin(self, game_no: int, statements: list[Any],
                    names: list[dict[str, Any]]) -> int:
        """Deal game ``game_no`` (``start`` or ``again``) after storing it with
        ``statements`` (the seats it fills); returns the game's seed. A failed write
        changes nothing."""
        game_seed = derive_seed(self.seed, "game", game_no)
        session = self.new_session(game_seed, game_no)
        started = self._now_iso()
        header = session.next_header(names, started)
        await self._store.write([
            *statements,
            Store.update_table(self.id, "playing", game_no),
            Store.insert_game(self.id, game_no, game_seed, started),
            Store.insert_round(self.id, game_no, 1, header),
        ])
        session.deal(header)
        self.game_no = game_no
        self.session = session
        self.status = "playing"
        return game_seed

    def build(self) -> tuple[Session, int] | None:
        """The current game rebuilt from storage by replaying every stored action, and its
        seed. Touches nothing of the table, so it may run in a worker thread."""
        if self.game_no == 0:
            return None
        return replay_game(self._store, self.new_session, self.id, self.game_no)

    def install(self, built: tuple[Session, int] | None) -> int | None:
        """Make a game from :meth:`build` the table's own (on the event loop); its seed, or
        ``None`` if there was none. A match stopped between rounds waits for its next."""
        self.built = None
        if built is None:
            return None
        session, game_seed = built
        self.session = session
        self._arm(self.pause.loaded(session, self.game_no,
                                    self.status == "playing" and self.halted is None))
        return game_seed

    async def settle_loaded(self, finishing: Finishing | None = None) -> None:
        """A table just loaded whose game ended before the process did, but whose finish
        was not stored (the process died between the two writes), is finished now: by
        :meth:`finish`, so it books exactly what the live finish would have."""
        s = self.session
        if self.status == "playing" and s is not None and s.game_over():
            log.info("table %s: its game %d ended before the restart; booking it now",
                     self.id, self.game_no)
            await self.finish(finishing)

    async def finish(self, finishing: Finishing | None) -> None:
        """Store the game as finished with what ``finishing`` books (the players' results
        and ratings), in one transaction (:func:`finished`): the only way a game becomes
        finished, live (:meth:`end_round`) or at a reload (:meth:`settle_loaded`).

        The status in memory changes only once the write is stored: a table whose finish
        could not be stored halts as ``playing``, and its restart books the game."""
        s = self.session
        booking = await finishing(s) if finishing is not None and s is not None else []
        await self._store.write(finished(self.id, self.game_no, booking))
        self.status = "finished"

    async def record(self, applied: Applied, extra: list[Statement]) -> None:
        """Store an action of the round in play with what else its write carries (a
        player's first move, a correspondence deadline); the table tells it only then."""
        s = self.session
        assert s is not None
        if s.round_over():
            crash_point("round-end-action")
        await self._store.write([Store.insert_action(self.id, self.game_no, s.round_no,
                                                     applied.version, applied.seat,
                                                     applied.text), *extra])

    # ------------------------------------------------------------------ rounds
    async def end_round(self, finishing: Finishing | None = None) -> None:
        """Book the round just over: the game is finished (stored), or the next round of
        the match is dealt after the pause. ``finishing`` gives what else a finished game
        stores in the same transaction (the players' results and ratings)."""
        s = self.session
        assert s is not None
        end = self.pause.ended(s, self.game_no)
        if end.finished:
            crash_point("game-over")
            await self.finish(finishing)
            crash_point("booked")
        self._arm(end)

    def _arm(self, end: RoundEnd) -> None:
        if end.arm is not None:
            game_no, seconds = end.arm
            self._round_timer = self._later(seconds, self._on_round_due, game_no)

    async def next_round(self, game_no: int, names: list[dict[str, Any]]) -> bool:
        """Deal the next round of game ``game_no`` (stored first); ``False`` if it is not
        due any more (another game began, or the game is over)."""
        self._round_timer = None
        s = self.session
        if not self.pause.due(s, game_no, self.game_no) or s is None:
            return False
        header = s.next_header(names, self._now_iso())
        await self._store.write([Store.insert_round(self.id, self.game_no,
                                                    header["match"]["round"], header)])
        s.deal(header)
        return True

    # ------------------------------------------------------------------ halting
    def halt(self, why: str) -> None:
        """Storage failed: stop where the table was last stored, visibly, instead of
        retrying (a bot would try the same write again and again). A restart resumes it."""
        log.error("table %s is halted: %s", self.id, why)
        self.halted = HALTED
        self.pause.stop()
        if self._round_timer:
            self._round_timer.cancel()
            self._round_timer = None

    def handles(self) -> list[Handle]:
        return [self._round_timer] if self._round_timer is not None else []
