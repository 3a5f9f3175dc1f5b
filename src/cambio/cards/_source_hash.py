"""What "the source that was compiled" means, for the build and for the check at import.

Standard library only: ``setup.py`` loads this file alone (a build environment has none of
cambio's dependencies), and ``cambio.cards._build`` imports it.
"""

from __future__ import annotations

import hashlib

HASH_FILE = "state.sha256"
"""Written by the build next to the compiled module: the SHA-256 of the ``state.py`` it
compiled."""


def source_hash(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()
