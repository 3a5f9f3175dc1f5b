"""Old class names that still answer, for one release, with a ``DeprecationWarning``.

A bot class is named after its method (``BatchRolloutSearchBot``), not after its history
(``DeepBot``). Code written against an old name keeps working until the release after the
rename, and is told the new name each time it asks for the old one (CHANGELOG.md,
"Deprecated"). The registry names (``deep``, ``memory``, ``hard``...) are not affected.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

CARD_BOTS_RENAMED = {
    "EasyBot": "SlippingBot",
    "MemoryBot": "ExpectedPointsBot",
    "ExpertBot": "OpponentModelBot",
    "SearchBot": "RolloutSearchBot",
    "DeepBot": "BatchRolloutSearchBot",
}
"""Old card-bot class name: new name (renamed after 0.1.0)."""

BOARD_BOTS_RENAMED = {"NativeBot": "CompiledAlphaBetaBot"}
"""Old board-bot class name: new name (renamed after 0.1.0)."""


def warn_renamed(module: str, old: str, new: str) -> None:
    warnings.warn(f"{module}.{old} is deprecated: the class is now {module}.{new} (the old "
                  "name will be removed in a later release)", DeprecationWarning, stacklevel=3)


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` (PEP 562) for ``module``: each old name in ``names``
    returns the class under its new name, with a warning; anything else is missing."""

    def __getattr__(name: str) -> Any:
        new = names.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warn_renamed(module, name, new)
        return getattr(sys.modules[module], new)

    return __getattr__


__all__ = ["BOARD_BOTS_RENAMED", "CARD_BOTS_RENAMED", "renamed", "warn_renamed"]
