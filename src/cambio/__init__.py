"""cambio: exact engines, bots, records and play for both games published as *Cambio*.

The two rules cores, :mod:`cambio.cards` (the memory card game) and :mod:`cambio.board`
(the 5x5 dice board game), depend on nothing else in this package. Everything else --
records, bots, simulation, the terminal, the server and the adapters -- is built on them.
"""

__version__ = "0.1.0"

from .kernel_cache import ensure_cache as _ensure_cache

_ensure_cache()
