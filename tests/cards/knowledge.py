"""What seats know, for tests: a state that differs from another only in cards a given seat
has not seen, and a check that the engine's record of who saw which card is exact."""

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


def check_knowledge_record(state: State) -> None:
    """The engine's record of who has seen each card (docs/rules.md, Information) is exact:
    a mask names seats ``0..n-1`` and bit ``n`` (shown to everyone) only; a card shown to
    everyone has been seen by every seat; an empty slot has been seen by nobody; once the
    round is over every slot is shown to everyone. Views hide a card by ``seat | public``,
    so a mask wrong in these ways shows in no view, but the batch engine, the bots' rollouts
    and the records read the masks themselves."""
    shown = 1 << state.n
    everyone = (shown << 1) - 1
    over = state.is_over()
    for seat, (cards, masks) in enumerate(zip(state.grids, state.known, strict=True)):
        for slot, (card, mask) in enumerate(zip(cards, masks, strict=True)):
            where = f"slot {seat}.{slot} ({mask:b})"
            if over:
                assert mask == everyone, where
            elif card < 0:
                assert mask == 0, where
            else:
                assert 0 <= mask <= everyone, where
                assert not mask & shown or mask == everyone, where
