"""Build a state that differs from another only in cards a given seat has not seen."""

from __future__ import annotations

import random

from cambio.cards import State


def permute_unseen(state: State, seat: int, rng: random.Random) -> State:
    """A clone where every card ``seat`` has not seen (face-down unknown slots, the deck, a
    held card it cannot see) is shuffled among those same places."""
    twin = state.clone()
    see = (1 << seat) | twin.public
    places: list[tuple[str, int, int]] = []
    for p, (g, k) in enumerate(zip(twin.grids, twin.known, strict=True)):
        for i, (card, mask) in enumerate(zip(g, k, strict=True)):
            if card >= 0 and not mask & see:
                places.append(("grid", p, i))
    places += [("deck", 0, i) for i in range(len(twin.deck))]
    if twin.held >= 0 and not (twin.held_from_pile or twin.turn == seat):
        places.append(("held", 0, 0))

    def get(place: tuple[str, int, int]) -> int:
        kind, p, i = place
        return twin.grids[p][i] if kind == "grid" else twin.deck[i] if kind == "deck" \
            else twin.held

    cards = [get(pl) for pl in places]
    rng.shuffle(cards)
    for (kind, p, i), card in zip(places, cards, strict=True):
        if kind == "grid":
            twin.grids[p][i] = card
        elif kind == "deck":
            twin.deck[i] = card
        else:
            twin.held = card
    return twin
