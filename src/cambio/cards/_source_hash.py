"""What the build and the check at import share: what "the source that was compiled"
means, and whether ``CAMBIO_PURE_PYTHON`` asks for the pure-Python engine.

Standard library only: ``setup.py`` loads this file alone (a build environment has none of
cambio's dependencies), and ``cambio.cards._build`` imports it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping

HASH_FILE = "state.sha256"
"""Written by the build next to the compiled module: the SHA-256 of the ``state.py`` it
compiled."""


def source_hash(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


PURE_PYTHON = "CAMBIO_PURE_PYTHON"
"""The variable that asks for the pure-Python engine (no build with mypyc, or not loading
the compiled module)."""
NO = frozenset({"", "0", "false", "no", "off"})
"""Values of :data:`PURE_PYTHON` that mean "compiled" (any case, spaces ignored)."""


def pure_python(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``CAMBIO_PURE_PYTHON`` asks for the pure-Python engine: set to anything but
    ``0``, ``false``, ``no``, ``off`` or nothing (``1``, ``true``, ``yes`` do)."""
    return environ.get(PURE_PYTHON, "").strip().lower() not in NO
