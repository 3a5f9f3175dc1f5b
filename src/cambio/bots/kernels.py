"""The bots' numba kernels by family, and compiling them into numba's on-disk cache.

A kernel compiles on its first call in a process whose cache holds no copy: about 100
CPU-seconds for the hard card bot's rollouts, about 47 for the dice game's ``native``
search. Compiled once (``make``'s ``scripts/warm_numba.py``, or the
server's low-priority warm-up: :mod:`cambio.server.kernels`), every later process loads
them from the cache in a second or two. A registry entry names the family its bot needs
(:attr:`cambio.bots.registry.BotEntry.kernels`).

``python -m cambio.bots.kernels [--nice N] FAMILY ...`` compiles (or loads) the families
and exits; the server runs it in a subprocess, so that compiling never holds the server's
GIL nor competes with it at the same priority.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import sys
import threading
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from .registry import BotEntry, Registry


def registries() -> dict[str, Registry]:
    """Each game's bot registry, imported when first asked for: importing the dice game's
    registry imports its bots' package, which a server that only imports this module (to
    warm kernels later) must not load (tests/test_bot_registry.py)."""
    from .board.registry import BOARD_BOTS
    from .cards.registry import CARD_BOTS

    return {"cards": CARD_BOTS, "board": BOARD_BOTS}

HOLD = "CAMBIO_KERNELS_HOLD"
"""A test hook: a server waits until the file this variable names exists before it loads or
compiles any kernel (:func:`hold`), so that a test sees a server whose kernels are not
loaded for as long as it likes (without spending the CPU of a cold compile)."""


def rollouts() -> None:
    """The hard card bot's rollouts (and the hints, which are its searches)."""
    from .cards import rollouts, worlds

    rollouts.warm()
    worlds.warm()


def board() -> None:
    """The dice game's compiled search, heads-up and at three players (max-n, the default
    ``native`` and ``hard`` bots', and paranoid)."""
    from cambio.board import Rules
    from cambio.board.setup import quick_setup

    from .board.native import search_value

    for rules, three in ((Rules(), "maxn"), (Rules(players=3), "maxn"),
                         (Rules(players=3), "paranoid")):
        position = quick_setup(rules, 1)
        search_value(position, 2, three=three)
        search_value(position, 2, three=three, threats=2)
    search_value(quick_setup(Rules(size=4), 1), 2, tuples=True)  # fitted to 4x4 only


FAMILIES: dict[str, Callable[[], None]] = {"rollouts": rollouts, "board": board}
"""Each family of the bots' kernels, by name, and the call that compiles (or loads) it."""


def entry(game: str, spec: str) -> BotEntry | None:
    """The registry entry of the bot ``spec`` of ``game`` (``None``: an outside bot, or
    a game without a registry here)."""
    registry = registries().get(game)
    return registry.entry(spec) if registry is not None else None


def offered(games: list[str]) -> list[str]:
    """The kernel families the bots offered for ``games`` need, in a fixed order."""
    known = registries()
    wanted = {e.kernels for g in games if g in known
              for e in known[g].entries.values() if e.offered and e.kernels}
    return [f for f in FAMILIES if f in wanted]


PACKAGE = Path(__file__).resolve().parents[1]


def _stamp(family: str) -> Path:
    """The file that says ``family`` was compiled into numba's cache from these sources.

    Its name holds a hash of numba's and Python's versions, the cache directory and every
    source file's size and time (what numba itself checks), so an upgrade or an edit makes
    a new name; it lives in ``NUMBA_CACHE_DIR`` if set (numba's cache is there), else in the
    user's cache directory."""
    cache = os.environ.get("NUMBA_CACHE_DIR")
    digest = hashlib.sha256(f"{_numba_version()}|{sys.version}|{cache}".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        info = path.stat()
        digest.update(f"|{path}:{info.st_size}:{info.st_mtime_ns}".encode())
    if cache:
        base = Path(cache)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "cambio"
    return base / f"kernels-{family}-{digest.hexdigest()[:16]}"


def _numba_version() -> str:
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return "?"


def compiled(family: str) -> bool:
    """Whether ``family`` was compiled into the cache from the sources installed now (then
    loading it in a process takes a second or two and compiles nothing)."""
    try:
        return _stamp(family).exists()
    except OSError:
        return False


def mark_compiled(family: str) -> None:
    """Leave the stamp of :func:`compiled` (``family`` is in the cache now)."""
    with contextlib.suppress(OSError):
        path = _stamp(family)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def _orphaned_exit() -> None:
    """Exit once the process that started this one is gone (a server killed with -9 must
    not leave a compile running behind it)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent").start()


def hold() -> None:
    """Wait for the file :data:`HOLD` names, if it names one (tests only)."""
    path = os.environ.get(HOLD)
    while path and not Path(path).exists():
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cambio.bots.kernels",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("family", nargs="+", choices=list(FAMILIES))
    parser.add_argument("--nice", type=int, default=0,
                        help="lower this process's priority by this much first")
    args = parser.parse_args(argv)
    _orphaned_exit()
    if args.nice:
        os.nice(args.nice)
    for name in args.family:
        start = time.process_time()
        FAMILIES[name]()
        mark_compiled(name)
        print(f"kernels: {name} ready in {time.process_time() - start:.1f} CPU-s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
