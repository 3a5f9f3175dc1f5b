"""Bots from outside the package, by name: import paths and installed packages' entry points.

Wherever a bot is named (``--bots``, ``simulate``, tournaments, the seat envs, a web table),
a name the built-in registry does not know is resolved here, in this order:

1. ``NAME[:ARG]`` where ``NAME`` is an entry point of an installed package, in the group
   ``cambio.bots`` (card bots) or ``cambio.board_bots`` (board bots);
2. ``MODULE:CALLABLE[:ARG]`` (``my_pkg.agents:make``) or ``FILE.py:CALLABLE[:ARG]``
   (``/home/me/agent.py:make``; a relative file is read from the working directory).

The callable is a factory: a card bot's is called ``factory(seed)`` (or ``factory(seed, ARG)``)
and a board bot's ``factory(rules, seed)`` (or ``factory(rules, seed, ARG)``). Nothing is
registered in a process-wide table, so the same name means the same bot in this process, in
``--workers`` processes and on Ray workers: each resolves the name itself (a Ray cluster's
machines need the module or file at the same place).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

GROUPS = {"cards": "cambio.bots", "board": "cambio.board_bots"}
"""The entry-point group each game's bots are published in."""

SERVED = {"cards": "CAMBIO_SERVE_CARD_BOTS", "board": "CAMBIO_SERVE_BOARD_BOTS"}
"""The environment variables ``cambio serve --bot`` / ``--board-bot`` set: extra bot names
(separated by ``;``) the lobby offers. The environment reaches every server process (the
cluster's workers are its children), so each table resolves the name itself."""


def served_bots(game: str) -> list[str]:
    """The extra bot names the server was started with for ``game`` (only the built-in
    games take outside bots)."""
    variable = SERVED.get(game)
    if variable is None:
        return []
    return [n.strip() for n in os.environ.get(variable, "").split(";") if n.strip()]


@lru_cache(maxsize=256)
def external_factory(name: str, game: str) -> Callable[..., Any] | None:
    """The factory ``name`` names outside the built-in registry, with ``ARG`` bound, or
    ``None`` if ``name`` is not an entry point of ``game`` and has no ``:`` (so it cannot be
    an import path). A name that looks like an import path but does not import raises
    ``ValueError`` saying why."""
    name = name.strip()
    head, colon, rest = name.partition(":")
    plugin = _entry_point(GROUPS[game], head)
    if plugin is not None:
        return _bound(plugin, rest if colon else None)
    if not colon:
        return None
    target, colon, arg = rest.partition(":")
    try:
        factory = getattr(_module(head), target)
    except (ImportError, OSError, AttributeError, SyntaxError) as exc:
        raise ValueError(f"bot {name!r}: cannot import {target!r} from {head!r} ({exc})"
                         ) from None
    if not callable(factory):
        raise ValueError(f"bot {name!r}: {head}:{target} is not callable")
    return _bound(factory, arg if colon else None)


def entry_point_names(game: str) -> list[str]:
    """The bot names installed packages publish for ``game``."""
    return sorted(ep.name for ep in entry_points(group=GROUPS[game]))


def _bound(factory: Callable[..., Any], arg: str | None) -> Callable[..., Any]:
    if arg is None:
        return factory
    return lambda *args: factory(*args, arg)


def _entry_point(group: str, name: str) -> Callable[..., Any] | None:
    for ep in entry_points(group=group, name=name):
        loaded: Callable[..., Any] = ep.load()
        return loaded
    return None


@lru_cache(maxsize=64)
def _module(spec: str) -> Any:
    """A module by dotted name, or a ``.py`` file by path (loaded once per process under a
    name derived from its absolute path, so two files of the same name do not collide)."""
    if not spec.endswith(".py"):
        return importlib.import_module(spec)
    path = Path(spec).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"no file {path}")
    module_name = "cambio_bot_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    module_spec.loader.exec_module(module)
    return module


__all__ = ["GROUPS", "SERVED", "entry_point_names", "external_factory", "served_bots"]
