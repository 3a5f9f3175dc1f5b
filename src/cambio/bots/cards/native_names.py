"""Which card bots have a native version in the batch engine, without loading numba.

``cambio sim cards`` picks its engine from this (the kernels themselves, in
:mod:`cambio.bots.cards.native`, take a second or two to import).
"""

from __future__ import annotations

RANDOM, MEMORY = 0, 1
NATIVE_KINDS = {"random": RANDOM, "memory": MEMORY, "medium": MEMORY}
"""Bot names with a native version, and the kernel's code for each."""

__all__ = ["MEMORY", "NATIVE_KINDS", "RANDOM"]
