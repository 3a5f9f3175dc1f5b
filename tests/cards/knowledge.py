"""What seats know, for tests: a state that differs from another only in cards a given seat
has not seen, the decisions of whole rounds paired with such twins (how every bot's "decides
from its view only" test is written), and a check that the engine's record of who saw which
card is exact."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from cambio.bots.cards import CardBot, make_bot
from cambio.cards import CardView, Rules, State, observe

PRESETS = ("rulebook", "house", "wikipedia")


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


@dataclass(frozen=True)
class Twins:
    """A seat's view of a decision, and its view of the same decision in a twin deal."""

    view: CardView
    twin: CardView
    moved: bool
    """Whether the shuffle moved any card: a twin equal to the state proves nothing."""


def several_moves(view: CardView) -> bool:
    return len(view.legal) > 1


def memory_rounds(preset: str, count: int, first: int = 0,
                  ) -> Iterator[tuple[State, list[CardBot]]]:
    """Rounds ``first..first + count - 1`` of ``preset`` between `memory` bots, 2 and 3 seats
    in turn."""
    for k in range(first, first + count):
        state = State(Rules.preset(preset), 2 + k % 2, seed=k)
        yield state, [make_bot("memory", k) for _ in range(state.n)]


def memory_decisions(players: int, count: int, preset: str = "rulebook") -> list[CardView]:
    """The first ``count`` decisions with several moves of ``players``-seat `memory` rounds."""
    views: list[CardView] = []
    k = 0
    while len(views) < count:
        state = State(Rules.preset(preset), players, seed=200 + k, polled=True)
        bots = [make_bot("memory", k) for _ in range(players)]
        k += 1
        while not state.is_over() and len(views) < count:
            seat = state.current_player()
            view = observe(state, seat)
            if len(view.legal) > 1:
                views.append(view)
            state.apply(bots[seat].act(view), seat)
    return views


def varied_rounds(count: int) -> Iterator[tuple[State, list[CardBot]]]:
    """Rounds between `memory` bots through every preset and 2-4 seats in turn, snaps polled."""
    for k in range(count):
        state = State(Rules.preset(PRESETS[k % 3]), 2 + k % 3, seed=k, polled=True)
        yield state, [make_bot("memory", k) for _ in range(state.n)]


def twin_views(rounds: Iterable[tuple[State, Sequence[CardBot]]], rng: random.Random, *,
               rate: float = 1.0, want: Callable[[CardView], bool] = several_moves,
               ) -> Iterator[Twins]:
    """Plays each round to its end with its bots and yields, at a ``rate`` of the decisions
    ``want`` picks, the deciding seat's view beside its view of :func:`permute_unseen`'s twin.
    A bot that decides from its view only answers both alike: the caller asks it."""
    for state, bots in rounds:
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if want(view) and (rate >= 1 or rng.random() < rate):
                twin = permute_unseen(state, seat, rng)
                moved = (twin.grids, twin.deck, twin.held) != (state.grids, state.deck,
                                                                state.held)
                yield Twins(view, observe(twin, seat), moved)
            state.apply(bots[seat].act(view), seat)


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
