"""A table's games: dealing a new one, rebuilding the current one from storage (at start-up,
or after a failed write), and halting the table when its storage fails."""

from __future__ import annotations

import logging
from typing import Any

from cambio.seeds import derive_seed

from ..match import replay_game
from ..session import Session
from ..store import Store
from .acting import Acting
from .state import now_iso

log = logging.getLogger("cambio.server")


class Lifecycle(Acting):
    def new_session(self, game_seed: int, game_no: int) -> Session:
        return self.kind.session(self.players, self.config, self.id, game_seed, game_no)

    async def begin_game(self, game_no: int, statements: list[Any]) -> None:
        """Deal a new game (``start`` or ``again``): store it, then tell everyone."""
        game_seed = derive_seed(self.seed, "game", game_no)
        session = self.new_session(game_seed, game_no)
        started = now_iso()
        header = session.next_header(self._names(), started)
        await self.store.write([
            *statements,
            Store.update_table(self.id, "playing", game_no),
            Store.insert_game(self.id, game_no, game_seed, started),
            Store.insert_round(self.id, game_no, 1, header),
        ])
        session.deal(header)
        self.game_no = game_no
        self.session = session
        self.status = "playing"
        self._setup_bots(game_seed)
        self._cancel_bot_timers()
        self.broadcast_table()
        self._broadcast_state()
        for x in self.seats:
            if x.kind == "human" and x.conns == 0 and x.seat not in self.away_timers \
                    and not x.away:
                self._arm_away(x.seat)
        self._schedule()

    def build_game(self) -> tuple[Session, int] | None:
        """The current game rebuilt from storage by replaying every stored action, and its
        seed. Touches nothing of the table, so it may run in a worker thread."""
        if self.game_no == 0:
            return None
        return replay_game(self.store, self.new_session, self.id, self.game_no)

    def install_game(self, built: tuple[Session, int] | None) -> None:
        """Make a game from :meth:`build_game` the table's own (on the event loop)."""
        self.built = None
        if built is None:
            return
        session, game_seed = built
        self.session = session
        self._setup_bots(game_seed)
        if self.status == "playing" and not session.game_over() and session.round_over() \
                and self.halted is None:
            self._arm_next_round()

    def _halt(self, why: str) -> None:
        """Storage failed: stop this table where it was last stored, visibly, instead of
        retrying (a bot would try the same write again and again). A restart resumes it."""
        log.error("table %s is halted: %s", self.id, why)
        self.halted = "storage failed; the table resumes when the server is restarted"
        self._cancel_bot_timers()
        if self.round_timer:
            self.round_timer.cancel()
            self.round_timer = None
        if self.lost is not None:  # nothing more from this copy: the owner reloads it
            self.lost(self, why)
            return
        try:  # back to what is stored: the action just refused is not
            self.install_game(self.build_game())
        except Exception:
            log.exception("table %s: reloading from storage failed too", self.id)
        else:
            if self.session is not None and self.session.round_no:
                self._broadcast_state()
        self.broadcast_table()

    async def after_load(self) -> None:
        """Arm the timers of a table just loaded (no one is connected yet)."""
        s = self.session
        if self.status == "playing" and s is not None and s.game_over():
            self.status = "finished"  # it ended just before the process did
            await self.store.write([Store.update_table(self.id, self.status, self.game_no)])
        for x in self.seats:
            if x.kind == "human":
                self._arm_away(x.seat)
        self._schedule()
