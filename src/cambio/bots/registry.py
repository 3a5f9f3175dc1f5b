"""One bot registry per game: each bot's name, what it does, how strong it measured.

A registry is data, so the command line, the simulator, the lobby and the docs read the same
names and the same figures. Each entry names its factory as ``"module:callable"`` and imports
it on first use: importing the registry (and so the server or the CLI) loads no bot module,
and numba only when a compiled bot is first built.

Name to bot goes through exactly one function, :meth:`Registry.resolve`; the two games'
``make_bot`` call it. A bot spec is ``name`` or ``name:ARGUMENT`` (a budget such as
``search:300ms`` or ``native:1s``); the argument is handed to the factory as text.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BotEntry:
    """One bot of one game's registry."""

    name: str
    """The name in code: what the bot does (``deep``, ``alphabeta``)."""
    label: str
    """How a person sees it in the lobby."""
    method: str
    """One line on how it decides."""
    measured: str
    """Its measured strength, with the page it comes from."""
    stars: int
    """1 (weakest) to 5, derived from :attr:`measured` by the game's scale (see
    :func:`card_stars`, :func:`board_stars`), never set by hand."""
    factory: str
    """``"module:callable"``; called as ``callable(argument, seed, **context)``."""
    aliases: tuple[str, ...] = ()
    """Older names that keep working (``hard``, ``medium``): outside bots and docs use them."""
    level: str | None = None
    """``easy``, ``medium`` or ``hard`` when this bot is that difficulty."""
    offered: bool = True
    """Listed in the lobby (``perfect`` needs a solved board and is not)."""
    takes_argument: bool = False
    """Accepts ``name:ARGUMENT``."""
    kernels: str | None = None
    """The family of numba kernels it runs (:mod:`cambio.bots.kernels`), if any: compiled
    on first use in a process that finds them in no cache."""
    stand_in: str | None = None
    """A bot without kernels that plays in its place while its kernels load (the server
    does not make a table wait on a compile; docs/server.md)."""

    @property
    def display(self) -> str:
        """The one name a person sees for it everywhere (the lobby's picker, the table, the
        profile): its label without the method in brackets ("Medium", "Rusher"); a seat it
        takes is called ``f"{display} bot"``."""
        return self.label.split(" (")[0]

    def public(self) -> dict[str, Any]:
        """What the server sends the lobby about this bot."""
        return {"name": self.name, "label": self.label, "display": self.display,
                "method": self.method,
                "measured": self.measured, "strength": self.stars, "level": self.level,
                "aliases": list(self.aliases)}


class Registry:
    """The bots of one game, by name and by alias."""

    def __init__(self, game: str, entries: list[BotEntry]) -> None:
        self.game = game
        self.entries = {e.name: e for e in entries}
        self._names: dict[str, BotEntry] = {}
        for e in entries:
            for name in (e.name, *e.aliases):
                if name in self._names:
                    raise ValueError(f"bot name {name!r} given twice")
                self._names[name] = e

    def names(self) -> list[str]:
        """Every accepted name, canonical names first, then the aliases."""
        return [*self.entries, *(a for e in self.entries.values() for a in e.aliases)]

    def level(self, level: str) -> BotEntry:
        return next(e for e in self.entries.values() if e.level == level)

    def knows(self, spec: str) -> bool:
        """Whether ``spec``'s name (before any ``:``) is one of this registry's names; a name
        it does not know may still be an outside bot (:mod:`cambio.bots.resolve`)."""
        return spec.strip().lower().partition(":")[0] in self._names

    def resolve(self, spec: str) -> tuple[BotEntry, Callable[..., Any], str]:
        """``(entry, factory, argument)`` for a spec ``name[:ARGUMENT]``: the one place a
        name becomes a bot. Raises ``ValueError`` naming the known bots."""
        name, colon, argument = spec.strip().lower().partition(":")
        entry = self._names.get(name)
        if entry is None or (colon and not entry.takes_argument):
            raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(self.names())}")
        module, _, attr = entry.factory.partition(":")
        factory: Callable[..., Any] = getattr(importlib.import_module(module), attr)
        return entry, factory, argument

    def entry(self, spec: str) -> BotEntry | None:
        """The entry ``spec`` names (``None``: not one of this registry's)."""
        return self._names.get(spec.strip().lower().partition(":")[0])

    def make(self, spec: str, seed: int, **context: Any) -> Any:
        _, factory, argument = self.resolve(spec)
        return factory(argument, seed, **context)

    def public(self) -> list[dict[str, Any]]:
        """The offered bots, weakest first, as the lobby lists them; each alias follows its
        bot as an entry of its own with ``alias_of`` set, so that every name a table accepts
        is listed (a picker shows the entries without ``alias_of``)."""
        offered = [e for e in self.entries.values() if e.offered]
        out: list[dict[str, Any]] = []
        for e in sorted(offered, key=lambda e: e.stars):
            out.append({**e.public(), "alias_of": None})
            out += [{**e.public(), "name": alias, "alias_of": e.name} for alias in e.aliases]
        return out


def card_stars(win_share_vs_memory: float) -> int:
    """Stars from a card bot's heads-up win share against ``memory`` (rulebook): memory is
    3 by definition, each band about one clear step of measured strength."""
    bands = (0.15, 0.40, 0.515, 0.60)
    return 1 + sum(win_share_vs_memory >= b for b in bands)


def board_stars(elo: float) -> int:
    """Stars from a board bot's Elo over ``random`` on 5x5 (docs/board-strength.md)."""
    bands = (300.0, 1000.0, 1200.0, 1600.0)
    return 1 + sum(elo >= b for b in bands)


__all__ = ["BotEntry", "Registry", "board_stars", "card_stars"]
