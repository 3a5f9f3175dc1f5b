"""Choose between the mypyc-compiled card engine and its source (see ``setup.py``)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings

from ._source_hash import HASH_FILE, pure_python, source_hash


def _recorded_hash(here: str) -> str | None:
    try:
        with open(os.path.join(here, HASH_FILE), encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return None


def is_stale(here: str) -> bool:
    """Whether the compiled module in ``here`` was built from another ``state.py`` than the
    one beside it (or its build recorded nothing)."""
    return _recorded_hash(here) != source_hash(os.path.join(here, "state.py"))


def use_compiled() -> bool:
    """Load ``state.py`` itself when its mypyc build is stale or ``CAMBIO_PURE_PYTHON`` asks
    for it (:func:`._source_hash.pure_python`: ``1``, not ``0``).

    An editable install compiles ``state.py`` in place; after the source is edited, the old
    compiled module would otherwise keep running the old rules. Stale means the source's hash
    differs from the one the build recorded (file times are not kept by pip, so they would
    call every installed wheel stale). Returns whether the compiled module is in use.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "state.py")
    built = [os.path.join(here, "state" + suffix)
             for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    if not any(os.path.exists(b) for b in built):
        return False
    pure = pure_python()
    stale = not pure and is_stale(here)
    if not (pure or stale):
        return True
    if stale:
        warnings.warn("cambio: the compiled card engine was built from another state.py; "
                      "running the source instead (rebuild: pip install -e . or make)",
                      stacklevel=3)
    spec = importlib.util.spec_from_file_location("cambio.cards.state", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return False


COMPILED = use_compiled()
"""Whether the mypyc-compiled engine is running (about 3x faster random play:
benchmarks/cards_random.py, docs/performance.md)."""
