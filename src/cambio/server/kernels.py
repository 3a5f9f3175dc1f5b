"""The bots' numba kernels in a server process: loaded before any table uses them, never on
the event loop, and never compiled by the server itself.

Compiling a family takes a minute or two of one core and, in a thread of the server, holds
its GIL a good part of that (numba's compiler is Python); loading a compiled family from
numba's cache still takes a second or two of imports and linking. So a family is made ready
in two steps: a subprocess at the lowest priority (``python -m cambio.bots.kernels --nice
19 FAMILY``) compiles it into the cache, or finds it there; then a worker thread of the
server loads it from the cache. ``cambio serve`` starts this at once for every family its
lobby offers (``--no-warm-kernels``: only when a table first seats such a bot). A family
compiled from the installed sources before (:func:`cambio.bots.kernels.compiled`) skips
the subprocess.

Until a family is ready, a bot that needs it is played by its registry's stand-in
(:attr:`cambio.bots.registry.BotEntry.stand_in`: ``expert`` for the hard card bot,
``alphabeta`` for the dice game's ``native``), which needs no kernel; the table swaps the
real bot in at its next decision once the family is ready. No table waits, and none stalls
the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Iterable

from cambio.bots.kernels import FAMILIES, compiled, entry, hold, offered

log = logging.getLogger("cambio.server")

NICE = 19


class Kernels:
    """Which kernel families this process has loaded, and their loading."""

    def __init__(self, python: str = sys.executable) -> None:
        self.python = python
        self.ready: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._one_at_a_time = asyncio.Lock()
        """Families compile one after another: side by side they would take a core each
        from the tables, low priority or not, on a small machine."""

    def playable(self, game: str, name: str) -> str:
        """The bot to seat now for bot ``name`` of ``game``: itself, or its stand-in while
        the kernels it needs are not loaded (their loading is started)."""
        found = entry(game, name)
        if found is None or found.kernels is None or found.kernels in self.ready:
            return name
        self.load(found.kernels)
        return found.stand_in or name

    def loading(self, game: str, name: str) -> asyncio.Future[None] | None:
        """What to wait for before bot ``name`` of ``game`` can run in this process: its
        family's loading (started now if need be), or ``None`` if it can run now."""
        found = entry(game, name)
        family = found.kernels if found is not None else None
        if family is None or family in self.ready:
            return None
        self.load(family)
        task = self._tasks[family]
        return None if task.done() else asyncio.shield(task)  # done, not ready: it failed

    def load(self, family: str) -> None:
        """Make ``family`` ready in the background (once; on the event loop's thread)."""
        if family not in self.ready and family not in self._tasks:
            self._tasks[family] = asyncio.get_running_loop().create_task(
                self._load(family), name=f"kernels {family}")

    def warm(self, games: Iterable[str]) -> None:
        """Start loading every family the bots offered for ``games`` need."""
        for family in offered(list(games)):
            self.load(family)

    async def _load(self, family: str) -> None:
        assert family in FAMILIES
        async with self._one_at_a_time:
            await asyncio.to_thread(hold)
            if not await asyncio.to_thread(compiled, family):
                await self._compile(family)
            try:  # from the cache now: a second or two, in a worker thread
                await asyncio.to_thread(FAMILIES[family])
            except Exception as exc:  # a broken install: the stand-ins play on
                log.error("kernels: %s cannot be loaded (%s: %s); its bots' stand-ins play "
                          "in their place", family, type(exc).__name__, exc)
                return
        self.ready.add(family)
        log.info("kernels: %s ready", family)

    async def _compile(self, family: str) -> None:
        """Compile ``family`` into numba's cache in a subprocess at the lowest priority (it
        finds the cache warm and only loads it when another process compiled it first)."""
        log.info("kernels: compiling %s into numba's cache (a subprocess at nice %d); its "
                 "bots' stand-ins play meanwhile", family, NICE)
        proc = await asyncio.create_subprocess_exec(
            self.python, "-m", "cambio.bots.kernels", "--nice", str(NICE), family,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await proc.communicate()
        finally:
            if proc.returncode is None:  # cancelled: the server stops
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if proc.returncode != 0:
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
            log.warning("kernels: compiling %s failed (exit %s: %s); loading it in this "
                        "process instead", family, proc.returncode, tail[0])

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        for task in self._tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
