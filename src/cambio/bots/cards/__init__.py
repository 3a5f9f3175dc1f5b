"""Card-game bots, and the registry that names them for the CLI and the simulator."""

from __future__ import annotations

from collections.abc import Callable

from ..resolve import external_factory
from .base import CardBot, play_round
from .deep import DEEP_ROWS, DeepBot
from .easy import EasyBot
from .expert import ExpertBot, ExpertParams
from .memory import MemoryBot, MemoryParams
from .random_bot import RandomBot
from .search import SearchBot, parse_budget
from .styles import StyleBot, rusher, snapper


def _hard(seed: int) -> CardBot:
    """The ``hard`` difficulty: :class:`~cambio.bots.cards.deep.DeepBot`, ``expert``'s
    choices checked at every decision by :data:`~cambio.bots.cards.deep.DEEP_ROWS` native
    rollouts (docs/cards-strength.md)."""
    return DeepBot(seed)


BOTS: dict[str, Callable[[int], CardBot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "memory": MemoryBot,
    "medium": MemoryBot,
    "expert": ExpertBot,
    "hard": _hard,
    "search": SearchBot,
    "rusher": rusher,
    "snapper": snapper,
}
"""Bot constructors by name; each takes a seed. ``easy`` / ``medium`` / ``hard`` are the
difficulty levels offered wherever a person picks an opponent. ``rusher`` and ``snapper``
are panel styles (:mod:`~cambio.bots.cards.styles`) written against the public view API
only, for measuring the other bots against opponents they do not model."""

DIFFICULTIES = ("easy", "medium", "hard")


def make_bot(name: str, seed: int) -> CardBot:
    """A fresh bot of kind ``name``; raises ``ValueError`` naming the known bots.

    ``search:BUDGET`` gives the search bot a budget: ``search:300ms``, ``search:4000it``.
    """
    kind, _, budget = name.strip().lower().partition(":")
    if kind == "search" and budget:
        return SearchBot(seed, **parse_budget(budget))  # type: ignore[arg-type]
    factory = BOTS.get(name.strip().lower()) or external_factory(name, "cards")
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}, "
                         "or MODULE:CALLABLE (docs/envs.md)")
    bot: CardBot = factory(seed)
    return bot


def check_bot_name(name: str) -> str:
    """``name`` normalised, or ``ValueError`` if no bot answers to it."""
    make_bot(name, 0)
    return name.strip().lower() if name.strip().lower() in BOTS else name.strip()


__all__ = ["BOTS", "DEEP_ROWS", "DIFFICULTIES", "CardBot", "DeepBot", "EasyBot", "ExpertBot",
           "ExpertParams", "MemoryBot", "MemoryParams", "RandomBot", "SearchBot", "StyleBot",
           "check_bot_name", "make_bot", "play_round"]
