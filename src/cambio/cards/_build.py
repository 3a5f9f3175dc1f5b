"""Choose between the mypyc-compiled card engine and its source (see ``setup.py``)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings


def _use_source_if_stale() -> bool:
    """Load ``state.py`` itself when its mypyc build is stale or ``CAMBIO_PURE_PYTHON`` is set.

    An editable install compiles ``state.py`` in place; after the source is edited, the old
    compiled module would otherwise keep running the old rules. Returns whether the compiled
    module is in use.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "state.py")
    built = [os.path.join(here, "state" + suffix)
             for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    built = [b for b in built if os.path.exists(b)]
    if not built:
        return False
    pure = bool(os.environ.get("CAMBIO_PURE_PYTHON"))
    stale = os.path.getmtime(built[0]) < os.path.getmtime(source)
    if not (pure or stale):
        return True
    if stale and not pure:
        warnings.warn("cambio: the compiled card engine is older than state.py; running the "
                      "source instead (run `make` to rebuild)", stacklevel=2)
    spec = importlib.util.spec_from_file_location("cambio.cards.state", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return False


COMPILED = _use_source_if_stale()
"""Whether the mypyc-compiled engine is running (about 4x faster random play)."""
