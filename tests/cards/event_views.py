"""One seat's cards rebuilt from the engine's events alone (as that seat may see them).

:class:`EventView` starts from the seat's view of the deal and follows only
``seen_by(event, seat)``: if an event carried a card the seat must not see, or left out one
it saw, the rebuilt grids, held card or pile would differ from ``observe()``'s. It also keeps
who has seen each card from the events alone, so a view's ``seen`` masks that differ from
it would carry something not public.
"""

from __future__ import annotations

from dataclasses import dataclass

from cambio.cards import EMPTY, HIDDEN, CardView
from cambio.cards.events import (
    EVERYONE,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Gave,
    Looked,
    Peeked,
    Penalty,
    Reshuffled,
    RoundEnded,
    Snapped,
    Switched,
    seen_by,
)


@dataclass
class EventView:
    seat: int | None
    grids: list[list[int]]
    held: int
    discard: list[int]
    seen: list[list[int]]
    from_pile: bool = False

    @staticmethod
    def deal(view: CardView) -> EventView:
        return EventView(view.seat, [list(g) for g in view.grids], view.held, list(view.discard),
                         [list(k) for k in view.seen])

    @property
    def everyone(self) -> int:
        return (1 << len(self.grids) + 1) - 1

    def follow(self, events: list[Event]) -> None:
        for event in events:
            self._one(seen_by(event, self.seat))

    def _learn(self, target: int, card: int) -> None:
        """A look shows a card or, to the others, only that it was looked at."""
        if card != HIDDEN:
            self.grids[target >> 8][target & 255] = card

    def _one(self, e: Event) -> None:
        if isinstance(e, Drew):
            self.held = e.card
            self.from_pile = e.from_pile
            if e.from_pile:
                assert self.discard.pop() == e.card
        elif isinstance(e, Discarded):
            if e.slot >= 0:
                self.grids[e.seat][e.slot] = self.held
                self.seen[e.seat][e.slot] = self.everyone if self.from_pile else 1 << e.seat
            self.held = EMPTY
            self.discard.append(e.card)
        elif isinstance(e, Peeked):
            self._learn(e.target, e.card)
            self.seen[e.target >> 8][e.target & 255] |= 1 << e.seat
        elif isinstance(e, Looked):
            for target, card in zip(e.targets, e.cards, strict=True):
                self._learn(target, card)
                self.seen[target >> 8][target & 255] |= 1 << e.seat
        elif isinstance(e, Switched):
            (p, i), (q, j) = divmod(e.a, 256), divmod(e.b, 256)
            self.grids[p][i], self.grids[q][j] = self.grids[q][j], self.grids[p][i]
            self.seen[p][i], self.seen[q][j] = self.seen[q][j], self.seen[p][i]
        elif isinstance(e, Snapped):
            p, i = divmod(e.target, 256)
            if e.right:
                self.grids[p][i] = EMPTY
                self.seen[p][i] = 0
                self.discard.append(e.card)
            else:
                self.grids[p][i] = e.card
                self.seen[p][i] = self.everyone
        elif isinstance(e, Penalty):
            grid = self.grids[e.seat]
            # Face down, or face up (an exchange's drawn card kept) for everyone.
            seen = self.everyone if e.audience == EVERYONE else 0
            if e.slot == len(grid):
                grid.append(e.card)
                self.seen[e.seat].append(seen)
            else:
                assert grid[e.slot] == EMPTY
                grid[e.slot] = e.card
                self.seen[e.seat][e.slot] = seen
        elif isinstance(e, Exchanged):
            grid, masks = self.grids[e.seat], self.seen[e.seat]
            if e.taken:
                self.discard += e.cards
                grid[e.slots[0]] = self.held
                masks[e.slots[0]] = self.everyone if self.from_pile else 1 << e.seat
                for i in e.slots[1:]:
                    grid[i], masks[i] = EMPTY, 0
                self.held = EMPTY
            else:
                for i, card in zip(e.slots, e.cards, strict=True):
                    grid[i], masks[i] = card, self.everyone
                self.held = EMPTY  # its fate follows: a Penalty (kept) or a Discarded
        elif isinstance(e, Gave):
            p, i = divmod(e.target, 256)
            mine = self.grids[e.seat]
            assert e.card in (HIDDEN, mine[e.slot])
            self.grids[p][i], mine[e.slot] = mine[e.slot], EMPTY
            self.seen[p][i], self.seen[e.seat][e.slot] = self.seen[e.seat][e.slot], 0
        elif isinstance(e, Reshuffled):
            assert len(self.discard) == e.cards + 1
            self.discard = self.discard[-1:]
        elif isinstance(e, RoundEnded):
            self.grids = [list(g) for g in e.grids]  # a held card stays as it was
            self.seen = [[self.everyone] * len(g) for g in e.grids]  # all shown

    def matches(self, view: CardView) -> bool:
        return (tuple(map(tuple, self.grids)) == view.grids and self.held == view.held
                and tuple(self.discard) == view.discard
                and tuple(map(tuple, self.seen)) == view.seen)
