"""Assist mode at a served table: the ``hard`` bot's suggestion for the asking seat, from its
own view, searched off the event loop (other tables go on meanwhile). One search per seat and
version: asking again sends the same. A hint asked while the searcher's compiled kernels are
still loading (server/kernels.py) is asked again, as a job of the table, once they are."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ..errors import NOT_PLAYING
from ..kernels import Kernels
from ..server_messages import Hint
from ..session import Session
from ..table_core import judge_hint
from .connection import Conn, dumps
from .timers import Job


class Hints:
    """The hints of one table: the last search's answer, and the waits for kernels.

    ``post(job, *args)`` queues a job on the table's actor; ``again`` is the table's own
    ``hint`` handler, posted once the kernels are loaded."""

    def __init__(self, game: str, kernels: Kernels | None,
                 post: Callable[..., None], again: Job) -> None:
        self._game = game
        self._kernels = kernels
        self._post = post
        self._again = again
        self.last: tuple[tuple[int, int], dict[str, Any] | None] | None = None
        self._waits: set[asyncio.Task[None]] = set()

    async def answer(self, conn: Conn, s: Session | None, status: str, ref: Any,
                     compared: bool = False) -> None:
        refused = judge_hint(s, status, conn.seat, compared)
        if refused is not None:
            conn.error(refused.code, refused.message, ref)
            return
        assert s is not None and conn.seat is not None  # judge_hint saw to both
        searcher = getattr(getattr(s, "table_game", None), "hint_bot", None)
        loading = self._kernels.loading(self._game, searcher) \
            if self._kernels and searcher else None
        if loading is not None:  # asked again once the searcher's kernels are loaded
            self._after(loading, conn, ref)
            return
        key = (conn.seat, s.version)
        if self.last is None or self.last[0] != key:
            found = await asyncio.get_running_loop().run_in_executor(None, s.hint, conn.seat)
            self.last = (key, found)
        found = self.last[1]
        if found is None:
            conn.error(NOT_PLAYING, "it is not your decision now", ref)
            return
        hint: Hint = {"type": "hint", "version": s.version, "action": found["action"],
                      "text": found["text"], "score": found["score"],
                      "win_share": found["win_share"], "runner_up": found["runner_up"],
                      "runner_up_score": found["runner_up_score"],
                      "runner_up_win_share": found["runner_up_win_share"],
                      "match": bool(found.get("match")), "ref": ref}
        conn.send(dumps(hint))

    def _after(self, future: asyncio.Future[None], conn: Conn, ref: Any) -> None:
        """Ask again once ``future`` is done (the table goes on meanwhile)."""
        async def wait() -> None:
            with contextlib.suppress(Exception):
                await future
            self._post(self._again, conn, ref)

        task = asyncio.get_running_loop().create_task(wait())
        self._waits.add(task)
        task.add_done_callback(self._waits.discard)

    def stop(self) -> None:
        for task in list(self._waits):
            task.cancel()
