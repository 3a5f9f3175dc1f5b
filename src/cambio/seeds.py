"""The one way the project derives seeds: a child seed from a parent seed and labels.

A run's seed gives each game its own seed (``derive_seed(run, k)``), a game's seed gives each
bot its own (``derive_seed(game, "bot", seat)``), so any single game can be replayed on its
own. The derivation is one-way: knowing a child (a bot's seed, which play can reveal) tells
nothing about the parent or its other children (the decks). Changing it changes every seeded
game and record, so its outputs are pinned by ``tests/test_seeds.py``.
"""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *labels: int | str) -> int:
    """A 63-bit seed from ``seed`` and ``labels``, stable across Python versions and
    platforms (blake2b of their text, not ``hash()``)."""
    text = ":".join(str(x) for x in (seed, *labels)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
