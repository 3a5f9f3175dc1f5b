"""An independent view oracle: what each seat may know, recomputed from the actions.

The engine keeps knowledge in bitmasks (``State.known``) and :func:`cambio.cards.observe`
builds views from them; a test that compares views with ``observe()`` proves only that two
copies of that code agree. The oracle re-derives, from the round's actions and the rules as
docs/rules.md states them, which seats have seen the card in each slot, with its own plain
sets -- never reading ``known``, ``observe()`` or the view code:

* the opening peek shows each seat its own slots (2, 3, 0, 1 in that order, as many as
  ``opening_peek``);
* a drawn card is seen by the drawer; a card taken from the pile was seen by everyone;
* swapped in, a card keeps who saw it (the drawer, or everyone for a pile card);
* ``peek`` and ``look`` show the looker the named cards; ``switch`` moves each card with
  whoever saw it, and so does ``give``;
* a wrong snap turns the card face up for everyone; a penalty card is seen by nobody; a right
  snap empties the slot;
* an exchange of several cards (``multi_exchange``) that took them empties all but the lowest
  named slot, where the held card goes with whoever saw it; one that did not turns them face
  up for everyone, and a drawn card kept with them is face up too;
* when the round is over every card is shown.

From the engine it takes only what happens to a card in public: whether a snap was right
(shown to everyone) and where penalty cards went (the grids' occupancy). The expected view
is then "the true card where the seat (or everyone) has seen it, ``HIDDEN`` elsewhere".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cambio.cards import EMPTY, HIDDEN, Phase, State
from cambio.cards.actions import (
    DISCARD,
    DRAW,
    EXCHANGE,
    GIVE,
    LOOK,
    PEEK,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
    Action,
    arg_a,
    arg_b,
    exchange_slots,
    kind_of,
)

EVERYONE = -1
"""In a slot's set of viewers: the card was shown to everyone (spectators too)."""

PEEK_ORDER = (2, 3, 0, 1)


def _slot(address: int) -> tuple[int, int]:
    return address >> 8, address & 255


@dataclass
class Oracle:
    """Who has seen each card of one round (see the module docstring)."""

    players: int
    seen: list[list[set[int]]] = field(default_factory=list)
    """Per seat, per slot: the seats that have seen the card there (``EVERYONE`` for all)."""
    held_by: set[int] = field(default_factory=set)
    """Who has seen the card in the turn player's hand."""
    give_to: tuple[int, int] | None = None
    over: bool = False

    @staticmethod
    def deal(state: State) -> Oracle:
        """The oracle of a freshly dealt round (before any action)."""
        peek = PEEK_ORDER[:state.rules.opening_peek]
        n = state.n
        return Oracle(n, [[{seat} if slot in peek else set() for slot in range(4)]
                          for seat in range(n)])

    def apply(self, before: State, seat: int, action: Action, after: State) -> None:
        """Follow one action; ``before``/``after`` give only its public consequences."""
        kind = kind_of(action)
        a = arg_a(action)
        if kind == DRAW:
            self.held_by = {seat}
        elif kind == TAKE:
            self.held_by = {EVERYONE}
        elif kind == SWAP:
            self.seen[seat][a] = set(self.held_by)
            self.held_by = set()
        elif kind == DISCARD:
            self.held_by = set()
        elif kind == EXCHANGE:
            self._exchange(seat, exchange_slots(action), after)
        elif kind == PEEK:
            p, i = _slot(a)
            self.seen[p][i].add(seat)
        elif kind == LOOK:
            for address in (a, arg_b(action)):
                p, i = _slot(address)
                self.seen[p][i].add(seat)
        elif kind == SWITCH:
            (p, i), (q, j) = _slot(a), _slot(arg_b(action))
            self.seen[p][i], self.seen[q][j] = self.seen[q][j], self.seen[p][i]
        elif kind == SNAP:
            self._snap(before, seat, a, after)
        elif kind == GIVE:
            assert self.give_to is not None, "a give without a snap to answer"
            p, i = self.give_to
            self.seen[p][i] = self.seen[seat][a]
            self.seen[seat][a] = set()
            self.give_to = None
        if after.is_over():
            self.over = True

    def _exchange(self, seat: int, slots: list[int], after: State) -> None:
        grid = after.grids[seat]
        if all(grid[i] < 0 for i in slots[1:]):  # taken: the held card in the lowest slot
            self.seen[seat][slots[0]] = set(self.held_by)
            for i in slots[1:]:
                self.seen[seat][i] = set()
        else:
            for i in slots:
                self.seen[seat][i] = {EVERYONE}
            while len(self.seen[seat]) < len(grid):  # the drawn card kept, face up
                self.seen[seat].append({EVERYONE})
        self.held_by = set()

    def _snap(self, before: State, seat: int, a: int, after: State) -> None:
        p, i = _slot(a)
        assert after.last_snap is not None and after.last_snap[:2] == (seat, a)
        if after.last_snap[3]:  # right: the card is on the pile, the slot empty
            self.seen[p][i] = set()
            if after.phase == Phase.GIVE:
                self.give_to = (p, i)
            return
        self.seen[p][i] = {EVERYONE}
        # Penalty cards, face down, seen by nobody: new slots, or empty ones filled.
        grid_before, grid_after = before.grids[seat], after.grids[seat]
        for slot, card in enumerate(grid_after):
            if slot >= len(self.seen[seat]):
                self.seen[seat].append(set())
            elif slot < len(grid_before) and grid_before[slot] < 0 <= card:
                self.seen[seat][slot] = set()

    def knows(self, viewer: int | None, p: int, i: int) -> bool:
        who = self.seen[p][i]
        return self.over or EVERYONE in who or (viewer is not None and viewer in who)

    def grids(self, state: State, viewer: int | None) -> tuple[tuple[int, ...], ...]:
        """What ``viewer`` (``None``: a spectator) may be shown of every grid."""
        return tuple(
            tuple(EMPTY if card < 0 else card if self.knows(viewer, p, i) else HIDDEN
                  for i, card in enumerate(grid))
            for p, grid in enumerate(state.grids))

    def held(self, state: State, viewer: int | None) -> int:
        if state.held < 0:
            return EMPTY
        shown = EVERYONE in self.held_by or (viewer is not None and viewer in self.held_by)
        return state.held if shown else HIDDEN


def follow(state: State, moves: list[tuple[int, Action]]) -> list[tuple[State, Oracle]]:
    """Play ``moves`` from ``state``; the state and an oracle snapshot at every version."""
    import copy

    oracle = Oracle.deal(state)
    out = [(state.clone(), copy.deepcopy(oracle))]
    for seat, action in moves:
        before = state.clone()
        played = state.play(action, seat)
        oracle.apply(before, seat, played, state)
        out.append((state.clone(), copy.deepcopy(oracle)))
    return out
