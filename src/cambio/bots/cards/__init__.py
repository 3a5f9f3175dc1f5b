"""Card-game bots, and the registry that names them for the CLI and the simulator."""

from __future__ import annotations

from collections.abc import Callable

from .base import CardBot, play_round
from .memory import MemoryBot, MemoryParams
from .random_bot import RandomBot

BOTS: dict[str, Callable[[int], CardBot]] = {
    "random": RandomBot,
    "memory": MemoryBot,
}
"""Bot constructors by name; each takes a seed."""


def make_bot(name: str, seed: int) -> CardBot:
    """A fresh bot of kind ``name``; raises ``ValueError`` naming the known bots."""
    try:
        factory = BOTS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return factory(seed)


__all__ = ["BOTS", "CardBot", "MemoryBot", "MemoryParams", "RandomBot", "make_bot",
           "play_round"]
