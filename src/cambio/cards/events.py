"""What happened when an action was applied, and who may see each card of it.

:meth:`State.apply <cambio.cards.State.apply>` and :meth:`State.play
<cambio.cards.State.play>` append these to the list passed as ``events=``; without one they
build nothing, so search and simulation pay only a ``None`` check per step. Consumers (the
server's messages, records' observations, the terminal's log) read what happened from here
instead of comparing copies of the state before and after.

Every card an event names carries an ``audience``: a bitmask of the seats that saw it
(``1 << seat``), ``EVERYONE`` (-1: every seat and spectators) or ``NOBODY`` (0: a penalty
card, known to no one until the reveal). :func:`seen_by` returns the event as one seat (or a
spectator) may see it, with every card it did not see replaced by ``HIDDEN``: hand that to
anything that must not leak. Slot addresses are ``seat << 8 | slot`` as in actions.

>>> from cambio.cards import Rules, State
>>> s = State(Rules.preset("rulebook"), 2, seed=3)
>>> events: list[Event] = []
>>> _ = s.play("draw", events=events)
>>> [type(e).__name__ for e in events], events[0].audience == 1 << 0
(['Drew'], True)
>>> seen_by(events[0], 1).card == HIDDEN
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from .cards import HIDDEN, Card
from .rules import Power

EVERYONE: Final = -1
"""Audience of a card shown to every seat and to spectators (all bits set)."""
NOBODY: Final = 0
"""Audience of a card nobody saw (a penalty card's face)."""


def shows(audience: int, seat: int | None) -> bool:
    """Whether a card with this ``audience`` was seen by ``seat`` (``None``: a spectator)."""
    if seat is None:
        return audience == EVERYONE
    return bool(audience >> seat & 1)


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` took ``card`` into their hand: from the deck (only they see it) or from the
    discard pile (``from_pile``: everyone saw it)."""

    seat: int
    card: Card
    from_pile: bool
    audience: int


@dataclass(frozen=True, slots=True)
class Discarded:
    """``card`` went face up onto the pile: the held card itself (``slot`` -1), or the card
    of the drawer's ``slot`` that the held card replaced."""

    seat: int
    card: Card
    slot: int
    audience: int = EVERYONE


@dataclass(frozen=True, slots=True)
class PowerFired:
    """The discard of ``card`` gives ``seat`` its ``power``; their next decision resolves it."""

    seat: int
    card: Card
    power: Power


@dataclass(frozen=True, slots=True)
class Peeked:
    """``seat`` looked at the card at ``target`` (a peek power)."""

    seat: int
    target: int
    card: Card
    audience: int


@dataclass(frozen=True, slots=True)
class Looked:
    """``seat`` looked at two cards at once (a king's look), before deciding to switch."""

    seat: int
    targets: tuple[int, int]
    cards: tuple[Card, Card]
    audience: int


@dataclass(frozen=True, slots=True)
class Switched:
    """``seat`` exchanged the cards at ``a`` and ``b`` unseen; each keeps who knew it."""

    seat: int
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Declined:
    """``seat`` let a decision pass: ``"keep"`` (the looked-at cards stay), ``"skip"`` (an
    optional power unused) or ``"pass"`` (no snap when polled)."""

    seat: int
    choice: str


@dataclass(frozen=True, slots=True)
class CambioCalled:
    """``seat`` called Cambio (``automatic``: their grid was emptied by a snap, and the
    rules call it for them)."""

    seat: int
    automatic: bool


@dataclass(frozen=True, slots=True)
class Snapped:
    """``seat`` turned over the card at ``target``: ``right`` (it matched the top of the
    pile and went onto it) or wrong (it goes back, face up for everyone)."""

    seat: int
    target: int
    card: Card
    right: bool
    audience: int = EVERYONE


@dataclass(frozen=True, slots=True)
class Penalty:
    """A wrong snap's penalty card went face down into ``seat``'s ``slot`` (a new slot, or
    an empty one once the grid is at its size limit)."""

    seat: int
    slot: int
    card: Card
    audience: int = NOBODY


@dataclass(frozen=True, slots=True)
class Gave:
    """After snapping another's card, ``seat`` moved their own ``slot`` into the emptied
    slot ``target``; whoever knew the card (``audience``) still knows it."""

    seat: int
    slot: int
    target: int
    card: Card
    audience: int


@dataclass(frozen=True, slots=True)
class Exchanged:
    """``seat`` named several of its own ``slots`` for the held card (``multi_exchange``),
    showing their ``cards`` to everyone. ``taken``: they were all of one value and went to
    the pile in slot order (the last on top), the held card into the first slot, the others
    left empty. Otherwise they stay, face up, and the held card's fate follows (a
    :class:`Penalty` seen by everyone when kept, a :class:`Discarded` from the hand when
    not)."""

    seat: int
    slots: tuple[int, ...]
    cards: tuple[Card, ...]
    taken: bool


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The deck ran out: the pile but its top card (``cards`` of them) became the deck."""

    cards: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round is over and every card is shown: ``reason`` is an
    :class:`~cambio.cards.EndReason` name in lower case."""

    reason: str
    grids: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (Drew | Discarded | PowerFired | Peeked | Looked | Switched | Declined | CambioCalled
         | Snapped | Penalty | Gave | Exchanged | Reshuffled | RoundEnded)
"""Any engine event."""


def seen_by(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` (``None``: a spectator) may see it: unseen cards ``HIDDEN``."""
    if isinstance(event, Looked):
        if shows(event.audience, seat):
            return event
        return replace(event, cards=(HIDDEN, HIDDEN))
    if isinstance(event, (Drew, Discarded, Peeked, Snapped, Penalty, Gave)):
        if shows(event.audience, seat):
            return event
        return replace(event, card=HIDDEN)
    return event


__all__ = ["EVERYONE", "NOBODY", "CambioCalled", "Declined", "Discarded", "Drew", "Event",
           "Exchanged", "Gave", "Looked", "Peeked", "Penalty", "PowerFired", "Reshuffled",
           "RoundEnded", "Snapped", "Switched", "seen_by", "shows"]
