"""One round of the card game: the omniscient state, its legal actions, and how they apply.

Shape follows OpenSpiel: :meth:`State.current_player`, :meth:`State.legal_actions`,
:meth:`State.apply` (fast, unchecked) and :meth:`State.play` (checked, raises
:class:`IllegalActionError` and leaves the state untouched), :meth:`State.clone`,
:meth:`State.is_over`, :meth:`State.scores`, :meth:`State.winners`.

**Chance** is explicit and seeded: every random event (the deal, a reshuffle of the discard
pile, the order in which a snap poll asks the players) draws from a counter-based generator
keyed by the round's seed, so a seed and the list of actions determine the round exactly.

**Snapping.** Any player may snap while the top card of the pile is matchable. The state
supports two ways of offering that:

* ``polled=True`` (turn-based drivers: bots, simulation, RL). At well-defined moments --
  after each ordinary discard has fully resolved (power included), and again after each
  successful snap -- the state opens a *snap poll*: every player who may snap is asked once,
  in clockwise order from a seat drawn by chance, to ``pass`` or ``snap`` a slot. The first
  valid snap wins; later answers are judged against the new top card. This is fair (no seat
  is systematically first) and deterministic under the seed.
* ``polled=False`` (a real-time server). Snaps are legal for every eligible seat, any time
  the turn player is about to draw or is holding a drawn card; the server applies them in
  the order they arrive.

Snapping is never possible while a power or a snap's give is being resolved: the effect
"resolves before play continues".

**Knowledge.** ``known[seat][slot]`` is a bitmask of the players who have seen the card in
that slot (bit ``n`` means it was shown to everyone, spectators included). Cards carry their
mask when they move, because every move is made in public: whoever knew a card knows where
it went. Views (:mod:`cambio.cards.view`) are derived from these masks only; legal actions
never read a card's identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from functools import lru_cache
from random import Random
from typing import Final, cast

from .actions import (
    CAMBIO,
    DISCARD,
    DRAW,
    EXCHANGE,
    EXCHANGE_MAX,
    EXCHANGE_SLOTS,
    GIVE,
    KEEP,
    LOOK,
    PASS,
    PEEK,
    SKIP,
    SNAP,
    SWAP,
    SWITCH,
    TAKE,
    Action,
    action_text,
    addr_text,
    arg_a,
    flipped,
    kind_of,
    parse_action,
)
from .cards import NUM_CARD_CODES, Card, card_code
from .errors import CardError, IllegalActionError, InvalidActionError, RulesError
from .events import (
    EVERYONE,
    CambioCalled,
    Declined,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Gave,
    Looked,
    Peeked,
    Penalty,
    PowerFired,
    Reshuffled,
    RoundEnded,
    Snapped,
    Switched,
)
from .rules import (
    ExchangeMismatch,
    Kamikaze,
    Power,
    PowerTrigger,
    Resnap,
    RoundZero,
    Rules,
    TieRule,
    tables,
)

# Every constant the hot loop reads is Final: mypyc inlines those, while a plain module
# global costs a dictionary look-up at each use (a fifth of all instructions, measured).
EMPTY: Final = -1
TERMINAL: Final = -4
"""``current_player()`` once the round is over (OpenSpiel's value)."""

WINDOW_CLOSED: Final = -2
WINDOW_ANYONE: Final = -1

_M64: Final = (1 << 64) - 1

# Power codes used in the hot loop.
P_NONE: Final = 0
P_PEEK_OWN: Final = 1
P_PEEK_OTHER: Final = 2
P_SWAP_OWN_OTHER: Final = 3
P_SWAP_ANY: Final = 4
P_LOOK_MAY: Final = 5
P_LOOK_ANY: Final = 6
P_LOOK_ONE: Final = 7
_POWER_CODE = {
    Power.NONE: P_NONE,
    Power.PEEK_OWN: P_PEEK_OWN,
    Power.PEEK_OTHER: P_PEEK_OTHER,
    Power.SWAP_OWN_OTHER: P_SWAP_OWN_OTHER,
    Power.SWAP_ANY: P_SWAP_ANY,
    Power.LOOK_OWN_OTHER_MAY_SWAP: P_LOOK_MAY,
    Power.LOOK_ANY_SWAP_ANY: P_LOOK_ANY,
    Power.LOOK_ONE_SWAP_ANY: P_LOOK_ONE,
}
POWER_NAMES = {code: power for power, code in _POWER_CODE.items()}


PH_TURN_START: Final = 0
"""Phase codes as plain ints (the hot loop compares these); :class:`Phase` names them."""
PH_DRAWN: Final = 1
PH_POWER: Final = 2
PH_KING_DECIDE: Final = 3
PH_GIVE: Final = 4
PH_POLL: Final = 5
PH_ROUND_OVER: Final = 6


class Phase(IntEnum):
    TURN_START = 0
    """The turn player calls Cambio, draws from the deck, or takes the discard."""
    DRAWN = 1
    """The turn player holds a card: swap it into a slot, or discard it."""
    POWER = 2
    """The discarder resolves the power of the card just discarded."""
    KING_DECIDE = 3
    """After a king's look: switch (``LOOK_OWN_OTHER``: the two looked at, or keep)."""
    GIVE = 4
    """A player who snapped another's card gives one of their own into the empty slot."""
    POLL = 5
    """Snap poll (``polled`` states): the asked seat passes or snaps."""
    ROUND_OVER = 6


class EndReason(IntEnum):
    NONE = 0
    CAMBIO = 1
    """The caller's opponents have all had their final turn."""
    DECK_EXHAUSTED = 2
    """A card had to be drawn and none was left, even after reshuffling the pile."""
    TURN_CAP = 3
    """Turn ``rules.max_turns`` was over (the turn cap; real rounds never get there)."""


def mix64(x: int) -> int:
    """splitmix64: a fast, well-spread hash used as the counter-based chance generator."""
    z = (x + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


_FIELDS = (
    "_chance",
    "caller",
    "dealer",
    "deck",
    "end_reason",
    "final_left",
    "give_addr",
    "give_seat",
    "grids",
    "held",
    "held_from_pile",
    "history",
    "known",
    "last_snap",
    "look_a",
    "look_b",
    "n",
    "phase",
    "pile",
    "poll",
    "poll_i",
    "polled",
    "power",
    "public",
    "reshuffles",
    "resume",
    "rules",
    "seed",
    "turn",
    "turn_final",
    "turn_number",
    "window",
)
"""The state's fields that define equality (everything but caches)."""
_STORED = tuple(f for f in _FIELDS if f != "history")
"""The fields kept in slots (``history`` is derived from a shared list)."""


class State:
    """One round of Cambio (the card game). See the module docstring for the model."""

    __slots__ = (*_STORED, "_f", "_hist", "_hlen", "_log", "_occ")

    rules: Rules
    n: int
    grids: list[list[Card]]
    known: list[list[int]]
    deck: list[Card]
    pile: list[Card]
    _hist: list[tuple[int, Action]]
    _hlen: int
    _log: list[Event] | None
    """Where the action being applied reports what it sets off (``None``: nobody asked)."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        *,
        seed: int = 0,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        polled: bool = True,
        _blank: bool = False,
    ) -> None:
        """Shuffle, deal and give the opening peek.

        ``deck`` optionally fixes the order of the top of the deck (top card first); the cards
        not listed follow in a seeded random order. Seat ``s`` is dealt cards ``4s .. 4s+3``
        into slots 0-3 (slots 2 and 3 are the bottom row, closest to the player). The default
        dealer is the last seat, so seat 0 plays first.
        """
        self._occ: list[int] | None = None
        self._log = None
        if _blank:  # clone() fills every field itself
            return
        rules.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RulesError("seed must be an integer")
        self.rules = rules
        self.n = players
        self._f = _fast_rules(rules)
        self.seed = seed & _M64
        self._chance = 0
        self.polled = polled
        self.public = 1 << players
        full = list(_full_deck(rules, players))
        cards: list[Card]
        if deck is None:
            cards = full
            _shuffle(cards, self._draw_chance())
        else:
            top = list(deck)
            rest = _remove_multiset(full, top)
            _shuffle(rest, self._draw_chance())
            cards = top + rest
        if len(cards) < 4 * players:
            raise RulesError("not enough cards to deal")
        # cards[0] is the top of the deck; the engine pops from the end of a list.
        cards.reverse()
        self.grids = []
        self.known = []
        peek_slots = (2, 3, 0, 1)[: rules.opening_peek]
        for seat in range(players):
            grid = [cards.pop() for _ in range(4)]
            self.grids.append(grid)
            bit = 1 << seat
            self.known.append([bit if i in peek_slots else 0 for i in range(4)])
        self.deck = cards
        self.pile = []
        self.dealer = players - 1 if dealer is None else dealer % players
        self.turn = self.dealer
        self.turn_number = 0
        self.turn_final = False
        self.held = EMPTY
        self.held_from_pile = False
        self.power = P_NONE
        self.look_a = -1
        self.look_b = -1
        self.caller = -1
        self.final_left = 0
        self.window = WINDOW_CLOSED
        self.give_addr = -1
        self.give_seat = -1
        self.resume = PH_TURN_START
        self.poll: list[int] = []
        self.poll_i = 0
        self._hist = []
        self._hlen = 0
        self.end_reason = EndReason.NONE
        self.last_snap: tuple[int, int, Card, bool] | None = None
        self.reshuffles = 0
        self.phase = PH_TURN_START
        self._next_turn()

    # ================================================================== chance
    def _draw_chance(self) -> int:
        self._chance += 1
        return mix64(self.seed * 0x100000001B3 + self._chance)

    # ================================================================== queries
    def current_player(self) -> int:
        """The seat whose decision the round waits for (``TERMINAL`` when over).

        In a real-time (``polled=False``) state, other seats may also snap: see
        :meth:`actors`.
        """
        ph = self.phase
        if ph == PH_POLL:
            return self.poll[self.poll_i]
        if ph == PH_GIVE:
            return self.give_seat
        if ph == PH_ROUND_OVER:
            return TERMINAL
        return self.turn

    def actors(self) -> list[int]:
        """Every seat that has at least one legal action now."""
        return [s for s in range(self.n) if self.legal_actions(s)]

    def is_over(self) -> bool:
        return self.phase == PH_ROUND_OVER

    def can_snap(self, seat: int) -> bool:
        """Whether ``seat`` may snap right now (public facts only)."""
        ph = self.phase
        if self.polled:
            if ph != PH_POLL or self.poll[self.poll_i] != seat:
                return False
        elif ph > PH_DRAWN:
            return False
        w = self.window
        if w == WINDOW_CLOSED or (w >= 0 and w != seat) or not self.pile:
            return False
        return not (seat == self.caller and not self._f.caller_may_snap)

    def _slots(self, seat: int) -> list[int]:
        """Addresses of the occupied slots of ``seat`` (none if the caller's hand is locked)."""
        if seat == self.caller and self._f.lock_caller:
            return []
        base = seat << 8
        return [base | i for i, c in enumerate(self.grids[seat]) if c >= 0]

    def _other_slots(self, seat: int) -> list[int]:
        return [a for a in self._all_slots() if a >> 8 != seat]

    def _all_slots(self) -> list[int]:
        """Occupied, unlocked slot addresses of the whole table (cached; do not mutate).

        The cache is dropped whenever a slot is emptied or filled, or the caller's hand
        becomes locked; swaps keep occupancy, so they keep the cache.
        """
        occ = self._occ
        if occ is None:
            occ = []
            for s in range(self.n):
                occ += self._slots(s)
            self._occ = occ
        return occ

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions of ``seat`` (default: the current player), in a fixed order.

        They depend only on public facts -- phase, which slots are occupied, the snap window
        -- never on the identity of a face-down card: every occupied slot may be snapped,
        matching or not.
        """
        ph = self.phase
        if ph == PH_ROUND_OVER:
            return []
        if seat is None:
            seat = self.current_player()
        if ph == PH_POLL:
            if seat != self.poll[self.poll_i]:
                return []
            poll = [PASS]
            for a in self._snap_targets(seat):
                poll.append(SNAP | a << 5)
            return poll
        if ph == PH_GIVE:
            if seat != self.give_seat:
                return []
            g = self.grids[seat]
            return [GIVE | i << 5 for i in range(len(g)) if g[i] >= 0]
        acts = self._turn_actions(seat, ph) if seat == self.turn else []
        if not self.polled and ph <= PH_DRAWN and self.can_snap(seat):
            acts += [SNAP | a << 5 for a in self._snap_targets(seat)]
        return acts

    def _snap_targets(self, seat: int) -> list[int]:
        """The slots ``seat`` may snap: any on the table, or only their own."""
        return self._all_slots() if self._f.snap_others else self._slots(seat)

    def _turn_actions(self, seat: int, ph: int) -> list[Action]:
        """The legal actions of the seat whose turn it is, snaps aside."""
        acts: list[Action] = []
        if ph == PH_TURN_START:
            if self.caller < 0 and self.turn_number >= self._f.earliest:
                acts.append(CAMBIO)
            acts.append(DRAW)
            if (self._f.draw_from_discard and self.pile
                    and any(c >= 0 for c in self.grids[seat])):
                acts.append(TAKE)
        elif ph == PH_DRAWN:
            g = self.grids[seat]
            acts = [SWAP | i << 5 for i in range(len(g)) if g[i] >= 0]
            if self._f.multi_exchange:
                acts += _exchanges(g)
            if not self.held_from_pile or not acts:
                # A card taken from the pile must be swapped in, unless a snap emptied
                # the grid meanwhile (real-time tables): then it can only be discarded.
                acts.append(DISCARD)
        elif ph == PH_POWER:
            acts = self._power_actions(seat)
        elif ph == PH_KING_DECIDE:
            if self.power == P_LOOK_MAY:
                acts = [SWITCH | self.look_a << 5 | self.look_b << 21, KEEP]
            else:
                acts = _pairs(self._all_slots(), SWITCH)
        return acts

    def _power_actions(self, seat: int) -> list[Action]:
        p = self.power
        if p == P_PEEK_OWN:
            acts = [PEEK | a << 5 for a in self._slots(seat)]
        elif p == P_PEEK_OTHER:
            acts = [PEEK | a << 5 for a in self._other_slots(seat)]
        elif p == P_LOOK_ONE:
            acts = [PEEK | a << 5 for a in self._all_slots()]
        elif p in (P_SWAP_OWN_OTHER, P_LOOK_MAY):
            kind = SWITCH if p == P_SWAP_OWN_OTHER else LOOK
            others = self._other_slots(seat)
            acts = [kind | a << 5 | b << 21 for a in self._slots(seat) for b in others]
        else:
            acts = _pairs(self._all_slots(), SWITCH if p == P_SWAP_ANY else LOOK)
        if self._f.optional:
            acts.append(SKIP)
        return acts

    def _power_has_target(self, p: int, seat: int) -> bool:
        if p == P_PEEK_OWN:
            return bool(self._slots(seat))
        if p == P_PEEK_OTHER:
            return bool(self._other_slots(seat))
        if p in (P_SWAP_OWN_OTHER, P_LOOK_MAY):
            return bool(self._slots(seat)) and bool(self._other_slots(seat))
        return len(self._all_slots()) >= 2

    # ================================================================== applying
    def play(self, action: Action | str, seat: int | None = None,
             events: list[Event] | None = None) -> Action:
        """Apply ``action`` for ``seat`` after checking it is legal; return the action as the
        engine offers it (``switch``/``look`` given with the addresses in the other order
        are that same action, so records and players may write either).

        Raises :class:`IllegalActionError` (the state is unchanged) otherwise. The reason
        names only public facts. ``events``, if given, receives what happened
        (:mod:`cambio.cards.events`).
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, int) or isinstance(action, bool) or action < 0:
            raise InvalidActionError(f"{action!r:.40} is not an action")
        if seat is None:
            seat = self.current_player()
            if seat == TERMINAL:
                raise IllegalActionError(None, _safe_text(action), "the round is over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise IllegalActionError(None, _safe_text(action), f"there is no seat {seat!r}")
        legal = self.legal_actions(seat)
        if action not in legal:
            if flipped(action) not in legal:
                raise IllegalActionError(seat, _safe_text(action),
                                         self._why_illegal(seat, action))
            action = flipped(action)
        self.apply(action, seat, events)
        return action

    def apply(self, action: Action, seat: int | None = None,
              events: list[Event] | None = None) -> None:
        """Apply a legal action for ``seat`` (default: the current player) without checking.

        Like python-chess's ``push``: fast, for search and simulation. An illegal action
        here leaves the state undefined; use :meth:`play` for input from people and files.
        ``events``, if given, receives what happened, in order (:mod:`cambio.cards.events`);
        without it no event is built.
        """
        if events is not None:
            self._apply_reporting(action, seat, events)
            return
        if seat is None:
            seat = self.current_player()
        hist = self._hist
        if len(hist) != self._hlen:  # a clone appended to the shared list first: copy on write
            hist = self._hist = hist[:self._hlen]
        hist.append((seat, action))
        self._hlen += 1
        kind = action & 31
        a = (action >> 5) & 0xFFFF
        ph = self.phase
        if kind == SNAP:
            self._snap(seat, a)
        elif kind == PASS:
            self._poll_next()
        elif kind == DRAW:
            card = self._draw()
            if card < 0:
                self._end(EndReason.DECK_EXHAUSTED)
                return
            self.held = card
            self.held_from_pile = False
            self.phase = PH_DRAWN
        elif kind == SWAP:
            g = self.grids[seat]
            k = self.known[seat]
            old = g[a]
            g[a] = self.held
            k[a] = (self.public << 1) - 1 if self.held_from_pile else 1 << seat
            self.held = EMPTY
            fires = self._f.fire_replaced
            self._discard(old, seat, fires)
        elif kind == DISCARD:
            card = self.held
            self.held = EMPTY
            fires = (not self.held_from_pile
                     or self._f.fire_replaced)
            self._discard(card, seat, fires)
        elif kind == CAMBIO:
            self._occ = None
            self.caller = seat
            self.final_left = self.n - 1
            self._next_turn()
        elif kind == TAKE:
            self.held = self.pile.pop()
            self.held_from_pile = True
            self.window = WINDOW_CLOSED
            self.phase = PH_DRAWN
        elif kind == PEEK:
            self._peek(seat, a)
        elif kind == SWITCH:
            self._switch(a, action >> 21)
            self._after_discard()
        elif kind == LOOK:
            b = action >> 21
            bit = 1 << seat
            self.known[a >> 8][a & 255] |= bit
            self.known[b >> 8][b & 255] |= bit
            self.look_a, self.look_b = a, b
            self.phase = PH_KING_DECIDE
        elif kind in (KEEP, SKIP):
            self._after_discard()
        elif kind == GIVE:
            self._give(seat, a)
        elif kind == EXCHANGE:
            self._exchange(seat, a)
        else:  # pragma: no cover - guarded by play()
            raise IllegalActionError(seat, str(action), f"unknown action kind in phase {ph}")

    def _peek(self, seat: int, a: int) -> None:
        self.known[a >> 8][a & 255] |= 1 << seat
        if self.power == P_LOOK_ONE:  # the look before the switch
            self.look_a = a
            self.phase = PH_KING_DECIDE
        else:
            self._after_discard()

    def _apply_reporting(self, action: Action, seat: int | None, events: list[Event]) -> None:
        """:meth:`apply` with its events: those the state before the action already says,
        the action, and those it set off on the way (reported where they happen, through
        ``_log``), in the order they happened. Kept out of :meth:`apply`, whose plain calls
        then pay one ``None`` check."""
        if seat is None:
            seat = self.current_player()
        self._log = events
        try:
            self._announce(seat, action, events)
            self.apply(action, seat)
            if action & 31 == DRAW and self.phase == PH_DRAWN:  # after any reshuffle
                events.append(Drew(seat, self.held, False, 1 << seat))
        finally:
            self._log = None

    def _announce(self, seat: int, action: Action, events: list[Event]) -> None:
        """The events of ``action`` that the state before it already says (those it sets
        off -- a power, a reshuffle, the round's end -- are reported where they happen)."""
        kind = action & 31
        a = (action >> 5) & 0xFFFF
        b = action >> 21
        grids = self.grids
        if kind == SWAP:
            events.append(Discarded(seat, grids[seat][a], a))
        elif kind == DISCARD:
            events.append(Discarded(seat, self.held, -1))
        elif kind == TAKE:
            events.append(Drew(seat, self.pile[-1], True, EVERYONE))
        elif kind == PEEK:
            events.append(Peeked(seat, a, grids[a >> 8][a & 255], 1 << seat))
        elif kind == LOOK:
            events.append(Looked(seat, (a, b), (grids[a >> 8][a & 255], grids[b >> 8][b & 255]),
                                 1 << seat))
        elif kind == SWITCH:
            events.append(Switched(seat, a, b))
        elif kind == CAMBIO:
            events.append(CambioCalled(seat, False))
        elif kind in (KEEP, SKIP, PASS):
            events.append(Declined(seat, "keep" if kind == KEEP else
                                   "skip" if kind == SKIP else "pass"))

    # ------------------------------------------------------------------ turn flow
    def _next_turn(self) -> None:
        if self.turn_number >= self._f.max_turns:
            self._end(EndReason.TURN_CAP)
            return
        n = self.n
        t = (self.turn + 1) % n
        if t == self.caller:
            t = (t + 1) % n
        self.turn = t
        self.turn_number += 1
        self.turn_final = self.caller >= 0
        self.phase = PH_TURN_START
        if not self.deck and (len(self.pile) <= 1 or not self._f.reshuffle):
            self._end(EndReason.DECK_EXHAUSTED)

    def _draw(self) -> Card:
        """Top card of the deck, reshuffling the pile (all but its top) if the deck is empty."""
        deck = self.deck
        if not deck:
            pile = self.pile
            if len(pile) <= 1 or not self._f.reshuffle:
                return EMPTY
            top = pile.pop()
            _shuffle(pile, self._draw_chance())
            self.deck = deck = pile
            self.pile = [top]
            self.reshuffles += 1
            log = self._log
            if log is not None:
                log.append(Reshuffled(len(deck)))
        return deck.pop()

    def _discard(self, card: Card, seat: int, may_fire: bool) -> None:
        """An ordinary discard: opens a new snap window and maybe fires a power."""
        self.pile.append(card)
        self.window = WINDOW_ANYONE if self._f.snapping else WINDOW_CLOSED
        p = self._f.powers[card] if may_fire else P_NONE
        if p != P_NONE and self._power_has_target(p, seat):
            self.power = p
            self.phase = PH_POWER
            log = self._log
            if log is not None:
                log.append(PowerFired(seat, card, POWER_NAMES[p]))
        else:
            self._after_discard()

    def _after_discard(self) -> None:
        """The turn's discard and its power are done: end the round, poll snaps, or pass on."""
        self.power = P_NONE
        self.look_a = self.look_b = -1
        if self.turn_final:
            self.final_left -= 1
            if self.final_left <= 0:
                self._end(EndReason.CAMBIO)
                return
        if self.polled:
            self._open_poll()
        else:
            self._next_turn()

    def _switch(self, a: int, b: int) -> None:
        ga, gb = self.grids[a >> 8], self.grids[b >> 8]
        ka, kb = self.known[a >> 8], self.known[b >> 8]
        ia, ib = a & 255, b & 255
        ga[ia], gb[ib] = gb[ib], ga[ia]
        ka[ia], kb[ib] = kb[ib], ka[ia]

    def _exchange(self, seat: int, mask: int) -> None:
        """Several cards of the grid for the held one: all of one value, they are discarded
        and the held card takes the lowest slot; otherwise they are turned face up and stay,
        and the held card joins the grid or is discarded (``exchange_mismatch``)."""
        self._occ = None
        g = self.grids[seat]
        k = self.known[seat]
        slots = [i for i in range(EXCHANGE_SLOTS) if mask >> i & 1]
        values = self._f.values
        first = values[g[slots[0]]]
        held = self.held
        self.held = EMPTY
        log = self._log
        taken = all(values[g[i]] == first for i in slots)
        if log is not None:
            log.append(Exchanged(seat, tuple(slots), tuple(g[i] for i in slots), taken))
        if taken:
            top = g[slots[-1]]
            for i in slots[:-1]:
                self.pile.append(g[i])
            for i in slots[1:]:
                g[i] = EMPTY
                k[i] = 0
            g[slots[0]] = held
            k[slots[0]] = (self.public << 1) - 1 if self.held_from_pile else 1 << seat
            self._discard(top, seat, self._f.fire_replaced)
            return
        everyone = (self.public << 1) - 1
        for i in slots:
            k[i] = everyone
        if self._f.mismatch_keeps and self._has_room(seat):
            # The drawn card joins the grid face up (it has been shown with the others).
            i = self._add_to_grid(seat, held, EVERYONE)
            self.known[seat][i] = everyone
            self.window = WINDOW_CLOSED
            self._after_discard()
        else:
            if log is not None:
                log.append(Discarded(seat, held, -1))
            self._discard(held, seat, False)

    # ------------------------------------------------------------------ snapping
    def _open_poll(self) -> None:
        w = self.window
        if w == WINDOW_CLOSED or not self.pile or not self._all_slots():
            self._next_turn()
            return
        no_caller = not self._f.caller_may_snap
        if w >= 0:
            seats = [] if (no_caller and w == self.caller) else [w]
        else:
            n = self.n
            start = self._draw_chance() % n
            seats = [(start + i) % n for i in range(n)]
            if no_caller and self.caller >= 0:
                seats.remove(self.caller)
        if not seats:
            self._next_turn()
            return
        self.poll = seats
        self.poll_i = 0
        self.phase = PH_POLL

    def _poll_next(self) -> None:
        self.poll_i += 1
        if self.poll_i >= len(self.poll):
            self.poll = []
            self.poll_i = 0
            self._next_turn()

    def _snap(self, seat: int, a: int) -> None:
        p, i = a >> 8, a & 255
        g = self.grids[p]
        card = g[i]
        if card >> 2 == self.pile[-1] >> 2:
            self._occ = None
            self.pile.append(card)
            g[i] = EMPTY
            self.known[p][i] = 0
            self.last_snap = (seat, a, card, True)
            log = self._log
            if log is not None:
                log.append(Snapped(seat, a, card, True))
            if self._f.one_snap:
                self.window = WINDOW_CLOSED
            elif self._f.snapper_only:
                self.window = seat
            if p != seat and any(c >= 0 for c in self.grids[seat]):
                if self.phase != PH_POLL:
                    self.resume = self.phase
                self.give_addr = a
                self.give_seat = seat
                self.phase = PH_GIVE
                return
            self._snap_succeeded(seat, p)
            return
        # A wrong snap: the card was shown to everyone and goes back; a penalty is drawn.
        self.known[p][i] = (self.public << 1) - 1
        self.last_snap = (seat, a, card, False)
        log = self._log
        if log is not None:
            log.append(Snapped(seat, a, card, False))
        for _ in range(self._f.penalty):
            if not self._has_room(seat):
                break
            penalty = self._draw()
            if penalty < 0:
                self._end(EndReason.DECK_EXHAUSTED)
                return
            self._add_to_grid(seat, penalty)
        if self.polled:
            self._poll_next()

    def _has_room(self, seat: int) -> bool:
        cap = self._f.max_grid
        g = self.grids[seat]
        return cap < 0 or len(g) < cap or EMPTY in g

    def _add_to_grid(self, seat: int, card: Card, audience: int = 0) -> int:
        """A penalty card: into a new slot, or into an empty one once ``max_grid`` is reached."""
        self._occ = None
        g = self.grids[seat]
        cap = self._f.max_grid
        if 0 <= cap <= len(g):
            i = g.index(EMPTY)
            g[i] = card
            self.known[seat][i] = 0
        else:
            i = len(g)
            g.append(card)
            self.known[seat].append(0)
        log = self._log
        if log is not None:
            log.append(Penalty(seat, i, card, audience))
        return i

    def _give(self, seat: int, slot: int) -> None:
        self._occ = None
        a = self.give_addr
        p, i = a >> 8, a & 255
        log = self._log
        if log is not None:
            known = self.known[seat][slot]
            log.append(Gave(seat, slot, a, self.grids[seat][slot],
                                  EVERYONE if known & self.public else known))
        self.grids[p][i] = self.grids[seat][slot]
        self.known[p][i] = self.known[seat][slot]
        self.grids[seat][slot] = EMPTY
        self.known[seat][slot] = 0
        self.give_addr = self.give_seat = -1
        if not self.polled:
            self.phase = self.resume
        self._snap_succeeded(seat, p)

    def _snap_succeeded(self, snapper: int, owner: int) -> None:
        if self._f.auto_call and self.caller < 0:
            for s in (snapper, owner):
                if all(c < 0 for c in self.grids[s]):
                    self._occ = None
                    self.caller = s
                    self.final_left = self.n - 1
                    log = self._log
                    if log is not None:
                        log.append(CambioCalled(s, True))
                    # A turn not yet begun (nothing drawn) is that player's final turn.
                    if not self.polled and self.phase == PH_TURN_START and self.turn != s:
                        self.turn_final = True
                    break
        if self.polled:
            self._open_poll()

    # ------------------------------------------------------------------ the end
    def _end(self, reason: EndReason) -> None:
        self.phase = PH_ROUND_OVER
        self.end_reason = reason
        everyone = (self.public << 1) - 1
        for k in self.known:
            for i in range(len(k)):
                k[i] = everyone
        self.poll = []
        log = self._log
        if log is not None:
            log.append(RoundEnded(reason.name.lower(),
                                        tuple(tuple(g) for g in self.grids),
                                        tuple(self.scores()), tuple(self.winners())))

    def scores(self) -> list[int]:
        """Each seat's score for the round: the sum of the values of the cards in its grid,
        changed by the kamikaze hand and the caller's rules where those are on."""
        v = self._f.values
        totals = [sum(v[c] for c in g if c >= 0) for g in self.grids]
        if self._f.plain_scores:
            return totals
        return _scored(self.rules, totals, self.grids, self.caller, v)

    def card_totals(self) -> list[int]:
        """Each seat's sum of card values, before any scoring rule."""
        v = self._f.values
        return [sum(v[c] for c in g if c >= 0) for g in self.grids]

    def card_counts(self) -> list[int]:
        return [sum(1 for c in g if c >= 0) for g in self.grids]

    def winners(self) -> list[int]:
        """Seats that win the round (only meaningful once it is over), by the preset's tie rule."""
        scores = self.scores()
        low = min(scores)
        tied = [s for s in range(self.n) if scores[s] == low]
        if self.rules.tie_rule == TieRule.MOST_CARDS_THEN_NOT_CALLER and len(tied) > 1:
            counts = self.card_counts()
            most = max(counts[s] for s in tied)
            tied = [s for s in tied if counts[s] == most]
            if len(tied) > 1 and self.caller in tied:
                tied.remove(self.caller)
        elif self.rules.tie_rule == TieRule.CALLER_WINS_TIES and self.caller in tied:
            tied = [self.caller]
        elif self.rules.tie_rule == TieRule.NOT_CALLER and len(tied) > 1 \
                and self.caller in tied:
            tied.remove(self.caller)
        return tied

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for each loser, 0 if everyone won (OpenSpiel's convention)."""
        win = set(self.winners()) if self.is_over() else set()
        if len(win) == self.n:
            return [0.0] * self.n
        return [1.0 if s in win else -1.0 for s in range(self.n)]

    # ================================================================== copies
    def clone(self) -> State:
        """An independent copy (about 75x faster than ``copy.deepcopy``)."""
        c = State(self.rules, self.n, _blank=True)
        c.rules = self.rules
        c.n = self.n
        c._f = self._f
        c.seed = self.seed
        c._chance = self._chance
        c.polled = self.polled
        c.public = self.public
        c.grids = [g[:] for g in self.grids]
        c.known = [k[:] for k in self.known]
        c.deck = self.deck[:]
        c.pile = self.pile[:]
        c.dealer = self.dealer
        c.turn = self.turn
        c.turn_number = self.turn_number
        c.turn_final = self.turn_final
        c.held = self.held
        c.held_from_pile = self.held_from_pile
        c.power = self.power
        c.look_a = self.look_a
        c.look_b = self.look_b
        c.caller = self.caller
        c.final_left = self.final_left
        c.window = self.window
        c.give_addr = self.give_addr
        c.give_seat = self.give_seat
        c.resume = self.resume
        c.poll = self.poll[:]
        c._occ = None
        c.poll_i = self.poll_i
        c._hist = self._hist  # shared, append-only: see :attr:`history`
        c._hlen = self._hlen
        c.end_reason = self.end_reason
        c.last_snap = self.last_snap
        c.reshuffles = self.reshuffles
        c.phase = self.phase
        return c

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and ``copy.deepcopy`` by fields, the same in both builds: the compiled
        class has no default reduction (it would call ``State()`` without its rules). The
        history travels as this state's own prefix; the caches are rebuilt."""
        return _restore, (*(getattr(self, name) for name in _STORED), self.history)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every ``(seat, action)`` applied this round, oldest first (a fresh list).

        Clones share one append-only list and each knows its own length, so a clone costs
        the same at action 10 and at action 10,000; a state that appends after another
        branch already has copies its prefix first. The states of one round must not be
        advanced from two threads at once.
        """
        return self._hist[:self._hlen]

    def history_length(self) -> int:
        """``len(self.history)`` without the copy."""
        return self._hlen

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def all_cards(self) -> list[Card]:
        """Every card of the round wherever it is: grids, held, pile, deck (for conservation)."""
        out = [c for g in self.grids for c in g if c >= 0]
        if self.held >= 0:
            out.append(self.held)
        return out + self.pile + self.deck

    # ================================================================== explaining
    def _why_illegal(self, seat: int, action: Action) -> str:
        """A reason built only from public facts (never from a face-down card)."""
        kind = kind_of(action)
        ph = self.phase
        if ph == PH_ROUND_OVER:
            return "the round is over"
        if kind == SNAP:
            return self._why_no_snap(seat, action)
        actor = self.current_player()
        if seat != actor:
            return f"it is seat {actor}'s move ({Phase(ph).name.lower()})"
        if kind == CAMBIO:
            if self.caller >= 0:
                return "Cambio has already been called this round"
            if ph == PH_TURN_START:
                return f"Cambio may be called from turn {self.rules.earliest_cambio_turn}"
            return "Cambio can only be called at the start of your turn, before drawing"
        if kind == TAKE and not self.rules.draw_from_discard:
            return "these rules do not allow drawing from the discard pile"
        if kind == DISCARD and ph == PH_DRAWN and self.held_from_pile:
            return "a card taken from the discard pile must be swapped into your grid"
        return f"{_safe_text(action)!r} is not one of the moves allowed now " \
               f"({Phase(ph).name.lower()})"

    def _why_no_snap(self, seat: int, action: Action) -> str:
        ph = self.phase
        if self.polled and ph != PH_POLL:
            return "snaps are only offered in a snap poll (this table polls snaps)"
        if ph > PH_DRAWN and ph != PH_POLL:
            return "no snapping while a power or a give is being resolved"
        if ph == PH_POLL and self.poll[self.poll_i] != seat:
            return f"the snap poll is asking seat {self.poll[self.poll_i]}"
        if not self.pile:
            return "the discard pile is empty"
        if self.window == WINDOW_CLOSED:
            return "the snap window is closed until the next discard"
        if self.window >= 0 and self.window != seat:
            return f"only seat {self.window}, who snapped last, may snap this card"
        if seat == self.caller and not self._f.caller_may_snap:
            return "the caller may not snap"
        return f"slot {addr_text(arg_a(action))} holds no card that may be snapped"

    def __repr__(self) -> str:
        grids = " | ".join(" ".join(card_code(c) if c >= 0 else "--" for c in g)
                           for g in self.grids)
        top = card_code(self.pile[-1]) if self.pile else "--"
        return (f"<cards.State {self.rules.preset_name} turn={self.turn_number} "
                f"seat={self.turn} phase={Phase(self.phase).name} top={top} [{grids}]>")


_RANKS: tuple[int, ...] = tuple(c >> 2 for c in range(NUM_CARD_CODES))


class _Fast:
    """A rule set flattened into plain fields and per-card tables for the hot loop.

    ``Rules`` is a frozen dataclass meant for people and files; reading its fields in the
    inner loop is slow once the engine is compiled, so each state shares one of these.
    """

    def __init__(self, rules: Rules) -> None:
        t = tables(rules)
        self.values: tuple[int, ...] = t.values
        self.powers: tuple[int, ...] = tuple(_POWER_CODE[p] for p in t.powers)
        self.draw_from_discard: bool = rules.draw_from_discard
        self.fire_replaced: bool = rules.power_trigger == PowerTrigger.END_OF_TURN_DISCARD
        self.optional: bool = rules.powers_optional
        self.snapper_only: bool = rules.resnap == Resnap.SNAPPER_ONLY
        self.one_snap: bool = rules.one_snap_per_discard
        self.penalty: int = rules.snap_penalty
        self.max_grid: int = rules.max_grid if rules.max_grid is not None else -1
        self.lock_caller: bool = rules.lock_caller
        self.caller_may_snap: bool = rules.caller_may_snap
        self.auto_call: bool = rules.empty_grid_calls_cambio
        self.earliest: int = rules.earliest_cambio_turn
        self.max_turns: int = rules.max_turns
        self.snapping: bool = rules.snapping
        self.snap_others: bool = rules.snap_others
        self.reshuffle: bool = rules.reshuffle_pile
        self.multi_exchange: bool = rules.multi_exchange
        self.mismatch_keeps: bool = rules.exchange_mismatch == ExchangeMismatch.KEEP_ALL
        self.plain_scores: bool = (rules.kamikaze == Kamikaze.OFF
                                   and rules.round_zero == RoundZero.NOBODY
                                   and rules.failed_call_penalty == 0)


_FAST: dict[Rules, _Fast] = {}


def _restore(*values: object) -> State:
    """The state :meth:`State.__reduce__` describes (``_STORED``'s fields, then history)."""
    s = State(cast(Rules, values[_STORED.index("rules")]), 0, _blank=True)
    for name, value in zip(_STORED, values, strict=False):
        setattr(s, name, value)
    s._hist = list(cast(list[tuple[int, Action]], values[-1]))
    s._hlen = len(s._hist)
    s._f = _fast_rules(s.rules)
    return s


def _fast_rules(rules: Rules) -> _Fast:
    """The flattened rule set, computed once per distinct rule set."""
    hit = _FAST.get(rules)
    if hit is None:
        if len(_FAST) > 1024:
            _FAST.clear()
        hit = _FAST[rules] = _Fast(rules)
    return hit


def _shuffle(cards: list[Card], seed: int) -> None:
    """Fisher-Yates driven by ``Random(seed)`` (its C-level ``random()``, so it is cheap)."""
    rand = Random(seed).random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@lru_cache(maxsize=64)
def _full_deck(rules: Rules, players: int) -> tuple[Card, ...]:
    return tuple(rules.deck_cards(players))


_KAMIKAZE_VALUES: Final = (12, 12, 13, 13)


def _scored(rules: Rules, totals: list[int], grids: list[list[Card]], caller: int,
            values: tuple[int, ...]) -> list[int]:
    """The round's scores from the card totals under the kamikaze and caller rules.

    A kamikaze hand scores ``kamikaze_holder`` for its holder and ``kamikaze_others`` for
    everyone else, and then no other rule applies. Otherwise the caller, when not the
    lowest (nor tied for it), adds ``failed_call_penalty``; ``round_zero`` sets the lowest
    (or a lowest caller) to 0.
    """
    n = len(totals)
    if rules.kamikaze == Kamikaze.TWELVES_THIRTEENS:
        holders = [s for s in range(n)
                   if tuple(sorted(values[c] for c in grids[s] if c >= 0)) == _KAMIKAZE_VALUES]
        if holders:
            return [rules.kamikaze_holder if s in holders else rules.kamikaze_others
                    for s in range(n)]
    low = min(totals)
    out = totals[:]
    zero = rules.round_zero
    for s in range(n):
        if totals[s] == low:
            if zero == RoundZero.LOWEST or (zero == RoundZero.CALLER_IF_LOWEST and s == caller):
                out[s] = 0
        elif s == caller:
            out[s] += rules.failed_call_penalty
    return out


def _exchanges(grid: list[Card]) -> list[Action]:
    """Every exchange of 2 to ``EXCHANGE_MAX`` occupied slots (below ``EXCHANGE_SLOTS``),
    smaller sets first: offered whatever the cards are, as every legal action is."""
    slots = [i for i in range(min(len(grid), EXCHANGE_SLOTS)) if grid[i] >= 0]
    out: list[Action] = []
    sets: list[list[int]] = [[i] for i in slots]
    for _ in range(1, EXCHANGE_MAX):
        sets = [c + [i] for c in sets for i in slots if i > c[-1]]
        for c in sets:
            mask = 0
            for i in c:
                mask |= 1 << i
            out.append(EXCHANGE | mask << 5)
    return out


def _pairs(slots: list[int], kind: int) -> list[Action]:
    out: list[Action] = []
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            out.append(kind | a << 5 | b << 21)
    return out


def _remove_multiset(full: list[Card], part: list[Card]) -> list[Card]:
    rest = full[:]
    for c in part:
        try:
            rest.remove(c)
        except ValueError:
            raise CardError(
                f"the deck lists {card_code(c)} more often than these rules have it") from None
    return rest


def _safe_text(action: object) -> str:
    if isinstance(action, int) and not isinstance(action, bool) and action >= 0:
        try:
            return action_text(action)
        except ValueError:
            pass
    return repr(action)[:40]
