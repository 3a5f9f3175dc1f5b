"""Compile the numba kernels into their on-disk caches before the tests run (``make``).

Every kernel is compiled on its first call in a process that finds no cache. Under
``pytest -n 4`` the first calls happen in several workers at once, and each worker compiles
the same kernels (the cache is written only when a compilation ends): minutes of CPU spent
twice or more, on the two cores the tests need. Compiled here once, in three processes side
by side (one per kernel family), every later process loads them from the cache in about a
second. ``python scripts/warm_numba.py [FAMILY ...]``; no argument warms every family.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from cambio.bots.kernels import FAMILIES as BOT_FAMILIES
from cambio.bots.kernels import mark_compiled


def cards() -> None:
    """The batch card engine: uniform play (the generic loop), a vector env whose bots move
    natively, and a turn of the PettingZoo env's game."""
    import numpy as np

    from cambio.cards import Rules
    from cambio.cards.batch import play_uniform
    from cambio.envs.cards_codec import DEFAULT_SLOTS, capped_rules
    from cambio.envs.cards_vector import CardsVectorEnv
    from cambio.envs.native_seat import BatchTurns

    play_uniform(Rules.preset("rulebook"), 2, [1, 2], kernel="numba")
    env = CardsVectorEnv(2, "rulebook", ("memory",))
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        masks = obs["action_mask"]  # the dict observation's legal actions
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, *_ = env.step(actions)
    turns = BatchTurns(capped_rules(Rules.preset("rulebook"), DEFAULT_SLOTS), 2, DEFAULT_SLOTS)
    turns.reset(1)
    turns.step(int(np.flatnonzero(turns.mask(turns.current()))[0]))


def cards_fixed() -> None:
    """The uniform loop compiled for rulebook's rules at 2 players: the benchmark's loop
    where the C kernel is not built. A family of its own, so that it compiles beside the
    generic loop (each about two minutes of one core: numba types the engine's inlined
    helpers again in every loop)."""
    from cambio.cards import Rules
    from cambio.cards.batch import play_uniform

    play_uniform(Rules.preset("rulebook"), 2, [1, 2], fixed=True, kernel="numba")


FAMILIES: dict[str, Callable[[], None]] = {**BOT_FAMILIES, "cards": cards,
                                           "cards-fixed": cards_fixed}
"""The bots' families (:mod:`cambio.bots.kernels`: what the server warms too), and the batch
engine's."""


def _timed(name: str) -> tuple[str, float]:
    start = time.perf_counter()
    FAMILIES[name]()
    if name in BOT_FAMILIES:  # a server then loads it without a subprocess first
        mark_compiled(name)
    return name, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", nargs="*", choices=[*FAMILIES, []], default=[])
    names = parser.parse_args(argv).family or list(FAMILIES)
    print(f"warm_numba: compiling {', '.join(names)} into numba's cache ...", flush=True)
    with ProcessPoolExecutor(len(names)) as pool:
        for name, seconds in pool.map(_timed, names):
            print(f"warm_numba: {name} ready in {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
