"""Card-game bots, and the registry that names them for the CLI and the simulator."""

from __future__ import annotations

from collections.abc import Callable

from .base import CardBot, play_round
from .easy import EasyBot
from .expert import ExpertBot, ExpertParams
from .memory import MemoryBot, MemoryParams
from .random_bot import RandomBot
from .search import FINAL_ROLLOUTS, SearchBot, parse_budget

HARD_BUDGET = "0it"
"""The ``hard`` difficulty: ``search`` with this budget for the decisions ``expert`` finds
close (none: measured, the focused search of close decisions was worth about a point for
30-50 times the cost), plus :data:`~cambio.bots.cards.search.FINAL_ROLLOUTS` rollouts for each
decision of its last turn after another seat calls (see docs/cards-strength.md)."""


def _hard(seed: int) -> CardBot:
    return SearchBot(seed, **parse_budget(HARD_BUDGET),  # type: ignore[arg-type]
                     final=FINAL_ROLLOUTS)

BOTS: dict[str, Callable[[int], CardBot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "memory": MemoryBot,
    "medium": MemoryBot,
    "expert": ExpertBot,
    "hard": _hard,
    "search": SearchBot,
}
"""Bot constructors by name; each takes a seed. ``easy`` / ``medium`` / ``hard`` are the
difficulty levels offered wherever a person picks an opponent."""

DIFFICULTIES = ("easy", "medium", "hard")


def make_bot(name: str, seed: int) -> CardBot:
    """A fresh bot of kind ``name``; raises ``ValueError`` naming the known bots.

    ``search:BUDGET`` gives the search bot a budget: ``search:300ms``, ``search:4000it``.
    """
    kind, _, budget = name.strip().lower().partition(":")
    if kind == "search" and budget:
        return SearchBot(seed, **parse_budget(budget))  # type: ignore[arg-type]
    try:
        factory = BOTS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return factory(seed)


def check_bot_name(name: str) -> str:
    """``name`` normalised, or ``ValueError`` if no bot answers to it."""
    make_bot(name, 0)
    return name.strip().lower()


__all__ = ["BOTS", "DIFFICULTIES", "CardBot", "EasyBot", "ExpertBot", "ExpertParams",
           "MemoryBot", "MemoryParams", "RandomBot", "SearchBot", "check_bot_name", "make_bot",
           "play_round"]
