"""Card-game bots, and the registry that names them for the CLI and the simulator."""

from __future__ import annotations

from collections.abc import Callable

from .base import CardBot, play_round
from .easy import EasyBot
from .memory import MemoryBot, MemoryParams
from .random_bot import RandomBot

BOTS: dict[str, Callable[[int], CardBot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "memory": MemoryBot,
    "medium": MemoryBot,
}
"""Bot constructors by name; each takes a seed. ``easy`` / ``medium`` / ``hard`` are the
difficulty levels offered wherever a person picks an opponent."""

DIFFICULTIES = ("easy", "medium", "hard")


def make_bot(name: str, seed: int) -> CardBot:
    """A fresh bot of kind ``name``; raises ``ValueError`` naming the known bots."""
    try:
        factory = BOTS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return factory(seed)


def check_bot_name(name: str) -> str:
    """``name`` normalised, or ``ValueError`` if no bot answers to it."""
    make_bot(name, 0)
    return name.strip().lower()


__all__ = ["BOTS", "DIFFICULTIES", "CardBot", "EasyBot", "MemoryBot", "MemoryParams",
           "RandomBot", "check_bot_name", "make_bot", "play_round"]
