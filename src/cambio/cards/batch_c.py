"""The C kernel of uniform play (``cambio.cards._uniform``, built from ``_uniform.c``) and the
choice between it and the numba loop.

:func:`cambio.cards.batch.play_uniform` plays whole rounds of uniform random play with the C
kernel when it is built, current and able to play the rules, and with numba otherwise: the
same rounds either way (``tests/cards/test_batch_c.py`` compares them round by round). The
C kernel is an optional part of the build (``setup.py``): without a compiler, or when it
failed to build, numba plays and nothing else changes.

The C kernel reads the rules from the same flattened rule set as the numba kernels
(:func:`cambio.cards.batch.flatten_rules`), so it holds no copy of any rule; what it cannot
follow is named here and sends a rule set to numba instead:

* a field outside :data:`C_FIELDS` moved off the ``rulebook`` value (a rule the C code does
  not implement, even if the numba kernels learn it later), or a field of :data:`C_VALUES`
  at a value not listed there;
* a record layout or a rule table that no longer matches ``batch_kernels.py``'s (the module
  lists the constants it was written for; a mismatch leaves it unused);
* a build from another ``_uniform.c`` than the one beside it (an editable install after an
  edit): the same guard as the mypyc-compiled engine's (``cambio.cards._build``), with the
  source's SHA-256 compiled into the module.

``CAMBIO_BATCH_KERNEL`` (``auto``, ``c`` or ``numba``) or ``play_uniform(kernel=...)``
chooses; ``c`` raises :class:`CKernelError` saying why when the C kernel cannot play.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Mapping
from functools import lru_cache
from types import ModuleType
from typing import Any

from . import batch_kernels as k
from ._source_hash import source_hash
from .rules import PRESETS, Power, PowerTrigger, Resnap, Rules, TieRule

KERNEL_ENV = "CAMBIO_BATCH_KERNEL"
"""Chooses the uniform loop's kernel: ``auto`` (the default: C when it can play), ``c`` or
``numba``."""
KERNELS = ("auto", "c", "numba")
SOURCE = "_uniform.c"
MODULE = "cambio.cards._uniform"

C_FIELDS = frozenset({
    # Read through rf (the card values and powers, the flags) or through the deck dealt.
    "players_per_extra_deck", "jokers_per_deck", "value_ace", "value_jack", "value_queen",
    "value_black_king", "value_red_king", "value_joker", "opening_peek", "draw_from_discard",
    "power_trigger", "powers_optional", "power_seven_eight", "power_nine_ten",
    "power_jack_queen", "power_black_king", "power_red_king", "resnap", "snap_penalty",
    "tie_rule", "lock_caller", "caller_may_snap", "max_grid", "empty_grid_calls_cambio",
    "earliest_cambio_turn", "one_snap_per_discard", "max_turns",
    # Not read by a round at all.
    "preset_name", "min_players", "max_players", "next_round", "match_target",
    "match_reset_to", "match_resets",
})
"""The rule fields the C kernel plays at any value of :data:`C_VALUES` (every value, for the
others). Every other field must keep its ``rulebook`` value."""

C_VALUES: Mapping[str, frozenset[Any]] = {
    "tie_rule": frozenset({TieRule.ALL_TIED_WIN, TieRule.MOST_CARDS_THEN_NOT_CALLER}),
    "power_trigger": frozenset(PowerTrigger),
    "resnap": frozenset(Resnap),
    **{f: frozenset({Power.NONE, Power.PEEK_OWN, Power.PEEK_OTHER, Power.SWAP_OWN_OTHER,
                     Power.SWAP_ANY, Power.LOOK_OWN_OTHER_MAY_SWAP, Power.LOOK_ANY_SWAP_ANY})
       for f in ("power_seven_eight", "power_nine_ten", "power_jack_queen",
                 "power_black_king", "power_red_king")},
}
"""The values the C kernel implements, for the fields where a new value would be a new rule
(a power, a tie rule)."""

LAYOUT = ("N_SC", "POLL", "SEED", "ACTIONS", "SNAP_RIGHT", "PHASE", "CHANCE", "DLEN", "PLEN",
          "CALLER", "WINDOW", "TURN_NUMBER", "R_PLAYERS", "R_MOST_CARDS_TIE", "R_SLOTS",
          "R_WIDTH", "P_LOOK_ANY", "PH_ROUND_OVER", "N_RES", "RES_CALLER", "SWAP_DECK",
          "END_TURN_CAP", "WINDOW_CLOSED")
"""The constants of ``batch_kernels.py`` the C kernel was written against (each the last of
its group, or one that moves if a group changes). ``rf`` may hold more after ``R_WIDTH``:
flags of rules the C kernel does not implement, which :func:`c_blockers` keeps from it."""


class CKernelError(RuntimeError):
    """The C kernel was asked for (``kernel="c"``) and cannot play."""


def c_blockers(rules: Rules) -> list[str]:
    """The fields of ``rules`` the C kernel does not play (empty: it does)."""
    base = PRESETS["rulebook"]
    out = []
    for name in Rules.__dataclass_fields__:
        value = getattr(rules, name)
        if name in C_VALUES:
            if value not in C_VALUES[name]:
                out.append(name)
        elif name not in C_FIELDS and value != getattr(base, name):
            out.append(name)
    return out


def is_stale(module: ModuleType, here: str) -> bool:
    """Whether ``module`` was compiled from another ``_uniform.c`` than the one in ``here``
    (a missing source is nothing to compare with: not stale)."""
    source = os.path.join(here, SOURCE)
    if not os.path.exists(source):
        return False
    return bool(getattr(module, "SOURCE_SHA256", "") != source_hash(source))


def layout_mismatch(module: ModuleType) -> list[str]:
    """The constants where the module and ``batch_kernels.py`` differ."""
    theirs = module.constants()
    return [name for name in LAYOUT if theirs.get(name) != getattr(k, name)]


@lru_cache(maxsize=1)
def load() -> tuple[ModuleType | None, str]:
    """The C kernel if it is built and current, else None; and why not ("" if loaded)."""
    try:
        module = importlib.import_module(MODULE)
    except ImportError:
        return None, "the C kernel is not built (no compiler at install, or its build failed)"
    here = os.path.dirname(os.path.abspath(__file__))
    if is_stale(module, here):
        # At play_uniform's caller (load <- why_not <- kernel_for <- play_uniform).
        warnings.warn("cambio: the C kernel was built from another _uniform.c; playing "
                      "with numba instead (rebuild: pip install -e . or make)", stacklevel=5)
        return None, "the C kernel was built from another _uniform.c (rebuild it)"
    mismatch = layout_mismatch(module)
    if mismatch:
        return None, ("the C kernel's record layout is not batch_kernels.py's "
                      f"({', '.join(mismatch)}); update _uniform.c")
    return module, ""


def requested(kernel: str | None = None) -> str:
    """``kernel``, else ``CAMBIO_BATCH_KERNEL``, else ``auto``; a ValueError if unknown."""
    choice = (kernel if kernel is not None else os.environ.get(KERNEL_ENV, "")).strip().lower()
    choice = choice or "auto"
    if choice not in KERNELS:
        raise ValueError(f"unknown batch kernel {choice!r}; choose from {', '.join(KERNELS)}")
    return choice


def why_not(rules: Rules) -> str:
    """Why the C kernel cannot play ``rules`` ("" if it can)."""
    module, reason = load()
    if module is None:
        return reason
    blockers = c_blockers(rules)
    if blockers:
        return f"the C kernel does not play {', '.join(blockers)} off their rulebook values"
    return ""


def kernel_for(rules: Rules, kernel: str | None = None) -> ModuleType | None:
    """The C module to play ``rules`` with, or None for numba (see the module's doc)."""
    choice = requested(kernel)
    if choice == "numba":
        return None
    reason = why_not(rules)
    if reason:
        if choice == "c":
            raise CKernelError(reason)
        return None
    return load()[0]


def build_info() -> dict[str, str]:
    """The C kernel's compiler and flags as its build recorded them (empty if not built)."""
    module, _ = load()
    if module is None:
        return {}
    return {"compiler": str(module.COMPILER), "cflags": str(module.CFLAGS)}


__all__ = ["C_FIELDS", "C_VALUES", "KERNELS", "KERNEL_ENV", "CKernelError", "build_info",
           "c_blockers", "kernel_for", "load", "requested", "why_not"]
