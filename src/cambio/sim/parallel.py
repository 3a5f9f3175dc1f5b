"""Play the games of a run on several local processes, or on a Ray cluster.

Every simulation and tournament here is a pure function of ``(config, k)`` for game ``k``
(seeds come from :mod:`cambio.seeds`), so games can be played anywhere and in any order.
:func:`play_all` hands out chunks of consecutive games and returns the results **in game
order**, so a summary folded from them is identical whatever ``workers`` or cluster played
them; only timing fields differ.

``cambio sim cards|board`` and ``cambio tournament cards|board`` take ``--workers N`` (local
processes) and ``--ray ADDRESS`` (``local`` starts a Ray instance on this machine; otherwise
the address of a running cluster, whose workers need this version of cambio installed).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.context import BaseContext
from typing import Any, Generic, TypeVar

C = TypeVar("C")
R = TypeVar("R")


@dataclass(frozen=True)
class Where:
    """Where games are played: ``workers`` local processes (1: this process) or Ray."""

    workers: int = 1
    ray: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError("workers must be at least 1")
        if self.ray is not None and not self.ray.strip():
            raise ValueError("--ray needs an address, or 'local'")


LOCAL = Where()
"""This process only."""


def play_chunk(play: Callable[[C, int], R], config: C, start: int, stop: int) -> list[R]:
    return [play(config, k) for k in range(start, stop)]


def chunks(games: int, parts: int, most: int = 500) -> list[tuple[int, int]]:
    """Consecutive ranges of games: about 8 per part (for an even finish and a live progress
    bar), at most ``most`` games each."""
    size = max(1, min(most, games // max(1, parts * 8)))
    return [(lo, min(games, lo + size)) for lo in range(0, games, size)]


@dataclass
class _Ordered(Generic[R]):
    """Chunk results as they arrive, handed back in game order at the end."""

    parts: list[list[R] | None]

    def put(self, i: int, results: list[R]) -> None:
        self.parts[i] = results

    def all(self) -> list[R]:
        out: list[R] = []
        for part in self.parts:
            assert part is not None
            out += part
        return out


def play_all(play: Callable[[C, int], R], config: C, games: int, where: Where = LOCAL,
             advance: Callable[[int], None] | None = None) -> list[R]:
    """``[play(config, k) for k in range(games)]``, on ``where``; results in game order.

    ``play`` must be a module-level function and ``config`` and the results picklable.
    """
    if where.ray is None and where.workers == 1:
        out = []
        for k in range(games):
            out.append(play(config, k))
            if advance is not None:
                advance(1)
        return out
    return play_ranges(partial(play_chunk, play), config, games, where, advance)


def play_ranges(play_range: Callable[[C, int, int], list[R]], config: C, games: int,
                where: Where = LOCAL, advance: Callable[[int], None] | None = None,
                most: int = 500) -> list[R]:
    """Like :func:`play_all` for an engine that plays a range of games at once:
    ``play_range(config, start, stop)`` returns the results of games ``start .. stop-1``.
    Ranges hold at most ``most`` games."""
    if where.ray is not None:
        return _on_ray(play_range, config, games, where, advance, most)
    ranges = chunks(games, where.workers, most)
    ordered: _Ordered[R] = _Ordered([None] * len(ranges))
    if where.workers == 1:
        for i, (lo, hi) in enumerate(ranges):
            ordered.put(i, play_range(config, lo, hi))
            if advance is not None:
                advance(hi - lo)
        return ordered.all()
    with ProcessPoolExecutor(where.workers, mp_context=_context()) as pool:
        pending: dict[Future[list[R]], int] = {
            pool.submit(play_range, config, lo, hi): i for i, (lo, hi) in enumerate(ranges)}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                i = pending.pop(future)
                ordered.put(i, future.result())
                if advance is not None:
                    advance(ranges[i][1] - ranges[i][0])
    return ordered.all()


def _context() -> BaseContext:
    """fork where there is one: a worker then starts in milliseconds instead of importing
    everything anew (a third of a 20,000-game run on two cores). The children only play games
    and return results: they never touch the console, whose progress-bar thread is the only
    other thread the parent runs."""
    return get_context("fork" if "fork" in get_all_start_methods() else "spawn")


def _call_range(play_range: Callable[[C, int, int], list[R]], config: C, start: int,
                stop: int) -> list[R]:
    return play_range(config, start, stop)


LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch between a node reachable by other machines and one on loopback only (its
default off Linux, where Ray runs no clusters). ``--ray local`` sets it to ``0`` before Ray
is imported (Ray reads it then), so the local instance's processes listen on 127.0.0.1
only: they serve nobody else, and nothing else on the network should reach them. (A program
that imported Ray itself before calling this gets Ray's default unless it set the variable.)"""


def _on_ray(play_range: Callable[[C, int, int], list[R]], config: C, games: int, where: Where,
            advance: Callable[[int], None] | None, most: int) -> list[R]:
    from cambio.extras import ServiceFailed, needs

    if where.ray == "local":
        os.environ.setdefault(LOOPBACK_ONLY, "0")
    with needs("research", "--ray"):
        import ray

    started = False
    if not ray.is_initialized():
        try:
            if where.ray == "local":
                # Ours alone, so its start-up chatter (a token made, an instance started)
                # is noise on the command's stderr: errors only.
                ray.init(num_cpus=where.workers if where.workers > 1 else os.cpu_count(),
                         include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
            else:
                ray.init(address=where.ray, log_to_driver=False)
        except Exception as exc:  # Ray's own errors: timeouts, connection, files
            what = "a local Ray instance did not start" if where.ray == "local" else \
                f"the Ray cluster at {where.ray} could not be reached"
            reason = " ".join(str(exc).split())[:300] or type(exc).__name__
            raise ServiceFailed(f"--ray: {what} ({type(exc).__name__}: {reason}); run "
                                "again, or play on local processes with --workers N") from None
        started = True
    try:
        remote: Any = ray.remote(_call_range)  # a plain function: Ray refuses partials
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        ranges = chunks(games, max(1, int(resources.get("CPU", 1))), most)
        ordered: _Ordered[R] = _Ordered([None] * len(ranges))
        refs: dict[Any, int] = {remote.remote(play_range, config, lo, hi): i
                                for i, (lo, hi) in enumerate(ranges)}
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                i = refs.pop(ref)
                ordered.put(i, ray.get(ref))
                if advance is not None:
                    advance(ranges[i][1] - ranges[i][0])
        return ordered.all()
    finally:
        if started:
            ray.shutdown()


__all__ = ["LOCAL", "Where", "chunks", "play_all", "play_chunk", "play_ranges"]
