"""Deprecated: the seed derivation moved to :mod:`cambio.seeds`.

Kept for one release so that outside code importing ``cambio.sim.seeds.derive_seed`` keeps
working (a stable public API for outside bots); importing a name from here warns.
``derive_seed`` is the new function, whose labels may be text as well as ints (the old one
took ints only, and gives the same seeds for them).
"""

from __future__ import annotations

import warnings
from typing import Any

from cambio import seeds as _seeds

_MOVED = {"derive_seed": _seeds.derive_seed}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(f"cambio.sim.seeds.{name} moved to cambio.seeds.{name}; the old path "
                      "will be removed in a later release", DeprecationWarning, stacklevel=2)
        return _MOVED[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["derive_seed"]  # noqa: F822 -- provided by __getattr__, with a warning
