"""Seeds derived from a run's seed, so any single game of a run can be replayed on its own."""

from __future__ import annotations

import hashlib


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers, stable across Python versions and platforms."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
