"""Card-game bots, and the registry that names them for the CLI, the simulator and the lobby.

Importing this package loads the registry and the bots' shared base only; each bot's module
(and numba, for ``deep``) is imported when that bot is first built or named here
(``from cambio.bots.cards import BatchRolloutSearchBot`` still works, lazily).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..renamed import CARD_BOTS_RENAMED, warn_renamed
from ..resolve import external_factory
from .base import CardBot, play_round, tell_standing
from .registry import CARD_BOTS

if TYPE_CHECKING:
    from .deep import DEEP_ROWS, BatchRolloutSearchBot
    from .easy import SlippingBot
    from .expert import ExpertParams, OpponentModelBot
    from .memory import ExpectedPointsBot, MemoryParams
    from .random_bot import RandomBot
    from .search import RolloutSearchBot
    from .styles import StyleBot

_LAZY = {"DEEP_ROWS": "deep", "BatchRolloutSearchBot": "deep", "SlippingBot": "easy",
         "OpponentModelBot": "expert", "ExpertParams": "expert", "ExpectedPointsBot": "memory",
         "MemoryParams": "memory", "RandomBot": "random_bot", "RolloutSearchBot": "search",
         "StyleBot": "styles"}


def __getattr__(name: str) -> Any:
    """The bot classes, imported when first asked for (PEP 562); their old names
    (:data:`~cambio.bots.renamed.CARD_BOTS_RENAMED`) with a ``DeprecationWarning``."""
    if name in CARD_BOTS_RENAMED:
        warn_renamed(__name__, name, CARD_BOTS_RENAMED[name])
        name = CARD_BOTS_RENAMED[name]
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _factory(name: str) -> Callable[[int], CardBot]:
    return lambda seed: make_bot(name, seed)


BOTS: dict[str, Callable[[int], CardBot]] = {name: _factory(name) for name in CARD_BOTS.names()}
"""Bot constructors by every accepted name (canonical names, then aliases); each takes a
seed. ``easy`` / ``medium`` / ``hard`` are the difficulty levels offered wherever a person
picks an opponent; ``rusher`` and ``snapper`` are panel styles
(:mod:`~cambio.bots.cards.styles`) written against the public view API only."""

DIFFICULTIES = ("easy", "medium", "hard")


def make_bot(name: str, seed: int) -> CardBot:
    """A fresh bot of kind ``name``; raises ``ValueError`` naming the known bots.

    ``search:BUDGET`` gives the search bot a budget: ``search:300ms``, ``search:4000it``.
    Names resolve in :meth:`cambio.bots.registry.Registry.resolve`.
    """
    if not CARD_BOTS.knows(name):
        # Outside bots by entry point or import path (docs/envs.md).
        external = external_factory(name, "cards")
        if external is not None:
            outside: CardBot = external(seed)
            return outside
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(CARD_BOTS.names())}, "
                         "or MODULE:CALLABLE (docs/envs.md)")
    bot: CardBot = CARD_BOTS.make(name, seed)
    return bot


def check_bot_name(name: str) -> str:
    """``name`` normalised, or ``ValueError`` if no bot answers to it."""
    make_bot(name, 0)
    return name.strip().lower() if name.strip().lower() in BOTS else name.strip()


__all__ = [
    "BOTS",
    "CARD_BOTS",
    "DEEP_ROWS",
    "DIFFICULTIES",
    "BatchRolloutSearchBot",
    "CardBot",
    "ExpectedPointsBot",
    "ExpertParams",
    "MemoryParams",
    "OpponentModelBot",
    "RandomBot",
    "RolloutSearchBot",
    "SlippingBot",
    "StyleBot",
    "check_bot_name",
    "make_bot",
    "play_round",
    "tell_standing",
]
