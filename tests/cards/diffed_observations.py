"""A second, independent way to compute a record's observations: by comparing the state
before an action with the state after it (how the project did it before the engine had
events). The records and the server read observations off the engine's events
(:func:`cambio.records.cards.observations`); tests compare the two, so a wrong event fails
against facts the engine's knowledge never produced."""

from __future__ import annotations

from typing import Any

from cambio.cards import EMPTY, State, card_code
from cambio.cards.actions import (
    DISCARD,
    DRAW,
    EXCHANGE,
    GIVE,
    LOOK,
    PEEK,
    SNAP,
    SWAP,
    TAKE,
    Action,
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    exchange_slots,
    kind_of,
)

Fact = tuple[str, Any, int]
NOBODY = 0


def diffed_observations(before: State, seat: int, action: Action, after: State) -> list[Fact]:
    """What an action revealed and to whom (bit ``n``: everyone), from two states."""
    n = after.n
    everyone = (1 << (n + 1)) - 1
    kind = kind_of(action)
    a = arg_a(action)
    facts: list[Fact] = []
    if kind == DRAW and after.held >= 0:
        facts.append(("card", card_code(after.held), 1 << seat))
    elif kind == TAKE:
        facts.append(("card", card_code(after.held), everyone))
    elif kind in (SWAP, DISCARD):
        discarded = before.grids[seat][a] if kind == SWAP else before.held
        facts.append(("discarded", card_code(discarded), everyone))
    elif kind == PEEK:
        facts.append(("card", card_code(after.grids[addr_seat(a)][addr_slot(a)]), 1 << seat))
    elif kind == LOOK:
        cards = [card_code(after.grids[addr_seat(x)][addr_slot(x)]) for x in (a, arg_b(action))]
        facts.append(("cards", cards, 1 << seat))
    elif kind == SNAP:
        card = before.grids[addr_seat(a)][addr_slot(a)]
        right = card >> 2 == before.pile[-1] >> 2
        facts.append(("card", card_code(card), everyone))
        facts.append(("right", right, everyone))
        if not right:
            grown = after.grids[seat][len(before.grids[seat]):]
            refilled = [after.grids[seat][i] for i, c in enumerate(before.grids[seat])
                        if c == EMPTY and after.grids[seat][i] != EMPTY]
            penalty = [card_code(c) for c in refilled + grown]
            if penalty:
                facts.append(("penalty", penalty, NOBODY))
    elif kind == GIVE:
        facts.append(("card", card_code(before.grids[seat][a]), before.known[seat][a]))
    elif kind == EXCHANGE:
        slots = exchange_slots(action)
        cards = [card_code(before.grids[seat][i]) for i in slots]
        taken = after.grids[seat][slots[0]] == before.held and all(
            after.grids[seat][i] == EMPTY for i in slots[1:])
        if taken:
            facts.append(("discarded", cards, everyone))
            return facts + _reshuffled(before, after, everyone)
        facts.append(("revealed", cards, everyone))
        if len(after.grids[seat]) > len(before.grids[seat]):  # the drawn card kept
            facts.append(("penalty", [card_code(after.grids[seat][-1])], NOBODY))
        else:
            facts.append(("discarded", card_code(before.held), everyone))
    return facts + _reshuffled(before, after, everyone)


def _reshuffled(before: State, after: State, everyone: int) -> list[Fact]:
    if after.reshuffles > before.reshuffles:
        return [("reshuffled", after.reshuffles - before.reshuffles, everyone)]
    return []


def as_seen(facts: list[Fact], players: int, seat: int | None) -> dict[str, Any]:
    """The facts ``seat`` (``None``: a spectator) may see, as a record line holds them."""
    see = 1 << players if seat is None else (1 << players) | (1 << seat)
    return {key: value for key, value, audience in facts if audience & see}
