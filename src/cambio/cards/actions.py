"""Actions as small ints, with a short text form that records and the terminal share.

An action is ``kind | a << 5 | b << 21`` where ``a`` and ``b`` are slot addresses
(``seat << 8 | slot``) or, for ``swap`` and ``give``, an index into the actor's own grid.
Ints keep the hot loop fast and give RL adapters a natural encoding; :func:`action_text` and
:func:`parse_action` convert exactly both ways.

>>> action_text(parse_action("snap 1.3"))
'snap 1.3'
>>> action_text(parse_action("switch 0.2 2.0"))
'switch 0.2 2.0'
>>> parse_action("swap 2") == swap(2)
True
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .errors import InvalidActionError

Action = int


class Kind(IntEnum):
    CAMBIO = 0
    DRAW = 1
    TAKE = 2
    SWAP = 3
    DISCARD = 4
    PEEK = 5
    LOOK = 6
    SWITCH = 7
    KEEP = 8
    SKIP = 9
    SNAP = 10
    GIVE = 11
    PASS = 12
    EXCHANGE = 13
    """Swap the held card for several cards of one value at once (``multi_exchange``)."""


# One Final name per kind: the compiled engine inlines Final constants (a module global it
# would look up in a dict on every use otherwise).
CAMBIO: Final = 0
DRAW: Final = 1
TAKE: Final = 2
SWAP: Final = 3
DISCARD: Final = 4
PEEK: Final = 5
LOOK: Final = 6
SWITCH: Final = 7
KEEP: Final = 8
SKIP: Final = 9
SNAP: Final = 10
GIVE: Final = 11
PASS: Final = 12
EXCHANGE: Final = 13

EXCHANGE_MAX: Final = 4
"""The most cards one exchange names (a dealt grid's size)."""
EXCHANGE_SLOTS: Final = 16
"""Exchanges name slots 0-15 (a bit each in the action's first argument)."""

SLOT_BITS: Final = 8
MAX_SLOTS: Final = 1 << SLOT_BITS
ADDR_MASK: Final = 0xFFFF

_NAMES = [k.name.lower() for k in Kind]
_NO_ARGS = {CAMBIO, DRAW, TAKE, DISCARD, KEEP, SKIP, PASS}
_ONE_SLOT = {SWAP, GIVE}
_ONE_ADDR = {PEEK, SNAP}
_TWO_ADDRS = {LOOK, SWITCH}

def addr(seat: int, slot: int) -> int:
    return seat << SLOT_BITS | slot


def addr_seat(a: int) -> int:
    return a >> SLOT_BITS


def addr_slot(a: int) -> int:
    return a & (MAX_SLOTS - 1)


def encode(kind: int, a: int = 0, b: int = 0) -> Action:
    """The action of ``kind`` with arguments ``a`` and ``b``: what :func:`kind_of`,
    :func:`arg_a` and :func:`arg_b` read back. Code outside the engine builds and reads
    actions only through these (and the named constructors below)."""
    return kind | a << 5 | b << 21


def kind_of(action: Action) -> int:
    return action & 31


def arg_a(action: Action) -> int:
    return (action >> 5) & ADDR_MASK


def arg_b(action: Action) -> int:
    return action >> 21


def swap(slot: int) -> Action:
    return SWAP | slot << 5


def give(slot: int) -> Action:
    return GIVE | slot << 5


def peek(seat: int, slot: int) -> Action:
    return PEEK | addr(seat, slot) << 5


def snap(seat: int, slot: int) -> Action:
    return SNAP | addr(seat, slot) << 5


def look(a: int, b: int) -> Action:
    return LOOK | a << 5 | b << 21


def switch(a: int, b: int) -> Action:
    return SWITCH | a << 5 | b << 21


def exchange(slots: list[int] | tuple[int, ...]) -> Action:
    """Exchange the held card for the cards in ``slots`` of your grid (2 to 4 of them)."""
    mask = 0
    for i in slots:
        mask |= 1 << i
    return EXCHANGE | mask << 5


def exchange_slots(action: Action) -> list[int]:
    """The slots an ``exchange`` names, lowest first."""
    mask = (action >> 5) & ADDR_MASK
    return [i for i in range(EXCHANGE_SLOTS) if mask >> i & 1]


def flipped(action: Action) -> Action:
    """``switch``/``look`` with its two addresses exchanged (any other action unchanged).

    Both orders name the same exchange or the same two cards; the engine offers one order
    and :meth:`State.play` accepts the other as that same action.
    """
    kind = action & 31
    if kind != LOOK and kind != SWITCH:
        return action
    return kind | (action >> 21) << 5 | ((action >> 5) & ADDR_MASK) << 21


def addr_text(a: int) -> str:
    return f"{a >> SLOT_BITS}.{a & (MAX_SLOTS - 1)}"


def action_text(action: Action) -> str:
    kind = action & 31
    if kind >= len(_NAMES):
        raise InvalidActionError(f"{action} is not an action code")
    name = _NAMES[kind]
    if kind in _NO_ARGS:
        return name
    a = (action >> 5) & ADDR_MASK
    if kind in _ONE_SLOT:
        return f"{name} {a}"
    if kind == EXCHANGE:
        return " ".join([name, *(str(i) for i in exchange_slots(action))])
    if kind in _ONE_ADDR:
        return f"{name} {addr_text(a)}"
    return f"{name} {addr_text(a)} {addr_text(action >> 21)}"


def _digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit()`` also accepts ``²`` or ``③``, which ``int`` rejects."""
    return text.isascii() and text.isdigit()


def _parse_addr(text: str, whole: str) -> int:
    seat_s, dot, slot_s = text.partition(".")
    if not dot or not _digits(seat_s) or not _digits(slot_s):
        raise InvalidActionError(f"{whole!r}: {text!r} is not a slot address (seat.slot, e.g. 1.3)")
    seat, slot = int(seat_s), int(slot_s)
    if seat >= 256 or slot >= MAX_SLOTS:
        raise InvalidActionError(f"{whole!r}: slot address {text!r} is out of range")
    return addr(seat, slot)


def parse_action(text: str) -> Action:
    """Read an action's text form; raise :class:`InvalidActionError` if it is malformed."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action must be a string, not {type(text).__name__}")
    if len(text) > 64:
        raise InvalidActionError("action text too long")
    parts = text.strip().lower().split()
    if not parts:
        raise InvalidActionError("empty action")
    name, args = parts[0], parts[1:]
    if name not in _NAMES:
        raise InvalidActionError(f"{text!r}: unknown action {name!r}; actions: {', '.join(_NAMES)}")
    kind = _NAMES.index(name)
    if kind == EXCHANGE:
        return _parse_exchange(text, args)
    want = 0 if kind in _NO_ARGS else 2 if kind in _TWO_ADDRS else 1
    if len(args) != want:
        raise InvalidActionError(f"{text!r}: {name} takes {want} argument(s), got {len(args)}")
    if kind in _NO_ARGS:
        return kind
    if kind in _ONE_SLOT:
        if not _digits(args[0]) or int(args[0]) >= MAX_SLOTS:
            raise InvalidActionError(f"{text!r}: {name} takes one of your slot numbers, e.g. 2")
        return kind | int(args[0]) << 5
    if kind in _ONE_ADDR:
        return kind | _parse_addr(args[0], text) << 5
    return kind | _parse_addr(args[0], text) << 5 | _parse_addr(args[1], text) << 21


def _parse_exchange(text: str, args: list[str]) -> Action:
    if not 2 <= len(args) <= EXCHANGE_MAX:
        raise InvalidActionError(f"{text!r}: exchange takes 2 to {EXCHANGE_MAX} slot numbers")
    if not all(_digits(x) and int(x) < EXCHANGE_SLOTS for x in args):
        raise InvalidActionError(
            f"{text!r}: exchange takes your slot numbers below {EXCHANGE_SLOTS}, e.g. 0 2")
    slots = [int(x) for x in args]
    if len(set(slots)) != len(slots):
        raise InvalidActionError(f"{text!r}: exchange names each slot once")
    return exchange(slots)
